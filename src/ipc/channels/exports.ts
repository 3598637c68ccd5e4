/**
 * Exports: every file the console hands to the operator (update ranges, the audit log, key backups, policy files,
 * offline signing requests and responses) goes one way. The renderer names what to export; the main process makes
 * the file and delivers it itself — in Electron through a save dialog, in the browser host as a download streamed
 * over HTTP from a one-time URL — so large files never pass through the renderer and sealed files never reach it.
 */
import { z } from 'zod';
import { IpcErrorSchema } from '../errors.js';
import { FileTextSchema, FingerprintSchema, PassphraseSchema } from './signing-common.js';
import { ExportFileNameSchema, UpdateFilterSchema } from './updates.js';

const Offset = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const Fingerprints = z.array(FingerprintSchema).min(1, 'Select at least one key').max(100);

export const ExportRequestSchema = z.discriminatedUnion('kind', [
  /** Updates of an offset range as NDJSON, streamed from the participant. */
  z
    .object({
      kind: z.literal('updates'),
      filter: UpdateFilterSchema,
      fileName: ExportFileNameSchema,
      beginExclusive: Offset.default(0),
      /** null = the ledger end when the export starts. */
      endInclusive: Offset.nullable().default(null),
    })
    .strict(),
  /** The signed audit log (NDJSON, head signed with the console's audit key). */
  z.object({ kind: z.literal('audit') }).strict(),
  /** The chosen keys and their policies, sealed with the passphrase (never plaintext key material). */
  z.object({ kind: z.literal('keys.backup'), fingerprints: Fingerprints, passphrase: PassphraseSchema }).strict(),
  /** The chosen keys' signing policies, sealed with the passphrase. */
  z.object({ kind: z.literal('policy'), fingerprints: Fingerprints, passphrase: PassphraseSchema }).strict(),
  /** A file the console made for the operator already (an offline request or a signed response): saved as it is. */
  z.object({ kind: z.literal('file'), fileName: ExportFileNameSchema, text: FileTextSchema }).strict(),
]);
export type ExportRequest = z.input<typeof ExportRequestSchema>;

/** Where a finished export went. */
export const ExportLocationSchema = z.discriminatedUnion('kind', [
  /** Handed to the browser as a download (it lands in the browser's downloads folder). */
  z.object({ kind: z.literal('download') }),
  /** Written to the path the operator chose in the save dialog. */
  z.object({ kind: z.literal('file'), path: z.string() }),
]);
export type ExportLocation = z.infer<typeof ExportLocationSchema>;

export const ExportEventSchema = z.discriminatedUnion('type', [
  /** Browser host: the file is ready at this same-origin, one-time URL; the renderer starts the download. */
  z.object({ type: z.literal('ready'), fileName: z.string(), url: z.string().regex(/^\/exports\/[0-9a-f]{32}$/) }),
  z.object({
    type: z.literal('progress'),
    bytes: z.number().int().nonnegative(),
    lines: z.number().int().nonnegative().optional(),
    /** 0..1 when the size is known ahead (update ranges: by offset). */
    fraction: z.number().min(0).max(1).optional(),
  }),
  z.object({
    type: z.literal('done'),
    fileName: z.string(),
    bytes: z.number().int().nonnegative(),
    lines: z.number().int().nonnegative().optional(),
    location: ExportLocationSchema,
  }),
  /** The operator closed the save dialog without choosing a file. */
  z.object({ type: z.literal('cancelled') }),
  z.object({ type: z.literal('error'), error: IpcErrorSchema }),
]);
export type ExportEvent = z.infer<typeof ExportEventSchema>;

export const exportsSubscriptions = {
  'exports.run': { params: ExportRequestSchema, event: ExportEventSchema },
} as const;
