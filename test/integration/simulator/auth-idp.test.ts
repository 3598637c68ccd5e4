/**
 * IDP-scoped issuers: a token whose `iss` is a non-default identity provider's issuer is verified against
 * that provider's JWKS URL (served here over local HTTP, fetched once and cached) and authenticates a user
 * of that provider. Unknown issuer, deactivated provider, unreachable JWKS or a wrong audience → 401; a
 * user of another provider → 403. An IdentityProviderAdmin manages users only within its own provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, hsToken, rsaKey, rsToken, SECRET, send, serveJwks } from './auth-helpers.js';
import type { RawResponse, RsaKey } from './auth-helpers.js';
import { openApi, startTestSim } from './helpers.js';
import type { TestSim } from './helpers.js';

const ISSUER = 'https://idp-a.example.com';
const AUDIENCE = 'https://participant.example.com/aud-a';

function code(r: RawResponse, status: number): string {
  expect(r.status, r.text).toBe(status);
  expect(openApi().schema('JsCantonError')(r.json)).toBe(true);
  return (r.json as { code: string }).code;
}

describe('identity-provider-scoped issuers', () => {
  let sim: TestSim;
  let key: RsaKey;
  let jwks: Awaited<ReturnType<typeof serveJwks>>;
  let admin: Record<string, string>;
  const idpToken = (sub: string, o: Parameters<typeof rsToken>[2] = {}) =>
    rsToken(key, sub, { iss: ISSUER, aud: AUDIENCE, scope: null, ...o });

  beforeAll(async () => {
    key = await rsaKey('idp-a-key');
    jwks = await serveJwks([key.publicJwk]);
    sim = await startTestSim({ auth: { mode: 'hs256', secret: SECRET } });
    admin = bearer(await hsToken('participant_admin'));
    const mk = async (path: string, body: unknown) => {
      const r = await send(sim.url, 'POST', path, { headers: admin, body });
      expect(r.status, r.text).toBe(200);
    };
    await mk('/v2/idps', {
      identityProviderConfig: { identityProviderId: 'idp-a', issuer: ISSUER, jwksUrl: jwks.url, audience: AUDIENCE },
    });
    await mk('/v2/idps', {
      identityProviderConfig: {
        identityProviderId: 'idp-down',
        issuer: 'https://down.example.com',
        jwksUrl: 'http://127.0.0.1:9/jwks.json',
      },
    });
    await mk('/v2/users', {
      user: { id: 'ida', identityProviderId: 'idp-a' },
      rights: [{ kind: { IdentityProviderAdmin: { value: {} } } }],
    });
    await mk('/v2/users', { user: { id: 'plain-a', identityProviderId: 'idp-a' } });
    await mk('/v2/users', { user: { id: 'dflt' } });
  });
  afterAll(async () => {
    await sim.dispose();
    await jwks.close();
  });

  it('authenticates a user of the provider with a token verified against its JWKS URL (cached)', async () => {
    const before = jwks.fetches();
    for (let i = 0; i < 3; i++) {
      const r = await send(sim.url, 'GET', '/v2/authenticated-user', { headers: bearer(await idpToken('plain-a')) });
      expect(r.status, r.text).toBe(200);
      openApi().assertResponse('GET', '/v2/authenticated-user', 200, r.json);
      expect((r.json as { user: { id: string; identityProviderId: string } }).user).toMatchObject({
        id: 'plain-a',
        identityProviderId: 'idp-a',
      });
    }
    expect(jwks.fetches() - before).toBeLessThanOrEqual(1);
    expect(jwks.fetches()).toBe(1);
  });

  it('refuses a user of another identity provider (403)', async () => {
    expect(code(await send(sim.url, 'GET', '/v2/authenticated-user', { headers: bearer(await idpToken('dflt')) }), 403)).toBe(
      'PERMISSION_DENIED',
    );
    // and a default-issuer token for a user that belongs to idp-a
    expect(code(await send(sim.url, 'GET', '/v2/authenticated-user', { headers: bearer(await hsToken('plain-a')) }), 403)).toBe(
      'PERMISSION_DENIED',
    );
  });

  it('refuses a wrong audience, an unknown issuer and an unreachable JWKS (401)', async () => {
    const wrongAud = await idpToken('plain-a', { aud: 'https://elsewhere' });
    const unknownIss = await rsToken(key, 'plain-a', { iss: 'https://unknown.example.com', aud: AUDIENCE });
    const down = await rsToken(key, 'plain-a', { iss: 'https://down.example.com' });
    for (const t of [wrongAud, unknownIss, down])
      expect(code(await send(sim.url, 'GET', '/v2/authenticated-user', { headers: bearer(t) }), 401)).toBe('UNAUTHENTICATED');
  });

  it('refuses tokens of a deactivated provider (401) until it is reactivated', async () => {
    const patch = (isDeactivated: boolean) =>
      send(sim.url, 'PATCH', '/v2/idps/idp-a', {
        headers: admin,
        body: {
          identityProviderConfig: { identityProviderId: 'idp-a', issuer: ISSUER, jwksUrl: jwks.url, isDeactivated },
          updateMask: { paths: ['is_deactivated'] },
        },
      });
    expect((await patch(true)).status).toBe(200);
    expect(code(await send(sim.url, 'GET', '/v2/authenticated-user', { headers: bearer(await idpToken('plain-a')) }), 401)).toBe(
      'UNAUTHENTICATED',
    );
    expect((await patch(false)).status).toBe(200);
    expect((await send(sim.url, 'GET', '/v2/authenticated-user', { headers: bearer(await idpToken('plain-a')) })).status).toBe(200);
  });

  it('an IdentityProviderAdmin manages users only within its own provider', async () => {
    const ida = bearer(await idpToken('ida'));
    const list = await send(sim.url, 'GET', '/v2/users', { headers: ida });
    expect(list.status).toBe(200);
    openApi().assertResponse('GET', '/v2/users', 200, list.json);
    expect((list.json as { users: { id: string }[] }).users.map((u) => u.id).sort()).toEqual(['ida', 'plain-a']);

    // no provider named → created in the admin's own provider
    const created = await send(sim.url, 'POST', '/v2/users', { headers: ida, body: { user: { id: 'new-a' } } });
    expect(created.status, created.text).toBe(200);
    expect((created.json as { user: { identityProviderId: string } }).user.identityProviderId).toBe('idp-a');

    expect(
      code(await send(sim.url, 'POST', '/v2/users', { headers: ida, body: { user: { id: 'x1', identityProviderId: 'idp-down' } } }), 403),
    ).toBe('PERMISSION_DENIED');
    const grantAdmin = { user: { id: 'x2' }, rights: [{ kind: { ParticipantAdmin: { value: {} } } }] };
    expect(code(await send(sim.url, 'POST', '/v2/users', { headers: ida, body: grantAdmin }), 403)).toBe('PERMISSION_DENIED');
    expect(code(await send(sim.url, 'GET', '/v2/users/dflt', { headers: ida }), 403)).toBe('PERMISSION_DENIED');
    expect(code(await send(sim.url, 'DELETE', '/v2/users/dflt', { headers: ida }), 403)).toBe('PERMISSION_DENIED');
    expect(code(await send(sim.url, 'GET', '/v2/idps', { headers: ida }), 403)).toBe('PERMISSION_DENIED');
    expect((await send(sim.url, 'GET', '/v2/users/plain-a', { headers: ida })).status).toBe(200);
    expect((await send(sim.url, 'DELETE', '/v2/users/new-a', { headers: ida })).status).toBe(200);
  });

  it('a user may read its own record and rights, not those of others', async () => {
    const me = bearer(await idpToken('plain-a'));
    expect((await send(sim.url, 'GET', '/v2/users/plain-a', { headers: me })).status).toBe(200);
    const rights = await send(sim.url, 'GET', '/v2/users/plain-a/rights', { headers: me });
    expect(rights.status).toBe(200);
    openApi().assertResponse('GET', '/v2/users/{user-id}/rights', 200, rights.json);
    expect(code(await send(sim.url, 'GET', '/v2/users/ida', { headers: me }), 403)).toBe('PERMISSION_DENIED');
    expect(code(await send(sim.url, 'GET', '/v2/users/ida/rights', { headers: me }), 403)).toBe('PERMISSION_DENIED');
  });
});
