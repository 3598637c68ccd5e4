/**
 * `PATCH /v2/users/{user-id}/identity-provider-id`: moves a user from one identity provider to
 * another ("" = the default identity provider). As in Canton, a user whose current identity provider
 * is not the given source is reported as not found, and unknown source or target providers fail with
 * IDP_CONFIG_NOT_FOUND.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import { z } from 'zod';
import { optionalString } from '../schemas.js';
import { DEFAULT_USER } from '../auth.js';
import type { SimContext } from '../context.js';
import { CantonError } from '../errors.js';
import type { Router } from '../router.js';
import { ok } from '../router.js';
import { idpStore } from '../store/idps.js';
import { body } from './common.js';
import { idpNotFound } from './idps.js';
import { userRecord } from './users.js';

type S = v3_5.components['schemas'];

const UpdateUserIdpRequestSchema = z.object({
  userId: z.string(),
  sourceIdentityProviderId: optionalString,
  targetIdentityProviderId: optionalString,
});

/** The stored user record as the user routes keep it; only `user.identityProviderId` is changed here. */
interface StoredUserShape {
  user: S['User'];
  rights: unknown[];
}

const USER_ID_RE = /^[a-z0-9@^$.!`\-#+'~_|:()]{1,128}$/;

export function registerUserIdpRoute(router: Router, sim: SimContext): void {
  const idps = idpStore(sim.store.db);
  router.add('PATCH', '/v2/users/{user-id}/identity-provider-id', async (ctx) => {
    const id = ctx.params['user-id'] ?? '';
    if (!USER_ID_RE.test(id))
      throw new CantonError('INVALID_FIELD', `Invalid field user_id: '${id}' is not a valid user id`, { context: { field: 'userId' } });
    const req = await body(ctx, UpdateUserIdpRequestSchema);
    if (req.userId !== id) throw new CantonError('INVALID_ARGUMENT', `userId '${req.userId}' does not match the path '${id}'`);
    const source = req.sourceIdentityProviderId ?? '';
    const target = req.targetIdentityProviderId ?? '';
    const operation = 'Update user identity provider';
    if (source !== '' && !idps.get(source)) throw idpNotFound(operation, source);
    if (target !== '' && !idps.get(target)) throw idpNotFound(operation, target);

    const stored = sim.store.userGet(id) as StoredUserShape | undefined;
    const record: StoredUserShape | undefined =
      stored ?? (id === DEFAULT_USER ? { user: userRecord(sim, id), rights: [{ kind: { ParticipantAdmin: { value: {} } } }] } : undefined);
    if (!record || (record.user.identityProviderId ?? '') !== source)
      throw new CantonError('USER_NOT_FOUND', `${operation} failed for unknown user "${id}"`, {
        context: { userId: id, identityProviderId: source },
        resources: [['USER', id]],
      });
    sim.store.userPut(id, { user: { ...record.user, identityProviderId: target }, rights: record.rights } satisfies StoredUserShape);
    const res: S['UpdateUserIdentityProviderIdResponse'] = {};
    return ok(res);
  });
}
