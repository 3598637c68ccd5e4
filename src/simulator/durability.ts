/**
 * When group commits become durable, and what readers may see meanwhile.
 *
 * A group (group-commit.ts) is committed with synchronous=NORMAL: its COMMIT only appends to the WAL, and this class
 * makes it durable with an fdatasync of the WAL file on libuv's thread pool. So the simulator's one thread builds and
 * commits the next groups while the previous one is synced — before, the fsync inside COMMIT blocked it, and with many
 * clients it spent ~40 % of its time there. A sync covers every group committed before it started (the WAL is one
 * file written in order: a sync makes all of it durable), so syncs are shared the same way groups share
 * transactions. Up to two are in flight (MAX_SYNCS); groups committed while both run wait for the first to end. A
 * group's commands are answered, and its 'commit' event emitted, only after a sync that started after its COMMIT has
 * returned (whichever such sync returns first).
 * WAL checkpoints (store/wal-checkpoints.ts) run here too, when everything committed is durable; while one syncs the
 * database file, groups wait.
 *
 * Nobody may see a group's effects before they are durable:
 * - `end()` is the durable ledger end. Streams, lists and every "at the ledger end" read use it; their reads are
 *   bounded by offset, so rows of a group still being synced (at higher offsets) stay out of them.
 * - Other reads (a contract by id, an update by id, prepare's interpretation) wait for `settled()`: nothing committed
 *   and not yet durable. While a reader waits, no new group is committed (`acceptsGroup`), so the reader runs once
 *   the groups already committed are synced — it is never starved by a stream of groups. Those reads must run in the
 *   same turn as `settled()` resolves (before the next group: a group starts from setImmediate).
 * Commands themselves read what earlier groups wrote before those are durable; they are answered only after their own
 * group is durable, and that sync covers the earlier groups too (the WAL is synced in order).
 */
import fs from 'node:fs';
import type { SyncFile, WalCheckpoints } from './store/wal-checkpoints.js';

export type { SyncFile } from './store/wal-checkpoints.js';

/** How often writes that do not pass through here (party allocation, uploads, bulk loads) are checked for a checkpoint. */
const CHECKPOINT_CHECK_MS = 1000;

interface Unsynced {
  /** Commit order of the group (1, 2, …). */
  seq: number;
  /** The last offset the group wrote (undefined when it wrote none). */
  offset: number | undefined;
  done(err: Error | undefined): void;
}

/**
 * Syncs in flight at once. An fdatasync takes milliseconds on many disks (1–8 ms on the machine the group commit
 * bench ran on): with one at a time, a group committed just after one started waited for it and then for its own;
 * with two, it waits for about one. (+10–30 % with 16 clients there; more in flight added nothing.)
 */
const MAX_SYNCS = 2;

export class Durability {
  /** WAL file descriptors of the syncs not in flight (one per sync: see `startSync`). */
  private readonly idleFds: number[] = [];
  private readonly fds: number[] = [];
  /** Syncs in flight. */
  private syncs = 0;
  /** Groups committed so far, and the last of them a started sync covers. */
  private seq = 0;
  private coveredSeq = 0;
  /** Committed groups not yet answered, in commit order. */
  private unsynced: Unsynced[] = [];
  private readers: Array<() => void> = [];
  private readonly resumers = new Set<() => void>();
  /** The durable ledger end while groups wait for a sync (when settled, the ledger end is durable). */
  private durableEnd = 0;
  private closing: Promise<void> | undefined;
  private idle: (() => void) | undefined;
  private readonly checkTimer: NodeJS.Timeout | undefined;
  /** A checkpoint is due: groups wait until the syncs under way are done and it has run (so the WAL stays bounded). */
  private checkpointWanted = false;

  /**
   * `ledgerEnd`: the ledger end as committed (LedgerStore.ledgerEnd). `checkpoints`: WAL checkpoints run when
   * everything committed is durable (store/wal-checkpoints.ts); groups wait while the database file is synced.
   */
  constructor(
    private readonly walPath: string,
    private readonly ledgerEnd: () => number,
    private readonly syncFile: SyncFile = fs.fdatasync,
    private readonly checkpoints?: WalCheckpoints,
  ) {
    if (checkpoints) {
      this.checkTimer = setInterval(() => this.checkpointIfDue(), CHECKPOINT_CHECK_MS);
      this.checkTimer.unref();
    }
  }

  /** The durable ledger end: what readers see as the end of the ledger. */
  end(): number {
    return this.isSettled() ? this.ledgerEnd() : this.durableEnd;
  }

  /** Called before a group's transaction starts (the ledger end it starts from is then durable, when settled). */
  beforeGroup(): void {
    if (this.closing) throw new Error('The simulator is closing');
    if (this.isSettled()) this.durableEnd = this.ledgerEnd();
  }

  /**
   * A change committed and synced by SQLite itself (synchronous=FULL): everything committed before it is durable too.
   * A checkpoint then due runs at once, syncing on this thread (writers that do not wait for groups would keep the WAL
   * from ever being restarted behind a checkpoint synced off the thread).
   */
  syncedBySqlite(): void {
    if (!this.isSettled()) this.durableEnd = this.ledgerEnd();
    else if (this.checkpoints?.isDue()) {
      try {
        this.checkpoints.runSynced();
      } catch (err) {
        // nothing was copied or the copy is not recorded: the WAL keeps every frame, the next checkpoint tries again
        console.error(`[simulator] WAL checkpoint failed: ${(err as Error).message}`);
      }
    }
  }

  /** A group of one committed and synced by SQLite (group-commit.ts): a checkpoint then due is synced off the thread. */
  groupSyncedBySqlite(): void {
    this.checkpointIfDue();
  }

  /**
   * A group committed without sync: `done` runs once it is durable (with the error when the sync failed — its
   * commands are then not acknowledged: whether they survive a crash is unknown).
   */
  committed(offset: number | undefined, done: (err: Error | undefined) => void): void {
    this.unsynced.push({ seq: ++this.seq, offset, done });
    this.startSync();
    // under steady load nothing may ever be settled: stop taking groups until it is, and checkpoint then
    if (!this.checkpointWanted && this.checkpoints?.isDue()) this.checkpointWanted = true;
  }

  /** True when nothing committed is waiting to be durable (then reads may run at once). */
  isSettled(): boolean {
    return this.syncs === 0 && this.unsynced.length === 0;
  }

  /** Resolves once everything committed so far is durable; see the module comment for the rule readers follow. */
  settled(): Promise<void> {
    if (this.isSettled()) return Promise.resolve();
    return new Promise<void>((resolve) => this.readers.push(resolve));
  }

  /** False while readers wait: a group committer must not commit now, but when `onResume` tells it. */
  acceptsGroup(): boolean {
    return this.readers.length === 0 && !this.checkpointWanted && !this.checkpoints?.isSyncing();
  }

  /**
   * `resume` runs after each sync (of the WAL, or of the database file after a checkpoint), once waiting readers were
   * let through (a committer holding a group schedules it then).
   */
  onResume(resume: () => void): void {
    this.resumers.add(resume);
  }

  /** Waits for the syncs under way, then closes the WAL file; later commits are refused. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      const finish = (): void => {
        if (this.checkTimer) clearInterval(this.checkTimer);
        this.checkpoints?.close();
        for (const fd of this.fds.splice(0)) fs.closeSync(fd);
        this.idleFds.length = 0;
        resolve();
      };
      if (this.isIdle()) finish();
      else this.idle = finish;
    });
    return this.closing;
  }

  private startSync(): void {
    if (this.syncs >= MAX_SYNCS || this.coveredSeq === this.seq) return;
    const upTo = (this.coveredSeq = this.seq);
    this.syncs++;
    let fd: number;
    try {
      // Each sync in flight has its own descriptor: Linux reports a writeback error once per open file, so two syncs
      // sharing one could let the second succeed after the first took the error for pages both cover. Opened on
      // first use (the WAL exists once something was committed) and never closed while the database is open, so no
      // POSIX lock of SQLite's is dropped by a close of ours.
      fd = this.idleFds.pop() ?? this.openFd();
    } catch (err) {
      this.finishSync(upTo, undefined, err as Error);
      return;
    }
    this.syncFile(fd, (err) => this.finishSync(upTo, fd, err ?? undefined));
  }

  private openFd(): number {
    const fd = fs.openSync(this.walPath, 'r');
    this.fds.push(fd);
    return fd;
  }

  private finishSync(upTo: number, fd: number | undefined, err: Error | undefined): void {
    this.syncs--;
    if (fd !== undefined) this.idleFds.push(fd);
    let n = 0;
    while (n < this.unsynced.length && (this.unsynced[n] as Unsynced).seq <= upTo) n++;
    const groups = this.unsynced.splice(0, n);
    // on a failed sync the groups are still in the database (later commits build on them): readers see them, and
    // their commands get an error instead of an acknowledgement
    for (const g of groups) if (g.offset !== undefined && g.offset > this.durableEnd) this.durableEnd = g.offset;
    const failure = err && new Error(`The commit could not be made durable (fdatasync of the WAL failed: ${err.message})`);
    for (const g of groups) g.done(failure);
    this.startSync();
    if (!this.isSettled()) return;
    const readers = this.readers;
    this.readers = [];
    for (const r of readers) r();
    if (!this.checkpointIfDue()) this.resume();
  }

  /** Starts a WAL checkpoint when one is due and everything committed is durable; true when one started. */
  private checkpointIfDue(): boolean {
    if (!this.checkpoints || this.closing || !this.isSettled()) return false;
    this.checkpointWanted = false;
    return this.checkpoints.startIfDue((err) => {
      if (err) console.error(`[simulator] ${err.message}`);
      this.resume();
    });
  }

  private resume(): void {
    for (const resume of this.resumers) resume();
    if (this.isIdle()) this.idle?.();
  }

  /** Nothing in flight: no group awaiting a sync, no database sync of a checkpoint. */
  private isIdle(): boolean {
    return this.isSettled() && !this.checkpoints?.isSyncing();
  }
}
