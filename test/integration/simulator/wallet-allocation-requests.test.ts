/**
 * Token-standard allocation requests over real HTTP (wallet-internal `listAllocationRequests`, `rejectAllocationRequest`,
 * `rejectAllocationRequestV2`, ajv-validated): an app party creates an allocation request through the Ledger API; the
 * wallet of a leg's party lists it and rejects it (the interface choice `AllocationRequest_Reject` as the user's party,
 * an archive in the update stream); a user outside the request gets a 4xx and nothing changes; bad bodies are 400s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOCATION_REQUEST_INTERFACE_ID } from '@canton-network/core-token-standard';
import { acs, acsCreated, exercise, ledgerEnd, submitTx, updates, wildcard } from './helpers.js';
import { jwtFor, nowMicros, onboard, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
let alice: string;
let bob: string;
let venue: string;
let dso: string;
const HOUR = 3_600_000_000;
const LIST = '/v0/wallet/token-standard/allocation-requests';
const REJECT = '/v0/wallet/token-standard/allocation-requests/{contract_id}/reject';
const REJECT_V2 = '/v2/wallet/token-standard/allocation-requests/{contract_id}/reject';
const TEMPLATE = '#splice-amulet:Splice.Wallet.AppAllocationRequest:AppAllocationRequest';

const iso = (micros: number) => new Date(Math.floor(micros / 1000)).toISOString();

/** The app (venue) asks alice to pay bob `amount` amulet in settlement `ref`, through the Ledger API. */
async function createRequest(ref: string, amount = '10'): Promise<string> {
  const now = await nowMicros(base);
  const meta = { values: {} };
  const leg = { sender: alice, receiver: bob, amount, instrumentId: { admin: dso, id: 'Amulet' }, meta };
  const settlement = {
    executor: venue,
    settlementRef: { id: ref, cid: null },
    requestedAt: iso(now),
    allocateBefore: iso(now + HOUR),
    settleBefore: iso(now + 2 * HOUR),
    meta,
  };
  const tx = await submitTx(
    base,
    [venue],
    [
      {
        CreateCommand: {
          templateId: TEMPLATE,
          createArguments: { executor: venue, legParties: [alice, bob], settlement, transferLegs: { 'leg-0': leg }, meta },
        },
      },
    ],
  );
  const created = tx.created.find((c) => c.templateId.endsWith(':Splice.Wallet.AppAllocationRequest:AppAllocationRequest'));
  if (!created) throw new Error('no allocation request created');
  return created.contractId;
}
const listed = async (user: string) =>
  (
    (await wok(base, user, 'GET', LIST)).allocation_requests as {
      contract: { contract_id: string; template_id: string; payload: Record<string, unknown> };
    }[]
  ).map((r) => r.contract);
const pathOf = (spec: string, cid: string) => spec.replace('{contract_id}', encodeURIComponent(cid));

beforeAll(async () => {
  sim = await startTestSim({ staticTime: true });
  base = sim.url;
  alice = await onboard(base, 'alice');
  bob = await onboard(base, 'bob');
  venue = await onboard(base, 'venue');
  await onboard(base, 'carol');
  dso = ((await (await fetch(`${base}/v2/parties`)).json()) as { partyDetails: { party: string }[] }).partyDetails
    .map((p) => p.party)
    .find((p) => p.startsWith('DSO::')) as string;
});
afterAll(async () => {
  await sim.dispose();
});

describe('allocation requests', () => {
  it('a request created through the Ledger API is listed for its leg parties and visible through the interface', async () => {
    const cid = await createRequest('trade-1');
    for (const user of ['alice', 'bob']) {
      const mine = await listed(user);
      expect(mine.map((c) => c.contract_id)).toEqual([cid]);
      expect(mine[0]?.template_id).toMatch(/:Splice\.Wallet\.AppAllocationRequest:AppAllocationRequest$/);
    }
    expect(await listed('carol')).toEqual([]);
    const views = acsCreated(
      await acs(base, {
        filtersByParty: {
          [alice]: {
            cumulative: [
              {
                identifierFilter: {
                  InterfaceFilter: { value: { interfaceId: ALLOCATION_REQUEST_INTERFACE_ID, includeInterfaceView: true } },
                },
              },
            ],
          },
        },
      }),
    );
    expect(views.map((v) => v.contractId)).toEqual([cid]);
    const view = (
      views[0]?.interfaceViews?.[0] as {
        viewValue: { settlement: Record<string, unknown>; transferLegs: Record<string, Record<string, unknown>> };
      }
    ).viewValue;
    expect(view.settlement).toMatchObject({ executor: venue, settlementRef: { id: 'trade-1' } });
    expect(view.transferLegs['leg-0']).toMatchObject({ sender: alice, receiver: bob, amount: '10.0000000000' });
  });

  it('a user outside the request gets a 4xx and nothing changes', async () => {
    const [req] = await listed('alice');
    const cid = req?.contract_id as string;
    const before = await ledgerEnd(base);
    const r = await wcall(base, 'carol', 'POST', REJECT, { path: pathOf(REJECT, cid) });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(typeof r.json.error).toBe('string');
    expect((await wcall(base, 'alice', 'POST', REJECT, { path: pathOf(REJECT, 'no-such-contract') })).status).toBe(404);
    expect(await ledgerEnd(base)).toBe(before);
    expect((await listed('alice')).map((c) => c.contract_id)).toEqual([cid]);
  });

  it('bad bodies are 400s that change nothing', async () => {
    const [req] = await listed('alice');
    const cid = req?.contract_id as string;
    const before = await ledgerEnd(base);
    expect((await wcall(base, 'alice', 'POST', REJECT, { path: pathOf(REJECT, cid), body: { reason: 'no' } })).status).toBe(400);
    expect((await wcall(base, 'alice', 'POST', REJECT_V2, { path: pathOf(REJECT_V2, cid), body: [1] })).status).toBe(400);
    const raw = await fetch(`${base}/api/validator${pathOf(REJECT, cid)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwtFor('alice')}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(raw.status).toBe(400);
    expect(typeof ((await raw.json()) as { error: unknown }).error).toBe('string');
    expect(await ledgerEnd(base)).toBe(before);
    expect((await listed('alice')).map((c) => c.contract_id)).toEqual([cid]);
  });

  it('reject archives the request in a ledger transaction (v0 and v2)', async () => {
    const [req] = await listed('alice');
    const cid = req?.contract_id as string;
    const before = await ledgerEnd(base);
    const r = await wok(base, 'alice', 'POST', REJECT, { path: pathOf(REJECT, cid) });
    expect(r).toEqual({ meta: {} });
    expect(await listed('alice')).toEqual([]);
    expect(await listed('bob')).toEqual([]);
    expect(acsCreated(await acs(base, wildcard(venue))).some((c) => c.contractId === cid)).toBe(false);
    const stream = await updates(base, { beginExclusive: before, filter: wildcard(venue) });
    expect(stream.status).toBe(200);
    const archived = (
      stream.json as { update: { Transaction?: { value: { events: Record<string, { contractId?: string }>[] } } } }[]
    ).flatMap((u) => u.update.Transaction?.value.events.flatMap((e) => (e.ArchivedEvent ? [e.ArchivedEvent.contractId] : [])) ?? []);
    expect(archived).toEqual([cid]);
    expect((await wcall(base, 'alice', 'POST', REJECT, { path: pathOf(REJECT, cid) })).status).toBe(404); // gone

    // the receiver rejects through the v2 path
    const second = await createRequest('trade-2', '5');
    expect((await wok(base, 'bob', 'POST', REJECT_V2, { path: pathOf(REJECT_V2, second) })).meta).toEqual({});
    expect(await listed('alice')).toEqual([]);
  });

  it('the executor withdraws a request through the interface on the Ledger API; a leg party cannot', async () => {
    const cid = await createRequest('trade-3', '1');
    const extraArgs = { context: { values: {} }, meta: { values: {} } };
    await expect(
      submitTx(base, [alice], [exercise(ALLOCATION_REQUEST_INTERFACE_ID, cid, 'AllocationRequest_Withdraw', { extraArgs })]),
    ).rejects.toThrow(/DAML_AUTHORIZATION_ERROR/);
    await submitTx(base, [venue], [exercise(ALLOCATION_REQUEST_INTERFACE_ID, cid, 'AllocationRequest_Withdraw', { extraArgs })]);
    expect(await listed('alice')).toEqual([]);
  });
});
