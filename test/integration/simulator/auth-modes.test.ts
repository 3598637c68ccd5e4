/**
 * JWT auth modes over real HTTP: HS256 shared secret and RS256 with a JWKS file; scope- and
 * audience-based user tokens, issuer, expiry, not-before, signatures; unknown and deactivated users;
 * endpoints Canton serves without a token; the wallet API reading the verified token. Every refusal is a
 * JsCantonError validated against the reference OpenAPI spec.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, hsToken, rsaKey, rsToken, SECRET, send } from './auth-helpers.js';
import type { RawResponse, RsaKey } from './auth-helpers.js';
import { makeTempDir, openApi, startTestSim } from './helpers.js';
import type { TestSim } from './helpers.js';
import { stringMatching } from '../../support/matchers.js';

/** Asserts a spec-conformant JsCantonError for an operation of the reference spec and returns its code. */
function errorCode(r: RawResponse, method: string, specPath: string, status: number): string {
  expect(r.status, r.text).toBe(status);
  const v = openApi().schema('JsCantonError');
  expect(v(r.json), JSON.stringify(v.errors)).toBe(true);
  openApi().assertResponse(method, specPath, status, r.json);
  return (r.json as { code: string }).code;
}

const ledgerEnd = (base: string, headers: Record<string, string> = {}) => send(base, 'GET', '/v2/state/ledger-end', { headers });

describe('HS256 mode (scope-based tokens)', () => {
  let sim: TestSim;
  beforeAll(async () => {
    sim = await startTestSim({ auth: { mode: 'hs256', secret: SECRET } });
    const admin = bearer(await hsToken('participant_admin'));
    expect((await send(sim.url, 'POST', '/v2/users', { headers: admin, body: { user: { id: 'plain' } } })).status).toBe(200);
    expect(
      (await send(sim.url, 'POST', '/v2/users', { headers: admin, body: { user: { id: 'sleeper', isDeactivated: true } } })).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('requires a token: none or a malformed header is UNAUTHENTICATED (401)', async () => {
    expect(errorCode(await ledgerEnd(sim.url), 'GET', '/v2/state/ledger-end', 401)).toBe('UNAUTHENTICATED');
    expect(errorCode(await ledgerEnd(sim.url, { authorization: 'Basic abc' }), 'GET', '/v2/state/ledger-end', 401)).toBe('UNAUTHENTICATED');
    expect(errorCode(await ledgerEnd(sim.url, bearer('not.a.jwt')), 'GET', '/v2/state/ledger-end', 401)).toBe('UNAUTHENTICATED');
  });

  it('accepts a valid user token', async () => {
    const r = await ledgerEnd(sim.url, bearer(await hsToken('plain')));
    expect(r.status).toBe(200);
    openApi().assertResponse('GET', '/v2/state/ledger-end', 200, r.json);
    const me = await send(sim.url, 'GET', '/v2/authenticated-user', { headers: bearer(await hsToken('plain')) });
    expect((me.json as { user: { id: string } }).user.id).toBe('plain');
  });

  it('refuses bad signatures, expired, not-yet-valid and scope-less tokens with 401', async () => {
    const cases = [
      await hsToken('plain', {}, 'another-secret-another-secret-0000'),
      await hsToken('plain', { expiresIn: -10 }),
      await hsToken('plain', { notBefore: 600 }),
      await hsToken('plain', { scope: null }),
      await hsToken('plain', { scope: 'openid profile' }),
      await hsToken(undefined),
    ];
    for (const t of cases)
      expect(errorCode(await ledgerEnd(sim.url, bearer(t)), 'GET', '/v2/state/ledger-end', 401)).toBe('UNAUTHENTICATED');
  });

  it('refuses tokens of unknown or deactivated users with PERMISSION_DENIED (403)', async () => {
    expect(errorCode(await ledgerEnd(sim.url, bearer(await hsToken('ghost'))), 'GET', '/v2/state/ledger-end', 403)).toBe(
      'PERMISSION_DENIED',
    );
    expect(errorCode(await ledgerEnd(sim.url, bearer(await hsToken('sleeper'))), 'GET', '/v2/state/ledger-end', 403)).toBe(
      'PERMISSION_DENIED',
    );
  });

  it('serves version and health endpoints without a token', async () => {
    const v = await send(sim.url, 'GET', '/v2/version');
    expect(v.status).toBe(200);
    openApi().assertResponse('GET', '/v2/version', 200, v.json);
    expect((await send(sim.url, 'GET', '/livez')).status).toBe(200);
    expect((await send(sim.url, 'GET', '/readyz')).status).toBe(200);
  });

  it('the wallet API takes its user from the verified token only', async () => {
    const none = await send(sim.url, 'GET', '/api/validator/v0/wallet/user-status');
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ error: stringMatching(/JWT/) });
    const forged = await send(sim.url, 'GET', '/api/validator/v0/wallet/user-status', {
      headers: bearer(await hsToken('plain', {}, 'forged-secret-forged-secret-00000')),
    });
    expect(forged.status).toBe(401);
    const ok = await send(sim.url, 'GET', '/api/validator/v0/wallet/user-status', { headers: bearer(await hsToken('plain')) });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ user_onboarded: false });
    const notOperator = await send(sim.url, 'GET', '/api/validator/v0/admin/users', { headers: bearer(await hsToken('plain')) });
    expect(notOperator.status).toBe(403);
  });

  it("authorization does not change the handlers' own validation of a malformed body", async () => {
    const admin = bearer(await hsToken('participant_admin'));
    const bad = await send(sim.url, 'POST', '/v2/users', { headers: admin, body: '{"user": ' });
    expect(bad.status).toBe(400);
    expect(bad.contentType).toMatch(/^text\/plain/);
    expect(bad.text).toMatch(/^Invalid value for: body/);
    const badId = await send(sim.url, 'POST', '/v2/users', { headers: admin, body: { user: { id: 'Not Valid' } } });
    expect(errorCode(badId, 'POST', '/v2/users', 400)).toBe('INVALID_FIELD');
    // a submission whose actAs is not a list of parties carries no party claims: the handler rejects it (400), not authz
    const wrongShape = await send(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      headers: bearer(await hsToken('plain')),
      body: { commandId: 'c', actAs: 'x', commands: [] },
    });
    expect(wrongShape.status).toBe(400);
    expect(wrongShape.text).toMatch(/^Invalid value for: body/);
    // but without a token the answer is 401 whatever the body
    expect(errorCode(await send(sim.url, 'POST', '/v2/users', { body: '{"user": ' }), 'POST', '/v2/users', 401)).toBe('UNAUTHENTICATED');
  });

  it('keeps no token in error bodies', async () => {
    const t = await hsToken('plain', { expiresIn: -10 });
    const r = await ledgerEnd(sim.url, bearer(t));
    expect(r.status).toBe(401);
    expect(r.text).not.toContain(t);
    expect(r.text).not.toContain(t.split('.')[1] as string);
  });
});

describe('HS256 mode with audience and issuer', () => {
  let sim: TestSim;
  const audience = 'https://daml.com/jwt/aud/participant/participant1';
  const issuer = 'https://idp.example.com';
  beforeAll(async () => {
    sim = await startTestSim({ auth: { mode: 'hs256', secret: SECRET, audience, issuer } });
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('accepts audience-based tokens (no scope needed) from the configured issuer', async () => {
    expect((await ledgerEnd(sim.url, bearer(await hsToken('participant_admin', { aud: audience, iss: issuer, scope: null })))).status).toBe(
      200,
    );
    expect((await ledgerEnd(sim.url, bearer(await hsToken('participant_admin', { aud: ['other', audience], iss: issuer })))).status).toBe(
      200,
    );
  });

  it('refuses a wrong or missing audience and an unknown issuer', async () => {
    for (const t of [
      await hsToken('participant_admin', { aud: 'https://someone.else', iss: issuer }),
      await hsToken('participant_admin', { iss: issuer }),
      await hsToken('participant_admin', { aud: audience, iss: 'https://unknown.example.com' }),
      await hsToken('participant_admin', { aud: audience }),
    ])
      expect(errorCode(await ledgerEnd(sim.url, bearer(t)), 'GET', '/v2/state/ledger-end', 401)).toBe('UNAUTHENTICATED');
  });
});

describe('RS256 mode with a JWKS file', () => {
  let sim: TestSim;
  let key: RsaKey;
  let stranger: RsaKey;
  let dir: string;
  beforeAll(async () => {
    key = await rsaKey('k1');
    stranger = await rsaKey('k1'); // same kid, different key: the signature must decide
    dir = makeTempDir('sim-jwks-');
    const jwksFile = path.join(dir, 'jwks.json');
    writeFileSync(jwksFile, JSON.stringify({ keys: [key.publicJwk] }));
    sim = await startTestSim({ auth: { mode: 'rs256', jwksFile } });
  });
  afterAll(async () => {
    await sim.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('accepts tokens signed with a key of the JWKS', async () => {
    expect((await ledgerEnd(sim.url, bearer(await rsToken(key, 'participant_admin')))).status).toBe(200);
  });

  it('refuses other keys, HS256 tokens and expired tokens', async () => {
    for (const t of [
      await rsToken(stranger, 'participant_admin'),
      await hsToken('participant_admin'),
      await rsToken(key, 'participant_admin', { expiresIn: -5 }),
    ])
      expect(errorCode(await ledgerEnd(sim.url, bearer(t)), 'GET', '/v2/state/ledger-end', 401)).toBe('UNAUTHENTICATED');
  });

  it('refuses to start with an unreadable or empty JWKS file', async () => {
    await expect(
      startTestSim({ dataDir: path.join(dir, 'd1'), auth: { mode: 'rs256', jwksFile: path.join(dir, 'missing.json') } }),
    ).rejects.toThrow(/cannot read JWKS file/);
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{"keys": []}');
    await expect(startTestSim({ dataDir: path.join(dir, 'd2'), auth: { mode: 'rs256', jwksFile: bad } })).rejects.toThrow(/no keys/);
  });

  it('rejects an invalid auth config with the offending field', async () => {
    await expect(startTestSim({ dataDir: path.join(dir, 'd3'), auth: { mode: 'hs256', secret: '' } })).rejects.toThrow(/auth\.secret/);
    await expect(startTestSim({ dataDir: path.join(dir, 'd4'), auth: { mode: 'hs256', secret: SECRET, audience: '' } })).rejects.toThrow(
      /auth\.audience/,
    );
  });
});
