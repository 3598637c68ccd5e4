/**
 * Authentication: turns a request's bearer token into the user it acts for.
 *
 * - Mode `none` (demo): no token needed (→ `participant_admin`); a bearer JWT is decoded WITHOUT
 *   verification and its `sub` names the user. A token that is not a decodable JWT is UNAUTHENTICATED.
 * - JWT modes (`hs256`, `rs256`, see auth-config.ts / auth-jwt.ts): the token is verified; the outcome
 *   (user or UNAUTHENTICATED error) is recorded, and authz.ts decides per route whether it is needed,
 *   so public endpoints and the wallet API (which answers in its own error format) can still be served.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { unverifiedClaims } from '../common/jwt.js';
import type { SimAuthConfig } from './auth-config.js';
import { JwtVerifier } from './auth-jwt.js';
import { CantonError } from './errors.js';
import type { IdpStore } from './store/idps.js';

export const DEFAULT_USER = 'participant_admin';
/** The user LocalNet's participants have and the official wallet SDK's LocalNet settings act as. */
export const LOCALNET_USER = 'ledger-api-user';

export type AuthResult =
  | {
      ok: true;
      userId: string;
      /** '' = default identity provider */ identityProviderId: string;
      /** token `exp`, epoch seconds */ expiresAt?: number;
    }
  | { ok: false; error: CantonError };

export type RequestAuth = { mode: 'none' } | { mode: 'jwt'; result: AuthResult };

/** Demo mode: the user named by an unverified JWT's `sub` (no header → the default admin user). */
export function userFromHeaders(headers: IncomingHttpHeaders): string {
  const h = headers.authorization;
  if (h === undefined || h.trim() === '') return DEFAULT_USER;
  const m = /^Bearer\s+(\S+)$/i.exec(h.trim());
  if (!m || m[1] === undefined) throw new CantonError('UNAUTHENTICATED', 'The command is missing a (valid) JWT token');
  const payload = unverifiedClaims(m[1]);
  if (!payload)
    throw new CantonError('UNAUTHENTICATED', 'The command is missing a (valid) JWT token: not a JWT with a JSON object payload');
  if (typeof payload.sub === 'string' && payload.sub.length > 0) return payload.sub;
  return DEFAULT_USER;
}

export interface Authenticator {
  readonly mode: SimAuthConfig['mode'];
  /**
   * Authenticates the `Authorization` header value. Mode none rejects with UNAUTHENTICATED for a token that
   * is not a JWT; JWT modes report failures in the result. Never throws synchronously.
   */
  authenticate(authorization: string | undefined): Promise<{ user: string; auth: RequestAuth }>;
}

export function createAuthenticator(config: SimAuthConfig, idps: IdpStore): Authenticator {
  if (config.mode === 'none') {
    return {
      mode: 'none',
      // a rejected promise, never a synchronous throw: callers (HTTP and the WebSocket upgrade) handle rejections only
      authenticate: (authorization) =>
        new Promise((resolve) => {
          resolve({ user: userFromHeaders(authorization === undefined ? {} : { authorization }), auth: { mode: 'none' } });
        }),
    };
  }
  const verifier = new JwtVerifier(config, idps);
  const failed = (error: CantonError) => ({ user: '', auth: { mode: 'jwt', result: { ok: false, error } } as RequestAuth });
  return {
    mode: config.mode,
    async authenticate(authorization) {
      if (authorization === undefined || authorization.trim() === '')
        return failed(new CantonError('UNAUTHENTICATED', 'The command is missing a (valid) JWT token'));
      const m = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
      if (!m || m[1] === undefined)
        return failed(new CantonError('UNAUTHENTICATED', 'The command is missing a (valid) JWT token: expected "Bearer <JWT>"'));
      try {
        const v = await verifier.verify(m[1]);
        return { user: v.userId, auth: { mode: 'jwt', result: { ok: true, ...v } } };
      } catch (e) {
        if (e instanceof CantonError) return failed(e);
        throw e;
      }
    },
  };
}
