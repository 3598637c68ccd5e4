/**
 * How the model renders one update for a format: JsTransaction (ACS delta / ledger effects),
 * JsTransactionTree, JsReassignment, JsTopologyTransaction. Which events and values appear follows
 * the spec's descriptions quoted at each rule. Field presence follows Canton's JSON codecs (3.5,
 * ledger-json-api JsSchema / CirceRelaxedCodec, circe-derived): a field that is not an Option is
 * always printed, with the protobuf default when empty — strings `""` (commandId, workflowId,
 * submitter), bytes `""` (createdEventBlob, contractKeyHash), lists `[]` (interfaceViews,
 * implementedInterfaces, a status's details). Option fields Canton prints as `null` when empty
 * (contractKey, ExercisedEvent.interfaceId, traceContext, …) are absent here: the reference spec
 * allows no `null` (every answer is validated against it), and JSON clients read both alike.
 */
import type { Opaque } from './compare.js';
import { opaque } from './compare.js';
import type { ExerciseNode, Json } from './daml.js';
import { IMPLEMENTS, PACKAGE_NAME, QUALIFIED, assetView, contractKey, observers, signatories, stakeholders } from './daml.js';
import type { MContract, ModelLedger, MReassignment, MTopology, MTransaction, MUpdate } from './ledger.js';
import type { EventFormatModel, MatchModel, ShapeModel, UpdateFormatModel } from './rules-filter.js';
import { matchModel, showsCommandId } from './rules-filter.js';

export type Expected = Json | Opaque | Expected[] | { [k: string]: Expected | undefined };
type Obj = { [k: string]: Expected | undefined };

const interfacesOf = (c: MContract): string[] => IMPLEMENTS[c.template];
const qualifiedOf = (c: MContract): string => QUALIFIED[c.template];

/**
 * CreatedEvent. "createdEventBlob … Optional"; "contractKey … This will be set if and only if
 * ``template_id`` defines a contract key" (contractKeyHash likewise); "interfaceViews" as in
 * matchModel; "acsDelta: Whether this event would be part of respective ACS_DELTA shaped stream";
 * "representativePackageId … For contracts created before Canton 3.4, this field matches the
 * contract's creation package-id" (no upgrades here: the creation package).
 */
export function createdEvent(ledger: ModelLedger, c: MContract, offset: number, nodeId: number, m: MatchModel, acsDelta: boolean): Obj {
  const key = contractKey(c.template, c.args);
  return {
    offset,
    nodeId,
    contractId: c.cid,
    templateId: ledger.templateId(qualifiedOf(c)),
    ...(key !== undefined ? { contractKey: key } : {}),
    contractKeyHash: key !== undefined ? opaque(`keyhash:${c.cid}`) : '',
    createArgument: c.args,
    createdEventBlob: m.blob ? opaque(`blob:${c.cid}`) : '',
    // InterfaceView.viewStatus: a google.rpc.Status, printed with its details (JsSchema grpcStatusEncoder)
    interfaceViews: m.views.map((i) => ({
      interfaceId: ledger.templateId(i),
      viewStatus: { code: 0, message: '', details: [] },
      viewValue: assetView(c.template, c.args),
      implementationPackageId: ledger.packageId,
    })),
    witnessParties: m.witnessParties,
    signatories: signatories(c.template, c.args),
    observers: observers(c.template, c.args),
    createdAt: c.created.createdAt,
    packageName: PACKAGE_NAME,
    representativePackageId: ledger.packageId,
    acsDelta,
  };
}

/**
 * ArchivedEvent. "witnessParties … these are the intersection of the stakeholders of the contract in
 * question and the parties specified in the ``TransactionFilter``"; "implementedInterfaces: The
 * interfaces implemented by the target template that have been matched from the interface filter
 * query. Populated only in case interface filters with include_interface_view set."
 */
export function archivedEvent(ledger: ModelLedger, c: MContract, offset: number, nodeId: number, m: MatchModel): Obj {
  return {
    offset,
    nodeId,
    contractId: c.cid,
    templateId: ledger.templateId(qualifiedOf(c)),
    witnessParties: m.witnessParties,
    packageName: PACKAGE_NAME,
    implementedInterfaces: m.views.map((i) => ledger.templateId(i)),
  };
}

/**
 * ExercisedEvent. "interfaceId: The interface where the choice is defined, if inherited";
 * "implementedInterfaces: If the event is consuming, the interfaces implemented by the target
 * template that have been matched from the interface filter query. Populated only in case interface
 * filters with include_interface_view set."
 */
function exercisedEvent(ledger: ModelLedger, n: ExerciseNode, offset: number, m: MatchModel, acsDelta: boolean): Obj {
  const c = n.contract as MContract;
  return {
    offset,
    nodeId: n.nodeId,
    contractId: c.cid,
    templateId: ledger.templateId(qualifiedOf(c)),
    ...(n.interfaceId ? { interfaceId: ledger.templateId(n.interfaceId) } : {}),
    choice: n.choice,
    choiceArgument: n.choiceArgument,
    actingParties: n.actingParties,
    consuming: n.consuming,
    witnessParties: m.witnessParties,
    lastDescendantNodeId: n.lastDescendantNodeId,
    exerciseResult: n.result(),
    packageName: PACKAGE_NAME,
    implementedInterfaces: n.consuming ? m.views.map((i) => ledger.templateId(i)) : [],
    acsDelta,
  };
}

/** Contracts created and consumed by the same transaction: no part of any ACS delta. */
function transients(tx: MTransaction): Set<string> {
  const created = new Set(tx.nodes.filter((n) => n.kind === 'create').map((n) => (n.contract as MContract).cid));
  return new Set(
    tx.nodes
      .filter((n) => n.kind === 'exercise' && n.consuming && created.has((n.contract as MContract).cid))
      .map((n) => (n.contract as MContract).cid),
  );
}

/**
 * Events of a transaction. Event: "ACS delta: events can be CreatedEvent or ArchivedEvent — ledger
 * effects: events can be CreatedEvent or ExercisedEvent"; asyncapi /v2/updates: "ACS delta: a
 * requesting party must be a stakeholder of an event for it to be included. ledger effects: a
 * requesting party must be a witness of an event for it to be included." Transient contracts are in
 * no ACS delta; acsDelta (ledger effects) is true when a requested stakeholder sees a non-transient
 * create or consuming exercise.
 */
export function transactionEvents(ledger: ModelLedger, tx: MTransaction, shape: ShapeModel, ef: EventFormatModel): Obj[] {
  const transient = transients(tx);
  const out: Obj[] = [];
  for (const n of tx.nodes) {
    const c = n.contract as MContract;
    const sh = stakeholders(c.template, c.args);
    const isTransient = transient.has(c.cid);
    if (shape === 'ACS_DELTA') {
      if (isTransient || (n.kind === 'exercise' && !n.consuming)) continue;
      const m = matchModel(ef, sh, qualifiedOf(c), interfacesOf(c));
      if (!m) continue;
      out.push(
        n.kind === 'create'
          ? { CreatedEvent: createdEvent(ledger, c, tx.offset, n.nodeId, m, true) }
          : { ArchivedEvent: archivedEvent(ledger, c, tx.offset, n.nodeId, m) },
      );
    } else {
      const m = matchModel(ef, n.witnesses, qualifiedOf(c), interfacesOf(c));
      if (!m) continue;
      const inDelta = !isTransient && m.witnessParties.some((p) => sh.includes(p));
      if (n.kind === 'create') out.push({ CreatedEvent: createdEvent(ledger, c, tx.offset, n.nodeId, m, inDelta) });
      else out.push({ ExercisedEvent: exercisedEvent(ledger, n, tx.offset, m, inDelta && n.consuming) });
    }
  }
  return out;
}

/**
 * JsTransaction.commandId: "Missing for everyone except the submitting party" — a proto3 string, so
 * Canton prints `""` to other readers; workflowId likewise `""` when the submission set none.
 */
function header(u: { commandId: string; workflowId?: string }, shown: boolean): Obj {
  return { commandId: shown ? u.commandId : '', workflowId: u.workflowId ?? '' };
}

/** JsTransaction; undefined when no event is visible ("events … Required: must be non-empty"). */
export function expectTransaction(ledger: ModelLedger, tx: MTransaction, shape: ShapeModel, ef: EventFormatModel): Obj | undefined {
  const events = transactionEvents(ledger, tx, shape, ef);
  if (events.length === 0) return undefined;
  return {
    updateId: tx.updateId,
    ...header(tx, showsCommandId(ef, tx.actAs)),
    effectiveAt: tx.effectiveAt,
    events,
    offset: tx.offset,
    synchronizerId: tx.synchronizerId,
    recordTime: tx.recordTime,
  };
}

/**
 * JsTransactionTree: the transaction in the requested shape, its created and exercised events keyed
 * by node id. Canton's JSON API builds trees from the transactions its update stream returns for the
 * request's format (JsUpdateService.getTrees, LegacyDTOs.toTransactionTree: `events.collect { Created,
 * Exercised }`), so a tree of an ACS-delta transaction has no archived events, and one whose visible
 * events are all archivals has none at all (it is still delivered).
 */
export function expectTree(ledger: ModelLedger, tx: MTransaction, shape: ShapeModel, ef: EventFormatModel): Obj | undefined {
  const events = transactionEvents(ledger, tx, shape, ef);
  if (events.length === 0) return undefined;
  const eventsById: Obj = {};
  for (const e of events) {
    if ('CreatedEvent' in e) eventsById[JSON.stringify((e.CreatedEvent as Obj).nodeId)] = { CreatedTreeEvent: { value: e.CreatedEvent } };
    else if ('ExercisedEvent' in e)
      eventsById[JSON.stringify((e.ExercisedEvent as Obj).nodeId)] = { ExercisedTreeEvent: { value: e.ExercisedEvent } };
  }
  return {
    updateId: tx.updateId,
    ...header(tx, showsCommandId(ef, tx.actAs)),
    effectiveAt: tx.effectiveAt,
    offset: tx.offset,
    eventsById,
    synchronizerId: tx.synchronizerId,
    recordTime: tx.recordTime,
  };
}

/**
 * JsReassignment. UpdateFormat.includeReassignments: "The events in the result take the shape
 * TRANSACTION_SHAPE_ACS_DELTA" (stakeholders, template and interface filters as for creates).
 * JsAssignedEvent.createdEvent: "The offset of this event refers to the offset of the assignment,
 * while the node_id is the index of within the batch"; UnassignedEvent.submitter: "Party on whose
 * behalf the unassign command was executed".
 */
export function expectReassignment(ledger: ModelLedger, r: MReassignment, ef: EventFormatModel): Obj | undefined {
  const c = r.contract;
  const m = matchModel(ef, stakeholders(c.template, c.args), qualifiedOf(c), interfacesOf(c));
  if (!m) return undefined;
  const mv = r.move;
  const event: Obj =
    mv.type === 'unassign'
      ? { JsUnassignedEvent: { value: unassignedEvent(ledger, c, mv, m) } }
      : {
          JsAssignmentEvent: {
            source: mv.source,
            target: mv.target,
            reassignmentId: mv.reassignmentId,
            submitter: mv.submitter,
            reassignmentCounter: mv.counter,
            createdEvent: createdEvent(ledger, c, r.offset, 0, m, true),
          },
        };
  return {
    updateId: r.updateId,
    ...header(r, showsCommandId(ef, [r.submitter])),
    offset: r.offset,
    events: [event],
    recordTime: r.recordTime,
    synchronizerId: r.synchronizerId,
  };
}

/** Canton's default assignmentExclusivityTimeout (SynchronizerParameters: 60 s). */
const EXCLUSIVITY_MICROS = 60_000_000n;

/**
 * UnassignedEvent. "assignment_exclusivity: Before this time (measured on the target synchronizer),
 * only the submitter of the unassignment can initiate the assignment. Defined for reassigning
 * participants." Canton (UnassignmentValidation.checkAssignmentExclusivity) sets it to the target
 * timestamp of the unassignment plus assignmentExclusivityTimeout; every stakeholder is hosted here,
 * so the participant is reassigning, and both synchronizers share the clock: the model uses the
 * unassignment's record time.
 */
export function unassignedEvent(
  ledger: ModelLedger,
  c: MContract,
  mv: { reassignmentId: string; source: string; target: string; submitter: string; counter: number; offset: number; recordTime: string },
  m: MatchModel,
): Obj {
  return {
    reassignmentId: mv.reassignmentId,
    contractId: c.cid,
    templateId: ledger.templateId(qualifiedOf(c)),
    source: mv.source,
    target: mv.target,
    submitter: mv.submitter,
    reassignmentCounter: mv.counter,
    assignmentExclusivity: plusMicros(mv.recordTime, EXCLUSIVITY_MICROS),
    witnessParties: m.witnessParties,
    packageName: PACKAGE_NAME,
    offset: mv.offset,
    nodeId: 0,
  };
}

/** An RFC 3339 time with six fractional digits (as the simulator prints times) moved by `micros`. */
export function plusMicros(iso: string, micros: bigint): string {
  const m = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/.exec(iso);
  if (!m || m[1] === undefined) throw new Error(`model: not a timestamp: ${iso}`);
  const total = BigInt(Date.parse(`${m[1]}Z`)) * 1000n + BigInt((m[2] ?? '').padEnd(6, '0')) + micros;
  const secs = total / 1_000_000n;
  return `${new Date(Number(secs) * 1000).toISOString().slice(0, 19)}.${(total % 1_000_000n).toString().padStart(6, '0')}Z`;
}

/**
 * ParticipantAuthorizationTopologyFormat.parties: "List of parties for which the topology transactions should be sent.
 * Empty means: for all parties."
 */
export function expectTopology(ledger: ModelLedger, t: MTopology, parties: string[]): Obj | undefined {
  if (parties.length > 0 && !parties.includes(t.party)) return undefined;
  return {
    updateId: t.updateId,
    offset: t.offset,
    synchronizerId: t.synchronizerId,
    recordTime: t.recordTime,
    events: [
      {
        event: {
          ParticipantAuthorizationAdded: {
            value: { partyId: t.party, participantId: ledger.participantId, participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION' },
          },
        },
      },
    ],
  };
}

/**
 * One element of an update list/stream. UpdateFormat: "includeTransactions … If unset, no
 * transactions are emitted"; "includeReassignments … If unset, no (un)assignments are emitted";
 * "includeTopologyEvents … If unset no topology events are emitted". Trees: the format's transactions
 * as trees (expectTree) and its reassignments. A topology transaction has no tree form: Canton 3.5
 * maps it to an empty tree update its converter refuses (ProtocolConverters.GetUpdateTreesResponseLegacy,
 * `illegalValue`, which ends the stream with an internal error); the simulator leaves it out instead,
 * the one place where it does not reproduce Canton (a failure, not a behaviour a client relies on).
 */
export function expectUpdate(ledger: ModelLedger, u: MUpdate, uf: UpdateFormatModel, tree: boolean): Obj | undefined {
  if (u.kind === 'transaction') {
    if (!uf.transactions) return undefined;
    if (tree) {
      const t = expectTree(ledger, u, uf.transactions.shape, uf.transactions.events);
      return t ? { TransactionTree: { value: t } } : undefined;
    }
    const t = expectTransaction(ledger, u, uf.transactions.shape, uf.transactions.events);
    return t ? { Transaction: { value: t } } : undefined;
  }
  if (u.kind === 'reassignment') {
    if (!uf.reassignments) return undefined;
    const r = expectReassignment(ledger, u, uf.reassignments);
    return r ? { Reassignment: { value: r } } : undefined;
  }
  if (uf.topology === undefined || tree) return undefined;
  const t = expectTopology(ledger, u, uf.topology);
  return t ? { TopologyTransaction: { value: t } } : undefined;
}
