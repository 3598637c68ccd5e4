/**
 * Stream rules that the simulator got wrong (issue #19 and what the model in stream-model/ found),
 * each pinned by one case quoting the rule of the reference spec — or, where the spec and Canton
 * differ or the spec is silent, naming the Canton source followed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT,
  ASSET,
  IOU,
  IOU_PROPOSAL,
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

type Json = Record<string, unknown>;
type Update = { update: Record<string, { value: Json }> };

const interfaceFilter = (view: boolean) => ({
  cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: ASSET, includeInterfaceView: view } } } }],
});
const templateFilter = (templateId: string, blob = false) => ({
  cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId, includeCreatedEventBlob: blob } } } }],
});
const shape = (s: 'ACS_DELTA' | 'LEDGER_EFFECTS', eventFormat: unknown) => ({
  includeTransactions: { transactionShape: `TRANSACTION_SHAPE_${s}`, eventFormat },
});

describe('stream rules fixed by issue #19', () => {
  let sim: TestSim;
  let bank: string, alice: string, bob: string;
  let global: string, other: string;
  const list = async (req: Json, route = '/v2/updates'): Promise<Update[]> => {
    const r = await updates(sim.url, req, route);
    expect(r.status, r.text).toBe(200);
    return r.json as Update[];
  };
  const at = async (offset: number, updateFormat: unknown): Promise<Json> => {
    const r = await call(sim.url, 'POST', '/v2/updates/update-by-offset', { body: { offset, updateFormat } });
    expect(r.status, r.text).toBe(200);
    return Object.values((r.json as Update).update)[0]?.value as Json;
  };
  const events = (tx: Json): Json[] => (tx.events as Record<string, Json>[]).map((e) => Object.values(e)[0] as Json);

  beforeAll(async () => {
    sim = await startTestSim();
    bank = await allocate(sim.url, 'Bank');
    alice = await allocate(sim.url, 'Alice');
    bob = await allocate(sim.url, 'Bob');
    const syncs = (await call(sim.url, 'GET', '/v2/state/connected-synchronizers')).json as {
      connectedSynchronizers: { synchronizerId: string }[];
    };
    [global, other] = syncs.connectedSynchronizers.map((s) => s.synchronizerId) as [string, string];
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it(
    'implementedInterfaces: "Populated only in case interface filters with include_interface_view set" ' +
      '(ArchivedEvent, consuming ExercisedEvent)',
    async () => {
      const iou = (await submitTx(sim.url, [bank], [createIou(bank, alice, '10')])).created[0]?.contractId as string;
      await submitTx(sim.url, [alice], [exercise(IOU, iou, 'Iou_Describe')]);
      const transfer = await submitTx(sim.url, [alice], [exercise(IOU, iou, 'Iou_Transfer', { newOwner: bob })]);
      const packageId = String(events(await at(transfer.offset, shape('ACS_DELTA', wildcard(alice))))[0]?.templateId).split(':')[0] ?? '';
      const assetId = `${packageId}:Demo.Asset:Asset`;
      const archived = async (f: unknown): Promise<unknown> =>
        events(await at(transfer.offset, shape('ACS_DELTA', { filtersByParty: { [alice]: f } })))[0]?.implementedInterfaces;
      expect(await archived({})).toEqual([]);
      expect(await archived(templateFilter(IOU))).toEqual([]);
      expect(await archived(interfaceFilter(false))).toEqual([]);
      expect(await archived(interfaceFilter(true))).toEqual([assetId]);
      // ExercisedEvent: "If the event is consuming, the interfaces … matched from the interface filter query"
      const exercised = events(
        await at(transfer.offset, shape('LEDGER_EFFECTS', { filtersByParty: { [alice]: interfaceFilter(true) } })),
      )[0];
      expect(exercised?.implementedInterfaces).toEqual([assetId]);
      expect(events(await at(transfer.offset, shape('LEDGER_EFFECTS', wildcard(alice))))[0]?.implementedInterfaces).toEqual([]);
      const describe = events(
        await at(transfer.offset - 1, shape('LEDGER_EFFECTS', { filtersByParty: { [alice]: interfaceFilter(true) } })),
      )[0];
      expect(describe?.consuming).toBe(false);
      expect(describe?.implementedInterfaces).toEqual([]);
    },
  );

  it(
    'witnessParties: "the subset of the requested parties that can see the event", ' +
      "whichever party's filter selected it (Canton allFilterParties)",
    async () => {
      const tx = await submitTx(sim.url, [bank], [createIou(bank, alice, '3', 'USD', [bob])]);
      // Alice asks for proposals only, Bob for everything: Bob's filter selects the Iou, Alice is a requested stakeholder
      const e = events(
        await at(tx.offset, shape('ACS_DELTA', { filtersByParty: { [alice]: templateFilter(IOU_PROPOSAL), [bob]: {} } })),
      )[0];
      expect(e?.witnessParties).toEqual([alice, bob].sort());
      // "interfaceViews: … an InterfaceView for each interface for which there is a InterfaceFilter with its party in the witness_parties"
      const v = events(
        await at(tx.offset, shape('ACS_DELTA', { filtersByParty: { [alice]: interfaceFilter(true), [bob]: templateFilter(IOU) } })),
      )[0];
      expect((v?.interfaceViews as unknown[]).length).toBe(1);
    },
  );

  it('Filters.cumulative: an Empty entry next to a template filter adds no wildcard (Canton FormatValidator.validateFilters)', async () => {
    const tx = await submitTx(
      sim.url,
      [bank],
      [{ CreateCommand: { templateId: ACCOUNT, createArguments: { bank, holder: alice, accountId: 'E-1', label: 'x' } } }],
    );
    const withEmpty = (templateId: string) => ({
      filtersByParty: {
        [alice]: { cumulative: [{ identifierFilter: { Empty: {} } }, { identifierFilter: { TemplateFilter: { value: { templateId } } } }] },
      },
    });
    const none = await call(sim.url, 'POST', '/v2/updates/update-by-offset', {
      body: { offset: tx.offset, updateFormat: shape('ACS_DELTA', withEmpty(IOU)) },
    });
    expect(cantonError(none).code).toBe('UPDATE_NOT_FOUND');
    expect(events(await at(tx.offset, shape('ACS_DELTA', withEmpty(ACCOUNT))))).toHaveLength(1);
    // only Empty entries: "If no CumulativeFilter defined, the default of a single WildcardFilter … is used"
    const onlyEmpty = { filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { Empty: {} } }] } } };
    expect(events(await at(tx.offset, shape('ACS_DELTA', onlyEmpty)))).toHaveLength(1);
  });

  it('reassignments under an InterfaceFilter: the unassignment is selected as the assignment is', async () => {
    const iou = (await submitTx(sim.url, [bank], [createIou(bank, alice, '7')])).created[0]?.contractId as string;
    const reassign = async (command: unknown): Promise<Json> => {
      const r = await call(sim.url, 'POST', '/v2/commands/submit-and-wait-for-reassignment', {
        body: {
          reassignmentCommands: { commandId: `r-${Math.random()}`, submitter: bank, workflowId: 'wf-move', commands: [{ command }] },
        },
      });
      expect(r.status, r.text).toBe(200);
      return (r.json as { reassignment: Json }).reassignment;
    };
    const un = await reassign({ UnassignCommand: { value: { contractId: iou, source: global, target: other } } });
    const reassignmentId = (((un.events as Json[])[0] as Json).JsUnassignedEvent as { value: { reassignmentId: string } }).value
      .reassignmentId;
    const as = await reassign({ AssignCommand: { value: { reassignmentId, source: global, target: other } } });
    const viaInterface = { includeReassignments: { filtersByParty: { [alice]: interfaceFilter(true) } } };
    const got = await list({ beginExclusive: Number(un.offset) - 1, endInclusive: Number(as.offset), updateFormat: viaInterface });
    expect(got.map((u) => Object.keys((u.update.Reassignment?.value.events as Json[])[0] ?? {})[0])).toEqual([
      'JsUnassignedEvent',
      'JsAssignmentEvent',
    ]);

    // JsActiveContract.createdEvent: "as it appeared in the context of its last update (i.e. daml transaction or reassignment).
    // In particular, the last offset, node_id pair is preserved"; JsCreated.synchronizerId: "The synchronizer which sequenced the creation"
    const acs = (
      await call(sim.url, 'POST', '/v2/state/active-contracts', {
        body: { activeAtOffset: Number(as.offset), eventFormat: wildcard(alice) },
      })
    ).json as {
      workflowId?: string;
      contractEntry: {
        JsActiveContract?: { createdEvent: { contractId: string; offset: number; nodeId: number }; synchronizerId: string };
      };
    }[];
    const entry = acs.find((e) => e.contractEntry.JsActiveContract?.createdEvent.contractId === iou);
    expect(entry?.contractEntry.JsActiveContract?.createdEvent.offset).toBe(as.offset);
    expect(entry?.contractEntry.JsActiveContract?.createdEvent.nodeId).toBe(0);
    expect(entry?.contractEntry.JsActiveContract?.synchronizerId).toBe(other);
    expect(entry?.workflowId).toBe('wf-move');
    // while unassigned: UnassignedEvent.submitter "Party on whose behalf the unassign command was executed"
    const mid = (
      await call(sim.url, 'POST', '/v2/state/active-contracts', {
        body: { activeAtOffset: Number(un.offset), eventFormat: wildcard(alice) },
      })
    ).json as {
      contractEntry: { JsIncompleteUnassigned?: { unassignedEvent: { contractId: string; submitter?: string } } };
    }[];
    expect(
      mid.find((e) => e.contractEntry.JsIncompleteUnassigned?.unassignedEvent.contractId === iou)?.contractEntry.JsIncompleteUnassigned
        ?.unassignedEvent.submitter,
    ).toBe(bank);
    const byCid = await call(sim.url, 'POST', '/v2/events/events-by-contract-id', {
      body: { contractId: iou, eventFormat: wildcard(alice) },
    });
    expect((byCid.json as { created: { synchronizerId: string } }).created.synchronizerId).toBe(global);
  });

  it('legacy trees: "all party keys used as wildcard filters", the cumulative filters only shape the created events', async () => {
    const tx = await submitTx(
      sim.url,
      [bank],
      [
        createIou(bank, alice, '5'),
        { CreateCommand: { templateId: IOU_PROPOSAL, createArguments: { issuer: bank, owner: alice, currency: 'X', amount: '1' } } },
      ],
    );
    const trees = await list(
      { beginExclusive: tx.offset - 1, endInclusive: tx.offset, filter: { filtersByParty: { [alice]: templateFilter(IOU, true) } } },
      '/v2/updates/trees',
    );
    const byId = trees[0]?.update.TransactionTree?.value.eventsById as Record<string, { CreatedTreeEvent: { value: Json } }>;
    expect(Object.keys(byId)).toEqual(['0', '1']);
    expect(byId['0']?.CreatedTreeEvent.value.createdEventBlob).not.toBe('');
    expect(byId['1']?.CreatedTreeEvent.value.createdEventBlob).toBe(''); // not requested: the empty ByteString
  });

  it('legacy filter/verbose versus updateFormat, as Canton converts them (JsUpdateService.toGetUpdatesRequest)', async () => {
    const format = shape('ACS_DELTA', wildcard(alice));
    // GetUpdatesRequest.verbose: "Optional for backwards compatibility, if defined update_format must be unset"
    const both = await updates(sim.url, { beginExclusive: 0, verbose: true, updateFormat: format });
    expect(both.status).toBe(400);
    expect(cantonError(both).code).toBe('INVALID_ARGUMENT');
    expect(cantonError(both).cause).toContain('Both update_format and verbose are set');
    // JSON cannot tell `false` from the proto default: Canton refuses only `true`
    expect((await updates(sim.url, { beginExclusive: 0, verbose: false, updateFormat: format })).status).toBe(200);
    const acsBoth = await call(sim.url, 'POST', '/v2/state/active-contracts', {
      body: { activeAtOffset: 0, verbose: true, eventFormat: wildcard(alice) },
    });
    expect(cantonError(acsBoth).code).toBe('INVALID_ARGUMENT');
    /*
     * GetUpdatesRequest.updateFormat defaults, for a legacy `filter`, to
     * "include_topology_events.include_participant_authorization_events.parties = all the parties specified in filter"
     * — but no Canton release does so: JsUpdateServiceConverters.toUpdateFormat (3.3, 3.4, 3.5, main) sets
     * includeTopologyEvents = None. A participant sends legacy clients no topology events; neither does the simulator.
     */
    const legacy = await list({ beginExclusive: 0, filter: wildcard(alice) });
    expect(legacy.some((u) => 'TopologyTransaction' in u.update)).toBe(false);
    const withFormat = await list({
      beginExclusive: 0,
      updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [alice] } } },
    });
    expect(withFormat.filter((u) => 'TopologyTransaction' in u.update)).toHaveLength(1);
    // the transaction lookups: "Either transaction_format or requesting_parties is required"
    const neither = await call(sim.url, 'POST', '/v2/updates/transaction-by-offset', { body: { offset: 1 } });
    expect(cantonError(neither).code).toBe('INVALID_ARGUMENT');
  });
});
