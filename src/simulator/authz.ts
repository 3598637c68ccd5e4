/**
 * Access control applied centrally (HTTP server before every handler, WebSocket streams when the first
 * request message arrives): authenticate the token (auth.ts), resolve the user's rights from the user
 * store as Canton does (unknown, deactivated or other-IDP users are PERMISSION_DENIED), then check the
 * route's rule from authz-rules.ts. In mode `none` everything is allowed (demo mode).
 */
import type { SimAuthConfig } from './auth-config.js';
import { createAuthenticator } from './auth.js';
import type { RequestAuth } from './auth.js';
import { checkClaims, confinedToIdp, denied } from './authz-claims.js';
import type { Caller } from './authz-claims.js';
import { ruleFor } from './authz-rules.js';
import type { AuthzRequest } from './authz-rules.js';
import type { SimContext } from './context.js';
import { loadUser } from './routes/users.js';
import { idpStore } from './store/idps.js';

export interface AuthzOutcome {
  /** Set when the caller manages users/parties only as an IdentityProviderAdmin of this provider. */
  idpScope?: string;
}

export interface Access {
  readonly mode: SimAuthConfig['mode'];
  authenticate(authorization: string | undefined): Promise<{ user: string; auth: RequestAuth }>;
  /** Throws UNAUTHENTICATED (401) or PERMISSION_DENIED (403) unless the request may proceed. */
  authorize(method: string, pattern: string, auth: RequestAuth, req: AuthzRequest): Promise<AuthzOutcome>;
}

function resolveCaller(sim: SimContext, userId: string, identityProviderId: string): Caller {
  const u = loadUser(sim, userId);
  if (!u) throw denied(`could not resolve the rights of user '${userId}' (USER_NOT_FOUND)`);
  if ((u.user.identityProviderId ?? '') !== identityProviderId) throw denied('the user is assigned to another identity provider');
  if (u.user.isDeactivated) throw denied(`user ${userId} is deactivated`);
  return { userId, identityProviderId, rights: u.rights };
}

export function createAccess(sim: SimContext, config: SimAuthConfig): Access {
  const authenticator = createAuthenticator(config, idpStore(sim.store.db));
  return {
    mode: config.mode,
    authenticate: (authorization) => authenticator.authenticate(authorization),
    async authorize(method, pattern, auth, req) {
      if (auth.mode === 'none') return {};
      const rule = ruleFor(method, pattern);
      // fail closed: a route added without a rule is refused (and the authz unit test names it)
      if (!rule) throw denied(`no authorization rule for ${method} ${pattern}`);
      if (rule.kind !== 'claims') return {};
      if (!auth.result.ok) throw auth.result.error;
      const caller = resolveCaller(sim, auth.result.userId, auth.result.identityProviderId);
      checkClaims(caller, await rule.claims(req, sim));
      return confinedToIdp(caller) ? { idpScope: caller.identityProviderId } : {};
    },
  };
}

/** Parses a request body as JSON for the rules; anything else is `undefined` (the handler reports it). */
export function lenientJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
