/**
 * Token-standard two-step transfers over real HTTP (wallet-internal v0 token-standard endpoints, ajv-validated):
 * create locks the funds plus the holding-fee reserve until the deadline (TransferFactory_Transfer), both sides list the
 * instruction, the TransferInstruction interface view shows it pending receiver acceptance; accept delivers exactly the
 * amount, reject / withdraw / expiry return the funds;
 * duplicate tracking ids, wrong actors and late accepts are refused without changing anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSFER_INSTRUCTION_INTERFACE_ID } from '@canton-network/core-token-standard';
import { acs, acsCreated } from './helpers.js';
import { advance, nowMicros, onboard, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
let alice: string;
let bob: string;

const create = async (amount: string, tracking: string, expiresInSec = 3600) =>
  wcall(base, 'alice', 'POST', '/v0/wallet/token-standard/transfers', {
    body: {
      receiver_party_id: bob,
      amount,
      description: `ts ${tracking}`,
      expires_at: (await nowMicros(base)) + expiresInSec * 1_000_000,
      tracking_id: tracking,
    },
  });
const act = (user: string, cid: string, action: 'accept' | 'reject' | 'withdraw') =>
  wcall(base, user, 'POST', `/v0/wallet/token-standard/transfers/{contract_id}/${action}`, {
    path: `/v0/wallet/token-standard/transfers/${encodeURIComponent(cid)}/${action}`,
  });
const bal = async (user: string) => {
  const b = await wok(base, user, 'GET', '/v0/wallet/balance');
  return { unlocked: Number(b.effective_unlocked_qty), locked: Number(b.effective_locked_qty) };
};
/** The amount plus the holding fees it accrues until executeBefore is locked (the reserve returns unless spent). */
const expectLocked = async (user: string, amount: number, total: number) => {
  const b = await bal(user);
  expect(b.locked).toBeGreaterThan(amount);
  expect(b.locked).toBeLessThan(amount + 0.1);
  expect(b.unlocked + b.locked).toBeCloseTo(total, 8);
};
const list = async (user: string) =>
  ((await wok(base, user, 'GET', '/v0/wallet/token-standard/transfers')).transfers as { contract_id: string }[]).map((t) => t.contract_id);

beforeAll(async () => {
  sim = await startTestSim({ staticTime: true });
  base = sim.url;
  alice = await onboard(base, 'alice');
  bob = await onboard(base, 'bob');
  await wok(base, 'alice', 'POST', '/v0/wallet/tap', { body: { amount: '100' } });
});
afterAll(async () => {
  await sim.dispose();
});

describe('token-standard transfers', () => {
  it(
    'create locks the amount; the instruction is listed for both and visible through the TransferInstruction interface; ' +
      'accept delivers',
    async () => {
      expect((await wok(base, 'alice', 'GET', '/v0/feature-support')).token_standard).toBe(true);
      const r = await create('30', 'ts-1');
      expect(r.status).toBe(200);
      const cid = (r.json.output as { transfer_instruction_cid: string }).transfer_instruction_cid;
      expect(r.json.sender_change_cids).toHaveLength(1);
      await expectLocked('alice', 30, 100);
      expect(await list('alice')).toEqual([cid]);
      expect(await list('bob')).toEqual([cid]);

      const views = acsCreated(
        await acs(base, {
          filtersByParty: {
            [bob]: {
              cumulative: [
                {
                  identifierFilter: {
                    InterfaceFilter: { value: { interfaceId: TRANSFER_INSTRUCTION_INTERFACE_ID, includeInterfaceView: true } },
                  },
                },
              ],
            },
          },
        }),
      );
      expect(views).toHaveLength(1);
      const view = (views[0]?.interfaceViews?.[0] as { viewValue: { status: unknown; transfer: Record<string, unknown> } }).viewValue;
      expect(view.status).toEqual({ tag: 'TransferPendingReceiverAcceptance', value: {} });
      expect(view.transfer).toMatchObject({
        sender: alice,
        receiver: bob,
        amount: '30.0000000000',
        instrumentId: { id: 'Amulet' },
        meta: { values: { 'splice.lfdecentralizedtrust.org/reason': 'ts ts-1' } },
      });

      expect((await act('alice', cid, 'accept')).status).toBe(403); // only the receiver
      const acc = await act('bob', cid, 'accept');
      expect(acc.status).toBe(200);
      expect((acc.json.output as { receiver_holding_cids: string[] }).receiver_holding_cids).toHaveLength(1);
      expect(await bal('bob')).toEqual({ unlocked: 30, locked: 0 });
      expect(await bal('alice')).toEqual({ unlocked: 70, locked: 0 });
      expect(await list('bob')).toEqual([]);
      expect((await act('bob', cid, 'accept')).status).toBe(404); // no longer pending
    },
  );

  it('reject and withdraw return the locked funds; a duplicate tracking id is a 409', async () => {
    const a = await create('10', 'ts-2');
    const b = await create('5', 'ts-3');
    expect((await create('1', 'ts-2')).status).toBe(409);
    await expectLocked('alice', 15, 70);
    const rej = await act('bob', (a.json.output as { transfer_instruction_cid: string }).transfer_instruction_cid, 'reject');
    expect(rej.status).toBe(200);
    expect(rej.json.sender_change_cids).toHaveLength(1);
    expect((await act('bob', (b.json.output as { transfer_instruction_cid: string }).transfer_instruction_cid, 'withdraw')).status).toBe(
      403,
    ); // only the sender
    expect((await act('alice', (b.json.output as { transfer_instruction_cid: string }).transfer_instruction_cid, 'withdraw')).status).toBe(
      200,
    );
    expect(await bal('alice')).toEqual({ unlocked: 70, locked: 0 });
  });

  it('after executeBefore the receiver cannot accept and the sender wallet withdraws it', async () => {
    const r = await create('20', 'ts-4', 60);
    const cid = (r.json.output as { transfer_instruction_cid: string }).transfer_instruction_cid;
    await advance(base, 120);
    const late = await act('bob', cid, 'accept');
    expect([400, 404]).toContain(late.status); // refused (expired) or already withdrawn by the automation
    expect(await list('alice')).toEqual([]);
    const b = await bal('alice');
    expect(b.locked).toBe(0);
    expect(b.unlocked).toBeGreaterThan(69.9); // minus the holding fee of at most one round
  });

  it('the V2 paths (same shapes) create, accept and withdraw as well', async () => {
    const now = await nowMicros(base);
    const c1 = await wok(base, 'alice', 'POST', '/v2/wallet/token-standard/transfers', {
      body: { receiver_party_id: bob, amount: '3', description: 'v2', expires_at: now + 3_600_000_000, tracking_id: 'v2-1' },
    });
    const c2 = await wok(base, 'alice', 'POST', '/v2/wallet/token-standard/transfers', {
      body: { receiver_party_id: bob, amount: '2', description: 'v2', expires_at: now + 3_600_000_000, tracking_id: 'v2-2' },
    });
    const id = (x: Record<string, unknown>) => (x.output as { transfer_instruction_cid: string }).transfer_instruction_cid;
    const bob0 = (await bal('bob')).unlocked;
    await wok(base, 'bob', 'POST', '/v2/wallet/token-standard/transfers/{contract_id}/accept', {
      path: `/v2/wallet/token-standard/transfers/${id(c1)}/accept`,
    });
    await wok(base, 'alice', 'POST', '/v2/wallet/token-standard/transfers/{contract_id}/withdraw', {
      path: `/v2/wallet/token-standard/transfers/${id(c2)}/withdraw`,
    });
    expect((await bal('bob')).unlocked).toBeCloseTo(bob0 + 3, 6);
    expect((await bal('alice')).locked).toBe(0);
  });

  it('bad input is a 400 that changes nothing', async () => {
    const end = async () => ((await (await fetch(`${base}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
    const before = await end();
    const now = await nowMicros(base);
    for (const body of [
      { receiver_party_id: bob, amount: '-1', description: '', expires_at: now + 1e9, tracking_id: 'bad-1' },
      { receiver_party_id: bob, amount: '1', description: '', expires_at: now - 1, tracking_id: 'bad-2' },
      { receiver_party_id: 'nobody::1220ab', amount: '1', description: '', expires_at: now + 1e9, tracking_id: 'bad-3' },
      { receiver_party_id: bob, amount: '100000', description: '', expires_at: now + 1e9, tracking_id: 'bad-4' },
    ]) {
      const r = await wcall(base, 'alice', 'POST', '/v0/wallet/token-standard/transfers', { body });
      expect(r.status).toBe(400);
    }
    expect(await end()).toBe(before);
  });
});
