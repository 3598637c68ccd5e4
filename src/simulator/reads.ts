/** Read-side queries shared by the HTTP list endpoints and the WebSocket streams. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import { createHash } from 'node:crypto';
import type { SimContext } from './context.js';
import { CantonError } from './errors.js';
import type { ResolvedEventFormat } from './filters.js';
import { formatFingerprint, matchEvent } from './filters.js';
import type { ContractRow, StoredCompletion } from './model.js';
import { stakeholdersOf } from './model.js';
import { createdEvent } from './projection-events.js';
import { unassignedEvent } from './projection-reassignment.js';
import { projectUpdate, projectUpdateTree } from './projection.js';
import type { ResolvedTransactionFormat, ResolvedUpdateFormat } from './filters.js';
import { isPacked } from './packed.js';
import { PackedFormat } from './packed-format.js';
import { planPacked, writePacked } from './packed-plan.js';
import type { StoredTransaction } from './model.js';
import type { JsonOut } from './json-out.js';
import type { SplicedRow } from './splice.js';
import { planTransaction, writeTransaction } from './splice.js';
import type { ReassignmentRow, UpdateRow } from './store/ledger-store.js';

type S = v3_5.components['schemas'];
/** An ACS element as answered (JsGetActiveContractsResponse with the fields Canton always prints). */
export type AcsEntry = S['JsGetActiveContractsResponse'] & { workflowId: string; streamContinuationToken: string };

/** Visits raw update rows (streaming form) in (begin, end], ascending or descending; stops when `visit` returns false. */
export function scanUpdateRows(
  sim: SimContext,
  beginExclusive: number,
  endInclusive: number,
  descending: boolean,
  visit: (r: UpdateRow) => boolean,
  batch = 128,
): void {
  let low = beginExclusive;
  let high = endInclusive;
  while (low < high) {
    const rows = sim.store.updateRows(low, high, batch, descending);
    for (const r of rows) {
      if (descending) high = r.offset - 1;
      else low = r.offset;
      if (!visit(r)) return;
    }
    if (rows.length < batch) return;
  }
}

/** Writes one projected update (its JSON) to an output. */
export type UpdateWriter = (out: JsonOut) => void;

/** Loads (once) the full stored transaction of a row, for events that cannot be spliced. */
function fullLoader(sim: SimContext, offset: number): () => StoredTransaction {
  let full: StoredTransaction | undefined;
  return () => (full ??= sim.store.updateByOffset(offset) as StoredTransaction);
}

/**
 * Decides for a raw row what an `Update` (flat) or `Update1` (tree) shows for a format and returns the
 * function that writes its JSON, or undefined when nothing is visible: transactions are spliced from
 * their packed form (packed.ts) or, for rows stored in the older form, from their fragments
 * (splice.ts); other updates go through projection.ts. Trees show the format's transactions in its
 * shape (a legacy `filter` request's format is already ledger effects, filters.ts).
 */
export function updatePlanner(
  sim: SimContext,
  kind: 'flat' | 'tree',
  uf: ResolvedUpdateFormat,
): (r: UpdateRow) => UpdateWriter | undefined {
  const tf: ResolvedTransactionFormat | undefined = uf.transactions;
  const packedFormat = tf ? new PackedFormat(tf.events, sim.store) : undefined;
  return (r) => {
    const { frags, meta } = r;
    if (isPacked(frags)) {
      if (!tf || !packedFormat) return undefined;
      const plan = planPacked(frags, r.offset, tf, packedFormat, sim.registry, fullLoader(sim, r.offset), kind === 'tree');
      return plan ? (out) => writePacked(out, plan) : undefined;
    }
    if (meta !== null && Buffer.isBuffer(frags)) {
      if (!tf) return undefined;
      const row: SplicedRow = { offset: r.offset, meta, frags, full: fullLoader(sim, r.offset) };
      const plan = planTransaction(row, tf, sim.registry, kind === 'tree');
      return plan ? (out) => writeTransaction(out, plan) : undefined;
    }
    const u = sim.store.updateByOffset(r.offset);
    if (!u) return undefined;
    const p = kind === 'tree' ? projectUpdateTree(u, uf, sim.registry) : projectUpdate(u, uf, sim.registry);
    return p ? (out) => out.str(JSON.stringify(p)) : undefined;
  };
}

/** Visits stored completions in (begin, end] in order; stops when `visit` returns false. */
export function scanCompletions(
  sim: SimContext,
  beginExclusive: number,
  endInclusive: number,
  visit: (c: StoredCompletion) => boolean,
): void {
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
  const end = sim.durability.end();
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

/**
 * One ACS entry. JsActiveContract.createdEvent: "The event as it appeared in the context of its last
 * update (i.e. daml transaction or reassignment). In particular, the last offset, node_id pair is
 * preserved"; JsIncompleteUnassigned.createdEvent: the same for "its last activation update … before
 * the unassigned_event"; workflowId "corresponds to the contract_entry" (Canton ACSReader: the
 * activation's, for an incomplete unassignment the unassignment's). As Canton's JSON API prints
 * JsGetActiveContractsResponse, `workflowId` is `""` when empty and `streamContinuationToken` is
 * always there (set by the caller: a token for streams, `""` for pages).
 */
function acsEntry(sim: SimContext, c: ContractRow, fmt: ResolvedEventFormat, atOffset: number): AcsEntry | undefined {
  const n = c.node;
  const m = matchEvent(fmt, stakeholdersOf(n), `${n.packageName}:${n.qualifiedName}`, n.implementedInterfaces);
  if (!m) return undefined;
  // Location at `atOffset`: the latest reassignment at or before it (none: where it was created).
  const everReassigned = c.reassignmentCounter > 0 || c.unassignedId !== null;
  const last = everReassigned ? sim.store.lastReassignment(c.contractId, atOffset) : undefined;
  /**
   * submitter, workflow id and record time of a reassignment (rows written before the history kept them: from the
   * update, unless pruned)
   */
  const detailsOf = (r: ReassignmentRow): { submitter?: string; workflowId?: string; recordTime?: string } => {
    if (r.submitter !== undefined && r.recordTime !== undefined) return r;
    const u = sim.store.updateByOffset(r.offset);
    return u?.kind === 'reassignment'
      ? { submitter: u.event.submitter, recordTime: u.recordTime, ...(u.workflowId ? { workflowId: u.workflowId } : {}) }
      : r;
  };
  /** The created event as of an activation: the create, or an assignment (its offset, node 0). */
  const activatedBy = (assign: ReassignmentRow | undefined): S['CreatedEvent'] =>
    assign?.type === 'assign'
      ? createdEvent({ ...n, nodeId: 0 }, assign.offset, m, true, sim.registry)
      : createdEvent(n, c.createdOffset, m, true, sim.registry);
  const entry = (workflowId: string | null | undefined, contractEntry: S['JsContractEntry']): AcsEntry => ({
    workflowId: workflowId ?? '',
    contractEntry,
    streamContinuationToken: '',
  });
  if (last?.type === 'unassign') {
    const un = detailsOf(last);
    const activation = last.offset > 1 ? sim.store.lastReassignment(c.contractId, last.offset - 1) : undefined;
    const templateId = `${n.packageId}:${n.qualifiedName}`;
    return entry(un.workflowId, {
      JsIncompleteUnassigned: {
        createdEvent: activatedBy(activation),
        unassignedEvent: unassignedEvent(
          { ...last, contractId: c.contractId, templateId, packageName: n.packageName },
          {
            submitter: un.submitter,
            reassignmentCounter: last.counter,
            witnessParties: m.parties,
            offset: last.offset,
            recordTime: un.recordTime,
          },
        ),
      },
    });
  }
  if (last?.type === 'assign')
    return entry(detailsOf(last).workflowId, {
      JsActiveContract: { createdEvent: activatedBy(last), synchronizerId: last.target, reassignmentCounter: last.counter },
    });
  return entry(c.workflowId, {
    JsActiveContract: { createdEvent: activatedBy(undefined), synchronizerId: creationSynchronizer(sim, c), reassignmentCounter: 0 },
  });
}

/** The synchronizer a contract was created on (a reassigned contract's row names its current one). */
export function creationSynchronizer(sim: SimContext, c: ContractRow): string {
  const everReassigned = c.reassignmentCounter > 0 || c.unassignedId !== null;
  return everReassigned ? (sim.store.firstReassignment(c.contractId)?.source ?? c.synchronizerId) : c.synchronizerId;
}

/**
 * Contracts active at `atOffset` with seq > `afterSeq`, in creation order, read in batches: all
 * contracts for `filtersForAnyParty`, otherwise a merge of the per-party stakeholder index (so a page
 * for one party costs a few index lookups, whatever the size of the ACS). Stops when `visit` returns false.
 */
export function scanActiveRows(
  sim: SimContext,
  atOffset: number,
  fmt: ResolvedEventFormat,
  afterSeq: number,
  visit: (c: ContractRow) => boolean,
  batch = 256,
): void {
  if (fmt.any) {
    let cursor = afterSeq;
    for (;;) {
      const rows = sim.store.activeContractsAfter(atOffset, cursor, batch);
      for (const c of rows) {
        cursor = c.seq;
        if (!visit(c)) return;
      }
      if (rows.length < batch) return;
    }
  }
  const parties = [...fmt.byParty.keys()];
  const cursors = parties.map((party) => ({ party, after: afterSeq, rows: [] as ContractRow[], i: 0, done: false }));
  const head = (cur: (typeof cursors)[number]): ContractRow | undefined => {
    if (cur.i >= cur.rows.length && !cur.done) {
      cur.rows = sim.store.activeContractsOfPartyAfter(cur.party, atOffset, cur.after, batch);
      cur.i = 0;
      if (cur.rows.length < batch) cur.done = true;
      const last = cur.rows.at(-1);
      if (last) cur.after = last.seq;
    }
    return cur.rows[cur.i];
  };
  for (;;) {
    let min: ContractRow | undefined;
    for (const cur of cursors) {
      const h = head(cur);
      if (h && (!min || h.seq < min.seq)) min = h;
    }
    if (!min) return;
    for (const cur of cursors) if (cur.rows[cur.i]?.seq === min.seq) cur.i++;
    if (!visit(min)) return;
  }
}

/** Visits ACS entries (active at `atOffset`, visible through `fmt`) after `afterSeq`; stops when `visit` returns false. */
export function scanActiveContracts(
  sim: SimContext,
  atOffset: number,
  fmt: ResolvedEventFormat,
  afterSeq: number,
  visit: (e: AcsEntry, seq: number) => boolean,
  batch = 256,
): void {
  scanActiveRows(
    sim,
    atOffset,
    fmt,
    afterSeq,
    (c) => {
      const e = acsEntry(sim, c, fmt, atOffset);
      return e ? visit(e, c.seq) : true;
    },
    batch,
  );
}

/**
 * Stream continuation tokens of an ACS request. GetActiveContractsResponse.streamContinuationToken:
 * "Opaque representation of a continuation token which can be used in the request to bypass the already
 * processed part of the active contracts snapshot. Only populated for the streaming GetActiveContracts
 * rpc call"; GetActiveContractsRequest.streamContinuationToken: "The prefix of the active contracts
 * snapshot will be omitted up to and including the element from which the continuation token was
 * read." As Canton's AcsContinuationToken, a token names its element and carries a checksum of the
 * request (activeAtOffset and event format): a token of another request is INVALID_CONTINUATION_TOKEN.
 */
export function acsContinuation(
  atOffset: number,
  fmt: ResolvedEventFormat,
  token: string | undefined,
): { afterSeq: number; tokenOf: (seq: number) => string } {
  const checksum = createHash('sha256')
    .update(`${atOffset}|${formatFingerprint(fmt)}`)
    .digest('hex')
    .slice(0, 8);
  const tokenOf = (seq: number): string => Buffer.from(JSON.stringify({ s: seq, c: checksum })).toString('base64');
  if (token === undefined || token === '') return { afterSeq: 0, tokenOf };
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    v = undefined;
  }
  const t = v as { s?: unknown; c?: unknown } | null | undefined;
  if (typeof t !== 'object' || t === null || !Number.isSafeInteger(t.s) || t.c !== checksum)
    throw new CantonError(
      'INVALID_CONTINUATION_TOKEN',
      'The submitted command contains an invalid continuation token. Tokens used in ACS requests must be taken from a ' +
        'valid GetActiveContractsResponse and used with the same EventFormat settings, with the same Canton participant ' +
        'running the same Canton version.',
      { context: { field: 'streamContinuationToken' }, definiteAnswer: false },
    );
  return { afterSeq: t.s as number, tokenOf };
}

/**
 * Active contracts at `atOffset` visible through `fmt`, in creation order, after the element a
 * continuation token names (at most `max` + 1, to detect overflow); each carries its own token.
 */
export function activeContracts(
  sim: SimContext,
  atOffset: number,
  fmt: ResolvedEventFormat,
  token: string | undefined,
  max = Number.MAX_SAFE_INTEGER,
): AcsEntry[] {
  const out: AcsEntry[] = [];
  const { afterSeq, tokenOf } = acsContinuation(atOffset, fmt, token);
  scanActiveContracts(sim, atOffset, fmt, afterSeq, (e, seq) => {
    e.streamContinuationToken = tokenOf(seq);
    out.push(e);
    return out.length <= max;
  });
  return out;
}
