/**
 * Handlers of the key, backup and policy channels. Nothing here returns private key material; backups leave only as
 * passphrase-encrypted ciphertext, policy files carry no key material. Unlocking and locking the encrypted key file
 * and every policy change are audit entries.
 */
import type { signingKeyChannels } from '../../ipc/channels/signing-keys.js';
import {
  importPolicyFile,
  previewKeyBackup,
  previewPolicyFile,
  restoreKeyBackup,
  type AdoptOutcome,
  type PolicyStore,
} from '../../services/signing/index.js';
import { ConsoleError } from '../../ipc/errors.js';
import { comparePolicies, policyDigest, type CarriedPolicy } from '../../services/signing/index.js';
import type { HandlerDeps } from './core.js';
import { asOutcome, need } from './signing-common.js';
import type { HandlersOf } from './types.js';

type Signing = NonNullable<HandlerDeps['signing']>;

function backends(s: Signing) {
  const f = s.fileStore;
  const until = f.signingUntil;
  // "unlocked" for the Keys view: its signing keys may sign now (the file may be open for connection secrets regardless)
  return { encryptedFileExists: f.exists, encryptedFileUnlocked: until !== null, encryptedFileUnlockedUntil: until?.toISOString() ?? null };
}

/** Opens the key file for `minutes` and records it: who could sign with its keys without the passphrase, until when. */
async function unlockKeyFile(s: Signing, passphrase: string, confirmation: string | undefined, minutes: number): Promise<void> {
  const creating = !s.fileStore.exists;
  await s.fileStore.unlock(passphrase, { signingSeconds: minutes * 60, confirmation, requireConfirmation: true });
  const until = s.fileStore.signingUntil ?? new Date();
  s.services.audit.append({
    decision: 'unlocked',
    subject: 'other',
    channel: 'online',
    reason: null,
    message: `${creating ? 'created and ' : ''}unlocked until ${until.toISOString()}`,
    fingerprint: null,
    party: null,
    hash: null,
    summary:
      `Encrypted key file ${creating ? 'created and ' : ''}unlocked for ${minutes} min: ` +
      `its keys sign without the passphrase until ${until.toISOString()}`,
  });
}

/** How a backup's policy for a key relates to this console's. */
function offer(policies: PolicyStore, fingerprint: string, present: boolean, carried: CarriedPolicy | null) {
  const local = present ? policies.record(fingerprint) : null;
  if (!carried) return { offered: null, local: local?.version ?? null, outcome: 'none' as const, changes: [] };
  if (!local) return { offered: carried.version, local: null, outcome: 'newer' as const, changes: [] };
  const outcome =
    carried.version > local.version
      ? ('newer' as const)
      : carried.version < local.version
        ? ('older' as const)
        : policyDigest(carried.policy) === local.digest
          ? ('same' as const)
          : ('diverged' as const);
  return { offered: carried.version, local: local.version, outcome, changes: comparePolicies(local.policy, carried.policy) };
}

function adoptWire(a: AdoptOutcome | null): {
  outcome: 'adopted' | 'same' | 'older' | 'diverged' | 'none' | 'not-applied';
  version: number | null;
} {
  if (!a) return { outcome: 'none', version: null };
  switch (a.status) {
    case 'adopted':
      return { outcome: 'adopted', version: a.to };
    case 'same':
      return { outcome: 'same', version: a.version };
    case 'older':
      return { outcome: 'older', version: a.kept };
    case 'diverged':
      return { outcome: 'diverged', version: a.version };
  }
}

export function signingKeyHandlers(d: HandlerDeps): HandlersOf<typeof signingKeyChannels> {
  return {
    'signing.keys.list': () => {
      const s = need(d);
      const keys = s.services.keys.list();
      const policies = Object.fromEntries(
        keys.map((k) => {
          const r = s.services.policies.record(k.fingerprint);
          return [k.fingerprint, { version: r.version, updatedAt: r.updatedAt }];
        }),
      );
      return { keys, backends: backends(s), policies };
    },
    'signing.keys.create': async ({ label, backend, passphrase, passphraseConfirmation }) => {
      const s = need(d);
      if (backend === 'encrypted-file' && !s.fileStore.signingUntil) {
        if (!passphrase)
          throw new ConsoleError('BAD_REQUEST', 'The encrypted key file needs its passphrase', undefined, [
            { path: 'passphrase', message: 'Enter the key file passphrase' },
          ]);
        await unlockKeyFile(s, passphrase, passphraseConfirmation, 5);
      }
      return s.services.keys.create(label, { backend });
    },
    'signing.keys.rename': ({ fingerprint, label }) => need(d).services.keys.rename(fingerprint, label),
    'signing.keys.delete': async ({ fingerprint }) => {
      await need(d).services.keys.delete(fingerprint);
      return { deleted: true };
    },
    'signing.keys.unlock': async ({ fingerprint, minutes }) => need(d).services.signing.unlockKey(fingerprint, minutes * 60),
    'signing.keys.lock': ({ fingerprint }) => need(d).services.signing.lockKey(fingerprint),
    'signing.keys.unlockFile': async ({ passphrase, passphraseConfirmation, minutes }) => {
      const s = need(d);
      await unlockKeyFile(s, passphrase, passphraseConfirmation, minutes);
      return backends(s);
    },
    'signing.keys.lockFile': () => {
      const s = need(d);
      if (s.fileStore.lockSigning()) {
        s.services.audit.append({
          decision: 'locked',
          subject: 'other',
          channel: 'online',
          reason: null,
          message: null,
          fingerprint: null,
          party: null,
          hash: null,
          summary: 'Encrypted key file locked for signing: its keys ask for the passphrase again',
        });
      }
      return backends(s);
    },
    'signing.keys.restorePreview': ({ text, passphrase }) =>
      asOutcome(async () => {
        const keys = await previewKeyBackup(text, passphrase);
        const s = need(d).services;
        return {
          status: 'ok' as const,
          fileVersion: keys[0]?.fileVersion ?? 1,
          keys: keys.map((k) => {
            const present = s.keys.find(k.fingerprint) !== null;
            return {
              fingerprint: k.fingerprint,
              label: k.label,
              createdAt: k.createdAt,
              parties: k.parties,
              present,
              policy: offer(s.policies, k.fingerprint, present, k.policy),
            };
          }),
        };
      }),
    'signing.keys.restore': ({ text, passphrase }) =>
      asOutcome(async () => {
        const s = need(d).services;
        const report = await restoreKeyBackup(s.keys, text, passphrase, { policies: s.policies });
        return { status: 'ok' as const, restored: report.restored.map((r) => ({ ...r, policy: adoptWire(r.policy) })) };
      }),
    'signing.policy.get': ({ fingerprint }) => {
      const s = need(d).services;
      s.keys.get(fingerprint);
      const { policy, version, updatedAt } = s.policies.record(fingerprint);
      return { policy, version, updatedAt };
    },
    'signing.policy.set': ({ fingerprint, policy }) => {
      const r = need(d).services.policies.setRecord(fingerprint, policy);
      return { policy: r.policy, version: r.version, updatedAt: r.updatedAt };
    },
    'signing.policy.importPreview': ({ text, passphrase }) =>
      asOutcome(async () => {
        const s = need(d).services;
        return { status: 'ok' as const, policies: await previewPolicyFile(text, passphrase, s.keys, s.policies) };
      }),
    'signing.policy.import': ({ text, passphrase }) =>
      asOutcome(async () => {
        const s = need(d).services;
        const results = await importPolicyFile(text, passphrase, s.keys, s.policies);
        return {
          status: 'ok' as const,
          policies: results.map((r) => ({
            fingerprint: r.fingerprint,
            label: r.label,
            ...(r.result ? adoptWire(r.result) : { outcome: 'not-applied' as const, version: null }),
          })),
        };
      }),
  };
}
