/**
 * Wallet automation over real HTTP with static time: the simulator-specific automation config endpoint (operator only,
 * zod-validated, bad input changes nothing, persisted across a restart), auto-accept per sender → receiver, sweeps
 * (through a preapproval and as a transfer offer), dust expiry, reward coupons and their collection once the round
 * closed (featured app rewards higher), traffic top-up with targetThroughput / minTopupInterval. Wallet responses are
 * validated against the Splice specs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, jwtFor, nowMicros, onboard, OPERATOR, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
const parties: Record<string, string> = {};
const ROUND = 600;

type Json = Record<string, unknown>;
async function automation(user: string, method: 'GET' | 'PUT', body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${base}/api/validator/v0/sim/automation`, {
    method,
    headers: { authorization: `Bearer ${jwtFor(user)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Json };
}
async function setAutomation(patch: Json): Promise<Json> {
  const current = (await automation(OPERATOR, 'GET')).json;
  const r = await automation(OPERATOR, 'PUT', { ...current, ...patch });
  if (r.status !== 200) throw new Error(`PUT automation: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}
const balance = async (user: string) => Number((await wok(base, user, 'GET', '/v0/wallet/balance')).effective_unlocked_qty);
const locked = async (user: string) => Number((await wok(base, user, 'GET', '/v0/wallet/balance')).effective_locked_qty);
const tap = (user: string, amount: string) => wok(base, user, 'POST', '/v0/wallet/tap', { body: { amount } });
const offer = async (from: string, to: string, amount: string, tracking: string) =>
  wok(base, from, 'POST', '/v0/wallet/transfer-offers', {
    body: {
      receiver_party_id: parties[to],
      amount,
      description: 'auto',
      expires_at: (await nowMicros(base)) + 3_600_000_000,
      tracking_id: tracking,
    },
  });
const status = (user: string, tracking: string) =>
  wok(base, user, 'POST', '/v0/wallet/transfer-offers/{tracking_id}/status', { path: `/v0/wallet/transfer-offers/${tracking}/status` });
const txs = async (user: string) =>
  (await wok(base, user, 'POST', '/v0/wallet/transactions', { body: { page_size: 1000 } })).items as Json[];

beforeAll(async () => {
  sim = await startTestSim({ staticTime: true });
  base = sim.url;
  for (const u of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank']) parties[u] = await onboard(base, u);
});
afterAll(async () => {
  await sim.dispose();
});

describe('automation config endpoint', () => {
  it('GET returns the config; only the operator may read or change it; invalid input is a 400 that changes nothing', async () => {
    const r = await automation(OPERATOR, 'GET');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      autoExpireOffers: true,
      mergeBatchSize: 100,
      expireDustHoldings: true,
      trafficTopup: { targetThroughput: 0 },
      sweeps: {},
      autoAcceptTransfers: {},
    });
    expect((await automation('alice', 'GET')).status).toBe(403);
    expect((await automation('alice', 'PUT', r.json)).status).toBe(403);
    const bad = [
      { ...r.json, mergeBatchSize: 500 },
      { ...r.json, unknownKey: true },
      { ...r.json, validatorRewardRate: 'lots' },
      {
        ...r.json,
        sweeps: {
          [parties.alice as string]: { receiver: 'nobody::1220ab', maxBalanceUSD: '10', minBalanceUSD: '1', useTransferPreapproval: false },
        },
      },
      {
        ...r.json,
        sweeps: {
          [parties.alice as string]: { receiver: parties.bob, maxBalanceUSD: '1', minBalanceUSD: '10', useTransferPreapproval: false },
        },
      },
    ];
    for (const b of bad) {
      const res = await automation(OPERATOR, 'PUT', b);
      expect(res.status).toBe(400);
      expect(typeof res.json.error).toBe('string');
    }
    expect((await automation(OPERATOR, 'GET')).json).toEqual(r.json);
  });
});

describe('auto-accept', () => {
  it('accepts offers from the configured senders only; the transfer completes', async () => {
    await tap('alice', '100');
    await tap('carol', '100');
    await setAutomation({ autoAcceptTransfers: { [parties.bob as string]: { fromParties: [parties.alice] } } });
    const bob0 = await balance('bob');
    await offer('alice', 'bob', '10', 'aa-1');
    await offer('carol', 'bob', '5', 'aa-2');
    expect(await balance('bob')).toBeCloseTo(bob0 + 10, 6);
    expect((await status('alice', 'aa-1')).status).toBe('completed');
    expect((await status('carol', 'aa-2')).status).toBe('created');
    await setAutomation({ autoAcceptTransfers: {} });
  });
});

describe('sweeps', () => {
  it('sweeps a sender above maxBalanceUSD down to minBalanceUSD through the receiver preapproval', async () => {
    await wok(base, 'dave', 'POST', '/v0/wallet/transfer-preapproval');
    await tap('carol', '2000'); // carol: 95 locked-free + 2000 → > 10 USD at 0.005 USD/CC
    const dave0 = await balance('dave');
    await setAutomation({
      sweeps: {
        [parties.carol as string]: { receiver: parties.dave, maxBalanceUSD: '10', minBalanceUSD: '2', useTransferPreapproval: true },
      },
    });
    // the PUT ran the automation: carol keeps 2 USD = 400 CC
    expect(await balance('carol')).toBeCloseTo(400, 6);
    expect(await balance('dave')).toBeGreaterThan(dave0 + 1600);
    // below the maximum: nothing more happens
    await tap('carol', '100');
    expect(await balance('carol')).toBeCloseTo(500, 6);
    await setAutomation({ sweeps: {} });
  });

  it('without a preapproval the sweep is a transfer offer (funds locked until accepted)', async () => {
    await tap('erin', '3000');
    await setAutomation({
      sweeps: {
        [parties.erin as string]: { receiver: parties.frank, maxBalanceUSD: '10', minBalanceUSD: '5', useTransferPreapproval: true },
      },
    });
    expect(await balance('erin')).toBeCloseTo(1000, 6);
    expect(await locked('erin')).toBeCloseTo(2000, 6);
    const offers = (await wok(base, 'frank', 'GET', '/v0/wallet/transfer-offers')).offers as {
      payload: { description: string; amount: string };
    }[];
    expect(offers.map((o) => [o.payload.description, Number(o.payload.amount)])).toContainEqual(['sweep', 2000]);
    await setAutomation({ sweeps: {} });
  });
});

describe('dust expiry', () => {
  it('an amulet whose accrued holding fee reached its amount is expired by the DSO', async () => {
    await tap('frank', '0.01'); // fee 0.0038051800 per round → dust after 3 rounds
    await tap('frank', '50');
    const count = async () => ((await wok(base, 'frank', 'GET', '/v0/wallet/amulets')).amulets as unknown[]).length;
    expect(await count()).toBe(2);
    await advance(base, 2 * ROUND);
    expect(await count()).toBe(2); // 0.0076 < 0.01: still there
    await advance(base, ROUND);
    expect(await count()).toBe(1);
    const t = await txs('frank');
    expect(t.some((x) => (x.transaction_subtype as Json).choice === 'Amulet_Expire')).toBe(true);
  });
});

describe('rewards', () => {
  it('transfers issue validator and app coupons; after the round closes they are collected (featured apps earn more)', async () => {
    await wok(base, 'bob', 'POST', '/v0/wallet/transfer-preapproval');
    await tap('alice', '1000');
    await tap('dave', '1000');
    const featured = await wok(base, 'dave', 'POST', '/v0/wallet/self-grant-feature-app-right', { body: {} });
    expect((await wok(base, 'dave', 'POST', '/v0/wallet/self-grant-feature-app-right', { body: {} })).contract_id).toBe(
      featured.contract_id,
    );
    expect((await wok(base, 'dave', 'GET', '/v0/wallet/user-status')).has_featured_app_right).toBe(true);
    await wok(base, 'alice', 'POST', '/v0/wallet/transfer-preapproval/send', {
      body: { receiver_party_id: parties.bob, amount: '500', deduplication_id: 'rw-1' },
    });
    await wok(base, 'dave', 'POST', '/v0/wallet/transfer-preapproval/send', {
      body: { receiver_party_id: parties.bob, amount: '500', deduplication_id: 'rw-2' },
    });
    const appCoupons = (await wok(base, 'alice', 'GET', '/v0/wallet/app-reward-coupons')).app_reward_coupons as { payload: Json }[];
    expect(appCoupons.map((c) => [c.payload.amount, c.payload.featured])).toContainEqual(['500.0000000000', false]);
    const daveCoupons = (await wok(base, 'dave', 'GET', '/v0/wallet/app-reward-coupons')).app_reward_coupons as { payload: Json }[];
    expect(daveCoupons.map((c) => c.payload.featured)).toEqual([true]);
    expect(
      ((await wok(base, 'alice', 'GET', '/v0/wallet/validator-reward-coupons')).validator_reward_coupons as unknown[]).length,
    ).toBeGreaterThan(0);

    const alice0 = await balance('alice');
    const dave0 = await balance('dave');
    const op0 = await balance(OPERATOR);
    await advance(base, ROUND); // the coupons' round closes
    const alice1 = await balance('alice');
    const dave1 = await balance('dave');
    // app rewards: 500 × 0.0001 unfeatured, 500 × 0.01 featured (minus at most one round of holding fees on the holdings)
    expect(alice1 - alice0).toBeGreaterThan(0.05 - 0.02);
    expect(dave1 - dave0).toBeGreaterThan(5 - 0.02);
    // validator rewards of the users it hosts go to the validator operator
    expect(await balance(OPERATOR)).toBeGreaterThan(op0);
    expect(((await wok(base, 'alice', 'GET', '/v0/wallet/app-reward-coupons')).app_reward_coupons as unknown[]).length).toBe(0);
    expect(((await wok(base, 'alice', 'GET', '/v0/wallet/validator-reward-coupons')).validator_reward_coupons as unknown[]).length).toBe(0);
    expect((await txs(OPERATOR)).some((x) => (x.transaction_subtype as Json).choice === 'AmuletRules_CollectRewards')).toBe(true);

    await wok(base, 'dave', 'DELETE', '/v0/wallet/cancel-featured-app-rights');
    expect((await wok(base, 'dave', 'GET', '/v0/wallet/user-status')).has_featured_app_right).toBe(false);
  });
});

describe('traffic top-up', () => {
  it('buys targetThroughput × minTopupInterval when unused traffic is low, at most once per interval', async () => {
    await tap(OPERATOR, '5000');
    const topups = async () =>
      (await txs(OPERATOR)).filter((x) => (x.transaction_subtype as Json).amulet_operation === 'buy_member_traffic').length;
    expect(await topups()).toBe(0);
    await setAutomation({ trafficTopup: { targetThroughput: 100, minTopupIntervalSeconds: 60 } });
    expect(await topups()).toBe(1); // 6000 bytes bought at once
    await tap('alice', '1'); // consumes traffic
    await tap('alice', '1');
    expect(await topups()).toBe(1); // within the interval
    await advance(base, 61);
    expect(await topups()).toBe(2); // unused traffic fell below 6000 bytes
    await advance(base, 61);
    expect(await topups()).toBe(2); // enough unused traffic: no purchase
    const meter = (await (
      await fetch(`${base}/api/validator/v0/sim/traffic`, { headers: { authorization: `Bearer ${jwtFor(OPERATOR)}` } })
    ).json()) as Record<string, unknown>;
    expect(meter.purchased_bytes).toBe(12_000);
    expect(meter.extra_bytes as number).toBeGreaterThanOrEqual(6_000);
    expect(meter.consumed_bytes as number).toBeGreaterThan(0);
    expect(typeof meter.last_topup_at).toBe('string');
    expect((await fetch(`${base}/api/validator/v0/sim/traffic`, { headers: { authorization: `Bearer ${jwtFor('alice')}` } })).status).toBe(
      403,
    );
    await setAutomation({ trafficTopup: { targetThroughput: 0, minTopupIntervalSeconds: 600 } });
  });
});

describe('merges with dust', () => {
  it('dust is never merged (a merge needs value): with dust expiry off the wallet keeps working; on, the dust goes', async () => {
    await setAutomation({ expireDustHoldings: false });
    for (let i = 0; i < 3; i++) await tap('dave', '0.001');
    await tap('dave', '7');
    await advance(base, ROUND); // the 0.001 holdings are now dust (fee 0.0038 per round)
    await setAutomation({ mergeThreshold: 1 });
    const holdings = async () => ((await wok(base, 'dave', 'GET', '/v0/wallet/amulets')).amulets as unknown[]).length;
    expect(await holdings()).toBe(4); // the holdings with value merged into one, the three dust ones left alone
    expect(await balance('dave')).toBeGreaterThan(0);
    await setAutomation({ expireDustHoldings: true });
    expect(await holdings()).toBe(1);
    await setAutomation({ mergeThreshold: 0 });
  });
});

describe('persistence', () => {
  it('a PUT config survives a restart of the simulator on the same data directory', async () => {
    await setAutomation({ mergeThreshold: 7, autoAcceptTransfers: { [parties.bob as string]: { fromParties: [parties.carol] } } });
    const before = (await automation(OPERATOR, 'GET')).json;
    const dataDir = sim.dataDir;
    await sim.close();
    sim = await startTestSim({ staticTime: true, dataDir });
    base = sim.url;
    expect((await automation(OPERATOR, 'GET')).json).toEqual(before);
    expect((await wcall(base, 'alice', 'GET', '/v0/wallet/user-status')).status).toBe(200);
  });
});
