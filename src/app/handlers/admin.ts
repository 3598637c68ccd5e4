/** Handlers of the participant administration channels: parties, users and rights, identity providers. */
import type { adminChannels } from '../../ipc/channels/admin.js';
import { createIdp, deleteIdp, listIdps, updateIdp } from '../../services/ledger/idps.js';
import {
  allocateParty,
  getParty,
  listPartiesPage,
  partyDirectory,
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
export type AdminDeps = Pick<HandlerDeps, 'externalPartyKeys'> & { activeClient: () => { client: LedgerClient } };

export function adminHandlers(d: AdminDeps): HandlersOf<typeof adminChannels> {
  const client = () => d.activeClient().client;
  /** Reads follow the caller's cancel; writes do not (a half-sent write is worse than a slow one). */
  const reader = (ctx: CallContext) => client().withSignal(ctx.signal);
  /** Keystore fingerprints → labels, so parties whose namespace key is held here are marked external. */
  const keys = async (): Promise<KeystoreKeys> => (d.externalPartyKeys ? await d.externalPartyKeys() : NO_KEYS);

  return {
    'parties.list': async (req, ctx) => listPartiesPage(reader(ctx), req, await keys()),
    'parties.get': async ({ party }, ctx) => getParty(reader(ctx), party, await keys()),
    'parties.directory': async (_req, ctx) => partyDirectory(reader(ctx), await keys()),
    'parties.allocate': async (req) => allocateParty(client(), req, await keys()),
    'parties.annotations.update': async (req) => updatePartyAnnotations(client(), req, await keys()),

    'users.list': async (_req, ctx) => ({ users: await listUsers(reader(ctx)) }),
    'users.get': async ({ userId }, ctx) => getUser(reader(ctx), userId),
    'users.create': async (req) => createUser(client(), req),
    'users.update': async (req) => updateUser(client(), req),
    'users.delete': async ({ userId }) => {
      await deleteUser(client(), userId);
      return { deleted: true as const };
    },
    'users.rights.grant': async (req) => grantRights(client(), req),
    'users.rights.revoke': async (req) => revokeRights(client(), req),
    'users.idp.move': async (req) => moveUserIdp(client(), req),

    'idps.list': async (_req, ctx) => ({ idps: await listIdps(reader(ctx)) }),
    'idps.create': async (req) => createIdp(client(), req),
    'idps.update': async (req) => updateIdp(client(), req),
    'idps.delete': async ({ identityProviderId }) => {
      await deleteIdp(client(), identityProviderId);
      return { deleted: true as const };
    },
  };
}
