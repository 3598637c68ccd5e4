/**
 * Encrypted backup and restore of signing keys: a versioned JSON file, the key list sealed with a passphrase
 * (scrypt + XChaCha20-Poly1305; the header, including creation time, is authenticated). Version 2 carries each key's
 * signing policy with its version inside the sealed part, so the policy is integrity-protected together with the
 * key material and travels with it; version 1 files (no policy) are still read. Import is zod-validated, fully
 * checked before anything is written, idempotent for keys already present, and rolled back on failure; a policy
 * in the backup replaces the console's only when its version is newer (PolicyStore.adopt).
 */
import * as ed from '@noble/ed25519';
import { z } from 'zod';
import { ConsoleError } from '../../ipc/errors.js';
import { fromBase64, toBase64, toHex, utf8, wipe } from './bytes.js';
import { SigningRefusal } from './errors.js';
import { cantonFingerprint, FINGERPRINT_PATTERN } from './fingerprint.js';
import { PartyIdSchema, KeyLabelSchema, type KeyBackend, type KeyMetadata, type KeyStore } from './key-store.js';
import { openWithPassphrase, SealedSchema, sealWithPassphrase } from './passphrase-envelope.js';
import { SigningPolicySchema } from './policy.js';
import type { AdoptOutcome, PolicyStore } from './policy-store.js';

export const KEY_BACKUP_FORMAT = 'canton-console/key-backup';
/** The version this console writes; it reads 1 (keys only) and 2 (keys with their policies). */
export const KEY_BACKUP_VERSION = 2;

const HeaderSchema = z.object({ format: z.literal(KEY_BACKUP_FORMAT), version: z.number().int() });
const BackupFileSchema = SealedSchema.extend({
  format: z.literal(KEY_BACKUP_FORMAT),
  version: z.union([z.literal(1), z.literal(2)]),
  createdAt: z.iso.datetime(),
});
/** A key's policy as carried by a backup or a policy file. */
export const CarriedPolicySchema = z.object({
  policy: SigningPolicySchema,
  version: z.number().int().nonnegative(),
  updatedAt: z.string().nullable(),
});
export type CarriedPolicy = z.infer<typeof CarriedPolicySchema>;
const BackupKeySchema = z.object({
  fingerprint: z.string().regex(FINGERPRINT_PATTERN),
  label: KeyLabelSchema,
  publicKeyHex: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.string(),
  parties: z.array(PartyIdSchema),
  seed: z.string(),
  /** Version 2: the key's policy (null: the key had the default policy). Absent in version 1. */
  policy: CarriedPolicySchema.nullable().optional(),
});
const BackupPlaintextSchema = z.object({ keys: z.array(BackupKeySchema).min(1) });

const context = (version: number, createdAt: string): string => `${KEY_BACKUP_FORMAT}/v${version}/${createdAt}`;

export interface BackupKeyInfo {
  fingerprint: string;
  label: string;
  publicKeyHex: string;
  createdAt: string;
  parties: string[];
  /** The policy the backup carries; null when the key had none set, or the file is version 1 (`fileVersion`). */
  policy: CarriedPolicy | null;
  fileVersion: number;
}
export interface RestoreReport {
  restored: Array<{
    fingerprint: string;
    label: string;
    status: 'imported' | 'already-present';
    /** What became of the backup's policy (null: the backup carries none). */
    policy: AdoptOutcome | null;
  }>;
}

/** Encrypts the selected keys, each with its policy, into backup file text (JSON). Never contains plaintext key bytes. */
export async function exportKeyBackup(
  keys: KeyStore,
  fingerprints: string[],
  passphrase: string,
  policies: PolicyStore | null = null,
): Promise<string> {
  const unique = [...new Set(fingerprints)];
  if (unique.length === 0) throw new ConsoleError('BAD_REQUEST', 'Select at least one key to back up');
  const entries = await keys.exportSeeds(unique);
  const plain = utf8(
    JSON.stringify({
      keys: entries.map(({ key, seed }) => ({
        fingerprint: key.fingerprint,
        label: key.label,
        publicKeyHex: key.publicKeyHex,
        createdAt: key.createdAt,
        parties: key.parties,
        seed: toBase64(seed),
        policy: carried(policies, key.fingerprint),
      })),
    }),
  );
  for (const e of entries) wipe(e.seed);
  try {
    const createdAt = new Date().toISOString();
    const sealed = await sealWithPassphrase(plain, passphrase, context(KEY_BACKUP_VERSION, createdAt));
    return JSON.stringify({ format: KEY_BACKUP_FORMAT, version: KEY_BACKUP_VERSION, createdAt, ...sealed }, null, 2) + '\n';
  } finally {
    wipe(plain);
  }
}

function carried(policies: PolicyStore | null, fingerprint: string): CarriedPolicy | null {
  if (!policies) return null;
  const r = policies.record(fingerprint);
  return r.version === 0 ? null : { policy: r.policy, version: r.version, updatedAt: r.updatedAt };
}

/** Decrypts and checks a backup without importing it: the keys it holds (metadata and policies only). */
export async function previewKeyBackup(fileText: string, passphrase: string): Promise<BackupKeyInfo[]> {
  const decoded = await decryptBackup(fileText, passphrase);
  const info = decoded.map(({ seed, ...meta }) => meta);
  for (const d of decoded) wipe(d.seed);
  return info;
}

/**
 * Restores keys from backup text. Wrong passphrase → WRONG_PASSPHRASE, altered → FILE_ALTERED,
 * unknown version → UNKNOWN_FILE_VERSION; in every error case nothing is changed. Keys already present
 * are reported as such and left untouched (idempotent); with `policies`, each key's policy from the backup is
 * adopted when it is newer than the console's (an older backup's looser policy never replaces a newer one).
 */
export async function restoreKeyBackup(
  keys: KeyStore,
  fileText: string,
  passphrase: string,
  opts: { backend?: KeyBackend; only?: string[]; policies?: PolicyStore } = {},
): Promise<RestoreReport> {
  const decoded = await decryptBackup(fileText, passphrase);
  const { only } = opts;
  const selected = only ? decoded.filter((d) => only.includes(d.fingerprint)) : decoded;
  const imported: KeyMetadata[] = [];
  const results: Array<{ key: KeyMetadata; status: 'imported' | 'already-present'; policy: CarriedPolicy | null }> = [];
  try {
    for (const d of selected) {
      const r = await keys.importSeed(d.seed, { label: d.label, createdAt: d.createdAt, parties: d.parties }, opts.backend);
      if (r.status === 'imported') imported.push(r.key);
      results.push({ key: r.key, status: r.status, policy: d.policy });
    }
  } catch (err) {
    for (const k of imported) await keys.delete(k.fingerprint).catch(() => undefined);
    throw err;
  } finally {
    for (const d of decoded) wipe(d.seed);
  }
  // every key is in place: now the policies that came with them
  return {
    restored: results.map(({ key, status, policy }) => ({
      fingerprint: key.fingerprint,
      label: key.label,
      status,
      policy: policy && opts.policies ? opts.policies.adopt(key.fingerprint, policy, `restored from a key backup`) : null,
    })),
  };
}

async function decryptBackup(fileText: string, passphrase: string): Promise<Array<BackupKeyInfo & { seed: Uint8Array }>> {
  let json: unknown;
  try {
    json = JSON.parse(fileText);
  } catch {
    throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', 'The backup file is not valid JSON');
  }
  const header = HeaderSchema.safeParse(json);
  if (!header.success) throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', 'Not a Canton console key backup');
  if (header.data.version !== 1 && header.data.version !== 2) {
    throw new SigningRefusal(
      'BAD_REQUEST',
      'UNKNOWN_FILE_VERSION',
      `Key backup version ${header.data.version} is not supported by this console (supports versions 1 and 2)`,
    );
  }
  const file = BackupFileSchema.safeParse(json);
  if (!file.success) {
    throw new SigningRefusal('BAD_REQUEST', 'FILE_ALTERED', `The key backup is malformed: ${file.error.issues[0]?.message}`);
  }
  const plain = await openWithPassphrase(file.data, passphrase, context(file.data.version, file.data.createdAt));
  let body: z.infer<typeof BackupPlaintextSchema>;
  try {
    const parsed = BackupPlaintextSchema.safeParse(JSON.parse(new TextDecoder().decode(plain)));
    if (!parsed.success) throw new Error(parsed.error.issues[0]?.message);
    body = parsed.data;
  } catch (err) {
    throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', `The key backup content is invalid: ${(err as Error).message}`);
  } finally {
    wipe(plain);
  }
  const out: Array<BackupKeyInfo & { seed: Uint8Array }> = [];
  for (const k of body.keys) {
    const seed = fromBase64(k.seed, 'key');
    const publicKey = seed.length === 32 ? await ed.getPublicKeyAsync(seed) : new Uint8Array();
    if (toHex(publicKey) !== k.publicKeyHex || (await cantonFingerprint(publicKey)) !== k.fingerprint) {
      wipe(seed);
      for (const o of out) wipe(o.seed);
      throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', `Key ${k.fingerprint} in the backup does not match its private key`);
    }
    const { seed: _omit, policy, ...meta } = k;
    out.push({ ...meta, policy: policy ?? null, fileVersion: file.data.version, seed });
  }
  return out;
}
