/**
 * Minting delegations over real HTTP (wallet-internal minting-delegation endpoints, ajv-validated): a beneficiary
 * proposes through the JSON API; the delegate (the validator operator's wallet) lists, accepts or rejects proposals,
 * lists its delegations and terminates one; while active, the delegate's automation mints the beneficiary's
 * closed-round app reward coupons (MintingDelegation_Mint) and merges its amulets down to the merge limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitTx } from './helpers.js';
import { advance, jwtFor, nowMicros, onboard, OPERATOR, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
let ben: string;
let bob: string;
let operator: string;
let dso: string;
const PROPOSAL = '#splice-amulet:Splice.Wallet.MintingDelegation:MintingDelegationProposal';

async function propose(mergeLimit: number): Promise<string> {
  const expiresAt = new Date((await nowMicros(base)) / 1000 + 30 * 24 * 3600 * 1000).toISOString();
  const tx = await submitTx(
    base,
    [ben],
    [
      {
        CreateCommand: {
          templateId: PROPOSAL,
          createArguments: { beneficiary: ben, delegate: operator, dso, expiresAt, amuletMergeLimit: String(mergeLimit) },
        },
      },
    ],
  );
  return tx.created[0]?.contractId as string;
}
const proposals = async () =>
  (await wok(base, OPERATOR, 'GET', '/v0/wallet/minting-delegation-proposals')).proposals as {
    contract: { contract_id: string };
    beneficiary_hosted: boolean;
  }[];
const delegations = async () =>
  (await wok(base, OPERATOR, 'GET', '/v0/wallet/minting-delegations')).delegations as { contract: { contract_id: string } }[];
const holdings = async () => ((await wok(base, 'ben', 'GET', '/v0/wallet/amulets')).amulets as unknown[]).length;

beforeAll(async () => {
  sim = await startTestSim({ staticTime: true });
  base = sim.url;
  ben = await onboard(base, 'ben');
  bob = await onboard(base, 'bob');
  operator = (await wok(base, undefined, 'GET', '/v0/validator-user')).party_id as string;
  dso = ((await (await fetch(`${base}/v2/parties`)).json()) as { partyDetails: { party: string }[] }).partyDetails
    .map((p) => p.party)
    .find((p) => p.startsWith('DSO::')) as string;
  // the beneficiary's rewards are minted by its delegate, not by the wallet's own reward collection
  const cfg = (await (
    await fetch(`${base}/api/validator/v0/sim/automation`, { headers: { authorization: `Bearer ${jwtFor(OPERATOR)}` } })
  ).json()) as Record<string, unknown>;
  const put = await fetch(`${base}/api/validator/v0/sim/automation`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${jwtFor(OPERATOR)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...cfg, collectRewards: false }),
  });
  expect(put.status).toBe(200);
});
afterAll(async () => {
  await sim.dispose();
});

describe('minting delegations', () => {
  it('the delegate accepts a proposal; its automation mints the beneficiary’s coupons and merges its holdings', async () => {
    const p = await propose(2);
    const listed = await proposals();
    expect(listed.map((x) => x.contract.contract_id)).toEqual([p]);
    expect(listed[0]?.beneficiary_hosted).toBe(true);
    expect(
      (
        await wcall(base, 'bob', 'POST', '/v0/wallet/minting-delegation-proposals/{contract_id}/accept', {
          path: `/v0/wallet/minting-delegation-proposals/${p}/accept`,
        })
      ).status,
    ).toBe(404); // not bob's
    const acc = await wok(base, OPERATOR, 'POST', '/v0/wallet/minting-delegation-proposals/{contract_id}/accept', {
      path: `/v0/wallet/minting-delegation-proposals/${p}/accept`,
    });
    expect((await delegations()).map((d) => d.contract.contract_id)).toEqual([acc.contract_id]);
    expect(await proposals()).toEqual([]);

    for (const amount of ['100', '1', '1', '1', '1']) await wok(base, 'ben', 'POST', '/v0/wallet/tap', { body: { amount } });
    await wok(base, 'bob', 'POST', '/v0/wallet/transfer-preapproval');
    await wok(base, 'ben', 'POST', '/v0/wallet/transfer-preapproval/send', {
      body: { receiver_party_id: bob, amount: '50', deduplication_id: 'm-1' },
    });
    expect(await holdings()).toBeLessThanOrEqual(2); // merged by the delegate down to the limit
    const before = Number((await wok(base, 'ben', 'GET', '/v0/wallet/balance')).effective_unlocked_qty);
    expect(((await wok(base, 'ben', 'GET', '/v0/wallet/app-reward-coupons')).app_reward_coupons as unknown[]).length).toBe(1);
    await advance(base, 600); // the coupon's round closes
    expect(((await wok(base, 'ben', 'GET', '/v0/wallet/app-reward-coupons')).app_reward_coupons as unknown[]).length).toBe(0);
    // the delegate's automation mints on its next run: 50 × 0.0001 minted, minus one round of holding fees on ≤ 2 holdings
    const balance = async () => Number((await wok(base, 'ben', 'GET', '/v0/wallet/balance')).effective_unlocked_qty);
    await expect.poll(balance).toBeGreaterThan(before);
    const items = (await wok(base, 'ben', 'POST', '/v0/wallet/transactions', { body: { page_size: 50 } })).items as {
      transaction_subtype: { choice: string };
    }[];
    expect(items.map((i) => i.transaction_subtype.choice)).toEqual(
      expect.arrayContaining(['MintingDelegation_Mint', 'MintingDelegation_Merge']),
    );
  });

  it('a new proposal replaces the delegation of the same beneficiary; reject and terminate; paging', async () => {
    const p2 = await propose(5);
    const old = (await delegations())[0]?.contract.contract_id;
    const acc = await wok(base, OPERATOR, 'POST', '/v0/wallet/minting-delegation-proposals/{contract_id}/accept', {
      path: `/v0/wallet/minting-delegation-proposals/${p2}/accept`,
    });
    expect((await delegations()).map((d) => d.contract.contract_id)).toEqual([acc.contract_id]);
    expect(acc.contract_id).not.toBe(old);

    await propose(3);
    await propose(4);
    const first = await wok(base, OPERATOR, 'GET', '/v0/wallet/minting-delegation-proposals', {
      path: '/v0/wallet/minting-delegation-proposals?limit=1',
    });
    expect(first.proposals as unknown[]).toHaveLength(1);
    expect(first.next_page_token).toBe(1);
    const second = await wok(base, OPERATOR, 'GET', '/v0/wallet/minting-delegation-proposals', {
      path: '/v0/wallet/minting-delegation-proposals?limit=1&after=1',
    });
    expect(second.proposals as unknown[]).toHaveLength(1);
    expect(second.next_page_token).toBeUndefined();
    for (const x of await proposals())
      await wok(base, OPERATOR, 'POST', '/v0/wallet/minting-delegation-proposals/{contract_id}/reject', {
        path: `/v0/wallet/minting-delegation-proposals/${x.contract.contract_id}/reject`,
      });
    expect(await proposals()).toEqual([]);

    await wok(base, OPERATOR, 'POST', '/v0/wallet/minting-delegations/{contract_id}/reject', {
      path: `/v0/wallet/minting-delegations/${acc.contract_id as string}/reject`,
    });
    expect(await delegations()).toEqual([]);
    expect(
      (await wcall(base, OPERATOR, 'GET', '/v0/wallet/minting-delegations', { path: '/v0/wallet/minting-delegations?limit=0' })).status,
    ).toBe(400);
  });
});
