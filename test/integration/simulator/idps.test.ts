/**
 * Identity provider configurations (`/v2/idps`) and moving users between identity providers, over
 * real HTTP; every JSON answer is validated against the reference OpenAPI spec by `call`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, cantonError, startTestSim } from './helpers.js';
import type { ApiResponse, TestSim } from './helpers.js';

type Idp = { identityProviderId: string; issuer: string; jwksUrl: string; audience?: string; isDeactivated?: boolean };

const idp = (id: string, extra: Partial<Idp> = {}): Idp => ({
  identityProviderId: id,
  issuer: `https://issuer.example.com/${id}`,
  jwksUrl: `https://issuer.example.com/${id}/jwks.json`,
  ...extra,
});
const create = (base: string, config: unknown): Promise<ApiResponse> =>
  call(base, 'POST', '/v2/idps', { body: { identityProviderConfig: config } });
const get = (base: string, id: string): Promise<ApiResponse> =>
  call(base, 'GET', '/v2/idps/{idp-id}', { path: `/v2/idps/${encodeURIComponent(id)}` });
const list = async (base: string): Promise<Idp[]> => {
  const r = await call(base, 'GET', '/v2/idps');
  expect(r.status).toBe(200);
  return (r.json as { identityProviderConfigs: Idp[] }).identityProviderConfigs;
};
const patch = (base: string, id: string, config: unknown, paths: string[]): Promise<ApiResponse> =>
  call(base, 'PATCH', '/v2/idps/{idp-id}', {
    path: `/v2/idps/${encodeURIComponent(id)}`,
    body: { identityProviderConfig: config, updateMask: { paths, unknownFields: { fields: {} } } },
  });
const moveUser = (base: string, userId: string, source: string | undefined, target: string | undefined): Promise<ApiResponse> =>
  call(base, 'PATCH', '/v2/users/{user-id}/identity-provider-id', {
    path: `/v2/users/${encodeURIComponent(userId)}/identity-provider-id`,
    body: {
      userId,
      ...(source !== undefined ? { sourceIdentityProviderId: source } : {}),
      ...(target !== undefined ? { targetIdentityProviderId: target } : {}),
    },
  });
const userIdp = async (base: string, userId: string): Promise<string> => {
  const r = await call(base, 'GET', '/v2/users/{user-id}', { path: `/v2/users/${encodeURIComponent(userId)}` });
  return (r.json as { user: { identityProviderId?: string } }).user.identityProviderId ?? '';
};

describe('identity provider configurations', () => {
  let sim: TestSim;
  beforeAll(async () => {
    sim = await startTestSim({ settings: { maxIdentityProviderConfigs: 3 } });
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('creates, gets, lists, updates with a field mask and deletes a configuration', async () => {
    expect(await list(sim.url)).toEqual([]);
    const created = await create(sim.url, idp('okta', { audience: 'ledger' }));
    expect(created.status).toBe(200);
    expect((created.json as { identityProviderConfig: Idp }).identityProviderConfig).toEqual({
      ...idp('okta'),
      audience: 'ledger',
      isDeactivated: false,
    });

    const got = await get(sim.url, 'okta');
    expect((got.json as { identityProviderConfig: Idp }).identityProviderConfig.issuer).toBe('https://issuer.example.com/okta');
    expect((await list(sim.url)).map((c) => c.identityProviderId)).toEqual(['okta']);

    // Only the masked fields change: the new issuer is ignored because it is not in the mask.
    const upd = await patch(
      sim.url,
      'okta',
      { identityProviderId: 'okta', issuer: 'https://other.example.com', jwksUrl: 'https://keys.example.com/jwks', isDeactivated: true },
      ['jwks_url', 'is_deactivated'],
    );
    expect(upd.status).toBe(200);
    const updated = (upd.json as { identityProviderConfig: Idp }).identityProviderConfig;
    expect(updated).toMatchObject({
      issuer: 'https://issuer.example.com/okta',
      jwksUrl: 'https://keys.example.com/jwks',
      isDeactivated: true,
      audience: 'ledger',
    });
    const camel = await patch(sim.url, 'okta', { identityProviderId: 'okta', issuer: '', jwksUrl: '', audience: '' }, ['audience']);
    expect((camel.json as { identityProviderConfig: Idp }).identityProviderConfig.audience).toBe('');
    expect((await get(sim.url, 'okta')).json).toMatchObject({
      identityProviderConfig: { jwksUrl: 'https://keys.example.com/jwks', audience: '' },
    });

    const del = await call(sim.url, 'DELETE', '/v2/idps/{idp-id}', { path: '/v2/idps/okta' });
    expect(del.status).toBe(200);
    expect(del.json).toEqual({});
    expect(await list(sim.url)).toEqual([]);
  });

  it('answers Canton errors for duplicates, unknown ids and bad updates', async () => {
    expect((await create(sim.url, idp('dup'))).status).toBe(200);
    const dup = await create(sim.url, idp('dup', { issuer: 'https://fresh.example.com' }));
    expect(dup.status).toBe(409);
    expect(cantonError(dup)).toMatchObject({ code: 'IDP_CONFIG_ALREADY_EXISTS', errorCategory: 10, grpcCodeValue: 6 });
    const sameIssuer = await create(sim.url, idp('dup2', { issuer: idp('dup').issuer }));
    expect(sameIssuer.status).toBe(409);
    expect(cantonError(sameIssuer).code).toBe('IDP_CONFIG_ISSUER_ALREADY_EXISTS');

    for (const r of [
      await get(sim.url, 'nope'),
      await patch(sim.url, 'nope', idp('nope'), ['issuer']),
      await call(sim.url, 'DELETE', '/v2/idps/{idp-id}', { path: '/v2/idps/nope' }),
    ]) {
      expect(r.status).toBe(404);
      const e = cantonError(r);
      expect(e).toMatchObject({ code: 'IDP_CONFIG_NOT_FOUND', errorCategory: 11, grpcCodeValue: 5 });
      expect(e.cause).toContain('identity provider id="nope"');
    }

    const emptyMask = await patch(sim.url, 'dup', idp('dup'), []);
    expect(emptyMask.status).toBe(400);
    expect(cantonError(emptyMask).code).toBe('INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST');
    const badPath = await patch(sim.url, 'dup', idp('dup'), ['identity_provider_id']);
    expect(cantonError(badPath).code).toBe('INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST');
    const mismatch = await patch(sim.url, 'dup', idp('other'), ['issuer']);
    expect(mismatch.status).toBe(400);
    expect(cantonError(mismatch).code).toBe('INVALID_ARGUMENT');
    expect((await call(sim.url, 'DELETE', '/v2/idps/{idp-id}', { path: '/v2/idps/dup' })).status).toBe(200);
  });

  it('validates bodies: 400 text/plain for undecodable input, JSON errors for invalid fields, never a 5xx', async () => {
    const cases: Array<{ body?: unknown; raw?: string; code?: string }> = [
      { raw: '{not json' },
      { body: {} },
      { body: { identityProviderConfig: { identityProviderId: 'x' } } },
      { body: { identityProviderConfig: { ...idp('x'), isDeactivated: 'yes' } } },
      { body: { identityProviderConfig: idp('') }, code: 'MISSING_FIELD' },
      { body: { identityProviderConfig: idp('bad id!') }, code: 'INVALID_FIELD' },
      { body: { identityProviderConfig: { ...idp('x'), issuer: '' } }, code: 'MISSING_FIELD' },
      { body: { identityProviderConfig: { ...idp('x'), jwksUrl: 'not a url' } }, code: 'INVALID_FIELD' },
      { body: { identityProviderConfig: { ...idp('x'), jwksUrl: 'ftp://keys.example.com' } }, code: 'INVALID_FIELD' },
    ];
    for (const c of cases) {
      const r = await call(sim.url, 'POST', '/v2/idps', c.raw !== undefined ? { rawBody: c.raw } : { body: c.body });
      expect(r.status, JSON.stringify(c)).toBe(400);
      if (c.code) expect(cantonError(r).code).toBe(c.code);
      else expect(r.contentType).toMatch(/^text\/plain/);
    }
    const badPatch = await call(sim.url, 'PATCH', '/v2/idps/{idp-id}', { path: '/v2/idps/x', rawBody: '[]' });
    expect(badPatch.status).toBe(400);
    expect(await list(sim.url)).toEqual([]);
  });

  it('refuses to create more than the configured maximum with TOO_MANY_IDENTITY_PROVIDER_CONFIGS', async () => {
    for (const id of ['a', 'b', 'c']) expect((await create(sim.url, idp(id))).status).toBe(200);
    const over = await create(sim.url, idp('d'));
    expect(over.status).toBe(400);
    const e = cantonError(over);
    expect(e).toMatchObject({ code: 'TOO_MANY_IDENTITY_PROVIDER_CONFIGS', errorCategory: 9, grpcCodeValue: 9 });
    expect((over.json as { context: Record<string, string> }).context.maxIdentityProviderConfigs).toBe('3');
    expect((await list(sim.url)).map((c) => c.identityProviderId)).toEqual(['a', 'b', 'c']);
    // Freeing a slot makes room again.
    await call(sim.url, 'DELETE', '/v2/idps/{idp-id}', { path: '/v2/idps/c' });
    expect((await create(sim.url, idp('d'))).status).toBe(200);
    for (const id of ['a', 'b', 'd']) await call(sim.url, 'DELETE', '/v2/idps/{idp-id}', { path: `/v2/idps/${id}` });
  });

  it('defaults to a maximum of 10 configurations', async () => {
    const other = await startTestSim();
    try {
      for (let i = 0; i < 10; i++) expect((await create(other.url, idp(`idp-${i}`))).status).toBe(200);
      expect(cantonError(await create(other.url, idp('idp-10'))).code).toBe('TOO_MANY_IDENTITY_PROVIDER_CONFIGS');
    } finally {
      await other.dispose();
    }
  });

  it('keeps configurations across a restart', async () => {
    const first = await startTestSim();
    await create(first.url, idp('durable'));
    await first.close();
    const again = await startTestSim({ dataDir: first.dataDir });
    try {
      expect((await list(again.url)).map((c) => c.identityProviderId)).toEqual(['durable']);
    } finally {
      await again.dispose();
    }
  });

  it('moves a user between identity providers', async () => {
    await create(sim.url, idp('corp'));
    await create(sim.url, idp('partner'));
    expect((await call(sim.url, 'POST', '/v2/users', { body: { user: { id: 'mover' } } })).status).toBe(200);
    expect(await userIdp(sim.url, 'mover')).toBe('');

    const toCorp = await moveUser(sim.url, 'mover', undefined, 'corp');
    expect(toCorp.status).toBe(200);
    expect(toCorp.json).toEqual({});
    expect(await userIdp(sim.url, 'mover')).toBe('corp');

    // The source must be the user's current identity provider.
    const wrongSource = await moveUser(sim.url, 'mover', 'partner', '');
    expect(wrongSource.status).toBe(404);
    expect(cantonError(wrongSource).code).toBe('USER_NOT_FOUND');
    const unknownTarget = await moveUser(sim.url, 'mover', 'corp', 'ghost');
    expect(unknownTarget.status).toBe(404);
    expect(cantonError(unknownTarget).code).toBe('IDP_CONFIG_NOT_FOUND');
    expect(await userIdp(sim.url, 'mover')).toBe('corp');

    expect((await moveUser(sim.url, 'mover', 'corp', 'partner')).status).toBe(200);
    expect(await userIdp(sim.url, 'mover')).toBe('partner');
    // Rights survive the move.
    const rights = await call(sim.url, 'GET', '/v2/users/{user-id}/rights', { path: '/v2/users/mover/rights' });
    expect(rights.status).toBe(200);
    expect((await moveUser(sim.url, 'mover', 'partner', '')).status).toBe(200);
    expect(await userIdp(sim.url, 'mover')).toBe('');

    const unknownUser = await moveUser(sim.url, 'nobody', undefined, 'corp');
    expect(cantonError(unknownUser).code).toBe('USER_NOT_FOUND');
    const mismatch = await call(sim.url, 'PATCH', '/v2/users/{user-id}/identity-provider-id', {
      path: '/v2/users/mover/identity-provider-id',
      body: { userId: 'someone-else', targetIdentityProviderId: 'corp' },
    });
    expect(cantonError(mismatch).code).toBe('INVALID_ARGUMENT');
    const undecodable = await call(sim.url, 'PATCH', '/v2/users/{user-id}/identity-provider-id', {
      path: '/v2/users/mover/identity-provider-id',
      rawBody: '{"userId": 5}',
    });
    expect(undecodable.status).toBe(400);
    expect(undecodable.contentType).toMatch(/^text\/plain/);
  });
});
