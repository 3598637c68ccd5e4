/**
 * Validator endpoints beyond user onboarding, over real HTTP and validated against the Splice specs: validator-user,
 * self-registration, feature support, the operator's TransferPreapproval list / lookup / cancel, and the provider's
 * renewal of preapprovals before they expire (static time).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, onboard, OPERATOR, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
let bob: string;
const DAY = 24 * 3600;

beforeAll(async () => {
  sim = await startTestSim({ staticTime: true });
  base = sim.url;
  bob = await onboard(base, 'bob');
});
afterAll(async () => {
  await sim.dispose();
});

describe('validator info and registration', () => {
  it('validator-user names the operator; register onboards the JWT subject once', async () => {
    const info = await wok(base, undefined, 'GET', '/v0/validator-user');
    expect(info).toMatchObject({ user_name: OPERATOR, featured: false });
    expect(String(info.party_id)).toMatch(new RegExp(`^${OPERATOR}::1220`));
    const reg = await wok(base, 'zoe', 'POST', '/v0/register', { body: {} });
    expect(String(reg.party_id)).toMatch(/^zoe::1220/);
    expect((await wok(base, 'zoe', 'POST', '/v0/register', { body: {} })).party_id).toBe(reg.party_id);
    expect(await wok(base, 'zoe', 'GET', '/v0/wallet/user-status')).toMatchObject({ party_id: reg.party_id, user_onboarded: true });
    expect((await wcall(base, undefined, 'POST', '/v0/register', { body: {} })).status).toBe(401);
    expect(await wok(base, 'zoe', 'GET', '/v0/feature-support')).toEqual({ token_standard: true, transfer_preapproval_description: true });
  });
});

describe('transfer preapprovals (operator view)', () => {
  it('lists, looks up and cancels the preapprovals the validator provides', async () => {
    const created = await wok(base, 'bob', 'POST', '/v0/wallet/transfer-preapproval');
    const list = (await wok(base, OPERATOR, 'GET', '/v0/admin/transfer-preapprovals')).contracts as {
      contract: { contract_id: string; payload: { receiver: string } };
    }[];
    expect(list.map((c) => c.contract.contract_id)).toContain(created.transfer_preapproval_contract_id);
    const path = `/v0/admin/transfer-preapprovals/by-party/${encodeURIComponent(bob)}`;
    const one = await wok(base, OPERATOR, 'GET', '/v0/admin/transfer-preapprovals/by-party/{receiver-party}', { path });
    expect((one.transfer_preapproval as { contract: { payload: { receiver: string } } }).contract.payload.receiver).toBe(bob);
    expect((await wcall(base, 'bob', 'GET', '/v0/admin/transfer-preapprovals')).status).toBe(403);
    expect(
      (
        await wcall(base, OPERATOR, 'GET', '/v0/admin/transfer-preapprovals/by-party/{receiver-party}', {
          path: '/v0/admin/transfer-preapprovals/by-party/nobody%3A%3A1220ab',
        })
      ).status,
    ).toBe(404);

    await wok(base, OPERATOR, 'DELETE', '/v0/admin/transfer-preapprovals/by-party/{receiver-party}', { path });
    expect((await wcall(base, OPERATOR, 'GET', '/v0/admin/transfer-preapprovals/by-party/{receiver-party}', { path })).status).toBe(404);
    // without its preapproval bob cannot receive one-step transfers any more
    await wok(base, 'zoe', 'POST', '/v0/wallet/tap', { body: { amount: '10' } });
    expect(
      (
        await wcall(base, 'zoe', 'POST', '/v0/wallet/transfer-preapproval/send', {
          body: { receiver_party_id: bob, amount: '1', deduplication_id: 'after-cancel' },
        })
      ).status,
    ).toBe(404);
  });

  it('the provider renews a preapproval that expires within the renewal window', async () => {
    await wok(base, 'bob', 'POST', '/v0/wallet/transfer-preapproval');
    const expiry = async () => {
      const path = `/v0/admin/transfer-preapprovals/by-party/${encodeURIComponent(bob)}`;
      const r = await wok(base, OPERATOR, 'GET', '/v0/admin/transfer-preapprovals/by-party/{receiver-party}', { path });
      return Date.parse((r.transfer_preapproval as { contract: { payload: { expiresAt: string } } }).contract.payload.expiresAt);
    };
    const first = await expiry();
    await advance(base, 30 * DAY); // 60 days left: outside the 30-day window
    expect(await expiry()).toBe(first);
    await advance(base, 31 * DAY); // 29 days left: renewed for another 90 days from now
    const renewed = await expiry();
    expect(renewed).toBeGreaterThan(first + 60 * DAY * 1000);
  });
});

describe('participant identities and the global synchronizer connection (operator only)', () => {
  it('answer from the simulator’s participant id and its global synchronizer', async () => {
    const ids = await wok(base, OPERATOR, 'GET', '/v0/admin/participant/identities');
    expect(ids.id).toBe(sim.participantId.replace(/^PAR::/, ''));
    expect(ids).toMatchObject({ keys: [], authorizedStoreSnapshot: '' });
    expect(typeof ids.version).toBe('string');

    const cfg = await wok(base, OPERATOR, 'GET', '/v0/admin/participant/global-domain-connection-config');
    const conns = cfg.sequencer_connections as {
      connections: { sequencer_alias: string; endpoints: string[]; transport_security: boolean }[];
    };
    const sync = (await (await fetch(`${base}/v2/state/connected-synchronizers`)).json()) as {
      connectedSynchronizers: { synchronizerAlias: string; synchronizerId: string }[];
    };
    const global = sync.connectedSynchronizers.find((s) => s.synchronizerId.startsWith('global-domain::'));
    expect(conns.connections).toEqual([{ sequencer_alias: global?.synchronizerAlias, endpoints: [base], transport_security: false }]);
    expect(cfg.sequencer_connections).toMatchObject({
      sequencer_trust_threshold: 1,
      sequencer_liveness_margin: 0,
      submission_request_amplification: { factor: 1, patience_seconds: 0 },
    });

    for (const p of ['/v0/admin/participant/identities', '/v0/admin/participant/global-domain-connection-config']) {
      expect((await wcall(base, 'bob', 'GET', p)).status).toBe(403);
      expect((await wcall(base, undefined, 'GET', p)).status).toBe(401);
    }
  });
});
