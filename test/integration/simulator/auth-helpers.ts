/**
 * Helpers for the auth tests: minting user tokens (HS256 / RS256 with jose), serving a JWKS over a local
 * HTTP server, and raw HTTP calls (node:http, so a GET may carry a body as some JSON API routes read one).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWK } from 'jose';

export const SECRET = 'simulator-test-secret-0123456789abcdef';
export const SCOPE = 'daml_ledger_api';

export interface TokenOptions {
  /** Default: scope-based (`scope: daml_ledger_api`); pass `scope: null` to leave it out. */
  scope?: string | null;
  aud?: string | string[];
  iss?: string;
  /** Seconds from now; negative = already expired. Default 3600. */
  expiresIn?: number;
  notBefore?: number;
}

function claimsOf(sub: string | undefined, o: TokenOptions): SignJWT {
  const payload: Record<string, unknown> = {};
  if (o.scope !== null) payload.scope = o.scope ?? SCOPE;
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT(payload).setIssuedAt(now - 60).setExpirationTime(now + (o.expiresIn ?? 3600));
  if (sub !== undefined) jwt = jwt.setSubject(sub);
  if (o.aud !== undefined) jwt = jwt.setAudience(o.aud);
  if (o.iss !== undefined) jwt = jwt.setIssuer(o.iss);
  if (o.notBefore !== undefined) jwt = jwt.setNotBefore(now + o.notBefore);
  return jwt;
}

export function hsToken(sub: string | undefined, o: TokenOptions = {}, secret = SECRET): Promise<string> {
  return claimsOf(sub, o).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

export interface RsaKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function rsaKey(kid: string): Promise<RsaKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, publicJwk };
}

export function rsToken(key: RsaKey, sub: string | undefined, o: TokenOptions = {}): Promise<string> {
  return claimsOf(sub, o).setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** A local HTTP server answering `GET /jwks.json` with the given keys; counts the fetches. */
export async function serveJwks(keys: JWK[]): Promise<{ url: string; fetches: () => number; close(): Promise<void> }> {
  let fetches = 0;
  const server = http.createServer((req, res) => {
    if (req.url !== '/jwks.json') {
      res.writeHead(404).end();
      return;
    }
    fetches++;
    const body = JSON.stringify({ keys });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/jwks.json`,
    fetches: () => fetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface RawResponse {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
}

/** One HTTP request with node:http (a GET may carry a body). */
export function send(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const url = new URL(path, base);
  const body = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const headers: Record<string, string | number> = { ...opts.headers };
  if (body !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = Buffer.byteLength(body);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const contentType = res.headers['content-type'] ?? '';
        let json: unknown;
        if (contentType.includes('application/json') && text !== '') json = JSON.parse(text);
        resolve({ status: res.statusCode ?? 0, contentType, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
