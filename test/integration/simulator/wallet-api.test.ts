/**
 * Validator app (/api/validator) over real HTTP: users, holdings, two-step transfer offers with locked funds, the
 * 100-input limit, holding fees over static time, traffic purchase. Every response is validated against the Splice specs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, nowMicros, onboard, OPERATOR, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
let alice: string;
let bob: string;
const DAY = 24 * 3600;

const balance = async (user: string) => {
  const b = await wok(base, user, 'GET', '/v0/wallet/balance');
  return {
    unlocked: Number(b.effective_unlocked_qty),
    locked: Number(b.effective_locked_qty),
    fees: Number(b.total_holding_fees),
    round: b.round as number,
  };
};
const offer = async (from: string, to: string, amount: string, tracking: string, expiresInSec = 3600) =>
  wcall(base, from, 'POST', '/v0/wallet/transfer-offers', {
    body: {
      receiver_party_id: to,
      amount,
      description: `pay ${amount}`,
      expires_at: (await nowMicros(base)) + expiresInSec * 1_000_000,
      tracking_id: tracking,
    },
  });
const status = (user: string, tracking: string) =>
  wcall(base, user, 'POST', '/v0/wallet/transfer-offers/{tracking_id}/status', { path: `/v0/wallet/transfer-offers/${tracking}/status` });
const act = (user: string, cid: string, action: 'accept' | 'reject' | 'withdraw') =>
  wcall(base, user, 'POST', `/v0/wallet/transfer-offers/{contract_id}/${action}`, {
    path: `/v0/wallet/transfer-offers/${encodeURIComponent(cid)}/${action}`,
  });
const tap = (user: string, amount: string) => wok(base, user, 'POST', '/v0/wallet/tap', { body: { amount } });

async function updatesTemplates(fromOffset: number, party: string): Promise<string[]> {
  const r = await fetch(`${base}/v2/updates?limit=1000`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      beginExclusive: fromOffset,
      updateFormat: {
        includeTransactions: {
          eventFormat: { filtersByParty: { [party]: {} }, verbose: false },
          transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
        },
      },
    }),
  });
  expect(r.status).toBe(200);
  const items = (await r.json()) as {
    update: { Transaction?: { value: { events: Record<string, { templateId: string; choice?: string }>[] } } };
  }[];
  return items
    .flatMap((i) => i.update.Transaction?.value.events ?? [])
    .map((e) => {
      const [k, v] = Object.entries(e)[0] as [string, { templateId: string; choice?: string }];
      return `${k}:${v.templateId.split(':').slice(1).join(':')}${v.choice ? `:${v.choice}` : ''}`;
    });
}
const ledgerEnd = async () => ((await (await fetch(`${base}/v2/state/ledger-end`)).json()) as { offset: number }).offset;

beforeAll(async () => {
  sim = await startTestSim({ staticTime: true });
  base = sim.url;
  alice = await onboard(base, 'alice');
  bob = await onboard(base, 'bob');
});
afterAll(async () => {
  await sim.dispose();
});

describe('validator admin and auth', () => {
  it('onboards users with fresh parties, lists and offboards them', async () => {
    expect(alice).toMatch(/^alice::1220/);
    expect(bob).not.toBe(alice);
    const carol = await onboard(base, 'carol');
    expect(await onboard(base, 'carol')).toBe(carol); // idempotent
    expect((await wok(base, OPERATOR, 'GET', '/v0/admin/users')).usernames).toEqual(
      expect.arrayContaining(['alice', 'bob', 'carol', OPERATOR]),
    );
    const st = await wok(base, 'carol', 'GET', '/v0/wallet/user-status');
    expect(st).toMatchObject({ party_id: carol, user_onboarded: true, user_wallet_installed: true });
    // the ledger API user exists with actAs its party
    const rights = (await (await fetch(`${base}/v2/users/carol/rights`)).json()) as { rights: unknown[] };
    expect(JSON.stringify(rights.rights)).toContain(carol);
    await wok(base, OPERATOR, 'POST', '/v0/admin/users/offboard', { path: '/v0/admin/users/offboard?username=carol' });
    expect((await wok(base, OPERATOR, 'GET', '/v0/admin/users')).usernames).not.toContain('carol');
    expect((await wok(base, 'carol', 'GET', '/v0/wallet/user-status')).user_onboarded).toBe(false);
    expect((await wcall(base, 'carol', 'GET', '/v0/wallet/balance')).status).toBe(404);
    expect(
      (await wcall(base, OPERATOR, 'POST', '/v0/admin/users/offboard', { path: '/v0/admin/users/offboard?username=nobody' })).status,
    ).toBe(404);
  });

  it('answers missing token 401, non-operator admin calls 403, unknown wallet user 404, bad input 400 — all ErrorResponse', async () => {
    const r401 = await wcall(base, undefined, 'GET', '/v0/wallet/balance');
    expect(r401.status).toBe(401);
    expect(typeof r401.json.error).toBe('string');
    expect((await wcall(base, undefined, 'GET', '/v0/admin/users')).status).toBe(401);
    expect((await wcall(base, 'alice', 'GET', '/v0/admin/users')).status).toBe(403);
    expect((await wcall(base, 'alice', 'POST', '/v0/admin/users', { body: { name: 'mallory' } })).status).toBe(403);
    expect((await wcall(base, 'stranger', 'GET', '/v0/wallet/amulets')).status).toBe(404);
    expect((await wcall(base, OPERATOR, 'POST', '/v0/admin/users', { body: {} })).status).toBe(400);
    expect((await wcall(base, 'alice', 'POST', '/v0/wallet/tap', { body: { amount: '-5' } })).status).toBe(400);
  });
});

describe('holdings', () => {
  it('tap creates an Amulet through a ledger transaction; balance and amulets reflect it', async () => {
    const before = await ledgerEnd();
    const r = await tap('alice', '1000');
    expect(typeof r.contract_id).toBe('string');
    const b = await balance('alice');
    expect(b.unlocked).toBe(1000);
    expect(b.locked).toBe(0);
    const list = await wok(base, 'alice', 'GET', '/v0/wallet/amulets');
    const amulets = list.amulets as {
      contract: { contract: { contract_id: string; template_id: string; payload: { owner: string } } };
      effective_amount: string;
    }[];
    expect(amulets.map((a) => a.contract.contract.contract_id)).toContain(r.contract_id);
    expect(amulets[0]?.contract.contract.template_id).toMatch(/^[0-9a-f]{64}:Splice\.Amulet:Amulet$/);
    expect(await updatesTemplates(before, alice)).toContain('CreatedEvent:Splice.Amulet:Amulet');
  });

  it('holding fees accrue with rounds as static time advances', async () => {
    const b0 = await balance('alice');
    await advance(base, DAY);
    const b1 = await balance('alice');
    expect(b1.round - b0.round).toBe(144); // 10-minute rounds
    const fee = 144 * 0.00380518;
    expect(b1.unlocked).toBeCloseTo(b0.unlocked - fee, 6);
    expect(b1.fees).toBeCloseTo(b0.fees + fee, 6);
    const list = await wok(base, 'alice', 'GET', '/v0/wallet/amulets');
    expect(Number((list.amulets as { accrued_holding_fee: string }[])[0]?.accrued_holding_fee)).toBeGreaterThan(0);
  });
});

describe('two-step transfer offers', () => {
  it('create locks funds (no fee); accept completes: receiver gets the amount, all steps in /v2/updates', async () => {
    await tap('alice', '500');
    const before = await balance('alice');
    const start = await ledgerEnd();
    const r = await offer('alice', bob, '100', 'track-accept');
    expect(r.status).toBe(200);
    const cid = r.json.offer_contract_id as string;
    const mid = await balance('alice');
    expect(mid.locked).toBeCloseTo(100, 8);
    expect(mid.unlocked).toBeCloseTo(before.unlocked - 100, 8);
    expect((await status('alice', 'track-accept')).json).toMatchObject({ status: 'created', contract_id: cid });
    const bobOffers = (await wok(base, 'bob', 'GET', '/v0/wallet/transfer-offers')).offers as { contract_id: string }[];
    expect(bobOffers.map((o) => o.contract_id)).toContain(cid);

    const bobBefore = (await balance('bob')).unlocked;
    const acc = await act('bob', cid, 'accept');
    expect(acc.status).toBe(200);
    expect(typeof acc.json.accepted_offer_contract_id).toBe('string');
    const st = (await status('bob', 'track-accept')).json;
    expect(st.status).toBe('completed');
    expect((await balance('bob')).unlocked).toBeCloseTo(bobBefore + 100, 8);
    const after = await balance('alice');
    expect(after.locked).toBe(0);
    expect(after.unlocked).toBeCloseTo(before.unlocked - 100, 8);
    const events = await updatesTemplates(start, alice);
    expect(events).toEqual(
      expect.arrayContaining([
        'CreatedEvent:Splice.Amulet:LockedAmulet',
        'CreatedEvent:Splice.Wallet.TransferOffer:TransferOffer',
        'ExercisedEvent:Splice.Wallet.TransferOffer:TransferOffer:TransferOffer_Accept',
        'ExercisedEvent:Splice.Wallet.TransferOffer:AcceptedTransferOffer:AcceptedTransferOffer_Complete',
      ]),
    );
    // the offer is gone from both lists; the transaction log shows the transfer
    expect(((await wok(base, 'alice', 'GET', '/v0/wallet/transfer-offers')).offers as unknown[]).length).toBe(0);
    const items = (await wok(base, 'bob', 'POST', '/v0/wallet/transactions', { body: { page_size: 10 } })).items as {
      transaction_type: string;
      receivers: { party: string; amount: string }[];
    }[];
    expect(items[0]).toMatchObject({ transaction_type: 'transfer', receivers: [{ party: bob }] });
  });

  it('reject returns the locked funds to the sender', async () => {
    const before = await balance('alice');
    const cid = (await offer('alice', bob, '50', 'track-reject')).json.offer_contract_id as string;
    expect((await balance('alice')).locked).toBeCloseTo(50, 8);
    expect((await act('alice', cid, 'reject')).status).toBe(403); // only the receiver
    expect((await act('bob', cid, 'reject')).status).toBe(200);
    expect((await status('alice', 'track-reject')).json).toEqual({ status: 'failed', failure_kind: 'rejected' });
    const after = await balance('alice');
    expect(after.locked).toBe(0);
    expect(after.unlocked).toBeCloseTo(before.unlocked, 8);
    expect((await act('bob', cid, 'accept')).status).toBe(404); // no longer active
  });

  it('withdraw returns the locked funds', async () => {
    const before = await balance('alice');
    const cid = (await offer('alice', bob, '25', 'track-withdraw')).json.offer_contract_id as string;
    expect((await act('bob', cid, 'withdraw')).status).toBe(403); // only the sender
    expect((await act('alice', cid, 'withdraw')).status).toBe(200);
    expect((await status('alice', 'track-withdraw')).json).toMatchObject({ status: 'failed', failure_kind: 'withdrawn' });
    expect((await balance('alice')).unlocked).toBeCloseTo(before.unlocked, 8);
  });

  it('expires after expires_at (static time advance): funds unlocked, accept impossible', async () => {
    const before = await balance('alice');
    const cid = (await offer('alice', bob, '10', 'track-expire', 60)).json.offer_contract_id as string;
    await advance(base, 120);
    expect((await act('bob', cid, 'accept')).status).toBe(404);
    expect((await status('alice', 'track-expire')).json).toEqual({ status: 'failed', failure_kind: 'expired' });
    const after = await balance('alice');
    expect(after.locked).toBe(0);
    expect(after.unlocked).toBeGreaterThan(before.unlocked - 0.01); // only the fee of the elapsed round(s)
  });

  it('rejects a duplicate tracking id (409), unknown tracking id (404), insufficient funds (400)', async () => {
    expect((await offer('alice', bob, '1', 'track-accept')).status).toBe(409);
    expect((await status('alice', 'no-such-id')).status).toBe(404);
    expect((await offer('alice', bob, '1000000', 'track-too-much')).status).toBe(400);
    expect((await status('alice', 'track-too-much')).status).toBe(404);
  });

  it('uses at most 100 input holdings per transfer', async () => {
    await onboard(base, 'dave');
    for (let i = 0; i < 105; i++) await tap('dave', '1');
    expect(((await wok(base, 'dave', 'GET', '/v0/wallet/amulets')).amulets as unknown[]).length).toBe(105);
    const tooMany = await offer('dave', bob, '102', 'dave-102');
    expect(tooMany.status).toBe(400);
    expect(String(tooMany.json.error)).toContain('100');
    const okOffer = await offer('dave', bob, '99.5', 'dave-99');
    expect(okOffer.status).toBe(200);
    const left = (await wok(base, 'dave', 'GET', '/v0/wallet/amulets')).amulets as unknown[];
    expect(left.length).toBe(6); // 105 - 100 inputs + change
  });
});

describe('traffic', () => {
  it('buys traffic with amulets; status completed; duplicate tracking id 409', async () => {
    const before = (await balance('alice')).unlocked;
    const domain = (
      (await (await fetch(`${base}/v2/state/connected-synchronizers`)).json()) as { connectedSynchronizers: { synchronizerId: string }[] }
    ).connectedSynchronizers[0]?.synchronizerId;
    const req = {
      receiving_validator_party_id: alice,
      domain_id: domain,
      traffic_amount: 100_000,
      tracking_id: 'traffic-1',
      expires_at: (await nowMicros(base)) + 3_600_000_000,
    };
    const r = await wok(base, 'alice', 'POST', '/v0/wallet/buy-traffic-requests', { body: req });
    expect(typeof r.request_contract_id).toBe('string');
    const st = await wok(base, 'alice', 'POST', '/v0/wallet/buy-traffic-requests/{tracking_id}/status', {
      path: '/v0/wallet/buy-traffic-requests/traffic-1/status',
    });
    expect(st.status).toBe('completed');
    // 0.1 MB at 60 USD/MB = 6 USD = 1200 CC at 0.005 USD/CC
    expect((await balance('alice')).unlocked).toBeCloseTo(before - 1200, 6);
    expect((await wcall(base, 'alice', 'POST', '/v0/wallet/buy-traffic-requests', { body: req })).status).toBe(409);
    expect(
      (
        await wcall(base, 'alice', 'POST', '/v0/wallet/buy-traffic-requests/{tracking_id}/status', {
          path: '/v0/wallet/buy-traffic-requests/nope/status',
        })
      ).status,
    ).toBe(404);
  });
});

describe('transfer preapproval (one-step)', () => {
  it('bob pre-approves; alice sends in one transaction; dedup id and missing preapproval are refused', async () => {
    const noPre = await wcall(base, 'bob', 'POST', '/v0/wallet/transfer-preapproval/send', {
      body: { receiver_party_id: alice, amount: '1', deduplication_id: 'd0' },
    });
    expect(noPre.status).toBe(404); // alice has no preapproval
    const created = await wcall(base, 'bob', 'POST', '/v0/wallet/transfer-preapproval');
    expect(created.status).toBe(200);
    const again = await wcall(base, 'bob', 'POST', '/v0/wallet/transfer-preapproval');
    expect(again.status).toBe(409);
    expect(again.json.transfer_preapproval_contract_id).toBe(created.json.transfer_preapproval_contract_id);
    await tap('alice', '40');
    const [a0, b0] = [await balance('alice'), await balance('bob')];
    const start = await ledgerEnd();
    const send = await wcall(base, 'alice', 'POST', '/v0/wallet/transfer-preapproval/send', {
      body: { receiver_party_id: bob, amount: '12.5', deduplication_id: 'd1', description: 'one-step' },
    });
    expect(send.status).toBe(200);
    expect(await ledgerEnd()).toBe(start + 1); // one transaction, no offer
    expect((await balance('alice')).unlocked).toBeCloseTo(a0.unlocked - 12.5, 8);
    expect((await balance('bob')).unlocked).toBeCloseTo(b0.unlocked + 12.5, 8);
    expect(
      (
        await wcall(base, 'alice', 'POST', '/v0/wallet/transfer-preapproval/send', {
          body: { receiver_party_id: bob, amount: '1', deduplication_id: 'd1' },
        })
      ).status,
    ).toBe(409);
  });
});
