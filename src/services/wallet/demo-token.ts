/**
 * DEMO ONLY. The validator API identifies the wallet user by the `sub` of the bearer JWT. Against the embedded
 * simulator in demo mode (which decodes the token without verifying it) the console acts as any wallet user by
 * minting an HS256 token keyed with a random per-process secret that nobody else knows: no real validator accepts
 * it. Remote profiles never use this; they send the profile's own token.
 */
import { createHmac, randomBytes } from 'node:crypto';

const DEMO_SECRET = randomBytes(32);
const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

export function mintDemoToken(sub: string, audience = 'https://canton.network.global'): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const now = Math.floor(Date.now() / 1000);
  const payload = b64url(JSON.stringify({ sub, aud: audience, iat: now, exp: now + 3600, iss: 'canton-operator-console-demo' }));
  const signature = createHmac('sha256', DEMO_SECRET).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}
