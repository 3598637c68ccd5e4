/**
 * Durable ledger state: updates, contracts, completions, dedup entries, parties. All writes go through `tx`.
 * The contract tables are kept by `contract-store.ts`; this class is the one entry point to both.
 */
import type { Db } from './open.js';
import { MetaStore } from './meta.js';
import type { ReassignmentRow } from './contract-store.js';
import { ContractStore } from './contract-store.js';
import type { ContractRow, CreatedNode, StoredCompletion, StoredUpdate } from '../model.js';
import { packTransaction } from '../packed.js';
import type { PartyIds } from '../packed.js';
import { serializeTransaction } from '../splice.js';

export type { ReassignmentRow } from './contract-store.js';

export interface UpdateRow {
  offset: number;
  /**
   * Transactions: `frags` holds the packed form (packed.ts) and `meta` is null, or — rows written by
   * earlier versions, transactions naming a party without an id — `meta` + `frags` are the schema-2
   * form (splice.ts). Both null: reassignments, topology transactions, rows written before schema 2
   * (read their payload).
   */
  meta: string | null;
  frags: string | Buffer | null;
}

export type GroupOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Party metadata as `insertParty` / `updatePartyMetadata` wrote it. */
const partyMetadata = (json: string): PartyRow['metadata'] => JSON.parse(json) as PartyRow['metadata'];

export interface PartyRow {
  party: string;
  offset: number;
  isLocal: boolean;
  idp: string;
  metadata: { resourceVersion?: string; annotations?: Record<string, string> };
}

export class LedgerStore implements PartyIds {
  readonly meta: MetaStore;
  private readonly s;
  private readonly contracts: ContractStore;
  private readonly pids = new Map<string, number>();
  private readonly partiesByPid = new Map<number, string>();
  /**
   * The ledger end as this connection last read or allocated it (read several times per command); only this
   * connection writes it. Inside `tx` it runs ahead of the stored one, written once when the outermost `tx` ends (one
   * write per group commit instead of one per offset). A rolled-back savepoint puts back the value it started from; a
   * rolled-back transaction forgets it (the stored one is then right).
   */
  private end: number | undefined;
  /** Nesting depth of `tx` (0: outside any). */
  private txDepth = 0;
  /** One transaction function for every `tx` (better-sqlite3 builds a wrapper per `db.transaction` call). */
  private readonly inTx;

  constructor(readonly db: Db) {
    this.meta = new MetaStore(db);
    this.contracts = new ContractStore(db, (party) => this.partyPid(party));
    // `start`: the ledger end when the transaction began (`tx` reads it first, to put it back after a failure)
    this.inTx = db.transaction((fn: () => unknown, start: number): unknown => {
      const result = fn();
      if (this.txDepth === 1 && this.end !== start) this.meta.set('ledger_end', String(this.end));
      return result;
    });
    this.s = {
      insertUpdate: db.prepare(
        'INSERT INTO updates (offset, update_id, kind, synchronizer_id, record_time, meta, frags) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      insertPayload: db.prepare('INSERT INTO update_payloads (offset, payload) VALUES (?, ?)'),
      rowsAsc: db.prepare('SELECT offset, meta, frags FROM updates WHERE offset > ? AND offset <= ? ORDER BY offset ASC LIMIT ?'),
      rowsDesc: db.prepare('SELECT offset, meta, frags FROM updates WHERE offset > ? AND offset <= ? ORDER BY offset DESC LIMIT ?'),
      updateByOffset: db.prepare('SELECT payload FROM update_payloads WHERE offset = ?'),
      updateById: db.prepare('SELECT p.payload FROM updates u JOIN update_payloads p ON p.offset = u.offset WHERE u.update_id = ?'),
      lastRecordTime: db.prepare('SELECT record_time FROM updates ORDER BY offset DESC LIMIT 1').safeIntegers(true),
      deleteUpdatesUpTo: db.prepare('DELETE FROM updates WHERE offset <= ?'),
      deletePayloadsUpTo: db.prepare('DELETE FROM update_payloads WHERE offset <= ?'),
      partyPid: db.prepare('SELECT pid FROM parties WHERE party = ?'),
      partyOfPid: db.prepare('SELECT party FROM parties WHERE pid = ?').pluck(),
      insertCompletion: db.prepare('INSERT INTO completions (offset, payload) VALUES (?, ?)'),
      completionsAfter: db.prepare('SELECT payload FROM completions WHERE offset > ? AND offset <= ? ORDER BY offset ASC LIMIT ?'),
      deleteCompletionsUpTo: db.prepare('DELETE FROM completions WHERE offset <= ?'),
      dedupGet: db.prepare('SELECT offset, record_time, submission_id, update_id FROM dedup WHERE dedup_key = ?'),
      dedupPut: db.prepare(
        `INSERT INTO dedup (dedup_key, offset, record_time, submission_id, update_id) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(dedup_key) DO UPDATE SET offset = excluded.offset, record_time = excluded.record_time,
           submission_id = excluded.submission_id, update_id = excluded.update_id`,
      ),
      partyInsert: db.prepare('INSERT INTO parties (party, offset, is_local, idp, metadata) VALUES (?, ?, ?, ?, ?)'),
      partyGet: db.prepare('SELECT * FROM parties WHERE party = ?'),
      partyList: db.prepare('SELECT * FROM parties ORDER BY party'),
      partyUpdateMeta: db.prepare('UPDATE parties SET metadata = ? WHERE party = ?'),
      partyKeysPut: db.prepare('INSERT INTO party_keys (party, threshold, keys) VALUES (?, ?, ?)'),
      partyKeysGet: db.prepare('SELECT threshold, keys FROM party_keys WHERE party = ?'),
      preparedPut: db.prepare('INSERT OR REPLACE INTO prepared (hash, payload, created_at) VALUES (?, ?, ?)'),
      preparedGet: db.prepare('SELECT payload FROM prepared WHERE hash = ?'),
      userGet: db.prepare('SELECT payload FROM users WHERE id = ?'),
      userPut: db.prepare('INSERT INTO users (id, payload) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET payload = excluded.payload'),
      userList: db.prepare('SELECT payload FROM users ORDER BY id'),
      userDelete: db.prepare('DELETE FROM users WHERE id = ?'),
      syncNormal: db.prepare('PRAGMA synchronous = NORMAL'),
      syncFull: db.prepare('PRAGMA synchronous = FULL'),
    };
  }

  /**
   * Run `fn` in one SQLite transaction (IMMEDIATE); committed (and fsynced) when it returns. Inside another
   * transaction, in a savepoint.
   */
  tx<T>(fn: () => T): T {
    const before = this.ledgerEnd();
    this.txDepth++;
    try {
      return this.inTx.immediate(fn, before) as T;
    } catch (err) {
      this.end = this.db.inTransaction ? before : undefined;
      throw err;
    } finally {
      this.txDepth--;
    }
  }

  /**
   * Group commit: runs every `fn` in one SQLite transaction (IMMEDIATE) with one COMMIT — one fsync — for all, and
   * returns each outcome, in order, once that COMMIT returned (durable); throws, with nothing committed, when the
   * transaction itself fails. One that throws is rolled back alone and the others still commit: the group is first
   * run plainly (a savepoint around every function doubles the cost of its writes, SQLite then journals each page it
   * changes); when one throws, that run is rolled back and the group run again with a savepoint per function. So a
   * function may run twice: it must have no effect outside the transaction.
   */
  txGroup<T>(fns: ReadonlyArray<() => T>): Array<GroupOutcome<T>> {
    if (fns.length === 1) {
      const fn = fns[0] as () => T;
      try {
        return [{ ok: true, value: this.tx(fn) }];
      } catch (error) {
        if (this.db.inTransaction) throw error;
        return [{ ok: false, error }];
      }
    }
    try {
      return this.tx(() => fns.map((fn): GroupOutcome<T> => ({ ok: true, value: fn() })));
    } catch {
      // one failed (or the transaction did): run again, each in its own savepoint
    }
    return this.tx(() =>
      fns.map((fn): GroupOutcome<T> => {
        // an error that made SQLite roll back the whole transaction (e.g. SQLITE_FULL) must not let the
        // remaining functions run outside it, in autocommit: fail the group instead
        if (!this.db.inTransaction) throw new Error('The group transaction was rolled back by SQLite');
        try {
          return { ok: true, value: this.tx(fn) };
        } catch (error) {
          return { ok: false, error };
        }
      }),
    );
  }

  /**
   * `txGroup` with synchronous=NORMAL: its COMMIT writes the WAL but does not sync it; the caller makes the group
   * durable (durability.ts) before anyone learns of it. (A checkpoint that COMMIT runs still syncs, as always.)
   */
  txGroupUnsynced<T>(fns: ReadonlyArray<() => T>): Array<GroupOutcome<T>> {
    return this.withoutSync(() => this.txGroup(fns));
  }

  /** Runs `fn` with synchronous=NORMAL (commits it makes do not sync the WAL), FULL again afterwards. */
  private withoutSync<T>(fn: () => T): T {
    this.s.syncNormal.run();
    try {
      return fn();
    } finally {
      this.s.syncFull.run();
    }
  }

  ledgerEnd(): number {
    return (this.end ??= this.meta.getNumber('ledger_end', 0));
  }
  prunedUpTo(): number {
    return this.meta.getNumber('pruned_up_to', 0);
  }
  setPrunedUpTo(offset: number): void {
    this.meta.set('pruned_up_to', String(offset));
  }

  /** Allocates the next offset; must be called inside a transaction (written when the outermost `tx` ends). */
  nextOffset(): number {
    const next = this.ledgerEnd() + 1;
    if (this.txDepth === 0) this.meta.set('ledger_end', String(next));
    this.end = next;
    return next;
  }

  insertUpdate(u: StoredUpdate, recordTimeMicros: bigint): void {
    let meta: string | null = null;
    let frags: string | Buffer | null = null;
    if (u.kind === 'transaction') {
      frags = packTransaction(u, (p) => this.pidOf(p)) ?? null;
      if (frags === null) ({ meta, frags } = serializeTransaction(u));
    }
    this.s.insertUpdate.run(u.offset, u.updateId, u.kind, u.synchronizerId, recordTimeMicros, meta, frags);
    this.s.insertPayload.run(u.offset, JSON.stringify(u));
  }
  /**
   * Raw update rows in (begin, end] for the streaming read path: transactions in their packed
   * (packed.ts) or schema-2 (splice.ts) form; other updates (and rows written before schema 2) are
   * read through their payload.
   */
  updateRows(beginExclusive: number, endInclusive: number, limit: number, descending = false): UpdateRow[] {
    return (descending ? this.s.rowsDesc : this.s.rowsAsc).all(beginExclusive, endInclusive, limit) as UpdateRow[];
  }
  updateByOffset(offset: number): StoredUpdate | undefined {
    const r = this.s.updateByOffset.get(offset) as { payload: string } | undefined;
    return r ? (JSON.parse(r.payload) as StoredUpdate) : undefined;
  }
  /** Record time (micros) of the latest update; offsets of rejected commands have none. */
  lastRecordTimeMicros(): bigint | undefined {
    const r = this.s.lastRecordTime.get() as { record_time: bigint } | undefined;
    return r?.record_time;
  }
  updateById(id: string): StoredUpdate | undefined {
    const r = this.s.updateById.get(id) as { payload: string } | undefined;
    return r ? (JSON.parse(r.payload) as StoredUpdate) : undefined;
  }

  /** PartyIds (packed.ts): same as partyPid. */
  pidOf(party: string): number | undefined {
    return this.partyPid(party);
  }
  /** The party of an integer id (cached; parties are never deleted). */
  partyOf(pid: number): string | undefined {
    let party = this.partiesByPid.get(pid);
    if (party === undefined) {
      party = this.s.partyOfPid.get(pid) as string | undefined;
      if (party === undefined) return undefined;
      this.partiesByPid.set(pid, party);
    }
    return party;
  }

  /** Whether the party is known (allocated on this participant); cached, as `partyPid`. */
  hasParty(party: string): boolean {
    return this.partyPid(party) !== undefined;
  }

  /** Integer id of a known party (cached; parties are never deleted). */
  partyPid(party: string): number | undefined {
    let pid = this.pids.get(party);
    if (pid === undefined) {
      const r = this.s.partyPid.get(party) as { pid: number } | undefined;
      if (!r) return undefined;
      pid = r.pid;
      this.pids.set(party, pid);
    }
    return pid;
  }

  // --- contracts, their stakeholder index and reassignments (contract-store.ts) ----------------------

  insertContract(node: CreatedNode, offset: number, synchronizerId: string, workflowId: string | undefined): void {
    this.contracts.insertContract(node, offset, synchronizerId, workflowId);
  }
  /** A contract created and archived by the same transaction (never active, kept until pruned). */
  insertTransientContract(node: CreatedNode, offset: number, synchronizerId: string, workflowId: string | undefined): void {
    this.contracts.insertTransientContract(node, offset, synchronizerId, workflowId);
  }
  archiveContract(contractId: string, offset: number): void {
    this.contracts.archiveContract(contractId, offset);
  }
  contract(contractId: string): ContractRow | undefined {
    return this.contracts.contract(contractId);
  }
  contractByKey(keyHash: string): ContractRow | undefined {
    return this.contracts.contractByKey(keyHash);
  }
  /** Contracts active at `atOffset` with seq > `afterSeq`, in creation order (keyset pagination). */
  activeContractsAfter(atOffset: number, afterSeq: number, limit: number): ContractRow[] {
    return this.contracts.activeContractsAfter(atOffset, afterSeq, limit);
  }
  /** Same, restricted to contracts the party is a stakeholder of (through the stakeholder index). */
  activeContractsOfPartyAfter(party: string, atOffset: number, afterSeq: number, limit: number): ContractRow[] {
    return this.contracts.activeContractsOfPartyAfter(party, atOffset, afterSeq, limit);
  }
  markUnassigned(contractId: string, reassignmentId: string, target: string, offset: number, counter: number): void {
    this.contracts.markUnassigned(contractId, reassignmentId, target, offset, counter);
  }
  markAssigned(contractId: string, synchronizerId: string): void {
    this.contracts.markAssigned(contractId, synchronizerId);
  }
  contractByReassignment(reassignmentId: string): ContractRow | undefined {
    return this.contracts.contractByReassignment(reassignmentId);
  }
  insertReassignment(r: ReassignmentRow): void {
    this.contracts.insertReassignment(r);
  }
  /** The latest reassignment of a contract at or before `atOffset`. */
  lastReassignment(contractId: string, atOffset: number): ReassignmentRow | undefined {
    return this.contracts.lastReassignment(contractId, atOffset);
  }
  firstReassignment(contractId: string): ReassignmentRow | undefined {
    return this.contracts.firstReassignment(contractId);
  }

  insertCompletion(c: StoredCompletion): void {
    this.s.insertCompletion.run(c.offset, JSON.stringify(c));
  }
  completions(beginExclusive: number, endInclusive: number, limit: number): StoredCompletion[] {
    return (this.s.completionsAfter.all(beginExclusive, endInclusive, limit) as { payload: string }[]).map(
      (r) => JSON.parse(r.payload) as StoredCompletion,
    );
  }

  dedupGet(key: string): { offset: number; recordTime: bigint; submissionId: string | null; updateId: string } | undefined {
    const r = this.s.dedupGet.get(key) as
      { offset: number; record_time: number | bigint; submission_id: string | null; update_id: string } | undefined;
    return r ? { offset: r.offset, recordTime: BigInt(r.record_time), submissionId: r.submission_id, updateId: r.update_id } : undefined;
  }
  dedupPut(key: string, offset: number, recordTime: bigint, submissionId: string | undefined, updateId: string): void {
    this.s.dedupPut.run(key, offset, recordTime, submissionId ?? null, updateId);
  }

  insertParty(p: PartyRow): void {
    this.s.partyInsert.run(p.party, p.offset, p.isLocal ? 1 : 0, p.idp, JSON.stringify(p.metadata));
  }
  party(party: string): PartyRow | undefined {
    const r = this.s.partyGet.get(party) as { party: string; offset: number; is_local: number; idp: string; metadata: string } | undefined;
    return r ? { party: r.party, offset: r.offset, isLocal: r.is_local === 1, idp: r.idp, metadata: partyMetadata(r.metadata) } : undefined;
  }
  parties(): PartyRow[] {
    return (this.s.partyList.all() as { party: string; offset: number; is_local: number; idp: string; metadata: string }[]).map((r) => ({
      party: r.party,
      offset: r.offset,
      isLocal: r.is_local === 1,
      idp: r.idp,
      metadata: partyMetadata(r.metadata),
    }));
  }
  updatePartyMetadata(party: string, metadata: PartyRow['metadata']): void {
    this.s.partyUpdateMeta.run(JSON.stringify(metadata), party);
  }

  putPartyKeys(party: string, threshold: number, keys: { fingerprint: string; raw: string }[]): void {
    this.s.partyKeysPut.run(party, threshold, JSON.stringify(keys));
  }
  /** Signing keys of an external party; undefined for local parties. */
  partyKeys(party: string): { threshold: number; keys: { fingerprint: string; raw: string }[] } | undefined {
    const r = this.s.partyKeysGet.get(party) as { threshold: number; keys: string } | undefined;
    return r ? { threshold: r.threshold, keys: JSON.parse(r.keys) as { fingerprint: string; raw: string }[] } : undefined;
  }
  /**
   * A prepared submission is not acknowledged ledger state (Canton keeps none; a client whose prepare was lost
   * prepares again), so its row is committed without an fsync: WAL with synchronous=NORMAL survives a process crash,
   * and the next FULL commit syncs it with everything before. This saves one fsync per prepare (~4 ms on a busy disk).
   */
  putPrepared(hash: string, payload: unknown, createdAtMicros: bigint): void {
    if (this.db.inTransaction) {
      this.s.preparedPut.run(hash, JSON.stringify(payload), createdAtMicros);
      return;
    }
    this.withoutSync(() => this.s.preparedPut.run(hash, JSON.stringify(payload), createdAtMicros));
  }
  /** The payload stored by `preparedPut`, as its writer gave it (the caller knows its shape). */
  prepared(hash: string): unknown {
    const r = this.s.preparedGet.get(hash) as { payload: string } | undefined;
    return r ? JSON.parse(r.payload) : undefined;
  }

  /** The payload stored by `userPut` (the caller knows its shape). */
  userGet(id: string): unknown {
    const r = this.s.userGet.get(id) as { payload: string } | undefined;
    return r ? JSON.parse(r.payload) : undefined;
  }
  userPut(id: string, payload: unknown): void {
    this.s.userPut.run(id, JSON.stringify(payload));
  }
  userList(): unknown[] {
    return (this.s.userList.all() as { payload: string }[]).map((r): unknown => JSON.parse(r.payload));
  }
  userDelete(id: string): boolean {
    return this.s.userDelete.run(id).changes > 0;
  }

  /** Prune updates/completions/archived contracts up to `offset` inclusive. */
  prune(offset: number): void {
    this.tx(() => {
      this.s.deleteUpdatesUpTo.run(offset);
      this.s.deletePayloadsUpTo.run(offset);
      this.s.deleteCompletionsUpTo.run(offset);
      this.contracts.prune(offset);
      this.setPrunedUpTo(offset);
    });
  }
}
