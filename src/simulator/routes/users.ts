/**
 * User management (users and rights) stored in SQLite. Demo mode: every authenticated user acts as an
 * administrator; `participant_admin` (and in demo mode `ledger-api-user`) exist with the ParticipantAdmin right.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { SimContext } from '../context.js';
import { CantonError, DecodeError, partyNotKnown } from '../errors.js';
import { canonicalJson } from '../packages/canonical.js';
import type { RequestCtx, Router } from '../router.js';
import { ok } from '../router.js';
import { CreateUserRequestSchema, UpdateUserRequestSchema, UserRightsRequestSchema } from '../schemas.js';
import type { RightInput } from '../schemas.js';
import { body, decodeToken, encodeToken } from './common.js';
import { checkResourceVersion, concurrentUserUpdate, mergeAnnotations, nextResourceVersion } from './metadata-update.js';

type S = v3_5.components['schemas'];

export interface StoredUser {
  user: S['User'];
  rights: RightInput[];
}

const USER_ID_RE = /^[a-z0-9@^$.!`\-#+'~_|:()]{1,128}$/;

const builtinAdmin = (id: string): StoredUser => ({
  user: { id, isDeactivated: false, metadata: { resourceVersion: '0', annotations: {} }, identityProviderId: '' },
  rights: [{ kind: { ParticipantAdmin: { value: {} } } }],
});

/** A user and its rights as stored (the implicit admins exist until they are stored). */
export function loadUser(sim: SimContext, id: string): StoredUser | undefined {
  return (sim.store.userGet(id) as StoredUser | undefined) ?? (sim.implicitAdmins.includes(id) ? builtinAdmin(id) : undefined);
}

/** The user record for an authenticated id (users unknown to the store are served as admins in demo mode). */
export function userRecord(sim: SimContext, id: string): S['User'] {
  return (
    loadUser(sim, id)?.user ?? { id, isDeactivated: false, metadata: { resourceVersion: '0', annotations: {} }, identityProviderId: '' }
  );
}

const userNotFound = (id: string): CantonError =>
  new CantonError('USER_NOT_FOUND', `getting user failed for unknown user "${id}"`, { context: { userId: id }, resources: [['USER', id]] });

const rightKey = (r: RightInput): string => canonicalJson(r);

function userIdParam(ctx: RequestCtx): string {
  const id = ctx.params['user-id'] ?? '';
  if (!USER_ID_RE.test(id))
    throw new CantonError('INVALID_FIELD', `Invalid field user_id: '${id}' is not a valid user id`, { context: { field: 'userId' } });
  return id;
}

/** The party a right is about (CanActAs, CanReadAs, CanExecuteAs), if any. */
function partyOf(r: RightInput): string | undefined {
  const k = r.kind;
  return 'CanActAs' in k
    ? k.CanActAs.value.party
    : 'CanReadAs' in k
      ? k.CanReadAs.value.party
      : 'CanExecuteAs' in k
        ? k.CanExecuteAs.value.party
        : undefined;
}

function requireKnownParties(sim: SimContext, rights: RightInput[]): void {
  for (const r of rights) {
    const party = partyOf(r);
    if (party !== undefined && !sim.store.hasParty(party)) throw partyNotKnown(party);
  }
}

/**
 * A caller that is not a participant admin (an IdentityProviderAdmin, `ctx.idpScope` set) may only name parties of
 * the request's identity provider, as Canton's `ApiUserManagementService.verifyPartiesExistInIdp`, with its error.
 * Canton checks CanActAs and CanReadAs; CanExecuteAs is checked too, as it would let another provider's party be
 * executed as.
 */
function requirePartiesInIdp(sim: SimContext, ctx: RequestCtx, rights: RightInput[], requestIdp: string | undefined): void {
  if (ctx.idpScope === undefined) return;
  const idp = requestIdp || ctx.idpScope;
  const parties = [...new Set(rights.map(partyOf).filter((p): p is string => p !== undefined))];
  const missing = parties.filter((p) => sim.store.party(p)?.idp !== idp);
  if (missing.length > 0)
    throw new CantonError(
      'UNKNOWN_RESOURCE',
      'The submitted request refers to a non-existing PARTIES: Provided parties have ' +
        `not been found in identity_provider_id=\`${idp}\`: [${missing.join(',')}].`,
      { resources: missing.map((p): [string, string] => ['PARTIES', p]) },
    );
}

/** Grants CanActAs(party) to an existing user (party undefined: only checks the user exists). */
export function grantActAs(sim: SimContext, userId: string, party: string | undefined): void {
  const u = loadUser(sim, userId);
  if (!u) throw userNotFound(userId);
  if (party === undefined) return;
  const right: RightInput = { kind: { CanActAs: { value: { party } } } };
  if (u.rights.some((r) => rightKey(r) === rightKey(right))) return;
  sim.store.userPut(userId, { user: u.user, rights: [...u.rights, right] } satisfies StoredUser);
}

export function registerUserRoutes(router: Router, sim: SimContext): void {
  router.add('GET', '/v2/authenticated-user', (ctx) => {
    const res: S['GetUserResponse'] = { user: userRecord(sim, ctx.user) };
    return ok(res);
  });

  router.add('GET', '/v2/users', (ctx) => {
    const rawSize = ctx.query.get('pageSize');
    if (rawSize !== null && !/^\d{1,9}$/.test(rawSize)) throw new DecodeError(`Invalid value for: query parameter pageSize ('${rawSize}')`);
    const size =
      rawSize === null || Number(rawSize) === 0 ? sim.settings.maxUsersPageSize : Math.min(Number(rawSize), sim.settings.maxUsersPageSize);
    const token = ctx.query.get('pageToken');
    const after = token
      ? decodeToken(token, (v): v is { u: string } => typeof v === 'object' && v !== null && typeof (v as { u: unknown }).u === 'string').u
      : '';
    const stored = sim.store.userList() as StoredUser[];
    const implicit = sim.implicitAdmins.filter((id) => !stored.some((u) => u.user.id === id)).map(builtinAdmin);
    const all = [...implicit, ...stored]
      .map((u) => u.user)
      // an IdentityProviderAdmin sees only the users of its own identity provider (authz.ts sets the scope)
      .filter((u) => ctx.idpScope === undefined || (u.identityProviderId ?? '') === ctx.idpScope)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .filter((u) => u.id > after);
    const pageUsers = all.slice(0, size);
    const last = pageUsers.at(-1);
    const res: S['ListUsersResponse'] = {
      users: pageUsers,
      ...(all.length > size && last ? { nextPageToken: encodeToken({ u: last.id }) } : {}),
    };
    return ok(res);
  });

  router.add('POST', '/v2/users', async (ctx) => {
    const req = await body(ctx, CreateUserRequestSchema);
    const id = req.user.id;
    if (!USER_ID_RE.test(id))
      throw new CantonError('INVALID_FIELD', `Invalid field user.id: '${id}' is not a valid user id`, { context: { field: 'user.id' } });
    if (loadUser(sim, id))
      throw new CantonError('USER_ALREADY_EXISTS', `creating user failed for existing user "${id}"`, { context: { userId: id } });
    const rights = dedupRights(req.rights ?? []);
    const identityProviderId = req.user.identityProviderId || (ctx.idpScope ?? '');
    requirePartiesInIdp(sim, ctx, rights, identityProviderId);
    requireKnownParties(sim, rights);
    const user: S['User'] = {
      id,
      ...(req.user.primaryParty ? { primaryParty: req.user.primaryParty } : {}),
      isDeactivated: req.user.isDeactivated ?? false,
      metadata: { resourceVersion: '0', annotations: req.user.metadata?.annotations ?? {} },
      // as in Canton, an IdentityProviderAdmin that names no provider creates the user in its own
      identityProviderId,
    };
    sim.store.userPut(id, { user, rights } satisfies StoredUser);
    const res: S['CreateUserResponse'] = { user };
    return ok(res);
  });

  router.add('GET', '/v2/users/{user-id}', (ctx) => {
    const id = userIdParam(ctx);
    const u = loadUser(sim, id);
    if (!u) throw userNotFound(id);
    const res: S['GetUserResponse'] = { user: u.user };
    return ok(res);
  });

  router.add('DELETE', '/v2/users/{user-id}', (ctx) => {
    const id = userIdParam(ctx);
    if (!sim.store.userDelete(id)) throw userNotFound(id);
    return ok({});
  });

  router.add('PATCH', '/v2/users/{user-id}', async (ctx) => {
    const id = userIdParam(ctx);
    const req = await body(ctx, UpdateUserRequestSchema);
    const u = loadUser(sim, id);
    if (!u) throw userNotFound(id);
    if (req.user.id !== id) throw new CantonError('INVALID_ARGUMENT', `user.id '${req.user.id}' does not match the path '${id}'`);
    const currentVersion = u.user.metadata?.resourceVersion ?? '0';
    const next: S['User'] = { ...u.user };
    let annotations = u.user.metadata?.annotations ?? {};
    for (const p of req.updateMask.paths ?? []) {
      if (p === 'primary_party' || p === 'primaryParty') {
        if (req.user.primaryParty) next.primaryParty = req.user.primaryParty;
        else delete next.primaryParty;
      } else if (p === 'is_deactivated' || p === 'isDeactivated') next.isDeactivated = req.user.isDeactivated ?? false;
      else if (p === 'metadata' || p === 'metadata.annotations')
        annotations = mergeAnnotations(annotations, req.user.metadata?.annotations);
      else throw new CantonError('INVALID_FIELD', `Invalid field update_mask: unknown path '${p}'`, { context: { field: 'updateMask' } });
    }
    // checked after the request is known to be well-formed, as Canton validates before it touches the store
    checkResourceVersion(req.user.metadata?.resourceVersion, currentVersion, (given, current) => concurrentUserUpdate(id, given, current));
    next.metadata = { resourceVersion: nextResourceVersion(currentVersion), annotations };
    sim.store.userPut(id, { user: next, rights: u.rights } satisfies StoredUser);
    const res: S['UpdateUserResponse'] = { user: next };
    return ok(res);
  });

  router.add('GET', '/v2/users/{user-id}/rights', (ctx) => {
    const id = userIdParam(ctx);
    const u = loadUser(sim, id);
    if (!u) throw userNotFound(id);
    const res: S['ListUserRightsResponse'] = { rights: u.rights };
    return ok(res);
  });

  const changeRights = async (ctx: RequestCtx, grant: boolean): Promise<RightInput[]> => {
    const id = userIdParam(ctx);
    const req = await body(ctx, UserRightsRequestSchema);
    if (req.userId !== id) throw new CantonError('INVALID_ARGUMENT', `userId '${req.userId}' does not match the path '${id}'`);
    const asked = dedupRights(req.rights ?? []);
    // before the user is looked up, as Canton checks the parties before the store operation
    requirePartiesInIdp(sim, ctx, asked, req.identityProviderId);
    const u = loadUser(sim, id);
    if (!u) throw userNotFound(id);
    if (grant) requireKnownParties(sim, asked);
    const have = new Map(u.rights.map((r) => [rightKey(r), r]));
    const changed: RightInput[] = [];
    for (const r of asked) {
      const k = rightKey(r);
      if (grant && !have.has(k)) {
        have.set(k, r);
        changed.push(r);
      } else if (!grant && have.delete(k)) changed.push(r);
    }
    sim.store.userPut(id, { user: u.user, rights: [...have.values()] } satisfies StoredUser);
    return changed;
  };
  router.add('POST', '/v2/users/{user-id}/rights', async (ctx) => {
    const res: S['GrantUserRightsResponse'] = { newlyGrantedRights: await changeRights(ctx, true) };
    return ok(res);
  });
  router.add('PATCH', '/v2/users/{user-id}/rights', async (ctx) => {
    const res: S['RevokeUserRightsResponse'] = { newlyRevokedRights: await changeRights(ctx, false) };
    return ok(res);
  });
}

function dedupRights(rights: RightInput[]): RightInput[] {
  const m = new Map<string, RightInput>();
  for (const r of rights) if (!('Empty' in r.kind)) m.set(rightKey(r), r);
  return [...m.values()];
}
