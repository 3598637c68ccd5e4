import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ASSET,
  IOU,
  IOU_PROPOSAL,
  acs,
  acsCreated,
  allocate,
  call,
  cantonError,
  createIou,
  exercise,
  startTestSim,
  submitTx,
  updates,
  wildcard,
} from './helpers.js';
import type { TestSim } from './helpers.js';

type Ev = Record<string, Record<string, unknown> & { witnessParties: string[]; nodeId: number }>;

describe('event filters, transaction shapes and witness rules', () => {
  let sim: TestSim;
  let bank: string, alice: string, bob: string, carol: string;
  let transferOffset: number;
  let transferUpdateId: string;
  beforeAll(async () => {
    sim = await startTestSim();
    bank = await allocate(sim.url, 'Bank');
    alice = await allocate(sim.url, 'Alice');
    bob = await allocate(sim.url, 'Bob');
    carol = await allocate(sim.url, 'Carol');
    const c = await submitTx(sim.url, [bank], [createIou(bank, alice, '50')]);
    const t = await submitTx(sim.url, [alice], [exercise(IOU, c.created[0]?.contractId as string, 'Iou_Transfer', { newOwner: bob })]);
    transferOffset = t.offset;
    transferUpdateId = t.updateId;
    await submitTx(
      sim.url,
      [bank],
      [{ CreateCommand: { templateId: IOU_PROPOSAL, createArguments: { issuer: bank, owner: carol, currency: 'USD', amount: '1' } } }],
    );
  });
  afterAll(async () => {
    await sim.dispose();
  });

  const txAt = async (
    offset: number,
    shape: string,
    eventFormat: unknown,
  ): Promise<{ status: number; events: Ev[]; commandId?: string; body: unknown }> => {
    const r = await call(sim.url, 'POST', '/v2/updates/update-by-offset', {
      body: { offset, updateFormat: { includeTransactions: { transactionShape: shape, eventFormat } } },
    });
    const tx = (r.json as { update?: { Transaction?: { value: { events: Ev[]; commandId?: string } } } }).update?.Transaction?.value;
    return { status: r.status, events: tx?.events ?? [], ...(tx?.commandId ? { commandId: tx.commandId } : {}), body: r.json };
  };

  it('ACS_DELTA shows created/archived events to stakeholders only', async () => {
    const forAlice = await txAt(transferOffset, 'TRANSACTION_SHAPE_ACS_DELTA', wildcard(alice));
    expect(forAlice.events.map((e) => Object.keys(e)[0])).toEqual(['ArchivedEvent']); // Alice is not a stakeholder of the new Iou
    expect(forAlice.commandId).toBeDefined(); // Alice submitted
    const forBob = await txAt(transferOffset, 'TRANSACTION_SHAPE_ACS_DELTA', wildcard(bob));
    expect(forBob.events.map((e) => Object.keys(e)[0])).toEqual(['CreatedEvent']);
    expect(forBob.events[0]?.CreatedEvent?.witnessParties).toEqual([bob]);
    expect(forBob.commandId).toBeUndefined(); // not a submitter
    const forBank = await txAt(transferOffset, 'TRANSACTION_SHAPE_ACS_DELTA', wildcard(bank));
    expect(forBank.events.map((e) => Object.keys(e)[0])).toEqual(['ArchivedEvent', 'CreatedEvent']);
  });

  it('LEDGER_EFFECTS shows exercised/created events to witnesses (informees and their ancestors)', async () => {
    const forAlice = await txAt(transferOffset, 'TRANSACTION_SHAPE_LEDGER_EFFECTS', wildcard(alice));
    // Alice is an informee of the exercise and so witnesses its consequences.
    expect(forAlice.events.map((e) => Object.keys(e)[0])).toEqual(['ExercisedEvent', 'CreatedEvent']);
    const created = forAlice.events[1]?.CreatedEvent as unknown as { acsDelta: boolean; witnessParties: string[] };
    expect(created.witnessParties).toEqual([alice]);
    expect(created.acsDelta).toBe(false); // Alice is not a stakeholder of the new contract
    const forBob = await txAt(transferOffset, 'TRANSACTION_SHAPE_LEDGER_EFFECTS', wildcard(bob));
    expect(forBob.events.map((e) => Object.keys(e)[0])).toEqual(['CreatedEvent']);
    expect((forBob.events[0]?.CreatedEvent as unknown as { acsDelta: boolean }).acsDelta).toBe(true);
  });

  it('invisible updates are UPDATE_NOT_FOUND', async () => {
    const r = await call(sim.url, 'POST', '/v2/updates/update-by-id', {
      body: {
        updateId: transferUpdateId,
        updateFormat: { includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: wildcard(carol) } },
      },
    });
    expect(r.status).toBe(404);
    expect(cantonError(r).code).toBe('UPDATE_NOT_FOUND');
    const missing = await call(sim.url, 'POST', '/v2/updates/update-by-id', {
      body: {
        updateId: 'nope',
        updateFormat: { includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: wildcard(bank) } },
      },
    });
    expect(cantonError(missing).code).toBe('UPDATE_NOT_FOUND');
  });

  it('filtersForAnyParty selects every hosted stakeholder', async () => {
    const r = await txAt(transferOffset, 'TRANSACTION_SHAPE_ACS_DELTA', { filtersForAnyParty: {} });
    const created = r.events.find((e) => 'CreatedEvent' in e)?.CreatedEvent;
    expect(created?.witnessParties).toEqual([bank, bob].sort());
  });

  it('template and interface filters are cumulative; interface views are computed', async () => {
    const templateOnly = acsCreated(
      await acs(sim.url, {
        filtersByParty: { [bank]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: IOU_PROPOSAL } } } }] } },
      }),
    );
    expect(templateOnly.map((c) => c.templateId.split(':').slice(1).join(':'))).toEqual(['Demo.Iou:IouProposal']);

    const viaInterface = acsCreated(
      await acs(sim.url, {
        filtersByParty: {
          [bank]: {
            cumulative: [
              {
                identifierFilter: {
                  InterfaceFilter: { value: { interfaceId: ASSET, includeInterfaceView: true, includeCreatedEventBlob: true } },
                },
              },
            ],
          },
        },
      }),
    );
    expect(viaInterface).toHaveLength(1); // the Iou implements Asset, the proposal does not
    expect(viaInterface[0]?.interfaceViews?.[0]?.viewValue).toEqual({
      owner: bob,
      description: '50.0000000000 USD',
      amount: '50.0000000000',
    });
    expect((viaInterface[0] as unknown as { createdEventBlob: string }).createdEventBlob.length).toBeGreaterThan(0);

    const both = acsCreated(
      await acs(sim.url, {
        filtersByParty: {
          [bank]: {
            cumulative: [
              { identifierFilter: { InterfaceFilter: { value: { interfaceId: ASSET } } } },
              { identifierFilter: { TemplateFilter: { value: { templateId: IOU_PROPOSAL } } } },
            ],
          },
        },
      }),
    );
    expect(both).toHaveLength(2);
    // no blob requested: Canton prints the empty ByteString
    expect(both.every((c) => (c as unknown as { createdEventBlob?: string }).createdEventBlob === '')).toBe(true);
  });

  it('legacy filter+verbose and updateFormat are exclusive; one is required', async () => {
    const bothGiven = await updates(sim.url, {
      beginExclusive: 0,
      filter: wildcard(bank),
      updateFormat: { includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: wildcard(bank) } },
    });
    expect(bothGiven.status).toBe(400);
    expect(cantonError(bothGiven).code).toBe('INVALID_ARGUMENT');
    // Canton's JSON API (JsUpdateService.toGetUpdatesRequest) answers INVALID_ARGUMENT "Either filter/verbose or update_format is required"
    const none = await updates(sim.url, { beginExclusive: 0 });
    expect(none.status).toBe(400);
    expect(cantonError(none).code).toBe('INVALID_ARGUMENT');
    const legacy = await updates(sim.url, { beginExclusive: 0, filter: wildcard(bob), verbose: true });
    expect(legacy.status).toBe(200);
    const kinds = (legacy.json as { update: Record<string, unknown> }[]).map((u) => Object.keys(u.update)[0]);
    expect(kinds).toEqual(['Transaction', 'OffsetCheckpoint']);
  });

  it('streams topology events and the transaction tree legacy endpoints', async () => {
    const topo = await updates(sim.url, {
      beginExclusive: 0,
      updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [carol] } } },
    });
    const list = topo.json as {
      update: {
        TopologyTransaction?: { value: { events: { event: { ParticipantAuthorizationAdded: { value: { partyId: string } } } }[] } };
      };
    }[];
    const topoEvents = list.filter((u) => u.update.TopologyTransaction);
    expect(topoEvents).toHaveLength(1);
    expect(topoEvents[0]?.update.TopologyTransaction?.value.events[0]?.event.ParticipantAuthorizationAdded.value.partyId).toBe(carol);

    const trees = await updates(sim.url, { beginExclusive: 0, filter: wildcard(alice) }, '/v2/updates/trees');
    expect(trees.status).toBe(200);
    const treeUpdates = (trees.json as { update: Record<string, { value: { eventsById: Record<string, unknown> } }> }[]).filter(
      (u) => u.update.TransactionTree,
    );
    expect(treeUpdates).toHaveLength(2);
    const byOffset = await call(sim.url, 'GET', '/v2/updates/transaction-tree-by-offset/{offset}', {
      path: `/v2/updates/transaction-tree-by-offset/${transferOffset}?parties=${encodeURIComponent(alice)}`,
    });
    expect(byOffset.status).toBe(200);
    expect(Object.keys((byOffset.json as { transaction: { eventsById: object } }).transaction.eventsById)).toEqual(['0', '1']);
    const byId = await call(sim.url, 'GET', '/v2/updates/transaction-tree-by-id/{update-id}', {
      path: `/v2/updates/transaction-tree-by-id/${transferUpdateId}?parties=${encodeURIComponent(bob)}`,
    });
    expect(Object.keys((byId.json as { transaction: { eventsById: object } }).transaction.eventsById)).toEqual(['1']);
    const flat = await call(sim.url, 'POST', '/v2/updates/transaction-by-id', {
      body: { updateId: transferUpdateId, requestingParties: [bank] },
    });
    expect(flat.status).toBe(200);
  });

  it('events-by-contract-id and contract-by-id respect visibility', async () => {
    const bobAcs = acsCreated(await acs(sim.url, wildcard(bob)));
    const cid = bobAcs[0]?.contractId as string;
    const ev = await call(sim.url, 'POST', '/v2/events/events-by-contract-id', { body: { contractId: cid, eventFormat: wildcard(bob) } });
    expect(ev.status).toBe(200);
    expect((ev.json as { created: unknown; archived?: unknown }).archived).toBeUndefined();
    const hidden = await call(sim.url, 'POST', '/v2/events/events-by-contract-id', {
      body: { contractId: cid, eventFormat: wildcard(carol) },
    });
    expect(hidden.status).toBe(404);
    expect(cantonError(hidden).code).toBe('CONTRACT_EVENTS_NOT_FOUND');
    const byId = await call(sim.url, 'POST', '/v2/contracts/contract-by-id', { body: { contractId: cid, queryingParties: [bob] } });
    expect(byId.status).toBe(200);
    const nf = await call(sim.url, 'POST', '/v2/contracts/contract-by-id', { body: { contractId: cid, queryingParties: [carol] } });
    expect(cantonError(nf).code).toBe('CONTRACT_NOT_FOUND');
    // archived contract: both events
    const aliceEvents = await call(sim.url, 'POST', '/v2/updates/update-by-offset', {
      body: {
        offset: transferOffset,
        updateFormat: { includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: wildcard(alice) } },
      },
    });
    const archivedCid = (
      aliceEvents.json as { update: { Transaction: { value: { events: { ArchivedEvent: { contractId: string } }[] } } } }
    ).update.Transaction.value.events[0]?.ArchivedEvent.contractId as string;
    const both = await call(sim.url, 'POST', '/v2/events/events-by-contract-id', {
      body: { contractId: archivedCid, eventFormat: wildcard(alice) },
    });
    expect((both.json as { archived: { archivedEvent: { offset: number } } }).archived.archivedEvent.offset).toBe(transferOffset);
  });
});
