/**
 * Handlers of the signing channels (keys, backups and policies: signing-keys.ts): thin wrappers over the signing
 * services and SigningFlows. Nothing here returns private key material.
 */
import type { signingChannels } from '../../ipc/channels/signing.js';
import { verifyAuditExport } from '../../services/signing/index.js';
import type { HandlerDeps } from './core.js';
import { need } from './signing-common.js';
import type { HandlersOf } from './types.js';

export function signingHandlers(d: HandlerDeps): HandlersOf<typeof signingChannels> {
  return {
    'signing.onboard.prepare': (req) => need(d).flows.onboardPrepare(req),
    'signing.onboard.confirm': ({ sessionId }) => need(d).flows.onboardConfirm(sessionId),
    'signing.onboard.offline.createRequest': (req) => need(d).flows.onboardCreateRequest(req),
    'signing.onboard.offline.pending': () => ({ requests: need(d).flows.pendingOnboardings() }),
    'signing.onboard.offline.importResponse': (req) => need(d).flows.onboardImportResponse(req),
    'signing.onboard.offline.inspect': ({ text }) => need(d).flows.inspectOnboardingRequest(text),
    'signing.onboard.offline.sign': ({ text }) => need(d).flows.signOnboardingRequest(text),
    'signing.parties': () => ({ parties: need(d).flows.parties() }),
    'signing.prepare': (req) => need(d).flows.prepare(req),
    'signing.confirm': (req) => need(d).flows.confirm(req),
    'signing.discard': ({ sessionId }) => ({ discarded: need(d).flows.discard(sessionId) }),

    'signing.offline.createRequest': (req) => need(d).flows.createRequest(req),
    'signing.offline.inspect': ({ text }) => need(d).flows.inspectRequest(text),
    'signing.offline.sign': (req) => need(d).flows.signRequest(req),
    'signing.offline.importResponse': (req) => need(d).flows.importResponse(req),
    'signing.offline.pending': () => ({ requests: need(d).flows.pendingRequests() }),
    'signing.offline.execute': (req) => need(d).flows.executeRequest(req),

    'signing.audit.list': ({ limit }) => ({
      records: need(d)
        .services.audit.list({ limit })
        .map((r) => ({ ...r.entry, action: r.entry.action ?? null, actor: r.entry.actor ?? null, chainHash: r.hash })),
    }),
    'signing.audit.verify': () => need(d).services.audit.verifyChain(),
    'signing.audit.verifyExport': async ({ text, pinnedHead }) => {
      const audit = need(d).services.audit;
      const publicKeyHex = audit.authenticated.publicKeyHex;
      return verifyAuditExport(text, { ...(pinnedHead ? { head: pinnedHead } : {}), ...(publicKeyHex ? { publicKeyHex } : {}) });
    },
  };
}
