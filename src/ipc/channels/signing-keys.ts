/**
 * Signing keys, their backends and policies: key metadata (never private bytes), the encrypted key file's lock state,
 * encrypted backups (ciphertext only, each key with its policy), versioned per-key policies and the passphrase-sealed
 * policy files that bring a newer policy to another console holding the same key.
 */
import { z } from 'zod';
import { EmptyRequest } from './shared.js';
import { FileTextSchema, FingerprintSchema, PassphraseSchema, RefusalSchema } from './signing-common.js';

export const KeyBackendNameSchema = z.enum(['os-keychain', 'encrypted-file']);

export const SigningKeySchema = z.object({
  fingerprint: z.string(),
  label: z.string(),
  publicKeyHex: z.string(),
  publicKeyBase64: z.string(),
  backend: KeyBackendNameSchema,
  createdAt: z.string(),
  parties: z.array(z.string()),
  /** The key is unlocked in the console's memory until then (signatures skip the keychain); null: locked. */
  unlockedUntil: z.string().nullable(),
});
export type SigningKey = z.infer<typeof SigningKeySchema>;

export const KeyBackendsStateSchema = z.object({
  /** The encrypted key file exists on this machine. */
  encryptedFileExists: z.boolean(),
  /** The encrypted key file is unlocked (its passphrase was entered) … */
  encryptedFileUnlocked: z.boolean(),
  /** … until then; it locks itself afterwards and asks for the passphrase again. */
  encryptedFileUnlockedUntil: z.string().nullable(),
});

const Decimal = z
  .string()
  .trim()
  .regex(/^-?\d+(\.\d+)?$/, 'A decimal amount like "1000" or "2.5"');
export const SigningPolicyWireSchema = z
  .object({
    allowedTemplates: z.array(z.string().trim().min(3)).nullable(),
    allowedChoices: z.array(z.string().trim().min(1)).nullable(),
    allowedCounterparties: z.array(z.string().trim().min(1)).nullable(),
    maxAmountPerTransaction: z.string().nullable(),
    requireOfflineConfirmation: z.boolean(),
    allowBlindSigning: z.boolean(),
    /** Above `above`, at least `signatures` distinct keys of the party sign (k of n). */
    quorum: z
      .object({ above: Decimal, signatures: z.number().int().min(2, 'A quorum needs at least 2 signatures').max(32) })
      .strict()
      .nullable()
      .default(null),
  })
  .strict();
export type SigningPolicyWire = z.infer<typeof SigningPolicyWireSchema>;

/** A key's policy with its version (0: the default policy, never set) and when it was last changed. */
export const PolicyRecordWireSchema = z.object({
  policy: SigningPolicyWireSchema,
  version: z.number().int(),
  updatedAt: z.string().nullable(),
});
export type PolicyRecordWire = z.infer<typeof PolicyRecordWireSchema>;

const PolicyChangeSchema = z.object({
  rule: z.string(),
  from: z.string(),
  to: z.string(),
  direction: z.enum(['looser', 'stricter', 'changed']),
});
/** What a backup's or policy file's policy is to this console's. */
const PolicyOfferSchema = z.object({
  /** The version offered; null when the backup carries no policy (version 1 file, or the key had the default policy). */
  offered: z.number().int().nullable(),
  /** This console's version; null when the key is not here. */
  local: z.number().int().nullable(),
  outcome: z.enum(['newer', 'same', 'older', 'diverged', 'key-not-here', 'other-key', 'none']),
  changes: z.array(PolicyChangeSchema),
});
/** What became of an offered policy. */
const AdoptResultSchema = z.object({
  outcome: z.enum(['adopted', 'same', 'older', 'diverged', 'not-applied', 'none']),
  version: z.number().int().nullable(),
});

export const signingKeyChannels = {
  'signing.keys.list': {
    request: EmptyRequest,
    response: z.object({
      keys: z.array(SigningKeySchema),
      backends: KeyBackendsStateSchema,
      /** Each key's policy version (0: default policy) and last change, by fingerprint. */
      policies: z.record(z.string(), z.object({ version: z.number().int(), updatedAt: z.string().nullable() })),
    }),
  },
  'signing.keys.create': {
    request: z
      .object({
        label: z.string().trim().min(1, 'A key needs a label').max(100),
        backend: KeyBackendNameSchema.default('os-keychain'),
        /** Encrypted-file backend only: unlocks (or creates) the key file first. */
        passphrase: PassphraseSchema.optional(),
        /** Creating the key file: the passphrase typed a second time. */
        passphraseConfirmation: PassphraseSchema.optional(),
      })
      .strict(),
    response: SigningKeySchema,
  },
  'signing.keys.rename': {
    request: z.object({ fingerprint: FingerprintSchema, label: z.string().trim().min(1, 'A key needs a label').max(100) }).strict(),
    response: SigningKeySchema,
  },
  'signing.keys.delete': { request: z.object({ fingerprint: FingerprintSchema }).strict(), response: z.object({ deleted: z.boolean() }) },
  /** Opt-in unlock window: keeps the key's private seed in main-process memory for 1..60 minutes (never sent anywhere). */
  'signing.keys.unlock': {
    request: z
      .object({ fingerprint: FingerprintSchema, minutes: z.number().int().min(1, 'At least 1 minute').max(60, 'At most 60 minutes') })
      .strict(),
    response: SigningKeySchema,
  },
  'signing.keys.lock': { request: z.object({ fingerprint: FingerprintSchema }).strict(), response: SigningKeySchema },
  /** Unlocks the encrypted key file for 1..60 minutes (audited); creating it needs the passphrase twice. */
  'signing.keys.unlockFile': {
    request: z
      .object({
        passphrase: PassphraseSchema,
        passphraseConfirmation: PassphraseSchema.optional(),
        minutes: z.number().int().min(1, 'At least 1 minute').max(60, 'At most 60 minutes').default(5),
      })
      .strict(),
    response: KeyBackendsStateSchema,
  },
  'signing.keys.lockFile': { request: EmptyRequest, response: KeyBackendsStateSchema },
  'signing.keys.restorePreview': {
    request: z.object({ text: FileTextSchema, passphrase: PassphraseSchema }).strict(),
    response: z.union([
      z.object({
        status: z.literal('ok'),
        /** The backup's format version (1: keys only; 2: keys with their policies). */
        fileVersion: z.number().int(),
        keys: z.array(
          z.object({
            fingerprint: z.string(),
            label: z.string(),
            createdAt: z.string(),
            parties: z.array(z.string()),
            present: z.boolean(),
            policy: PolicyOfferSchema,
          }),
        ),
      }),
      RefusalSchema,
    ]),
  },
  'signing.keys.restore': {
    request: z.object({ text: FileTextSchema, passphrase: PassphraseSchema }).strict(),
    response: z.union([
      z.object({
        status: z.literal('ok'),
        restored: z.array(
          z.object({
            fingerprint: z.string(),
            label: z.string(),
            status: z.enum(['imported', 'already-present']),
            policy: AdoptResultSchema,
          }),
        ),
      }),
      RefusalSchema,
    ]),
  },
  'signing.policy.get': { request: z.object({ fingerprint: FingerprintSchema }).strict(), response: PolicyRecordWireSchema },
  /** An officer's change: the next version of the key's policy (audited with what got looser or stricter). */
  'signing.policy.set': {
    request: z.object({ fingerprint: FingerprintSchema, policy: SigningPolicyWireSchema }).strict(),
    response: PolicyRecordWireSchema,
  },
  'signing.policy.importPreview': {
    request: z.object({ text: FileTextSchema, passphrase: PassphraseSchema }).strict(),
    response: z.union([
      z.object({ status: z.literal('ok'), policies: z.array(PolicyOfferSchema.extend({ fingerprint: z.string(), label: z.string() })) }),
      RefusalSchema,
    ]),
  },
  /** Adopts the file's policies that are newer than this console's; older or diverging ones are left alone. */
  'signing.policy.import': {
    request: z.object({ text: FileTextSchema, passphrase: PassphraseSchema }).strict(),
    response: z.union([
      z.object({ status: z.literal('ok'), policies: z.array(AdoptResultSchema.extend({ fingerprint: z.string(), label: z.string() })) }),
      RefusalSchema,
    ]),
  },
} as const;
