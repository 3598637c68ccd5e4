/**
 * JWT claims read WITHOUT verification (jose's `decodeJwt`): for what a token says about itself (expiry, subject),
 * never to authenticate. Verification is the participant's job (and the simulator's, in its JWT modes).
 */
import { decodeJwt, type JWTPayload } from 'jose';

/** The claims of a compact JWS, or null when `token` is not a JWT with a JSON object payload. */
export function unverifiedClaims(token: string): JWTPayload | null {
  try {
    return decodeJwt(token);
  } catch {
    return null;
  }
}

/** The non-empty `sub` of a JWT, or null (not a JWT, or no subject). */
export function jwtSubject(token: string): string | null {
  const sub = unverifiedClaims(token)?.sub;
  return typeof sub === 'string' && sub !== '' ? sub : null;
}

/** Epoch milliseconds of the `exp` claim, or null for an opaque token or one without a positive `exp`. */
export function jwtExpiry(token: string): number | null {
  const exp = unverifiedClaims(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) && exp > 0 ? exp * 1000 : null;
}
