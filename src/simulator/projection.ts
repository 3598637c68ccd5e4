/** Projects stored updates to the JSON API shapes, applying event formats, shapes and witness rules. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { Match, ResolvedEventFormat, ResolvedTransactionFormat, ResolvedUpdateFormat } from './filters.js';
import { matchEvent, readersOf } from './filters.js';
import type { CreatedNode, ExercisedNode, StoredReassignment, StoredTopology, StoredTransaction, StoredUpdate } from './model.js';
import { stakeholdersOf } from './model.js';
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
    createArgument: node.createArgument,
    witnessParties: match.parties,
    signatories: node.signatories,
    observers: node.observers,
    createdAt: node.createdAt,
    packageName: node.packageName,
    representativePackageId: node.packageId,
    acsDelta,
  };
  if (node.contractKey !== undefined) {
    ev.contractKey = node.contractKey;
    if (node.contractKeyHash) ev.contractKeyHash = node.contractKeyHash;
  }
  if (match.blob) ev.createdEventBlob = createdEventBlob(node);
  if (match.views.length > 0) {
    const t = registry.templateOfNode(node);
    ev.interfaceViews = match.views.map((iid) => {
      const impl = t ? registry.implementation(t, iid) : undefined;
      if (t?.uploaded) {
        // uploaded packages: the Daml-LF engine computes the view
        const v = lfInterfaceView(registry, node, iid);
        return v.ok
          ? { interfaceId: iid, viewStatus: { code: 0, message: '' }, viewValue: v.value, implementationPackageId: t.pkg.id }
          : { interfaceId: iid, viewStatus: { code: v.code, message: v.message } };
      }
      if (!t || !impl) return { interfaceId: iid, viewStatus: { code: 5, message: `Template does not implement ${iid}` } };
      return {
        interfaceId: iid,
        viewStatus: { code: 0, message: '' },
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

export function projectTransaction(
  tx: StoredTransaction,
  tf: ResolvedTransactionFormat,
  registry: PackageRegistry,
): S['JsTransaction'] | undefined {
  const events = transactionEvents(tx, tf, registry);
  if (events.length === 0) return undefined;
  const out: S['JsTransaction'] = {
    updateId: tx.updateId,
    effectiveAt: tx.effectiveAt,
    events,
    offset: tx.offset,
    synchronizerId: tx.synchronizerId,
    recordTime: tx.recordTime,
    ...(tx.workflowId ? { workflowId: tx.workflowId } : {}),
  };
  if (tx.commandId && showCommandId(tx, tf.events)) out.commandId = tx.commandId;
  return out;
}

export function projectTree(
  tx: StoredTransaction,
  fmt: ResolvedEventFormat,
  registry: PackageRegistry,
): S['JsTransactionTree'] | undefined {
  const events = transactionEvents(tx, { shape: 'LEDGER_EFFECTS', events: fmt }, registry);
  if (events.length === 0) return undefined;
  const eventsById: Record<string, S['TreeEvent']> = {};
  for (const e of events) {
    if ('CreatedEvent' in e) eventsById[String(e.CreatedEvent.nodeId)] = { CreatedTreeEvent: { value: e.CreatedEvent } };
    else if ('ExercisedEvent' in e) eventsById[String(e.ExercisedEvent.nodeId)] = { ExercisedTreeEvent: { value: e.ExercisedEvent } };
  }
  const out: S['JsTransactionTree'] = {
    updateId: tx.updateId,
    effectiveAt: tx.effectiveAt,
    offset: tx.offset,
    eventsById,
    synchronizerId: tx.synchronizerId,
    recordTime: tx.recordTime,
    ...(tx.workflowId ? { workflowId: tx.workflowId } : {}),
  };
  if (tx.commandId && showCommandId(tx, fmt)) out.commandId = tx.commandId;
  return out;
}

export function projectReassignment(
  r: StoredReassignment,
  fmt: ResolvedEventFormat,
  registry: PackageRegistry,
): S['JsReassignment'] | undefined {
  const e = r.event;
  let event: S['JsReassignmentEvent'];
  if (e.type === 'unassign') {
    // template and interface filters select an unassignment as they select the contract's create
    const interfaces = registry.findTemplate(e.templateId)?.implementedInterfaces ?? [];
    const m = matchEvent(fmt, e.stakeholders, `${e.packageName}:${e.templateId.split(':').slice(1).join(':')}`, interfaces);
    if (!m) return undefined;
    event = {
      JsUnassignedEvent: {
        value: {
          reassignmentId: e.reassignmentId,
          contractId: e.contractId,
          templateId: e.templateId,
          source: e.source,
          target: e.target,
          submitter: e.submitter,
          reassignmentCounter: e.reassignmentCounter,
          witnessParties: m.parties,
          packageName: e.packageName,
          offset: r.offset,
          nodeId: e.nodeId,
        },
      },
    };
  } else {
    const n = e.createdNode;
    const m = matchEvent(fmt, e.stakeholders, templateKeyOf(n), n.implementedInterfaces);
    if (!m) return undefined;
    event = {
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
  const out: S['JsReassignment'] = {
    updateId: r.updateId,
    offset: r.offset,
    events: [event],
    recordTime: r.recordTime,
    synchronizerId: r.synchronizerId,
    ...(r.workflowId ? { workflowId: r.workflowId } : {}),
  };
  if (r.commandId && showCommandId(r, fmt)) out.commandId = r.commandId;
  return out;
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

export function projectUpdateTree(u: StoredUpdate, fmt: ResolvedEventFormat, registry: PackageRegistry): JsUpdateTree | undefined {
  if (u.kind === 'transaction') {
    const t = projectTree(u, fmt, registry);
    return t ? { TransactionTree: { value: t } } : undefined;
  }
  if (u.kind === 'reassignment') {
    const r = projectReassignment(u, fmt, registry);
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
