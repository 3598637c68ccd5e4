/**
 * The development fund over real HTTP with static time, every response validated against the Splice specs: the DSO
 * adds each round's share to the unclaimed pool; the fund manager (the validator operator) allocates coupons, lists
 * and withdraws them; a wallet user's coupon is claimed by its automation, an outside beneficiary rejects one through
 * the Ledger API, one expires; the history pages through all four outcomes. Bad input is a 400 that changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acs, acsCreated, allocate, submitTx } from './helpers.js';
import { advance, nowMicros, onboard, OPERATOR, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
let alice: string;
let outsider: string;
let dso: string;
const ROUND = 600;
type Contract = { contract_id: string; payload: Record<string, unknown> };

beforeAll(async () => {
  sim = await startTestSim({ staticTime: true, settings: { wallet: { backgroundIntervalSeconds: 0 } } as never });
  base = sim.url;
  alice = await onboard(base, 'alice');
  outsider = await allocate(base, 'Outsider');
  const operatorParty = (await wok(base, undefined, 'GET', '/v0/validator-user')).party_id as string;
  dso = `DSO::${operatorParty.split('::')[1] ?? ''}`;
});
afterAll(async () => {
  await sim.dispose();
});

const pool = async () =>
  acsCreated(await acs(base, { filtersByParty: { [dso]: {} }, verbose: false }))
    .filter((c) => c.templateId.endsWith(':Splice.Amulet:UnclaimedDevelopmentFundCoupon'))
    .reduce((s, c) => s + Number(c.createArgument.amount), 0);
const active = async (user: string) =>
  (await wok(base, user, 'GET', '/v0/wallet/development-fund-coupons')).active_development_fund_coupons as Contract[];
const allocateCoupon = async (user: string, beneficiary: string, amount: string, inSeconds: number, reason: string) =>
  wcall(base, user, 'POST', '/v0/wallet/development-fund-coupons/allocate', {
    body: { beneficiary, amount, expiresAt: (await nowMicros(base)) + inSeconds * 1_000_000, reason },
  });
const withdraw = (user: string, cid: string, reason: string) =>
  wcall(base, user, 'POST', '/v0/wallet/development-fund-coupons/{contract_id}/withdraw', {
    path: `/v0/wallet/development-fund-coupons/${encodeURIComponent(cid)}/withdraw`,
    body: { reason },
  });
const history = (user: string, query: string) =>
  wok(base, user, 'GET', '/v0/wallet/development-fund-coupons/history', { path: `/v0/wallet/development-fund-coupons/history?${query}` });

describe('development fund', () => {
  it('each round adds to the pool; the fund manager allocates (change back to the pool); others cannot', async () => {
    await wok(base, OPERATOR, 'GET', '/v0/wallet/balance');
    expect(await pool()).toBe(100);
    await advance(base, ROUND);
    await wok(base, OPERATOR, 'GET', '/v0/wallet/balance');
    expect(await pool()).toBe(200);
    expect(await active(OPERATOR)).toEqual([]);

    const r = await allocateCoupon(OPERATOR, outsider, '150', 3600, 'grant A');
    expect(r.status).toBe(200);
    expect(typeof r.json.development_fund_coupon_contract_id).toBe('string');
    expect(typeof r.json.unclaimed_development_fund_coupon_contract_id).toBe('string');
    expect(await pool()).toBe(50);
    const listed = await active(OPERATOR);
    expect(listed.map((c) => c.contract_id)).toEqual([r.json.development_fund_coupon_contract_id]);
    expect(listed[0]?.payload).toMatchObject({ dso, beneficiary: outsider, amount: '150.0000000000', reason: 'grant A' });

    // not the fund manager; bad input: nothing changes
    expect((await allocateCoupon('alice', alice, '1', 3600, 'x')).status).toBe(403);
    expect(await active('alice')).toEqual([]);
    for (const bad of [
      await allocateCoupon(OPERATOR, outsider, '1000', 3600, 'too much'),
      await allocateCoupon(OPERATOR, outsider, 'abc', 3600, 'not a number'),
      await allocateCoupon(OPERATOR, outsider, '1', -10, 'expired'),
      await allocateCoupon(OPERATOR, 'nobody::1220ab', '1', 3600, 'unknown'),
      await wcall(base, OPERATOR, 'POST', '/v0/wallet/development-fund-coupons/allocate', { body: { beneficiary: outsider } }),
    ]) {
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.json)).toEqual(['error']);
    }
    expect(await pool()).toBe(50);
    expect(await active(OPERATOR)).toHaveLength(1);
  });

  it('withdraw, reject (Ledger API), claim (automation) and expiry; the history pages through them', async () => {
    const [first] = await active(OPERATOR);
    expect((await withdraw('alice', first?.contract_id ?? '', 'no')).status).toBe(404);
    expect(
      (
        await wcall(base, OPERATOR, 'POST', '/v0/wallet/development-fund-coupons/{contract_id}/withdraw', {
          path: `/v0/wallet/development-fund-coupons/${first?.contract_id ?? ''}/withdraw`,
          body: {},
        })
      ).status,
    ).toBe(400);
    const w = await withdraw(OPERATOR, first?.contract_id ?? '', 'plans changed');
    expect(w.status).toBe(200);
    expect(typeof w.json.unclaimed_development_fund_coupon_contract_id).toBe('string');
    expect(await pool()).toBe(200);

    // rejected by the (non-wallet) beneficiary through the Ledger API
    const toReject = (await allocateCoupon(OPERATOR, outsider, '10', 3600, 'grant B')).json.development_fund_coupon_contract_id as string;
    await submitTx(
      base,
      [outsider],
      [
        {
          ExerciseCommand: {
            templateId: '#splice-amulet:Splice.Amulet:DevelopmentFundCoupon',
            contractId: toReject,
            choice: 'DevelopmentFundCoupon_Reject',
            choiceArgument: { reason: 'not for me' },
          },
        },
      ],
    );
    // claimed by alice's wallet automation at the next request
    const before = Number((await wok(base, 'alice', 'GET', '/v0/wallet/balance')).effective_unlocked_qty);
    expect((await allocateCoupon(OPERATOR, alice, '20', 3600, 'grant C')).status).toBe(200);
    const after = Number((await wok(base, 'alice', 'GET', '/v0/wallet/balance')).effective_unlocked_qty);
    expect(after - before).toBeCloseTo(20, 6);
    // expired by the DSO automation
    expect((await allocateCoupon(OPERATOR, outsider, '5', 60, 'grant D')).status).toBe(200);
    await advance(base, 61);
    expect(await active(OPERATOR)).toEqual([]);

    const page1 = await history(OPERATOR, 'limit=2');
    const items1 = page1.development_fund_coupon_history as Record<string, unknown>[];
    expect(items1.map((i) => i.status)).toEqual(['withdrawn', 'rejected']);
    expect(items1[0]).toMatchObject({
      beneficiary: outsider,
      amount: '150.0000000000',
      reason: 'grant A',
      rejection_or_withdrawal_reason: 'plans changed',
    });
    expect(items1[1]).toMatchObject({ reason: 'grant B', rejection_or_withdrawal_reason: 'not for me' });
    const page2 = await history(OPERATOR, `limit=10&after=${String(page1.next_page_token)}`);
    const items2 = page2.development_fund_coupon_history as Record<string, unknown>[];
    expect(items2.map((i) => i.status)).toEqual(['claimed', 'expired']);
    expect(items2.every((i) => i.rejection_or_withdrawal_reason === undefined)).toBe(true);
    const page3 = await history(OPERATOR, `limit=10&after=${String(page2.next_page_token)}`);
    expect(page3.development_fund_coupon_history).toEqual([]);
    expect((await history('alice', 'limit=10')).development_fund_coupon_history).toEqual([]);
    expect(
      (
        await wcall(base, OPERATOR, 'GET', '/v0/wallet/development-fund-coupons/history', {
          path: '/v0/wallet/development-fund-coupons/history',
        })
      ).status,
    ).toBe(400);
  });
});
