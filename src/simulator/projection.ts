/** Projects stored updates to the JSON API shapes, applying event formats, shapes and witness rules. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { Match, ResolvedEventFormat, ResolvedTransactionFormat, ResolvedUpdateFormat } from './filters.js';
import { matchEvent, readersOf } from './filters.js';
import type { CreatedNode, ExercisedNode, StoredReassignment, StoredTopology, StoredTransaction, StoredUpdate } from './model.js';
import { stakeholdersOf } from './model.js';
import { isoToMicros, microsToIso } from './clock.js';
import { canonicalJson } from './packages/canonical.js';
import type { PackageRegistry } from './packages/registry.js';
import { lfInterfaceView } from './engine/lf-views.js';

type S = v3_5.components['schemas'];
export type JsCreatedEvent = S['CreatedEvent'];
export type JsUpdate = S['Update'];
export type JsUpdateTree = S['Update1'];

const templateIdOf = (n: { packageId: string; qualifiedName: string }): string => `${n.packageId}:${n.qualifiedName}`;
const templateKeyOf = (n: { packageName: string; qualifiedName: string }): string => `${n.packageName}:${n.qualifiedName}`;

export function createdEventBlob(node: CreatedNode): string {
  return Buffer.from(canonicalJson({ v: 1, ...node, witnesses: undefined, nodeId: undefined })).toString('base64');
}

/** Created-event fields of a spliced create (no blob, no interface views), as Canton prints them. */
export const CREATE_DEFAULTS = ',"createdEventBlob":"","interfaceViews":[]';

const KEY_HASH_FIELD = ',"contractKeyHash":"';

/**
 * The default fields the text of a created event lacks when it was stored before they were (`ptx1|`
 * rows, splice.ts rows): the blob and the views, and `contractKeyHash` unless the text ends with it.
 * `tail` is the end of the event's text (a few hundred characters). Only the key and its hash follow
 * the fields that are always there, the hash last and a string without quotes; a field of that name
 * inside a value is followed by more text, so it is never taken for the hash.
 */
export function legacyCreateDefaults(tail: string): string {
  const h = tail.lastIndexOf(KEY_HASH_FIELD);
  const hashed = h >= 0 && tail.indexOf('"', h + KEY_HASH_FIELD.length) === tail.length - 1;
  return hashed ? CREATE_DEFAULTS : `,"contractKeyHash":""${CREATE_DEFAULTS}`;
}

/**
 * A CreatedEvent as Canton's JSON API prints it (JsSchema.JsEvent.CreatedEvent, circe-derived): every
 * field that is not an Option is always present, with the protobuf default when empty —
 * `contractKeyHash` and `createdEventBlob` (ByteString) `""`, `interfaceViews` `[]`. The Option
 * `contractKey` is printed as `null` when absent; the simulator omits it (the reference spec allows no
 * null), which JSON clients read the same way.
 */
export function createdEvent(
  node: CreatedNode,
  offset: number,
  match: Match,
  acsDelta: boolean,
  registry: PackageRegistry,
): JsCreatedEvent {
  const ev: JsCreatedEvent = {
    offset,
    nodeId: node.nodeId,
    contractId: node.contractId,
    templateId: templateIdOf(node),
    ...(node.contractKey !== undefined ? { contractKey: node.contractKey } : {}),
    contractKeyHash: node.contractKey !== undefined ? (node.contractKeyHash ?? '') : '',
    createArgument: node.createArgument,
    createdEventBlob: match.blob ? createdEventBlob(node) : '',
    interfaceViews: [],
    witnessParties: match.parties,
    signatories: node.signatories,
    observers: node.observers,
    createdAt: node.createdAt,
    packageName: node.packageName,
    representativePackageId: node.packageId,
    acsDelta,
  };
  if (match.views.length > 0) {
    const t = registry.templateOfNode(node);
    // JsInterfaceView: viewStatus prints `details` always (JsSchema grpcStatusEncoder); a failed view has no
    // viewValue and no implementationPackageId (ProtocolConverters.InterfaceView.toJson)
    ev.interfaceViews = match.views.map((iid) => {
      const impl = t ? registry.implementation(t, iid) : undefined;
      if (t?.uploaded) {
        // uploaded packages: the Daml-LF engine computes the view
        const v = lfInterfaceView(registry, node, iid);
        return v.ok
          ? { interfaceId: iid, viewStatus: { code: 0, message: '', details: [] }, viewValue: v.value, implementationPackageId: t.pkg.id }
          : { interfaceId: iid, viewStatus: { code: v.code, message: v.message, details: [] } };
      }
      if (!t || !impl) return { interfaceId: iid, viewStatus: { code: 5, message: `Template does not implement ${iid}`, details: [] } };
      return {
        interfaceId: iid,
        viewStatus: { code: 0, message: '', details: [] },
        viewValue: impl.view(node.createArgument as Record<string, never>),
        implementationPackageId: t.pkg.id,
      };
    });
  }
  return ev;
}

function exercisedEvent(node: ExercisedNode, offset: number, match: Match, acsDelta: boolean): S['ExercisedEvent'] {
  const ev: S['ExercisedEvent'] = {
    offset,
    nodeId: node.nodeId,
    contractId: node.contractId,
    templateId: templateIdOf(node),
    choice: node.choice,
    choiceArgument: node.choiceArgument,
    actingParties: node.actingParties,
    consuming: node.consuming,
    witnessParties: match.parties,
    lastDescendantNodeId: node.lastDescendantNodeId,
    exerciseResult: node.exerciseResult,
    packageName: node.packageName,
    // "If the event is consuming, the interfaces implemented by the target template that have been matched from the
    // interface filter query. Populated only in case interface filters with include_interface_view set."
    implementedInterfaces: node.consuming ? match.views : [],
    acsDelta,
  };
  if (node.interfaceId) ev.interfaceId = node.interfaceId;
  return ev;
}

function transientContracts(tx: StoredTransaction): Set<string> {
  const created = new Set(tx.nodes.filter((n) => n.kind === 'create').map((n) => n.contractId));
  const out = new Set<string>();
  for (const n of tx.nodes) if (n.kind === 'exercise' && n.consuming && created.has(n.contractId)) out.add(n.contractId);
  return out;
}

/** Events of a transaction for a format and shape (ACS delta: created/archived for stakeholders; ledger effects: all witnessed nodes). */
function transactionEvents(tx: StoredTransaction, tf: ResolvedTransactionFormat, registry: PackageRegistry): S['Event'][] {
  const transient = transientContracts(tx);
  const events: S['Event'][] = [];
  for (const n of tx.nodes) {
    if (tf.shape === 'ACS_DELTA') {
      if (transient.has(n.contractId)) continue;
      if (n.kind === 'create') {
        const m = matchEvent(tf.events, stakeholdersOf(n), templateKeyOf(n), n.implementedInterfaces);
        if (m) events.push({ CreatedEvent: createdEvent(n, tx.offset, m, true, registry) });
      } else if (n.consuming) {
        const m = matchEvent(tf.events, n.stakeholders, templateKeyOf(n), n.implementedInterfaces);
        if (m)
          events.push({
            ArchivedEvent: {
              offset: tx.offset,
              nodeId: n.nodeId,
              contractId: n.contractId,
              templateId: templateIdOf(n),
              witnessParties: m.parties,
              packageName: n.packageName,
              // "The interfaces implemented by the target template that have been matched from the interface filter query.
              // Populated only in case interface filters with include_interface_view set."
              implementedInterfaces: m.views,
            },
          });
      }
    } else {
      const m = matchEvent(tf.events, n.witnesses, templateKeyOf(n), n.implementedInterfaces);
      if (!m) continue;
      const stakeholders = n.kind === 'create' ? stakeholdersOf(n) : n.stakeholders;
      const inDelta = !transient.has(n.contractId) && m.parties.some((p) => stakeholders.includes(p));
      if (n.kind === 'create') events.push({ CreatedEvent: createdEvent(n, tx.offset, m, inDelta, registry) });
      else events.push({ ExercisedEvent: exercisedEvent(n, tx.offset, m, inDelta && n.consuming) });
    }
  }
  return events;
}

function showCommandId(tx: { actAs: string[] }, fmt: ResolvedEventFormat): boolean {
  const readers = readersOf(fmt);
  return readers === undefined || tx.actAs.some((p) => readers.has(p));
}

/**
 * Header fields of JsTransaction / JsTransactionTree / JsReassignment. Canton's JSON API prints the
 * proto3 strings `commandId` and `workflowId` always, `""` when empty — also the commandId hidden from
 * a reader that did not submit (JsTransaction.commandId: "Missing for everyone except the submitting
 * party").
 */
function commandAndWorkflow(
  u: { commandId?: string | undefined; workflowId?: string | undefined; actAs: string[] },
  fmt: ResolvedEventFormat | 'submitter',
): { commandId: string; workflowId: string } {
  const show = fmt === 'submitter' || showCommandId(u, fmt);
  return { commandId: show ? (u.commandId ?? '') : '', workflowId: u.workflowId ?? '' };
}

function transaction(tx: StoredTransaction, events: S['Event'][], fmt: ResolvedEventFormat | 'submitter'): S['JsTransaction'] {
  return {
    updateId: tx.updateId,
    ...commandAndWorkflow(tx, fmt),
    effectiveAt: tx.effectiveAt,
    events,
    offset: tx.offset,
    synchronizerId: tx.synchronizerId,
    recordTime: tx.recordTime,
  };
}

export function projectTransaction(
  tx: StoredTransaction,
  tf: ResolvedTransactionFormat,
  registry: PackageRegistry,
): S['JsTransaction'] | undefined {
  const events = transactionEvents(tx, tf, registry);
  return events.length === 0 ? undefined : transaction(tx, events, tf.events);
}

/**
 * The transaction a submit-and-wait answers when its format shows no event of it: Canton
 * (CommandServiceImpl.fetchTransactionFromCompletion) looks it up again with an any-party wildcard and
 * clears the events, so the submitter sees its commandId.
 */
export function transactionWithoutEvents(tx: StoredTransaction): S['JsTransaction'] {
  return transaction(tx, [], 'submitter');
}

/**
 * A transaction as a tree (Canton LegacyDTOs.toTransactionTree): the created and exercised events of
 * the transaction in the requested shape, keyed by node id; archived events (ACS delta) are left out,
 * so an ACS-delta transaction whose visible events are all archivals is a tree without events.
 */
export function projectTree(
  tx: StoredTransaction,
  tf: ResolvedTransactionFormat,
  registry: PackageRegistry,
): S['JsTransactionTree'] | undefined {
  const events = transactionEvents(tx, tf, registry);
  return events.length === 0 ? undefined : tree(tx, events, tf.events);
}

function tree(tx: StoredTransaction, events: S['Event'][], fmt: ResolvedEventFormat | 'submitter'): S['JsTransactionTree'] {
  const eventsById: Record<string, S['TreeEvent']> = {};
  for (const e of events) {
    if ('CreatedEvent' in e) eventsById[String(e.CreatedEvent.nodeId)] = { CreatedTreeEvent: { value: e.CreatedEvent } };
    else if ('ExercisedEvent' in e) eventsById[String(e.ExercisedEvent.nodeId)] = { ExercisedTreeEvent: { value: e.ExercisedEvent } };
  }
  return {
    updateId: tx.updateId,
    ...commandAndWorkflow(tx, fmt),
    effectiveAt: tx.effectiveAt,
    offset: tx.offset,
    eventsById,
    synchronizerId: tx.synchronizerId,
    recordTime: tx.recordTime,
  };
}

/** The tree a submit-and-wait-for-transaction-tree answers when no event of it is visible. */
export function treeWithoutEvents(tx: StoredTransaction): S['JsTransactionTree'] {
  return tree(tx, [], 'submitter');
}

/** Assignment exclusivity timeout: Canton's default dynamic synchronizer parameter (SynchronizerParameters, 60 s). */
const ASSIGNMENT_EXCLUSIVITY_MICROS = 60_000_000n;

/**
 * UnassignedEvent.assignmentExclusivity: "Before this time (measured on the target synchronizer), only
 * the submitter of the unassignment can initiate the assignment. Defined for reassigning
 * participants." Canton (UnassignmentValidation.checkAssignmentExclusivity) sets it to the target
 * timestamp of the unassignment plus the target's assignmentExclusivityTimeout; this participant hosts
 * every stakeholder, so it is always a reassigning participant. Both synchronizers share the clock:
 * the unassignment's record time stands for its target timestamp.
 */
export function assignmentExclusivity(unassignRecordTime: string): string | undefined {
  const micros = isoToMicros(unassignRecordTime);
  return micros === undefined ? undefined : microsToIso(micros + ASSIGNMENT_EXCLUSIVITY_MICROS);
}

/** An UnassignedEvent (JsUnassignedEvent, JsIncompleteUnassigned): `submitter` `""` when unknown, as proto3 prints it. */
export function unassignedEvent(
  e: { reassignmentId: string; contractId: string; templateId: string; packageName: string; source: string; target: string },
  rest: {
    submitter: string | undefined;
    reassignmentCounter: number;
    witnessParties: string[];
    offset: number;
    recordTime: string | undefined;
  },
): S['UnassignedEvent'] {
  const exclusivity = rest.recordTime === undefined ? undefined : assignmentExclusivity(rest.recordTime);
  return {
    reassignmentId: e.reassignmentId,
    contractId: e.contractId,
    templateId: e.templateId,
    source: e.source,
    target: e.target,
    submitter: rest.submitter ?? '',
    reassignmentCounter: rest.reassignmentCounter,
    ...(exclusivity ? { assignmentExclusivity: exclusivity } : {}),
    witnessParties: rest.witnessParties,
    packageName: e.packageName,
    offset: rest.offset,
    nodeId: 0,
  };
}

export function projectReassignment(
  r: StoredReassignment,
  fmt: ResolvedEventFormat,
  registry: PackageRegistry,
): S['JsReassignment'] | undefined {
  const event = reassignmentEvent(r, fmt, registry);
  return event ? reassignment(r, [event], fmt) : undefined;
}

function reassignmentEvent(
  r: StoredReassignment,
  fmt: ResolvedEventFormat,
  registry: PackageRegistry,
): S['JsReassignmentEvent'] | undefined {
  const e = r.event;
  if (e.type === 'unassign') {
    // template and interface filters select an unassignment as they select the contract's create
    const interfaces = registry.findTemplate(e.templateId)?.implementedInterfaces ?? [];
    const m = matchEvent(fmt, e.stakeholders, `${e.packageName}:${e.templateId.split(':').slice(1).join(':')}`, interfaces);
    if (!m) return undefined;
    return {
      JsUnassignedEvent: {
        value: unassignedEvent(e, {
          submitter: e.submitter,
          reassignmentCounter: e.reassignmentCounter,
          witnessParties: m.parties,
          offset: r.offset,
          recordTime: r.recordTime,
        }),
      },
    };
  }
  const n = e.createdNode;
  const m = matchEvent(fmt, e.stakeholders, templateKeyOf(n), n.implementedInterfaces);
  if (!m) return undefined;
  return {
    JsAssignmentEvent: {
      source: e.source,
      target: e.target,
      reassignmentId: e.reassignmentId,
      submitter: e.submitter,
      reassignmentCounter: e.reassignmentCounter,
      createdEvent: createdEvent(n, r.offset, m, true, registry),
    },
  };
}

function reassignment(
  r: StoredReassignment,
  events: S['JsReassignmentEvent'][],
  fmt: ResolvedEventFormat | 'submitter',
): S['JsReassignment'] {
  return {
    updateId: r.updateId,
    ...commandAndWorkflow(r, fmt),
    offset: r.offset,
    events,
    recordTime: r.recordTime,
    synchronizerId: r.synchronizerId,
  };
}

/** The reassignment a submit-and-wait-for-reassignment answers when its format shows no event of it. */
export function reassignmentWithoutEvents(r: StoredReassignment): S['JsReassignment'] {
  return reassignment(r, [], 'submitter');
}

export function projectTopology(t: StoredTopology, parties: string[]): S['JsTopologyTransaction'] | undefined {
  const selected = parties.length === 0 ? t.events : t.events.filter((e) => parties.includes(e.partyId));
  if (selected.length === 0) return undefined;
  return {
    updateId: t.updateId,
    offset: t.offset,
    synchronizerId: t.synchronizerId,
    recordTime: t.recordTime,
    events: selected.map((e): S['TopologyEvent'] => {
      switch (e.type) {
        case 'added':
          return {
            event: {
              ParticipantAuthorizationAdded: {
                value: { partyId: e.partyId, participantId: e.participantId, participantPermission: e.permission },
              },
            },
          };
        case 'changed':
          return {
            event: {
              ParticipantAuthorizationChanged: {
                value: { partyId: e.partyId, participantId: e.participantId, participantPermission: e.permission },
              },
            },
          };
        case 'revoked':
          return { event: { ParticipantAuthorizationRevoked: { value: { partyId: e.partyId, participantId: e.participantId } } } };
      }
    }),
  };
}

export function projectUpdate(u: StoredUpdate, uf: ResolvedUpdateFormat, registry: PackageRegistry): JsUpdate | undefined {
  switch (u.kind) {
    case 'transaction': {
      if (!uf.transactions) return undefined;
      const t = projectTransaction(u, uf.transactions, registry);
      return t ? { Transaction: { value: t } } : undefined;
    }
    case 'reassignment': {
      if (!uf.reassignments) return undefined;
      const r = projectReassignment(u, uf.reassignments, registry);
      return r ? { Reassignment: { value: r } } : undefined;
    }
    case 'topology': {
      if (uf.topologyParties === undefined) return undefined;
      const t = projectTopology(u, uf.topologyParties);
      return t ? { TopologyTransaction: { value: t } } : undefined;
    }
  }
}

/**
 * One element of a trees stream (Canton JsUpdateService.getTrees: the update format's transactions,
 * in its shape, as trees, and its reassignments). Topology transactions are left out: Canton 3.5 maps
 * them to an empty tree update that its converter refuses (ProtocolConverters
 * GetUpdateTreesResponseLegacy: `illegalValue`, an internal error ending the stream); the simulator
 * does not reproduce that failure.
 */
export function projectUpdateTree(u: StoredUpdate, uf: ResolvedUpdateFormat, registry: PackageRegistry): JsUpdateTree | undefined {
  if (u.kind === 'transaction') {
    const t = uf.transactions ? projectTree(u, uf.transactions, registry) : undefined;
    return t ? { TransactionTree: { value: t } } : undefined;
  }
  if (u.kind === 'reassignment') {
    const r = uf.reassignments ? projectReassignment(u, uf.reassignments, registry) : undefined;
    return r ? { Reassignment: { value: r } } : undefined;
  }
  return undefined;
}

export function updateOffset(u: JsUpdate | JsUpdateTree): number {
  if ('Transaction' in u) return u.Transaction.value.offset;
  if ('TransactionTree' in u) return u.TransactionTree.value.offset;
  if ('Reassignment' in u) return u.Reassignment.value.offset;
  if ('TopologyTransaction' in u) return u.TopologyTransaction.value.offset;
  return u.OffsetCheckpoint.value.offset;
}
