/**
 * User management over the JSON Ledger API v2: users (paged list, create, get, update with a field
 * mask and resource version, delete), rights of every kind (grant/revoke) and moving a user between
 * identity providers. Rights travel as the contract's flat `{kind, party?}` shape.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { Annotations, Right, UserDetail, UserRow } from '../../ipc/channels/admin.js';
import type { LedgerClient } from '../ledger-client.js';
import { liveAnnotations } from './parties.js';

type S = v3_5.components['schemas'];
type ApiRight = S['Right'];

const user = (id: string) => ({ params: { path: { 'user-id': id } } });
const mask = (paths: string[]): S['FieldMask'] => ({ paths, unknownFields: { fields: {} } });

export function toUserRow(u: S['User']): UserRow {
  return {
    id: u.id,
    primaryParty: u.primaryParty ? u.primaryParty : null,
    isDeactivated: u.isDeactivated ?? false,
    identityProviderId: u.identityProviderId ?? '',
    annotations: liveAnnotations(u.metadata?.annotations),
    resourceVersion: u.metadata?.resourceVersion ?? '',
  };
}

/** Contract right → Ledger API `Right`. */
export function toApiRight(r: Right): ApiRight {
  switch (r.kind) {
    case 'CanActAs':
      return { kind: { CanActAs: { value: { party: r.party } } } };
    case 'CanReadAs':
      return { kind: { CanReadAs: { value: { party: r.party } } } };
    case 'CanExecuteAs':
      return { kind: { CanExecuteAs: { value: { party: r.party } } } };
    case 'ParticipantAdmin':
      return { kind: { ParticipantAdmin: { value: {} } } };
    case 'IdentityProviderAdmin':
      return { kind: { IdentityProviderAdmin: { value: {} } } };
    case 'CanReadAsAnyParty':
      return { kind: { CanReadAsAnyParty: { value: {} } } };
    case 'CanExecuteAsAnyParty':
      return { kind: { CanExecuteAsAnyParty: { value: {} } } };
  }
}

/** Ledger API `Right` → contract right; `Empty` and kinds this console does not know are dropped. */
export function fromApiRight(r: ApiRight): Right | null {
  const k = r.kind as Record<string, { value?: { party?: unknown } } | undefined>;
  for (const kind of ['CanActAs', 'CanReadAs', 'CanExecuteAs'] as const) {
    const party = k[kind]?.value?.party;
    if (typeof party === 'string') return { kind, party };
  }
  for (const kind of ['ParticipantAdmin', 'IdentityProviderAdmin', 'CanReadAsAnyParty', 'CanExecuteAsAnyParty'] as const) {
    if (k[kind] !== undefined) return { kind };
  }
  return null;
}

const fromApiRights = (rights: ApiRight[] | undefined): Right[] => (rights ?? []).map(fromApiRight).filter((r): r is Right => r !== null);

export async function listUsers(client: LedgerClient): Promise<UserRow[]> {
  const out: UserRow[] = [];
  let token = '';
  for (let page = 0; page < 100; page++) {
    const query = token ? { pageSize: 1000, pageToken: token } : { pageSize: 1000 };
    const res = await client.read(client.api.GET('/v2/users', { params: { query } }));
    for (const u of res.users ?? []) out.push(toUserRow(u));
    token = res.nextPageToken ?? '';
    if (!token) break;
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

export async function getUser(client: LedgerClient, userId: string): Promise<UserDetail> {
  const [u, r] = await Promise.all([
    client.read(client.api.GET('/v2/users/{user-id}', user(userId))),
    client.read(client.api.GET('/v2/users/{user-id}/rights', user(userId))),
  ]);
  return { user: toUserRow(u.user), rights: fromApiRights(r.rights) };
}

export async function createUser(
  client: LedgerClient,
  req: {
    userId: string;
    primaryParty: string;
    isDeactivated: boolean;
    annotations: Annotations;
    identityProviderId: string;
    rights: Right[];
  },
): Promise<UserDetail> {
  const body: S['CreateUserRequest'] = {
    user: {
      id: req.userId,
      primaryParty: req.primaryParty,
      isDeactivated: req.isDeactivated,
      metadata: { resourceVersion: '', annotations: req.annotations },
      identityProviderId: req.identityProviderId,
    },
    rights: req.rights.map(toApiRight),
  };
  await client.read(client.api.POST('/v2/users', { body }));
  return getUser(client, req.userId);
}

export async function updateUser(
  client: LedgerClient,
  req: {
    userId: string;
    identityProviderId: string;
    resourceVersion: string;
    primaryParty: string;
    isDeactivated: boolean;
    annotations: Annotations;
    removed: string[];
  },
): Promise<UserRow> {
  const annotations: Record<string, string> = {};
  for (const k of req.removed) if (!(k in req.annotations)) annotations[k] = '';
  Object.assign(annotations, req.annotations);
  const body: S['UpdateUserRequest'] = {
    user: {
      id: req.userId,
      primaryParty: req.primaryParty,
      isDeactivated: req.isDeactivated,
      metadata: { resourceVersion: req.resourceVersion, annotations },
      identityProviderId: req.identityProviderId,
    },
    updateMask: mask(['primary_party', 'is_deactivated', 'metadata.annotations']),
  };
  const res = await client.read(client.api.PATCH('/v2/users/{user-id}', { ...user(req.userId), body }));
  return toUserRow(res.user);
}

export async function deleteUser(client: LedgerClient, userId: string): Promise<void> {
  await client.read(client.api.DELETE('/v2/users/{user-id}', user(userId)));
}

async function listRights(client: LedgerClient, userId: string): Promise<Right[]> {
  return fromApiRights((await client.read(client.api.GET('/v2/users/{user-id}/rights', user(userId)))).rights);
}

export async function grantRights(
  client: LedgerClient,
  req: { userId: string; identityProviderId: string; rights: Right[] },
): Promise<{ rights: Right[]; changed: Right[] }> {
  const body: S['GrantUserRightsRequest'] = {
    userId: req.userId,
    rights: req.rights.map(toApiRight),
    identityProviderId: req.identityProviderId,
  };
  const res = await client.read(client.api.POST('/v2/users/{user-id}/rights', { ...user(req.userId), body }));
  return { rights: await listRights(client, req.userId), changed: fromApiRights(res.newlyGrantedRights) };
}

export async function revokeRights(
  client: LedgerClient,
  req: { userId: string; identityProviderId: string; rights: Right[] },
): Promise<{ rights: Right[]; changed: Right[] }> {
  const body: S['RevokeUserRightsRequest'] = {
    userId: req.userId,
    rights: req.rights.map(toApiRight),
    identityProviderId: req.identityProviderId,
  };
  const res = await client.read(client.api.PATCH('/v2/users/{user-id}/rights', { ...user(req.userId), body }));
  return { rights: await listRights(client, req.userId), changed: fromApiRights(res.newlyRevokedRights) };
}

export async function moveUserIdp(
  client: LedgerClient,
  req: { userId: string; sourceIdentityProviderId: string; targetIdentityProviderId: string },
): Promise<UserRow> {
  const body: S['UpdateUserIdentityProviderIdRequest'] = {
    userId: req.userId,
    sourceIdentityProviderId: req.sourceIdentityProviderId,
    targetIdentityProviderId: req.targetIdentityProviderId,
  };
  await client.read(client.api.PATCH('/v2/users/{user-id}/identity-provider-id', { ...user(req.userId), body }));
  return (await getUser(client, req.userId)).user;
}
