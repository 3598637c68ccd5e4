/**
 * Policy files: how an officer brings a newer policy to a console that holds the same key (typically the air-gapped
 * signer) without moving private keys. The file carries, per key, the fingerprint and public key it is for and the
 * policy with its version, sealed with a passphrase the officer chooses (scrypt + XChaCha20-Poly1305, as backups):
 * opening it needs the passphrase, and any change to the file fails authentication. On import, a policy replaces
 * the console's only when its version is newer (PolicyStore.adopt: audited, with the rules that got looser or
 * stricter); an older or diverging policy is shown and left alone.
 */
import { z } from 'zod';
import { utf8, wipe } from './bytes.js';
import { SigningRefusal } from './errors.js';
import { FINGERPRINT_PATTERN } from './fingerprint.js';
import { CarriedPolicySchema } from './key-backup.js';
import type { KeyStore } from './key-store.js';
import { openWithPassphrase, SealedSchema, sealWithPassphrase } from './passphrase-envelope.js';
import { comparePolicies, type PolicyChange } from './policy-compare.js';
import { policyDigest } from './policy.js';
import type { AdoptOutcome, PolicyStore } from './policy-store.js';

export const POLICY_FILE_FORMAT = 'canton-console/policy-file';

const FileSchema = SealedSchema.extend({ format: z.literal(POLICY_FILE_FORMAT), version: z.literal(1), createdAt: z.iso.datetime() });
const EntrySchema = CarriedPolicySchema.extend({
  fingerprint: z.string().regex(FINGERPRINT_PATTERN),
  publicKeyHex: z.string().regex(/^[0-9a-f]{64}$/),
  label: z.string().max(100),
});
const PlaintextSchema = z.object({ policies: z.array(EntrySchema).min(1).max(100) });
type Entry = z.infer<typeof EntrySchema>;

const context = (createdAt: string): string => `${POLICY_FILE_FORMAT}/v1/${createdAt}`;

/** How a file's policy for one key relates to this console's. */
export interface PolicyFileEntry {
  fingerprint: string;
  label: string;
  offered: number;
  /** This console's version; null when the key is not on this console. */
  local: number | null;
  outcome: 'newer' | 'same' | 'older' | 'diverged' | 'key-not-here' | 'other-key';
  /** What the file's policy changes against this console's (empty when the key is not here). */
  changes: PolicyChange[];
}

export async function exportPolicyFile(keys: KeyStore, policies: PolicyStore, fingerprints: string[], passphrase: string): Promise<string> {
  const unique = [...new Set(fingerprints)];
  if (unique.length === 0) throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', 'Select at least one key whose policy to export');
  const entries: Entry[] = unique.map((fp) => {
    const key = keys.get(fp);
    const r = policies.record(fp);
    return {
      fingerprint: fp,
      publicKeyHex: key.publicKeyHex,
      label: key.label,
      policy: r.policy,
      version: r.version,
      updatedAt: r.updatedAt,
    };
  });
  const plain = utf8(JSON.stringify({ policies: entries }));
  try {
    const createdAt = new Date().toISOString();
    const sealed = await sealWithPassphrase(plain, passphrase, context(createdAt));
    return JSON.stringify({ format: POLICY_FILE_FORMAT, version: 1, createdAt, ...sealed }, null, 2) + '\n';
  } finally {
    wipe(plain);
  }
}

/** Opens a policy file and compares each policy with this console's, changing nothing. */
export async function previewPolicyFile(
  text: string,
  passphrase: string,
  keys: KeyStore,
  policies: PolicyStore,
): Promise<PolicyFileEntry[]> {
  return (await openPolicyFile(text, passphrase)).map((e) => relate(e, keys, policies).entry);
}

/** Adopts every newer policy of a key on this console; reports what became of each. */
export async function importPolicyFile(
  text: string,
  passphrase: string,
  keys: KeyStore,
  policies: PolicyStore,
): Promise<Array<PolicyFileEntry & { result: AdoptOutcome | null }>> {
  const entries = await openPolicyFile(text, passphrase);
  return entries.map((e) => {
    const { entry, applicable } = relate(e, keys, policies);
    return { ...entry, result: applicable ? policies.adopt(e.fingerprint, e, 'imported from a policy file') : null };
  });
}

function relate(e: Entry, keys: KeyStore, policies: PolicyStore): { entry: PolicyFileEntry; applicable: boolean } {
  const key = keys.find(e.fingerprint);
  const base = { fingerprint: e.fingerprint, label: e.label, offered: e.version };
  if (!key) return { entry: { ...base, local: null, outcome: 'key-not-here', changes: [] }, applicable: false };
  if (key.publicKeyHex !== e.publicKeyHex) return { entry: { ...base, local: null, outcome: 'other-key', changes: [] }, applicable: false };
  const local = policies.record(e.fingerprint);
  const changes = comparePolicies(local.policy, e.policy);
  const outcome =
    e.version > local.version
      ? 'newer'
      : e.version < local.version
        ? 'older'
        : policyDigest(e.policy) === local.digest
          ? 'same'
          : 'diverged';
  return { entry: { ...base, label: key.label, local: local.version, outcome, changes }, applicable: true };
}

async function openPolicyFile(text: string, passphrase: string): Promise<Entry[]> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', 'The policy file is not valid JSON');
  }
  const header = z.object({ format: z.string(), version: z.number() }).safeParse(json);
  if (!header.success || header.data.format !== POLICY_FILE_FORMAT) {
    throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', 'Not a Canton console policy file');
  }
  if (header.data.version !== 1) {
    throw new SigningRefusal(
      'BAD_REQUEST',
      'UNKNOWN_FILE_VERSION',
      `Policy file version ${header.data.version} is not supported (supports 1)`,
    );
  }
  const file = FileSchema.safeParse(json);
  if (!file.success)
    throw new SigningRefusal('BAD_REQUEST', 'FILE_ALTERED', `The policy file is malformed: ${file.error.issues[0]?.message}`);
  const plain = await openWithPassphrase(file.data, passphrase, context(file.data.createdAt));
  try {
    const parsed = PlaintextSchema.safeParse(JSON.parse(new TextDecoder().decode(plain)));
    if (!parsed.success) throw new Error(parsed.error.issues[0]?.message);
    return parsed.data.policies;
  } catch (err) {
    throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', `The policy file content is invalid: ${(err as Error).message}`);
  } finally {
    wipe(plain);
  }
}
