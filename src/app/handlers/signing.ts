/**
 * Handlers of the signing channels: thin wrappers over the signing services and SigningFlows. Nothing here
 * returns private key material; backups leave only as passphrase-encrypted ciphertext.
 */
import { ConsoleError } from '../../ipc/errors.js';
import type { signingChannels } from '../../ipc/channels/signing.js';
import { exportKeyBackup, previewKeyBackup, restoreKeyBackup, SigningRefusal, verifyAuditExport } from '../../services/signing/index.js';
import type { HandlerDeps } from './core.js';
import type { HandlersOf } from './types.js';

function need(d: HandlerDeps): NonNullable<HandlerDeps['signing']> {
  if (!d.signing) throw new ConsoleError('INTERNAL', 'Signing is not available in this console host');
  return d.signing;
}

/** Backup/restore refusals (wrong passphrase, altered file) are answers the view shows, like signing refusals. */
async function asOutcome<T>(fn: () => Promise<T>): Promise<T | { status: 'refused'; reason: string; message: string; auditSeq: null }> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof SigningRefusal) return { status: 'refused', reason: err.reason, message: err.message, auditSeq: null };
    throw err;
  }
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);

export function signingHandlers(d: HandlerDeps): HandlersOf<typeof signingChannels> {
  const backends = () => {
    const f = need(d).fileStore;
    return { encryptedFileExists: f.exists, encryptedFileUnlocked: f.unlocked };
  };
  return {
    'signing.keys.list': async () => ({ keys: need(d).services.keys.list(), backends: backends() }),
    'signing.keys.create': async ({ label, backend, passphrase }) => {
      const s = need(d);
      if (backend === 'encrypted-file' && !s.fileStore.unlocked) {
        if (!passphrase)
          throw new ConsoleError('BAD_REQUEST', 'The encrypted key file needs its passphrase', undefined, [
            { path: 'passphrase', message: 'Enter the key file passphrase' },
          ]);
        await s.fileStore.unlock(passphrase);
      }
      return s.services.keys.create(label, { backend });
    },
    'signing.keys.rename': async ({ fingerprint, label }) => need(d).services.keys.rename(fingerprint, label),
    'signing.keys.delete': async ({ fingerprint }) => {
      await need(d).services.keys.delete(fingerprint);
      return { deleted: true };
    },
    'signing.keys.unlock': async ({ fingerprint, minutes }) => need(d).services.signing.unlockKey(fingerprint, minutes * 60),
    'signing.keys.lock': async ({ fingerprint }) => need(d).services.signing.lockKey(fingerprint),
    'signing.keys.unlockFile': async ({ passphrase }) => {
      await need(d).fileStore.unlock(passphrase);
      return backends();
    },
    'signing.keys.backup': async ({ fingerprints, passphrase }) => ({
      fileName: `canton-console-keys-${stamp()}.json`,
      text: await exportKeyBackup(need(d).services.keys, fingerprints, passphrase),
    }),
    'signing.keys.restorePreview': ({ text, passphrase }) =>
      asOutcome(async () => {
        const keys = await previewKeyBackup(text, passphrase);
        const store = need(d).services.keys;
        return {
          status: 'ok' as const,
          keys: keys.map((k) => ({
            fingerprint: k.fingerprint,
            label: k.label,
            createdAt: k.createdAt,
            parties: k.parties,
            present: store.find(k.fingerprint) !== null,
          })),
        };
      }),
    'signing.keys.restore': ({ text, passphrase }) =>
      asOutcome(async () => ({
        status: 'ok' as const,
        restored: (await restoreKeyBackup(need(d).services.keys, text, passphrase)).restored,
      })),
    'signing.policy.get': async ({ fingerprint }) => {
      const s = need(d).services;
      s.keys.get(fingerprint);
      return s.policies.get(fingerprint);
    },
    'signing.policy.set': async ({ fingerprint, policy }) => need(d).services.policies.set(fingerprint, policy),

    'signing.onboard.prepare': (req) => need(d).flows.onboardPrepare(req),
    'signing.onboard.confirm': ({ sessionId }) => need(d).flows.onboardConfirm(sessionId),
    'signing.onboard.offline.createRequest': (req) => need(d).flows.onboardCreateRequest(req),
    'signing.onboard.offline.pending': async () => ({ requests: need(d).flows.pendingOnboardings() }),
    'signing.onboard.offline.importResponse': (req) => need(d).flows.onboardImportResponse(req),
    'signing.onboard.offline.inspect': ({ text }) => need(d).flows.inspectOnboardingRequest(text),
    'signing.onboard.offline.sign': ({ text }) => need(d).flows.signOnboardingRequest(text),
    'signing.parties': async () => ({ parties: need(d).flows.parties() }),
    'signing.prepare': (req) => need(d).flows.prepare(req),
    'signing.confirm': (req) => need(d).flows.confirm(req),
    'signing.discard': async ({ sessionId }) => ({ discarded: need(d).flows.discard(sessionId) }),

    'signing.offline.createRequest': (req) => need(d).flows.createRequest(req),
    'signing.offline.inspect': ({ text }) => need(d).flows.inspectRequest(text),
    'signing.offline.sign': (req) => need(d).flows.signRequest(req),
    'signing.offline.importResponse': (req) => need(d).flows.importResponse(req),
    'signing.offline.pending': async () => ({ requests: need(d).flows.pendingRequests() }),
    'signing.offline.execute': (req) => need(d).flows.executeRequest(req),

    'signing.audit.list': async ({ limit }) => ({
      records: need(d)
        .services.audit.list({ limit })
        .map((r) => ({ ...r.entry, action: r.entry.action ?? null, actor: r.entry.actor ?? null, chainHash: r.hash })),
    }),
    'signing.audit.verify': async () => need(d).services.audit.verifyChain(),
    'signing.audit.verifyExport': async ({ text, pinnedHead }) => {
      const audit = need(d).services.audit;
      const publicKeyHex = audit.authenticated.publicKeyHex;
      return verifyAuditExport(text, { ...(pinnedHead ? { head: pinnedHead } : {}), ...(publicKeyHex ? { publicKeyHex } : {}) });
    },
    'signing.audit.export': async () => ({ fileName: `signing-audit-${stamp()}.ndjson`, text: await need(d).services.audit.export() }),
  };
}
