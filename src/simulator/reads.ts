/** Read-side queries shared by the HTTP list endpoints and the WebSocket streams. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { SimContext } from './context.js';
import { CantonError } from './errors.js';
import type { ResolvedEventFormat } from './filters.js';
import { matchEvent } from './filters.js';
import type { ContractRow, StoredCompletion, StoredUpdate } from './model.js';
import { stakeholdersOf } from './model.js';
import { createdEvent } from './projection.js';

type S = v3_5.components['schemas'];

/** Visits stored updates in (begin, end] in order; stops when `visit` returns false. */
export function scanUpdates(
  sim: SimContext,
  beginExclusive: number,
  endInclusive: number,
  descending: boolean,
  visit: (u: StoredUpdate) => boolean,
): void {
  const BATCH = 256;
  if (!descending) {
    let cursor = beginExclusive;
    while (cursor < endInclusive) {
      const batch = sim.store.updates(cursor, endInclusive, BATCH);
      if (batch.length === 0) return;
      for (const u of batch) {
        cursor = u.offset;
        if (!visit(u)) return;
      }
    }
  } else {
    let upper = endInclusive;
    while (upper > beginExclusive) {
      const batch = sim.store.updates(beginExclusive, upper, BATCH, true);
      if (batch.length === 0) return;
      for (const u of batch) {
        upper = u.offset - 1;
        if (!visit(u)) return;
      }
    }
  }
}

/** Visits stored completions in (begin, end] in order; stops when `visit` returns false. */
export function scanCompletions(sim: SimContext, beginExclusive: number, endInclusive: number, visit: (c: StoredCompletion) => boolean): void {
  let cursor = beginExclusive;
  while (cursor < endInclusive) {
    const batch = sim.store.completions(cursor, endInclusive, 256);
    if (batch.length === 0) return;
    for (const c of batch) {
      cursor = c.offset;
      if (!visit(c)) return;
    }
  }
}

export function checkActiveAt(sim: SimContext, activeAtOffset: number): void {
  if (activeAtOffset < 0)
    throw new CantonError('OFFSET_OUT_OF_RANGE', `activeAtOffset must be non-negative: ${activeAtOffset}`, {
      context: { field: 'activeAtOffset' },
    });
  const end = sim.store.ledgerEnd();
  if (activeAtOffset > end)
    throw new CantonError('OFFSET_AFTER_LEDGER_END', `ACS request at offset ${activeAtOffset} is after ledger end ${end}`, {
      context: { field: 'activeAtOffset', ledgerEnd: String(end) },
    });
  const pruned = sim.store.prunedUpTo();
  if (activeAtOffset < pruned)
    throw new CantonError('PARTICIPANT_PRUNED_DATA_ACCESSED', `ACS request at offset ${activeAtOffset} precedes pruned offset ${pruned}`, {
      context: { earliest_offset: String(pruned) },
    });
}

function acsEntry(sim: SimContext, c: ContractRow, fmt: ResolvedEventFormat, atOffset: number): S['JsGetActiveContractsResponse'] | undefined {
  const n = c.node;
  const m = matchEvent(fmt, stakeholdersOf(n), `${n.packageName}:${n.qualifiedName}`, n.implementedInterfaces);
  if (!m) return undefined;
  const ev = createdEvent(n, c.createdOffset, m, true, sim.registry);
  // Location at `atOffset`: the latest reassignment at or before it (none: where it was created).
  const everReassigned = c.reassignmentCounter > 0 || c.unassignedId !== null;
  const last = everReassigned ? sim.store.lastReassignment(c.contractId, atOffset) : undefined;
  let entry: S['JsContractEntry'];
  if (last?.type === 'unassign') {
    entry = {
      JsIncompleteUnassigned: {
        createdEvent: ev,
        unassignedEvent: {
          reassignmentId: last.reassignmentId,
          contractId: c.contractId,
          templateId: `${n.packageId}:${n.qualifiedName}`,
          source: last.source,
          target: last.target,
          reassignmentCounter: last.counter,
          witnessParties: m.parties,
          packageName: n.packageName,
          offset: last.offset,
          nodeId: 0,
        },
      },
    };
  } else if (last?.type === 'assign') {
    entry = { JsActiveContract: { createdEvent: ev, synchronizerId: last.target, reassignmentCounter: last.counter } };
  } else {
    // before its first reassignment a contract is on the synchronizer it was created on (that one's source)
    const createdOn = everReassigned ? (sim.store.firstReassignment(c.contractId)?.source ?? c.synchronizerId) : c.synchronizerId;
    entry = { JsActiveContract: { createdEvent: ev, synchronizerId: createdOn, reassignmentCounter: 0 } };
  }
  return { ...(c.workflowId ? { workflowId: c.workflowId } : {}), contractEntry: entry };
}

/** Active contracts at `atOffset` visible through `fmt`, in creation order. */
export function activeContracts(sim: SimContext, atOffset: number, fmt: ResolvedEventFormat): S['JsGetActiveContractsResponse'][] {
  const out: S['JsGetActiveContractsResponse'][] = [];
  for (const c of sim.store.activeContracts(atOffset)) {
    const e = acsEntry(sim, c, fmt, atOffset);
    if (e) out.push(e);
  }
  return out;
}
