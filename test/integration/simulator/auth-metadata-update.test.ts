/**
 * Party and user PATCH follow Canton's ObjectMeta semantics: annotations merge (empty value deletes the
 * key, keys not named are kept) and a stale resourceVersion is a concurrent-update conflict
 * (CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED / CONCURRENT_USER_UPDATE_DETECTED, 409) that changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocate, call, cantonError, startTestSim } from './helpers.js';
import type { TestSim } from './helpers.js';

type PartyDetails = { party: string; localMetadata: { resourceVersion: string; annotations: Record<string, string> } };
type User = { id: string; metadata: { resourceVersion: string; annotations: Record<string, string> } };

describe('party and user metadata updates', () => {
  let sim: TestSim;
  let alice: string;
  beforeAll(async () => {
    sim = await startTestSim();
    alice = await allocate(sim.url, 'Alice');
  });
  afterAll(async () => {
    await sim.dispose();
  });

  const getParty = async (): Promise<PartyDetails> => {
    const r = await call(sim.url, 'GET', '/v2/parties/{party}', { path: `/v2/parties/${encodeURIComponent(alice)}` });
    return (r.json as { partyDetails: PartyDetails[] }).partyDetails[0] as PartyDetails;
  };
  const patchParty = (resourceVersion: string, annotations: Record<string, string>) =>
    call(sim.url, 'PATCH', '/v2/parties/{party}', {
      path: `/v2/parties/${encodeURIComponent(alice)}`,
      body: {
        partyDetails: { party: alice, localMetadata: { resourceVersion, annotations } },
        updateMask: { paths: ['local_metadata.annotations'] },
      },
    });

  it('party: merges annotations, deletes keys sent with an empty value, refuses a stale resourceVersion', async () => {
    const v0 = (await getParty()).localMetadata.resourceVersion;
    const first = await patchParty(v0, { team: 'ops', tier: 'gold', region: 'emea' });
    expect(first.status).toBe(200);
    const v1 = (first.json as { partyDetails: PartyDetails }).partyDetails.localMetadata.resourceVersion;
    expect(v1).not.toBe(v0);

    const second = await patchParty(v1, { tier: '', team: 'treasury' });
    expect(second.status).toBe(200);
    expect((second.json as { partyDetails: PartyDetails }).partyDetails.localMetadata.annotations).toEqual({
      team: 'treasury',
      region: 'emea',
    });
    expect((await getParty()).localMetadata.annotations).toEqual({ team: 'treasury', region: 'emea' });

    const stale = await patchParty(v1, { team: 'x' });
    expect(stale.status).toBe(409);
    const err = cantonError(stale);
    expect(err.code).toBe('CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED');
    expect(err.grpcCodeValue).toBe(10);
    expect(err.errorCategory).toBe(2);
    expect((await getParty()).localMetadata.annotations).toEqual({ team: 'treasury', region: 'emea' });
  });

  it('user: merges annotations, deletes keys sent with an empty value, refuses a stale resourceVersion', async () => {
    const created = await call(sim.url, 'POST', '/v2/users', {
      body: { user: { id: 'meta-user', metadata: { annotations: { a: '1', b: '2' } } } },
    });
    expect(created.status).toBe(200);
    const v0 = (created.json as { user: User }).user.metadata.resourceVersion;
    const patch = (resourceVersion: string, annotations: Record<string, string>) =>
      call(sim.url, 'PATCH', '/v2/users/{user-id}', {
        path: '/v2/users/meta-user',
        body: { user: { id: 'meta-user', metadata: { resourceVersion, annotations } }, updateMask: { paths: ['metadata.annotations'] } },
      });
    const upd = await patch(v0, { a: '', c: '3' });
    expect(upd.status).toBe(200);
    const user = (upd.json as { user: User }).user;
    expect(user.metadata.annotations).toEqual({ b: '2', c: '3' });
    expect(user.metadata.resourceVersion).not.toBe(v0);

    const stale = await patch(v0, { b: '' });
    expect(stale.status).toBe(409);
    const err = cantonError(stale);
    expect(err.code).toBe('CONCURRENT_USER_UPDATE_DETECTED');
    expect(err.grpcCodeValue).toBe(10);
    const got = await call(sim.url, 'GET', '/v2/users/{user-id}', { path: '/v2/users/meta-user' });
    expect((got.json as { user: User }).user.metadata.annotations).toEqual({ b: '2', c: '3' });
  });
});
