/** Wallet demo seed (idempotent across restarts) and configurable automation (accepted offers left for the sender). */
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../src/simulator/index.js';
import { makeTempDir } from './helpers.js';
import { nowMicros, onboard, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

const sims: TestSim[] = [];
afterAll(async () => {
  for (const s of sims) await s.dispose();
});

const balance = async (base: string, user: string) => {
  const b = await wok(base, user, 'GET', '/v0/wallet/balance');
  return { unlocked: Number(b.effective_unlocked_qty), locked: Number(b.effective_locked_qty) };
};

describe('wallet demo seed', () => {
  it('onboards alice and bob with balances and one pending offer, once per data dir', async () => {
    const dataDir = makeTempDir();
    const first = await startSimulator({ dataDir, port: 0, seedDemo: true, staticTime: true });
    const check = async (base: string) => {
      const st = await wok(base, 'alice', 'GET', '/v0/wallet/user-status');
      expect(st.party_id).toMatch(/^Alice::/);
      expect(await balance(base, 'alice')).toEqual({ unlocked: 1250 - 42.5, locked: 42.5 });
      expect(await balance(base, 'bob')).toEqual({ unlocked: 500, locked: 0 });
      const offers = (await wok(base, 'bob', 'GET', '/v0/wallet/transfer-offers')).offers as { payload: { description: string } }[];
      expect(offers.map((o) => o.payload.description)).toEqual(['Demo: lunch money']);
      expect(
        (
          await wok(base, 'alice', 'POST', '/v0/wallet/transfer-offers/{tracking_id}/status', {
            path: '/v0/wallet/transfer-offers/demo-offer-1/status',
          })
        ).status,
      ).toBe('created');
    };
    await check(first.url);
    await first.close();
    const again = await startSimulator({ dataDir, port: 0, seedDemo: true });
    sims.push({
      ...again,
      dataDir,
      dispose: async () => {
        await again.close();
      },
    });
    await check(again.url);
    const users = (await wok(again.url, 'validator-operator', 'GET', '/v0/admin/users')).usernames;
    expect(users).toEqual(['alice', 'bob', 'validator-operator']);
  });
});

describe('configurable automation', () => {
  it('with autoCompleteAcceptedOffers off, an accepted offer stays listed (status accepted) with its funds locked', async () => {
    const sim = await startTestSim({ staticTime: true, settings: { wallet: { autoCompleteAcceptedOffers: false } } as never });
    sims.push(sim);
    const base = sim.url;
    await onboard(base, 'alice');
    const bob = await onboard(base, 'bob');
    await wok(base, 'alice', 'POST', '/v0/wallet/tap', { body: { amount: '100' } });
    const cid = (
      await wok(base, 'alice', 'POST', '/v0/wallet/transfer-offers', {
        body: {
          receiver_party_id: bob,
          amount: '30',
          description: 'x',
          expires_at: (await nowMicros(base)) + 3_600_000_000,
          tracking_id: 't-acc',
        },
      })
    ).offer_contract_id as string;
    const acc = await wok(base, 'bob', 'POST', '/v0/wallet/transfer-offers/{contract_id}/accept', {
      path: `/v0/wallet/transfer-offers/${cid}/accept`,
    });
    const accepted = (await wok(base, 'alice', 'GET', '/v0/wallet/accepted-transfer-offers')).accepted_offers as { contract_id: string }[];
    expect(accepted.map((a) => a.contract_id)).toEqual([acc.accepted_offer_contract_id]);
    expect(((await wok(base, 'bob', 'GET', '/v0/wallet/accepted-transfer-offers')).accepted_offers as unknown[]).length).toBe(1);
    expect(
      (
        await wok(base, 'alice', 'POST', '/v0/wallet/transfer-offers/{tracking_id}/status', {
          path: '/v0/wallet/transfer-offers/t-acc/status',
        })
      ).status,
    ).toBe('accepted');
    expect(await balance(base, 'alice')).toEqual({ unlocked: 70, locked: 30 });
    expect(await balance(base, 'bob')).toEqual({ unlocked: 0, locked: 0 });
    // unknown offer id: 404 ErrorResponse
    expect(
      (
        await wcall(base, 'bob', 'POST', '/v0/wallet/transfer-offers/{contract_id}/accept', {
          path: '/v0/wallet/transfer-offers/00ff/accept',
        })
      ).status,
    ).toBe(404);
  });
});

describe('merge automation', () => {
  it('merges a user with 250 holdings into few, in batches of at most 100 inputs, keeping the balance', async () => {
    // no background runs: on a loaded machine one could merge during the taps, before `start` below
    const sim = await startTestSim({
      staticTime: true,
      settings: { wallet: { mergeThreshold: 10, backgroundIntervalSeconds: 0 } } as never,
    });
    sims.push(sim);
    const base = sim.url;
    const party = await onboard(base, 'erin');
    for (let i = 0; i < 250; i++) await wok(base, 'erin', 'POST', '/v0/wallet/tap', { body: { amount: '2' } });
    const start = ((await (await fetch(`${base}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
    const list = await wok(base, 'erin', 'GET', '/v0/wallet/amulets'); // automation runs before serving
    expect((list.amulets as unknown[]).length).toBeLessThanOrEqual(10);
    expect(await balance(base, 'erin')).toEqual({ unlocked: 500, locked: 0 });
    // each merge is one transaction with at most 100 archived inputs
    const r = await fetch(`${base}/v2/updates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        beginExclusive: start,
        updateFormat: {
          includeTransactions: { eventFormat: { filtersByParty: { [party]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
        },
      }),
    });
    const txs = ((await r.json()) as { update: { Transaction?: { value: { events: Record<string, unknown>[] } } } }[]).flatMap((u) =>
      u.update.Transaction ? [u.update.Transaction.value] : [],
    );
    const merges = txs.filter((t) => t.events.filter((e) => 'ArchivedEvent' in e).length > 1);
    expect(merges.length).toBeGreaterThanOrEqual(2);
    for (const m of merges) expect(m.events.filter((e) => 'ArchivedEvent' in e).length).toBeLessThanOrEqual(100);
    const items = (await wok(base, 'erin', 'POST', '/v0/wallet/transactions', { body: { page_size: 5 } })).items as {
      transaction_subtype: { choice: string };
    }[];
    expect(items[0]?.transaction_subtype.choice).toBe('AmuletRules_Merge');
  });
});
