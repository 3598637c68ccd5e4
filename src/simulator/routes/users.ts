/** Users (minimal): the authenticated user, get user. Demo mode: every authenticated user is an administrator. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { SimContext } from '../context.js';
import type { Router } from '../router.js';
import { ok } from '../router.js';

type S = v3_5.components['schemas'];

export function userRecord(sim: SimContext, id: string): S['User'] {
  const stored = sim.store.userGet<S['User']>(id);
  return stored ?? { id, isDeactivated: false, metadata: { resourceVersion: '0', annotations: {} }, identityProviderId: '' };
}

export function registerUserRoutes(router: Router, sim: SimContext): void {
  router.add('GET', '/v2/authenticated-user', (ctx) => {
    const res: S['GetUserResponse'] = { user: userRecord(sim, ctx.user) };
    return ok(res);
  });
}
