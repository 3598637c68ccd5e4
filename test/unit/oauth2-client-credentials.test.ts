/**
 * The client-credentials token provider against a real local OAuth2 token endpoint over HTTP:
 * request format (form body and HTTP Basic), caching, single flight, refresh after a 401, and a
 * specific AUTH_FAILED error for every way the endpoint can fail — none of which echoes a secret.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientCredentialsTokenProvider, type ClientCredentialsConfig } from '../../src/services/auth/client-credentials.js';
import { ConsoleError } from '../../src/ipc/errors.js';
import { startOAuth2Server, verifyHs256, type RunningOAuth2Server } from '../support/oauth2-server.js';

const SIGNING = 'test-signing-secret-for-hs256';
const SECRET = 'cl!ent s3cret:with+odd&chars=ü';
let idp: RunningOAuth2Server;

beforeAll(async () => {
  idp = await startOAuth2Server({ clients: { 'console-client': { secret: SECRET, subject: 'ops-user' } }, signingSecret: SIGNING });
});
afterAll(async () => {
  await idp.close();
});
afterEach(() => {
  idp.requests.length = 0;
  idp.setExpiresIn(3600);
  idp.setDelay(0);
});

function provider(
  over: Partial<ClientCredentialsConfig> = {},
  extra: { secret?: string | null; now?: () => number; timeoutMs?: number } = {},
) {
  const config: ClientCredentialsConfig = {
    tokenUrl: idp.tokenUrl,
    clientId: 'console-client',
    audience: 'https://daml.com/jwt/aud/participant/p1',
    scope: 'daml_ledger_api',
    clientAuthMethod: 'client_secret_post',
    ...over,
  };
  return new ClientCredentialsTokenProvider({
    config,
    clientSecret: () => Promise.resolve(extra.secret === undefined ? SECRET : extra.secret),
    ...(extra.now ? { now: extra.now } : {}),
    ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}),
  });
}

async function authError(p: Promise<unknown>): Promise<ConsoleError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConsoleError);
  const ce = err as ConsoleError;
  expect(ce.code).toBe('AUTH_FAILED');
  expect(JSON.stringify(ce.toIpcError()) + ce.message).not.toContain(SECRET);
  return ce;
}

describe('client credentials token provider', () => {
  it('posts grant_type, client id and secret, audience and scope as a form and returns the signed JWT with its expiry', async () => {
    const before = Date.now();
    const t = await provider().token();
    expect(idp.requests).toEqual([
      expect.objectContaining({
        clientId: 'console-client',
        clientAuth: 'post',
        grantType: 'client_credentials',
        audience: 'https://daml.com/jwt/aud/participant/p1',
        scope: 'daml_ledger_api',
        contentType: 'application/x-www-form-urlencoded',
        outcome: 'issued',
      }),
    ]);
    const claims = verifyHs256(t.value, SIGNING);
    expect(claims).toMatchObject({ sub: 'ops-user', aud: 'https://daml.com/jwt/aud/participant/p1', scope: 'daml_ledger_api' });
    expect(t.expiresAt).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(t.expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000);
  });

  it(
    'authenticates with HTTP Basic (client_secret_basic), form-encoding id and secret, ' + 'and leaves audience/scope out when unset',
    async () => {
      const t = await provider({ clientAuthMethod: 'client_secret_basic', audience: null, scope: null }).token();
      expect(idp.requests).toEqual([
        expect.objectContaining({ clientAuth: 'basic', clientId: 'console-client', audience: null, scope: null, outcome: 'issued' }),
      ]);
      expect(verifyHs256(t.value, SIGNING)?.sub).toBe('ops-user');
    },
  );

  it('caches the token until shortly before expiry, then fetches a new one', async () => {
    let now = Date.now();
    idp.setExpiresIn(600);
    const p = provider({}, { now: () => now });
    const a = await p.token();
    now += 60_000;
    expect((await p.token()).value).toBe(a.value);
    expect(idp.requests).toHaveLength(1);
    // 600 s lifetime, 30 s margin: at 571 s a new token is due.
    now += 511_000;
    const b = await p.token();
    expect(idp.requests).toHaveLength(2);
    expect(b.value).not.toBe(a.value);
  });

  it('shares one request between concurrent callers (single flight)', async () => {
    idp.setDelay(150);
    const p = provider();
    const tokens = await Promise.all(Array.from({ length: 20 }, () => p.token()));
    expect(idp.requests).toHaveLength(1);
    expect(new Set(tokens.map((t) => t.value)).size).toBe(1);
  });

  it('refreshes once after a rejection; concurrent refreshes of the same rejected token share one request', async () => {
    const p = provider();
    const first = await p.token();
    idp.setDelay(100);
    const [r1, r2] = await Promise.all([p.refresh(first.value), p.refresh(first.value)]);
    expect(idp.requests).toHaveLength(2);
    expect(r1?.value).toBe(r2?.value);
    expect(r1?.value).not.toBe(first.value);
    // A late refresh for the old token gets the new one without another request.
    expect((await p.refresh(first.value))?.value).toBe(r1?.value);
    expect(idp.requests).toHaveLength(2);
  });

  it('uses the JWT exp claim when the endpoint omits expires_in', async () => {
    idp.setExpiresIn(null);
    const t = await provider().token();
    const exp = verifyHs256(t.value, SIGNING)?.exp as number;
    expect(t.expiresAt).toBe(exp * 1000);
  });

  it('reports the OAuth error and description with the HTTP status for bad client credentials', async () => {
    const err = await authError(provider({}, { secret: 'wrong secret' }).token());
    expect(err.canton).toMatchObject({ code: 'invalid_client', httpStatus: 401, cause: 'Client authentication failed' });
    expect(err.message).toContain('HTTP 401 invalid_client — Client authentication failed');
    expect(err.message).not.toContain('wrong secret');
  });

  it('reports an unknown audience the endpoint refuses (400 invalid_request) without caching the failure', async () => {
    idp.failNext({ kind: 'status', status: 400, body: { error: 'invalid_request', error_description: 'unknown audience' } });
    const p = provider();
    const err = await authError(p.token());
    expect(err.canton).toMatchObject({ code: 'invalid_request', httpStatus: 400 });
    expect((await p.token()).value).toMatch(/^ey/);
    expect(idp.requests).toHaveLength(2);
  });

  it('reports an HTTP error without an OAuth body', async () => {
    idp.failNext({ kind: 'status', status: 503, body: { message: 'maintenance' } });
    const err = await authError(provider().token());
    expect(err.canton).toMatchObject({ code: 'TOKEN_ENDPOINT_HTTP_ERROR', httpStatus: 503 });
  });

  it('reports a timeout', async () => {
    idp.failNext({ kind: 'hang' });
    const started = Date.now();
    const err = await authError(provider({}, { timeoutMs: 400 }).token());
    expect(err.canton?.code).toBe('TOKEN_ENDPOINT_TIMEOUT');
    expect(err.message).toMatch(/did not answer within/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reports a body that is not JSON (e.g. a login page)', async () => {
    idp.failNext({ kind: 'not-json' });
    const err = await authError(provider().token());
    expect(err.canton).toMatchObject({ code: 'TOKEN_ENDPOINT_NOT_JSON', httpStatus: 200 });
    expect(err.message).toContain('text/html');
    expect(err.message).not.toContain('Sign in');
  });

  it('refuses a success answer without access_token, or with a token type other than Bearer', async () => {
    idp.failNext({ kind: 'status', status: 200, body: { token_type: 'Bearer', expires_in: 60 } });
    expect((await authError(provider().token())).canton?.code).toBe('TOKEN_ENDPOINT_INVALID_RESPONSE');
    idp.failNext({ kind: 'status', status: 200, body: { access_token: 'abc.def.ghi', token_type: 'mac', expires_in: 60 } });
    const err = await authError(provider().token());
    expect(err.message).toContain('only Bearer tokens are supported');
    expect(err.message).not.toContain('abc.def.ghi');
  });

  it('does not follow a redirect (which would resend the client secret)', async () => {
    let hits = 0;
    const elsewhere = http.createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
    try {
      idp.failNext({ kind: 'redirect', location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/steal` });
      const err = await authError(provider().token());
      expect(err.canton).toMatchObject({ code: 'TOKEN_ENDPOINT_REDIRECT', httpStatus: 307 });
      expect(hits).toBe(0);
    } finally {
      await new Promise<void>((r) => elsewhere.close(() => r()));
    }
  });

  it('reports an unreachable token endpoint', async () => {
    const err = await authError(provider({ tokenUrl: 'http://127.0.0.1:9/token' }).token());
    expect(err.canton?.code).toBe('TOKEN_ENDPOINT_UNREACHABLE');
  });

  it('sends nothing when no client secret is stored', async () => {
    const err = await authError(provider({}, { secret: null }).token());
    expect(err.canton?.code).toBe('CLIENT_SECRET_MISSING');
    expect(idp.requests).toHaveLength(0);
  });
});
