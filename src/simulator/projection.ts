/**
 * Projects stored updates to the JSON API shapes, applying event formats, shapes and witness rules: transactions (flat
 * and as trees), topology transactions, and the dispatch over update kinds. Single events: `projection-events.ts`;
 * reassignments: `projection-reassignment.ts`.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { ResolvedEventFormat, ResolvedTransactionFormat, ResolvedUpdateFormat } from './filters.js';
import { matchEvent } from './filters.js';
import type { StoredTopology, StoredTransaction, StoredUpdate } from './model.js';
import { stakeholdersOf } from './model.js';
import type { PackageRegistry } from './packages/registry.js';
import { commandAndWorkflow, createdEvent, exercisedEvent, templateIdOf, templateKeyOf } from './projection-events.js';
import { projectReassignment } from './projection-reassignment.js';

type S = v3_5.components['schemas'];
export type JsUpdate = S['Update'];
export type JsUpdateTree = S['Update1'];

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
