/**
 * The packed streaming form (packed.ts) against the object projection (projection.ts): the spliced
 * JSON must parse to exactly what projectTransaction / projectTree build, for party-wildcard, any-party
 * and template filters, with transient contracts, archives, non-consuming exercises and commandId
 * visibility, flat and as trees of both shapes, from rows of both packed forms; a party without an id
 * means no packed form.
 */
import { describe, expect, it } from 'vitest';
import type { ResolvedEventFormat, ResolvedTransactionFormat } from '../../src/simulator/filters.js';
import { wildcardFormat } from '../../src/simulator/filters.js';
import type { CreatedNode, ExercisedNode, StoredTransaction } from '../../src/simulator/model.js';
import { isPacked, packTransaction } from '../../src/simulator/packed.js';
import { PackedFormat } from '../../src/simulator/packed-format.js';
import { planPacked, writePacked } from '../../src/simulator/packed-plan.js';
import type { PartyIds } from '../../src/simulator/packed.js';
import { PackageRegistry } from '../../src/simulator/packages/registry.js';
import { projectTransaction, projectTree } from '../../src/simulator/projection.js';
import { JsonOut } from '../../src/simulator/json-out.js';
import { packTransactionV1 } from '../support/simulator-packed-v1.js';

const ns = '1220aa';
const [bank, alice, bob, carol] = ['Bank', 'Alice', 'Bob', 'Cärol'].map((p) => `${p}::${ns}`) as [string, string, string, string];
const partyList = [bank, alice, bob, carol];
const ids: PartyIds = {
  pidOf: (p) => {
    const i = partyList.indexOf(p);
    return i < 0 ? undefined : i + 7;
  },
  partyOf: (pid) => partyList[pid - 7],
};
const pidOf = (party: string) => ids.pidOf(party);
const registry = new PackageRegistry();

const create = (nodeId: number, contractId: string, owner: string, witnesses: string[]): CreatedNode => ({
  kind: 'create',
  nodeId,
  contractId,
  packageId: 'pkg1',
  packageName: 'simulator-demo',
  qualifiedName: 'Demo.Iou:Iou',
  createArgument: { issuer: bank, owner, currency: '€ “x”', amount: '1.0', observers: [] },
  signatories: [bank],
  observers: [owner],
  createdAt: '2026-01-01T00:00:00Z',
  implementedInterfaces: [],
  witnesses,
});
const exercise = (nodeId: number, contractId: string, consuming: boolean, witnesses: string[], last: number): ExercisedNode => ({
  kind: 'exercise',
  nodeId,
  contractId,
  packageId: 'pkg1',
  packageName: 'simulator-demo',
  qualifiedName: 'Demo.Iou:Iou',
  choice: consuming ? 'Archive' : 'Iou_Describe',
  choiceArgument: {},
  actingParties: [bank],
  consuming,
  lastDescendantNodeId: last,
  exerciseResult: null,
  stakeholders: [alice, bank],
  implementedInterfaces: [],
  witnesses,
});

const tx: StoredTransaction = {
  kind: 'transaction',
  offset: 42,
  updateId: 'upd-42',
  commandId: 'cmd-42',
  workflowId: 'wf',
  effectiveAt: '2026-01-01T00:00:00Z',
  recordTime: '2026-01-01T00:00:01Z',
  synchronizerId: 'sync::1220',
  actAs: [bank],
  nodes: [
    create(0, 'c-alice', alice, [alice, bank]),
    exercise(1, 'c-old', true, [alice, bank, carol], 2),
    create(2, 'c-bob', bob, [alice, bank, bob, carol]),
    create(3, 'c-transient', carol, [bank, carol]),
    exercise(4, 'c-transient', true, [bank, carol], 4),
    exercise(5, 'c-alice', false, [alice, bank], 5),
  ],
};

const spliced = (packed: string, tf: ResolvedTransactionFormat, tree: boolean): unknown => {
  const plan = planPacked(packed, tx.offset, tf, new PackedFormat(tf.events, ids), registry, () => tx, tree);
  if (!plan) return undefined;
  const out = new JsonOut();
  writePacked(out, plan);
  return JSON.parse(out.takeOne().toString('utf8'));
};

const formats: [string, ResolvedEventFormat][] = [
  ['alice', wildcardFormat([alice])],
  ['bob', wildcardFormat([bob])],
  ['carol + bank', wildcardFormat([carol, bank])],
  ['unknown party', wildcardFormat([`Nobody::${ns}`])],
  [
    'any party',
    { byParty: new Map(), any: { wildcard: true, wildcardBlob: false, templates: new Map(), interfaces: new Map() }, verbose: false },
  ],
  [
    'template filter (generic matching)',
    {
      byParty: new Map([
        [
          alice,
          { wildcard: false, wildcardBlob: false, templates: new Map([['simulator-demo:Demo.Iou:Iou', false]]), interfaces: new Map() },
        ],
      ]),
      any: undefined,
      verbose: false,
    },
  ],
];

describe('packed streaming form', () => {
  const packed = packTransaction(tx, pidOf) as string;

  it('is recognised as packed', () => {
    expect(isPacked(packed)).toBe(true);
    expect(isPacked(Buffer.from(packed))).toBe(false);
  });

  for (const [name, events] of formats) {
    it(`flat (ACS delta and ledger effects) and tree equal the object projection: ${name}`, () => {
      for (const shape of ['ACS_DELTA', 'LEDGER_EFFECTS'] as const) {
        const p = projectTransaction(tx, { shape, events }, registry);
        expect(spliced(packed, { shape, events }, false), `${name} ${shape}`).toEqual(p ? { Transaction: { value: p } } : undefined);
      }
      for (const shape of ['ACS_DELTA', 'LEDGER_EFFECTS'] as const) {
        const t = projectTree(tx, { shape, events }, registry);
        expect(spliced(packed, { shape, events }, true), `${name} ${shape} tree`).toEqual(
          t ? { TransactionTree: { value: t } } : undefined,
        );
      }
    });

    it(`rows in the first packed form (ptx1) answer the same: ${name}`, () => {
      const v1 = packTransactionV1(tx, pidOf) as string;
      for (const shape of ['ACS_DELTA', 'LEDGER_EFFECTS'] as const)
        for (const tree of [false, true]) expect(spliced(v1, { shape, events }, tree)).toEqual(spliced(packed, { shape, events }, tree));
    });
  }

  it('rows in the first packed form answer the same for a keyed contract (with and without a stored key hash)', () => {
    const keyed = (hash: string | undefined): StoredTransaction => ({
      ...tx,
      nodes: [
        {
          ...create(0, 'c-key', alice, [alice, bank]),
          // a key whose record has fields named like the event fields after it
          contractKey: { representativePackageId: 'x', contractKeyHash: 'y' },
          ...(hash !== undefined ? { contractKeyHash: hash } : {}),
        },
      ],
    });
    for (const hash of ['abcd', undefined]) {
      const tf: ResolvedTransactionFormat = { shape: 'LEDGER_EFFECTS', events: wildcardFormat([alice]) };
      const now = spliced(packTransaction(keyed(hash), pidOf) as string, tf, false);
      expect(spliced(packTransactionV1(keyed(hash), pidOf) as string, tf, false)).toEqual(now);
      const p = projectTransaction(keyed(hash), tf, registry);
      expect(now).toEqual({ Transaction: { value: p } });
      expect(p?.events[0]).toMatchObject({ CreatedEvent: { contractKeyHash: hash ?? '' } });
    }
  });

  it('writes every field Canton always prints, with its default when empty', () => {
    const flat = spliced(packed, { shape: 'LEDGER_EFFECTS', events: wildcardFormat([alice]) }, false) as {
      Transaction: { value: { workflowId: string; events: Record<string, Record<string, unknown>>[] } };
    };
    const created = flat.Transaction.value.events[0]?.CreatedEvent;
    expect(created).toMatchObject({ contractKeyHash: '', createdEventBlob: '', interfaceViews: [] });
    const noWorkflow = packTransaction({ ...tx, workflowId: undefined }, pidOf) as string;
    const t = spliced(noWorkflow, { shape: 'ACS_DELTA', events: wildcardFormat([bank]) }, false) as { Transaction: { value: object } };
    expect(t.Transaction.value).toMatchObject({ workflowId: '', commandId: 'cmd-42' });
  });

  it('renders an ACS-delta transaction whose visible events are all archivals as a tree without events', () => {
    const onlyArchive: StoredTransaction = { ...tx, nodes: [exercise(0, 'c-old', true, [alice, bank], 0)] };
    const p = packTransaction(onlyArchive, pidOf) as string;
    const plan = planPacked(
      p,
      tx.offset,
      { shape: 'ACS_DELTA', events: wildcardFormat([alice]) },
      new PackedFormat(wildcardFormat([alice]), ids),
      registry,
      () => onlyArchive,
      true,
    );
    const out = new JsonOut();
    writePacked(out, plan as NonNullable<typeof plan>);
    expect(
      (JSON.parse(out.takeOne().toString('utf8')) as { TransactionTree: { value: { eventsById: object } } }).TransactionTree.value
        .eventsById,
    ).toEqual({});
  });

  it('shows the commandId only to submitters', () => {
    const forBank = spliced(packed, { shape: 'ACS_DELTA', events: wildcardFormat([bank]) }, false) as {
      Transaction: { value: { commandId?: string } };
    };
    const forAlice = spliced(packed, { shape: 'ACS_DELTA', events: wildcardFormat([alice]) }, false) as {
      Transaction: { value: { commandId?: string } };
    };
    expect(forBank.Transaction.value.commandId).toBe('cmd-42');
    // a proto3 string: printed as "" when hidden (JsTransaction.commandId "Missing for everyone except the submitting party")
    expect(forAlice.Transaction.value.commandId).toBe('');
  });

  it('matches a requested party that had no id when the request started (allocated while streaming)', () => {
    let known = false;
    const later: PartyIds = { pidOf: (p) => (p === bob && !known ? undefined : ids.pidOf(p)), partyOf: (pid) => ids.partyOf(pid) };
    const pf = new PackedFormat(wildcardFormat([bob]), later);
    const tf: ResolvedTransactionFormat = { shape: 'ACS_DELTA', events: wildcardFormat([bob]) };
    known = true;
    expect(planPacked(packed, tx.offset, tf, pf, registry, () => tx)?.events.map((e) => e.witnesses)).toEqual([JSON.stringify([bob])]);
  });

  it('has no packed form when a party has no id', () => {
    expect(packTransaction({ ...tx, actAs: [`Remote::${ns}`] }, pidOf)).toBeUndefined();
    expect(packTransaction({ ...tx, nodes: [create(0, 'c', `Remote::${ns}`, [bank])] }, pidOf)).toBeUndefined();
  });
});
