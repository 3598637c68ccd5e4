/** Handlers of the participant administration channels: parties, users and rights, identity providers. */
import type { adminChannels, Right } from '../../ipc/channels/admin.js';
import type { AdminRecord } from '../../services/admin-audit.js';
import { pruneSimulator, pruningPreview } from '../../services/ledger/pruning.js';
import { ConsoleError } from '../../ipc/errors.js';
import type { Profile } from '../../ipc/contract.js';
import { createIdp, deleteIdp, listIdps, updateIdp } from '../../services/ledger/idps.js';
import {
  allocateParty,
  getParty,
  listPartiesPage,
  partyDirectory,
  partyHosting,
  updatePartyAnnotations,
  type KeystoreKeys,
} from '../../services/ledger/parties.js';
import {
  createUser,
  deleteUser,
  getUser,
  grantRights,
  listUsers,
  moveUserIdp,
  revokeRights,
  updateUser,
} from '../../services/ledger/users.js';
import type { LedgerClient } from '../../services/ledger-client.js';
import type { CallContext } from '../../ipc/router.js';
import type { HandlerDeps } from './core.js';
import type { HandlersOf } from './types.js';

const NO_KEYS: KeystoreKeys = new Map();

/** What these handlers use of the composition's dependencies (HandlerDeps satisfies it). */
export type AdminDeps = Pick<HandlerDeps, 'externalPartyKeys' | 'adminAudit'> & {
  activeClient: () => { profile?: Pick<Profile, 'kind' | 'name'>; client: LedgerClient };
};

const rightText = (r: Right): string => ('party' in r ? `${r.kind} ${r.party}` : r.kind);

export function adminHandlers(d: AdminDeps): HandlersOf<typeof adminChannels> {
  const client = () => d.activeClient().client;
  /** Reads follow the caller's cancel; writes do not (a half-sent write is worse than a slow one). */
  const reader = (ctx: CallContext) => client().withSignal(ctx.signal);
  /** Keystore fingerprints → labels, so parties whose namespace key is held here are marked external. */
  const keys = async (): Promise<KeystoreKeys> => (d.externalPartyKeys ? await d.externalPartyKeys() : NO_KEYS);

  /** Writes are recorded in the audit log (who, what, done or failed) when the composition provides it. */
  const audited = <T>(what: AdminRecord<T>, fn: () => Promise<T>): Promise<T> => (d.adminAudit ? d.adminAudit.record(what, fn) : fn());

  return {
    'parties.list': async (req, ctx) => listPartiesPage(reader(ctx), req, await keys()),
    'parties.get': async ({ party }, ctx) => getParty(reader(ctx), party, await keys()),
    'parties.hosting': async ({ party }, ctx) => partyHosting(reader(ctx), party),
    'parties.directory': async (_req, ctx) => partyDirectory(reader(ctx), await keys()),
    'parties.allocate': async (req) =>
      audited(
        {
          action: 'party-allocation',
          summary:
            `Allocate a party${req.partyIdHint ? ` with hint ${req.partyIdHint}` : ''}` +
            (req.synchronizerId ? ` on ${req.synchronizerId}` : ''),
          done: (p) => `Allocated party ${p.party}${req.synchronizerId ? ` on ${req.synchronizerId}` : ''}`,
          partyOf: (p) => p.party,
        },
        async () => allocateParty(client(), req, await keys()),
      ),
    'parties.annotations.update': async (req) =>
      audited(
        {
          action: 'party-annotations',
          party: req.party,
          summary: `Edit the annotations of ${req.party} (${Object.keys(req.annotations).length} set, ${req.removed.length} removed)`,
        },
        async () => updatePartyAnnotations(client(), req, await keys()),
      ),

    'users.list': async (_req, ctx) => ({ users: await listUsers(reader(ctx)) }),
    'users.get': async ({ userId }, ctx) => getUser(reader(ctx), userId),
    'users.create': async (req) =>
      audited(
        { action: 'user-create', summary: `Create user ${req.userId}${req.primaryParty ? ` (primary party ${req.primaryParty})` : ''}` },
        () => createUser(client(), req),
      ),
    'users.update': async (req) =>
      audited({ action: 'user-update', summary: `Update user ${req.userId}` }, () => updateUser(client(), req)),
    'users.delete': async ({ userId }) =>
      audited({ action: 'user-delete', summary: `Delete user ${userId}` }, async () => {
        await deleteUser(client(), userId);
        return { deleted: true as const };
      }),
    'users.rights.grant': async (req) =>
      audited({ action: 'rights-grant', summary: `Grant ${req.rights.map(rightText).join(', ')} to user ${req.userId}` }, () =>
        grantRights(client(), req),
      ),
    'users.rights.revoke': async (req) =>
      audited({ action: 'rights-revoke', summary: `Revoke ${req.rights.map(rightText).join(', ')} from user ${req.userId}` }, () =>
        revokeRights(client(), req),
      ),
    'users.idp.move': async (req) =>
      audited(
        {
          action: 'user-idp-move',
          summary:
            `Move user ${req.userId} from identity provider ${req.sourceIdentityProviderId || 'default'} ` +
            `to ${req.targetIdentityProviderId || 'default'}`,
        },
        () => moveUserIdp(client(), req),
      ),

    'pruning.preview': async ({ offset }, ctx) => pruningPreview(reader(ctx), offset),
    'pruning.prune': async ({ offset }) => {
      const { profile } = d.activeClient();
      if (profile?.kind !== 'demo')
        throw new ConsoleError(
          'CONFLICT',
          `${profile?.name ?? 'This participant'}: Canton prunes through its Admin API (gRPC), which the JSON Ledger API ` +
            `does not expose. Prune from the Canton console: participant.pruning.prune(${offset})`,
        );
      return audited(
        {
          action: 'pruning',
          summary: `Prune the participant up to offset ${offset}`,
          done: (r) => `Pruned the participant up to offset ${r.prunedUpTo}`,
        },
        () => pruneSimulator(client(), offset),
      );
    },
    'idps.list': async (_req, ctx) => ({ idps: await listIdps(reader(ctx)) }),
    'idps.create': async (req) =>
      audited({ action: 'idp-create', summary: `Create identity provider ${req.identityProviderId} (issuer ${req.issuer})` }, () =>
        createIdp(client(), req),
      ),
    'idps.update': async (req) =>
      audited({ action: 'idp-update', summary: `Update identity provider ${req.identityProviderId}` }, () => updateIdp(client(), req)),
    'idps.delete': async ({ identityProviderId }) =>
      audited({ action: 'idp-delete', summary: `Delete identity provider ${identityProviderId}` }, async () => {
        await deleteIdp(client(), identityProviderId);
        return { deleted: true as const };
      }),
  };
}
