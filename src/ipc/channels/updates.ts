/**
 * Update stream channels: live tail (subscription with pause/resume), historical ranges, lookups by
 * offset or update id, the party list for the filter builder, and NDJSON export (a subscription:
 * progress events until done; unsubscribing cancels it and removes the partial file).
 */
import { z } from 'zod';
import { IpcErrorSchema } from '../errors.js';
import { EmptyRequest } from './shared.js';

/** Offsets are positive int64; JavaScript numbers are exact up to 2^53, far above any real ledger. */
const Offset = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

const PartyId = z.string().trim().min(1).max(512);

/**
 * Template or interface identifier: `#package-name:Module.Path:Entity` (package-name reference) or
 * `package-id:Module.Path:Entity`. A bare `package-name:Module:Entity` is accepted and normalised
 * to the `#` form unless its first segment looks like a package id (64 hex digits).
 */
export const IDENTIFIER_PATTERN = /^#?[A-Za-z0-9._-]+:[A-Za-z0-9_.]+:[A-Za-z0-9_.]+$/;
export function normalizeIdentifier(raw: string): string {
  const id = raw.trim();
  if (id.startsWith('#')) return id;
  const pkg = id.split(':')[0] ?? '';
  return /^[0-9a-f]{64}$/i.test(pkg) ? id : `#${id}`;
}
const Identifier = z
  .string()
  .trim()
  .max(512)
  .regex(IDENTIFIER_PATTERN, 'expected <package-name or package-id>:<Module>:<Entity>, e.g. #my-package:Main:Iou')
  .transform(normalizeIdentifier);

export const TransactionShapeSchema = z.enum(['ACS_DELTA', 'LEDGER_EFFECTS']);
export type TransactionShape = z.infer<typeof TransactionShapeSchema>;

/** What the operator asked to see; turned into a Ledger API `UpdateFormat` on the main side. */
export const UpdateFilterSchema = z
  .object({
    /** Empty = any party hosted on the participant (`filtersForAnyParty`). */
    parties: z.array(PartyId).max(200).default([]),
    /** Empty templates and interfaces = wildcard. */
    templates: z.array(Identifier).max(100).default([]),
    interfaces: z.array(Identifier).max(100).default([]),
    shape: TransactionShapeSchema.default('ACS_DELTA'),
    includeReassignments: z.boolean().default(true),
    includeTopology: z.boolean().default(false),
    includeCreatedEventBlob: z.boolean().default(false),
    includeInterfaceViews: z.boolean().default(true),
    verbose: z.boolean().default(true),
  })
  .strict();
export type UpdateFilter = z.output<typeof UpdateFilterSchema>;
export type UpdateFilterInput = z.input<typeof UpdateFilterSchema>;

export const UpdateKindSchema = z.enum(['transaction', 'reassignment', 'topology', 'checkpoint']);
export type UpdateKind = z.infer<typeof UpdateKindSchema>;

/** One row of the update list: enough to scan, never the payloads (the detail fetches those). */
export const UpdateSummarySchema = z.object({
  offset: Offset,
  kind: UpdateKindSchema,
  updateId: z.string().nullable(),
  recordTime: z.string().nullable(),
  effectiveAt: z.string().nullable(),
  commandId: z.string().nullable(),
  workflowId: z.string().nullable(),
  synchronizerId: z.string().nullable(),
  eventCount: z.number().int().nonnegative(),
  counts: z.object({
    created: z.number().int().nonnegative(),
    archived: z.number().int().nonnegative(),
    exercised: z.number().int().nonnegative(),
    assigned: z.number().int().nonnegative(),
    unassigned: z.number().int().nonnegative(),
    topology: z.number().int().nonnegative(),
  }),
  /** Qualified names (`Module:Entity`) of the templates involved, first few. */
  templates: z.array(z.string()).max(8),
  /** Witnesses / stakeholders / topology parties, first few. */
  parties: z.array(z.string()).max(12),
  partyCount: z.number().int().nonnegative(),
});
export type UpdateSummary = z.infer<typeof UpdateSummarySchema>;

export const EventKindSchema = z.enum(['created', 'archived', 'exercised', 'assigned', 'unassigned', 'topology']);
export type EventKind = z.infer<typeof EventKindSchema>;

/** One event of an update, in node-id order, with its depth in the ledger-effects tree. */
export const EventNodeSchema = z.object({
  key: z.string(),
  nodeId: z.number().int().nullable(),
  lastDescendantNodeId: z.number().int().nullable(),
  depth: z.number().int().nonnegative(),
  kind: EventKindSchema,
  contractId: z.string().nullable(),
  templateId: z.string().nullable(),
  choice: z.string().nullable(),
  consuming: z.boolean().nullable(),
  parties: z.array(z.string()),
  /** The event as the participant sent it, pretty-printed. */
  json: z.string(),
});
export type EventNode = z.infer<typeof EventNodeSchema>;

export const UpdateDetailSchema = z.object({
  summary: UpdateSummarySchema,
  events: z.array(EventNodeSchema),
  /** The whole update as the participant sent it, pretty-printed. */
  json: z.string(),
});
export type UpdateDetail = z.infer<typeof UpdateDetailSchema>;

export const UpdateRangeRequestSchema = z
  .object({
    filter: UpdateFilterSchema,
    /** Lower bound (exclusive); 0 = ledger begin. */
    beginExclusive: Offset.default(0),
    /** Upper bound (inclusive); null = current ledger end. */
    endInclusive: Offset.nullable().default(null),
    descending: z.boolean().default(true),
    limit: z.number().int().min(1).max(1000).default(200),
  })
  .strict()
  .refine((r) => r.endInclusive === null || r.endInclusive >= r.beginExclusive, {
    message: '"to" must not be below "from"',
    path: ['endInclusive'],
  });

export const UpdateRangeResponseSchema = z.object({
  items: z.array(UpdateSummarySchema),
  ledgerEnd: Offset,
  /** Bounds to request the next page with, or null when the range is exhausted. */
  next: z.object({ beginExclusive: Offset, endInclusive: Offset }).nullable(),
});
export type UpdateRangeResponse = z.infer<typeof UpdateRangeResponseSchema>;

export const UpdateLookupSchema = z
  .object({
    filter: UpdateFilterSchema,
    offset: Offset.min(1).optional(),
    updateId: z.string().trim().min(1).max(512).optional(),
  })
  .strict()
  .refine((r) => (r.offset === undefined) !== (r.updateId === undefined), {
    message: 'give either an offset or an update id',
    path: ['offset'],
  });

export const PartyOptionSchema = z.object({ party: z.string(), isLocal: z.boolean() });
export type PartyOption = z.infer<typeof PartyOptionSchema>;

/** Export file name: chosen by the operator, always inside the console's `exports/` folder. */
export const ExportFileNameSchema = z
  .string()
  .trim()
  .min(1, 'file name is required')
  .max(120)
  .refine((n) => !/[/\\]/.test(n), 'must be a file name, not a path (no / or \\)')
  .refine((n) => !n.startsWith('.'), 'must not start with a dot')
  .refine((n) => /^[A-Za-z0-9._ -]+$/.test(n), 'letters, digits, space, dot, _ and - only');

export const StreamIdSchema = z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'stream id: 8–64 letters, digits or -');

export const StreamStateSchema = z.enum(['connecting', 'live', 'paused', 'closed']);
export type StreamState = z.infer<typeof StreamStateSchema>;

export const updatesChannels = {
  'updates.parties': {
    request: EmptyRequest,
    response: z.object({ parties: z.array(PartyOptionSchema) }),
  },
  'updates.range': { request: UpdateRangeRequestSchema, response: UpdateRangeResponseSchema },
  'updates.get': { request: UpdateLookupSchema, response: UpdateDetailSchema },
  /** Pauses (the participant's socket stops being read: TCP backpressure) or resumes a live tail. */
  'updates.stream.control': {
    request: z.object({ streamId: StreamIdSchema, action: z.enum(['pause', 'resume']) }).strict(),
    response: z.object({ state: StreamStateSchema }),
  },
} as const;

export const updatesSubscriptions = {
  /** Live tail over the participant's WebSocket `/v2/updates`; items arrive in batches. */
  'updates.stream': {
    params: z
      .object({
        /** Chosen by the renderer so it can pause/resume this stream through `updates.stream.control`. */
        streamId: StreamIdSchema,
        filter: UpdateFilterSchema,
        /** Start after this offset; null = the last `backlog` offsets before the current ledger end. */
        beginExclusive: Offset.nullable().default(null),
        backlog: z.number().int().min(0).max(1_000_000).default(500),
      })
      .strict(),
    event: z.discriminatedUnion('type', [
      z.object({
        type: z.literal('batch'),
        items: z.array(UpdateSummarySchema),
        /** Highest offset the stream has reached (checkpoints included). */
        offset: Offset,
      }),
      z.object({ type: z.literal('state'), state: StreamStateSchema, beginExclusive: Offset.optional() }),
      z.object({ type: z.literal('error'), error: IpcErrorSchema }),
    ]),
  },
} as const;
