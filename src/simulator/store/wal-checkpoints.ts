/**
 * WAL checkpoints whose syncs run off the simulator's thread.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that takes the WAL past 1000 pages and syncs twice on the
 * committing thread: the WAL (so only durable frames are copied), then the database file (so the WAL may be
 * restarted, overwriting frames the file now holds). Under 16 clients that blocked the simulator's one thread
 * ≈ 13 ms every ≈ 200 commands, 85 % of it in those two syncs. Here the automatic checkpoint is off and:
 * - a checkpoint runs only when everything committed is durable (Durability: the WAL was just synced, or SQLite
 *   synced it in a synchronous=FULL COMMIT), so it copies durable frames only and the first sync is not needed: it
 *   runs with synchronous=OFF on the writing connection (≈ 2 ms, the copy);
 * - the database file is then synced on libuv's thread pool. Until that sync has succeeded the WAL must not be
 *   restarted: a reader on a second connection, begun before the checkpoint, is kept open meanwhile — SQLite
 *   restarts the WAL only when no reader uses it — and released when the sync is done. Group commits wait meanwhile
 *   (Durability), so the next group finds the whole WAL copied and restarts it: the WAL stays bounded under load.
 * - a failed sync is not retried: the copy is already recorded in the WAL index, so SQLite would never copy those
 *   pages again, and after a failed fsync Linux may have dropped them. The reader is kept for good and the connection
 *   left open at close (a read-only connection closing last neither checkpoints nor deletes the WAL), so the WAL is
 *   never overwritten or removed and the next start replays all of it; checkpoints stop until then.
 * Whether a checkpoint is due is read from the WAL index (the `-shm` file SQLite maps, format documented at
 * https://sqlite.org/walformat.html): frames in the WAL (`mxFrame`) not yet copied (`nBackfill`). If that header is
 * not what this code expects, SQLite's automatic checkpoint is turned back on.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import type { Db } from './open.js';

/** fdatasync of a file descriptor (fs.fdatasync; tests pass one that can be held back). */
export type SyncFile = (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => void;

/** SQLite's own threshold for its automatic checkpoint, in WAL frames (pages): used when checkpoints are left to it. */
export const SQLITE_CHECKPOINT_FRAMES = 1000;

/**
 * WAL bytes not yet copied that make an own checkpoint due (4,096 frames of 16 KiB pages). Every checkpoint holds
 * group commits while the database file is synced (≈ 10–15 ms on the bench machine, see Durability): at SQLite's
 * 1,000 frames that was ≈ 12 % of the time under 16 clients; four times fewer checkpoints copy fewer pages in all (an
 * index page rewritten by many commits is copied once) and held groups ≈ 4 % of the time. The WAL then peaks at
 * ≈ 64 MiB plus what arrives while a checkpoint waits, and a restart after a crash replays at most that.
 */
export const CHECKPOINT_WAL_BYTES = 64 * 1024 * 1024;

/** WAL-index header version SQLite has written since 3.7.0 (walformat.html). */
const WAL_INDEX_VERSION = 3007000;

export class WalCheckpoints {
  private shmFd: number | undefined;
  private dbFd: number | undefined;
  private pinDb: Db | undefined;
  private pinned = false;
  private readonly header = Buffer.alloc(100);
  private readonly readU32 =
    os.endianness() === 'LE' ? this.header.readUInt32LE.bind(this.header) : this.header.readUInt32BE.bind(this.header);
  /** False once own checkpoints stopped: the WAL index was not as expected or a copy failed (SQLite checkpoints by
   * itself again), or a sync failed (none run until the next start). */
  private active = true;
  private syncing = false;
  /** A database sync failed: own checkpoints stopped and the WAL is kept for the next start. */
  private lastError: Error | undefined;
  /** Frames not yet copied that make a checkpoint due. */
  private readonly frames: number;

  constructor(
    private readonly db: Db,
    private readonly dbPath: string,
    private readonly syncFile: SyncFile = fs.fdatasync,
    frames?: number,
  ) {
    this.frames = frames ?? Math.max(1, Math.floor(CHECKPOINT_WAL_BYTES / (db.pragma('page_size', { simple: true }) as number)));
    db.pragma('wal_autocheckpoint = 0');
  }

  /** A sync of the database file is under way (the WAL must not be restarted: group commits wait). */
  isSyncing(): boolean {
    return this.syncing;
  }

  /** Whether at least `frames` WAL frames are not yet copied into the database file (one read of the WAL index). */
  isDue(): boolean {
    if (!this.active || this.syncing) return false;
    const pending = this.pendingFrames();
    return pending !== undefined && pending >= this.frames;
  }

  /**
   * Starts a checkpoint when one is due (`isDue`). Call only when everything committed is durable and no transaction
   * is open. `done` runs after the database file's sync (with its error); returns false, and never calls `done`, when
   * no checkpoint was due.
   */
  startIfDue(done: (err: Error | undefined) => void): boolean {
    if (this.db.inTransaction || !this.isDue()) return false;
    try {
      // a reader from before the copy keeps the WAL from being restarted until the file is synced
      this.pin();
      const sync = this.db.pragma('synchronous', { simple: true }) as number;
      this.db.pragma('synchronous = OFF');
      try {
        this.db.pragma('wal_checkpoint(PASSIVE)');
      } finally {
        this.db.pragma(`synchronous = ${sync}`);
      }
    } catch (err) {
      // A copy that failed is not recorded: frames stay uncopied (SQLite copies them again), so nothing can restart
      // the WAL over them and the reader may go. SQLite's own checkpoints take over.
      this.active = false;
      console.error(`[simulator] WAL checkpoint failed (${(err as Error).message}); checkpoints are left to SQLite`);
      try {
        this.unpin();
        this.db.pragma(`wal_autocheckpoint = ${SQLITE_CHECKPOINT_FRAMES}`);
      } catch {
        // the connection itself is failing: its next statement reports it
      }
      return false;
    }
    this.syncing = true;
    let fd: number;
    try {
      fd = this.dbFd ??= fs.openSync(this.dbPath, 'r');
    } catch (err) {
      this.finish(err as Error, done);
      return true;
    }
    this.syncFile(fd, (err) => this.finish(err ?? undefined, done));
    return true;
  }

  /**
   * A checkpoint as SQLite's automatic one, syncs on this thread: for commits that cannot wait (synchronous ones),
   * under which a checkpoint synced off the thread would never see the WAL restarted. Call when no transaction is
   * open and no sync is under way.
   */
  runSynced(): void {
    if (this.db.inTransaction || !this.active) return;
    this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  /** Releases the reader and closes the files (after the sync under way; the database connection stays open). */
  close(): void {
    // after a failed sync the reader stays, and its connection outlives the database's (see the module comment)
    if (!this.lastError) {
      this.unpin();
      this.pinDb?.close();
      this.pinDb = undefined;
    }
    for (const fd of [this.shmFd, this.dbFd]) if (fd !== undefined) fs.closeSync(fd);
    this.shmFd = this.dbFd = undefined;
  }

  private finish(err: Error | undefined, done: (err: Error | undefined) => void): void {
    this.syncing = false;
    if (err) {
      this.active = false;
      this.lastError = new Error(
        `The checkpointed database file could not be synced (${err.message}); the WAL is kept and replayed at the next start`,
      );
    } else this.unpin();
    done(this.lastError);
  }

  /** Frames in the WAL not yet copied into the database file; undefined when unknown (no WAL index yet). */
  private pendingFrames(): number | undefined {
    try {
      this.shmFd ??= fs.openSync(`${this.dbPath}-shm`, 'r');
    } catch {
      return undefined;
    }
    try {
      if (fs.readSync(this.shmFd, this.header, 0, 100, 0) < 100) return undefined;
    } catch {
      return undefined;
    }
    // two copies of the 48-byte header (iVersion at 0, mxFrame at 16), then the checkpoint info (nBackfill at 96)
    if (this.readU32(0) !== WAL_INDEX_VERSION) {
      this.active = false;
      this.db.pragma(`wal_autocheckpoint = ${SQLITE_CHECKPOINT_FRAMES}`);
      return undefined;
    }
    return this.readU32(16) - this.readU32(96);
  }

  private pin(): void {
    this.pinDb ??= new Database(this.dbPath, { readonly: true, fileMustExist: true });
    this.pinDb.exec('BEGIN');
    this.pinDb.prepare('SELECT 1 FROM meta LIMIT 1').get();
    this.pinned = true;
  }

  private unpin(): void {
    if (!this.pinned) return;
    this.pinDb?.exec('COMMIT');
    this.pinned = false;
  }
}
