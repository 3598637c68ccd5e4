/**
 * What an audit entry is and how entries chain: hash(n) = SHA-256(bytes(hash(n-1)) ‖ canonical JSON of entry n),
 * hash(0) = 32 zero bytes. Shared by the log (audit-log.ts) and its verification (audit-verify.ts).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { z } from 'zod';
import { canonicalJson } from './canonical-json.js';
import { fromHex, toHex, utf8 } from './bytes.js';

export const GENESIS_HASH = '00'.repeat(32);

/**
 * signed / refused: signing decisions; unlocked / locked: a key (or the encrypted key file) unlocked or locked;
 * policy-changed: a key's signing policy got a new version (edited, or adopted from a backup or policy file);
 * admin: an administrative action on the participant done through the console (done, or failed with its reason).
 */
export const AuditDecisionSchema = z.enum(['signed', 'refused', 'unlocked', 'locked', 'policy-changed', 'admin']);
export const AuditInputSchema = z.object({
  decision: AuditDecisionSchema,
  /** What was (or would have been) signed. */
  subject: z.enum(['prepared-transaction', 'topology', 'other', 'admin']),
  /** How the request arrived: directly in the console, or through an offline signing-request file. */
  channel: z.enum(['online', 'offline']),
  /** Refusal reason code (SigningRefusalReason) when refused, else null. */
  reason: z.string().nullable(),
  message: z.string().nullable(),
  fingerprint: z.string().nullable(),
  party: z.string().nullable(),
  /** The hash that was (or would have been) signed, base64. */
  hash: z.string().nullable(),
  /** One-line human summary of what the signature authorises (admin: what was done). */
  summary: z.string(),
  /** Admin entries: the action (`party-allocation`, `rights-grant`, `dar-upload`, `pruning`, …). */
  action: z.string().optional(),
  /** Admin entries: who acted — the connection profile and the user its token names. */
  actor: z.string().optional(),
});
export type AuditInput = z.infer<typeof AuditInputSchema>;
export const AuditEntrySchema = AuditInputSchema.extend({ seq: z.number().int().positive(), at: z.string() });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export function entryHash(prevHashHex: string, entry: AuditEntry): string {
  const body = utf8(canonicalJson(entry));
  const prev = fromHex(prevHashHex, 'previous hash');
  const buf = new Uint8Array(prev.length + body.length);
  buf.set(prev, 0);
  buf.set(body, prev.length);
  return toHex(sha256(buf));
}
