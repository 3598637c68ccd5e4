/**
 * Demo-mode authentication: no token needed; a bearer JWT is decoded (signature NOT verified) and its
 * `sub` names the user. A token that is not a decodable JWT is rejected with UNAUTHENTICATED.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { CantonError } from './errors.js';

export const DEFAULT_USER = 'participant_admin';

export function userFromHeaders(headers: IncomingHttpHeaders): string {
  const h = headers.authorization;
  if (h === undefined || h.trim() === '') return DEFAULT_USER;
  const m = /^Bearer\s+(\S+)$/i.exec(h.trim());
  if (!m || m[1] === undefined) throw new CantonError('UNAUTHENTICATED', 'The command is missing a (valid) JWT token');
  const parts = m[1].split('.');
  const payloadPart = parts[1];
  if (parts.length !== 3 || payloadPart === undefined)
    throw new CantonError('UNAUTHENTICATED', 'The command is missing a (valid) JWT token: not a JWT');
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8'));
  } catch {
    throw new CantonError('UNAUTHENTICATED', 'The command is missing a (valid) JWT token: undecodable payload');
  }
  if (typeof payload !== 'object' || payload === null) throw new CantonError('UNAUTHENTICATED', 'JWT payload is not an object');
  const sub = (payload as Record<string, unknown>).sub;
  if (typeof sub === 'string' && sub.length > 0) return sub;
  return DEFAULT_USER;
}
