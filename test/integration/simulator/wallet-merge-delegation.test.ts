/**
 * Merge delegation over real HTTP: users propose a MergeDelegation to the validator (simulator endpoint), the
 * validator's automation accepts it, and merges several users' holdings in one BatchMergeUtility_MergeHoldings
 * transaction (one MergeDelegation_Merge per user, ≤ 100 inputs each); users without a delegation are merged with
 * AmuletRules_Merge. Balances are unchanged and each user ends with few holdings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtFor, onboard, OPERATOR, startTestSim, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
const parties: Record<string, string> = {};

async function simCall(
  user: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${base}/api/validator${path}`, {
    method,
    headers: { authorization: `Bearer ${jwtFor(user)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
const holdings = async (user: string) => ((await wok(base, user, 'GET', '/v0/wallet/amulets')).amulets as unknown[]).length;
const balance = async (user: string) => Number((await wok(base, user, 'GET', '/v0/wallet/balance')).effective_unlocked_qty);
const ledgerEnd = async () => ((await (await fetch(`${base}/v2/state/ledger-end`)).json()) as { offset: number }).offset;

beforeAll(async () => {
  sim = await startTestSim({ staticTime: true });
  base = sim.url;
  for (const u of ['gina', 'hank', 'ivy']) parties[u] = await onboard(base, u);
});
afterAll(async () => {
  await sim.dispose();
});

describe('merge delegation', () => {
  it('proposal → accepted by the validator automation; batch merges delegated users in one transaction', async () => {
    expect((await simCall('gina', 'GET', '/v0/sim/merge-delegation')).json).toEqual({ status: 'none' });
    for (const u of ['gina', 'hank']) {
      const r = await simCall(u, 'POST', '/v0/sim/merge-delegation');
      expect(r.status).toBe(200);
      expect(r.json.status).toBe('active');
    }
    // idempotent
    const again = await simCall('gina', 'POST', '/v0/sim/merge-delegation');
    expect(again.json.status).toBe('active');

    const counts: Record<string, number> = { gina: 150, hank: 120, ivy: 30 };
    for (const [u, n] of Object.entries(counts))
      for (let i = 0; i < n; i++) await wok(base, u, 'POST', '/v0/wallet/tap', { body: { amount: '1' } });
    expect(await holdings('gina')).toBe(150);
    const start = await ledgerEnd();

    const cfg = (await simCall(OPERATOR, 'GET', '/v0/sim/automation')).json;
    expect((await simCall(OPERATOR, 'PUT', '/v0/sim/automation', { ...cfg, mergeThreshold: 10 })).status).toBe(200);
    for (const u of ['gina', 'hank', 'ivy']) {
      expect(await holdings(u)).toBeLessThanOrEqual(10);
      expect(await balance(u)).toBeCloseTo(counts[u] as number, 6);
    }

    // the batch transactions: exercised by the validator, with one MergeDelegation_Merge per delegated user
    const validator = (await wok(base, undefined, 'GET', '/v0/validator-user')).party_id as string;
    const r = await fetch(`${base}/v2/updates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        beginExclusive: start,
        updateFormat: {
          includeTransactions: {
            eventFormat: {
              filtersByParty: { [validator]: {}, [parties.gina as string]: {}, [parties.hank as string]: {}, [parties.ivy as string]: {} },
              verbose: true,
            },
            transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
          },
        },
      }),
    });
    type Ev = { ExercisedEvent?: { choice: string; actingParties: string[]; choiceArgument: { owner?: string } } };
    const txs = ((await r.json()) as { update: { Transaction?: { value: { events: Ev[] } } } }[]).flatMap((u) =>
      u.update.Transaction ? [u.update.Transaction.value.events] : [],
    );
    const batches = txs.filter((events) => events.some((e) => e.ExercisedEvent?.choice === 'BatchMergeUtility_MergeHoldings'));
    expect(batches.length).toBeGreaterThanOrEqual(1);
    const first = batches[0] as Ev[];
    const merged = first.filter((e) => e.ExercisedEvent?.choice === 'AmuletRules_Merge').map((e) => e.ExercisedEvent?.choiceArgument.owner);
    expect(new Set(merged)).toEqual(new Set([parties.gina, parties.hank]));
    expect(first.filter((e) => e.ExercisedEvent?.choice === 'MergeDelegation_Merge')).toHaveLength(2);
    // ivy has no delegation: merged by her own AmuletRules_Merge transactions, never in a batch
    expect(batches.some((events) => events.some((e) => e.ExercisedEvent?.choiceArgument.owner === parties.ivy))).toBe(false);
    expect(
      txs.some(
        (events) =>
          events[0]?.ExercisedEvent?.choice === 'AmuletRules_Merge' && events[0].ExercisedEvent.choiceArgument.owner === parties.ivy,
      ),
    ).toBe(true);
  });

  it('the owner cancels its delegation; cancelling again is a 404', async () => {
    const c = await simCall('hank', 'DELETE', '/v0/sim/merge-delegation');
    expect(c.status).toBe(200);
    expect(c.json).toEqual({ status: 'none' });
    const again = await simCall('hank', 'DELETE', '/v0/sim/merge-delegation');
    expect(again.status).toBe(404);
    expect(typeof again.json.error).toBe('string');
    expect((await simCall('gina', 'GET', '/v0/sim/merge-delegation')).json.status).toBe('active');
  });
});
