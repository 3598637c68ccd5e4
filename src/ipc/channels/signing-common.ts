/** Schemas the signing channel groups share: ids, file text, passphrases, downloads and the refusal answer. */
import { z } from 'zod';

export const FingerprintSchema = z.string().regex(/^1220[0-9a-f]{64}$/, 'Not a Canton key fingerprint (1220 + 64 hex digits)');
/** Files read by the renderer (`<input type=file>`): backups, policy files, signing requests, signature responses. */
export const FileTextSchema = z.string().min(1, 'The file is empty').max(5_000_000, 'The file is larger than 5 MB');
export const PassphraseSchema = z.string().min(1, 'Enter the passphrase').max(1024);

export const RefusalSchema = z.object({
  status: z.literal('refused'),
  /** Machine-readable reason (HASH_MISMATCH, POLICY_AMOUNT, WRONG_KEY, REQUEST_EXPIRED, …). */
  reason: z.string(),
  message: z.string(),
  /** Audit entry that records the refusal, when one was written. */
  auditSeq: z.number().int().nullable(),
});
export type Refusal = z.infer<typeof RefusalSchema>;
