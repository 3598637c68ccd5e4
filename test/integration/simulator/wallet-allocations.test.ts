/**
 * Amulet allocations over real HTTP (wallet-internal v0 allocation endpoints, ajv-validated): allocate locks the leg's
 * amount for the executor, the allocation is listed and visible through the token-standard Allocation interface, the
 * executor settles it on the ledger (`Allocation_ExecuteTransfer` through the JSON API) and the receiver gets the
 * amount; withdraw returns the funds; bad input changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOCATION_INTERFACE_ID } from '@canton-network/core-token-standard';
import { acs, acsCreated, exercise, submitTx } from './helpers.js';
import { nowMicros, onboard, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
let alice: string;
let bob: string;
let venue: string;
const HOUR = 3_600_000_000;

const allocate = async (amount: string, legId: string, allocateBeforeOffset = HOUR) => {
  const now = await nowMicros(base);
  return wcall(base, 'alice', 'POST', '/v0/allocations', {
    body: {
      settlement: {
        executor: venue,
        settlement_ref: { id: `trade-${legId}` },
        requested_at: now,
        allocate_before: now + allocateBeforeOffset,
        settle_before: now + 2 * HOUR,
        meta: { desk: 'fx' },
      },
      transfer_leg_id: legId,
      transfer_leg: { receiver: bob, amount },
    },
  });
};
const bal = async (user: string) => {
  const b = await wok(base, user, 'GET', '/v0/wallet/balance');
  return { unlocked: Number(b.effective_unlocked_qty), locked: Number(b.effective_locked_qty) };
};

beforeAll(async () => {
  sim = await startTestSim({ staticTime: true });
  base = sim.url;
  alice = await onboard(base, 'alice');
  bob = await onboard(base, 'bob');
  venue = await onboard(base, 'venue');
  await wok(base, 'alice', 'POST', '/v0/wallet/tap', { body: { amount: '100' } });
});
afterAll(async () => {
  await sim.dispose();
});

describe('amulet allocations', () => {
  it('allocate locks the amount; listed; the Allocation view is visible to the executor; the executor settles it', async () => {
    const r = await allocate('25', 'leg-1');
    expect(r.status).toBe(200);
    const cid = (r.json.output as { allocation_cid: string }).allocation_cid;
    expect(r.json.sender_change_cids).toHaveLength(1);
    const locked = await bal('alice');
    expect(locked.locked).toBeGreaterThan(25); // the amount plus the holding-fee reserve until settleBefore
    expect(locked.locked).toBeLessThan(25.1);
    expect(locked.unlocked + locked.locked).toBeCloseTo(100, 8);
    const listed = (await wok(base, 'alice', 'GET', '/v0/allocations')).allocations as {
      contract: { contract_id: string; template_id: string };
    }[];
    expect(listed.map((a) => a.contract.contract_id)).toEqual([cid]);
    expect(listed[0]?.contract.template_id).toMatch(/:Splice\.AmuletAllocation:AmuletAllocation$/);

    const views = acsCreated(
      await acs(base, {
        filtersByParty: {
          [venue]: {
            cumulative: [
              { identifierFilter: { InterfaceFilter: { value: { interfaceId: ALLOCATION_INTERFACE_ID, includeInterfaceView: true } } } },
            ],
          },
        },
      }),
    );
    expect(views.map((v) => v.contractId)).toEqual([cid]);
    const view = (
      views[0]?.interfaceViews?.[0] as {
        viewValue: { allocation: { transferLegId: string; transferLeg: Record<string, unknown>; settlement: Record<string, unknown> } };
      }
    ).viewValue;
    expect(view.allocation.transferLegId).toBe('leg-1');
    expect(view.allocation.transferLeg).toMatchObject({
      sender: alice,
      receiver: bob,
      amount: '25.0000000000',
      instrumentId: { id: 'Amulet' },
    });
    expect(view.allocation.settlement).toMatchObject({
      executor: venue,
      settlementRef: { id: 'trade-leg-1', cid: null },
      meta: { values: { desk: 'fx' } },
    });

    // settlement on the ledger with the registry's choice context: executor, sender and receiver authorize (all hosted here)
    const ctx = (await wok(
      base,
      'venue',
      'POST',
      '/v0/scan-proxy/registry/allocations/v1/{allocationId}/choice-contexts/execute-transfer',
      {
        path: `/v0/scan-proxy/registry/allocations/v1/${encodeURIComponent(cid)}/choice-contexts/execute-transfer`,
        body: {},
      },
    )) as { choiceContextData: unknown; disclosedContracts: unknown[] };
    const bob0 = (await bal('bob')).unlocked;
    await submitTx(
      base,
      [venue, alice, bob],
      [
        exercise(ALLOCATION_INTERFACE_ID, cid, 'Allocation_ExecuteTransfer', {
          extraArgs: { context: ctx.choiceContextData, meta: { values: {} } },
        }),
      ],
      { disclosedContracts: ctx.disclosedContracts },
    );
    expect((await bal('bob')).unlocked).toBeCloseTo(bob0 + 25, 6);
    expect(await bal('alice')).toEqual({ unlocked: 75, locked: 0 });
    expect((await wok(base, 'alice', 'GET', '/v0/allocations')).allocations).toEqual([]);
  });

  it('withdraw returns the funds; only the sender may withdraw; unknown allocation 404', async () => {
    const r = await allocate('10', 'leg-2');
    const cid = (r.json.output as { allocation_cid: string }).allocation_cid;
    const path = `/v0/allocations/${encodeURIComponent(cid)}/withdraw`;
    // not visible to the receiver
    expect((await wcall(base, 'bob', 'POST', '/v0/allocations/{contract_id}/withdraw', { path })).status).toBe(404);
    const w = await wok(base, 'alice', 'POST', '/v0/allocations/{contract_id}/withdraw', { path });
    expect(w.sender_holding_cids).toHaveLength(1);
    expect(await bal('alice')).toEqual({ unlocked: 75, locked: 0 });
    expect((await wcall(base, 'alice', 'POST', '/v0/allocations/{contract_id}/withdraw', { path })).status).toBe(404);
  });

  it('bad input is a 400 that changes nothing', async () => {
    const end = async () => ((await (await fetch(`${base}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
    const before = await end();
    expect((await allocate('10', 'late', -1)).status).toBe(400); // allocate_before passed
    expect((await allocate('-3', 'neg')).status).toBe(400);
    expect((await allocate('1000', 'poor')).status).toBe(400);
    expect((await wcall(base, 'alice', 'POST', '/v0/allocations', { body: { transfer_leg_id: 'x' } })).status).toBe(400);
    expect(await end()).toBe(before);
  });
});
