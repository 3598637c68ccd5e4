/**
 * WAL checkpoints run by the simulator with the database file's sync off its thread (src/simulator/store/
 * wal-checkpoints.ts), on a real SQLite file. The test holds the database sync back and reads SQLite's own state from
 * the files — the WAL index (`-shm`: frames written, frames copied) and the WAL header's salts, which change when
 * SQLite restarts the WAL — to check that: a checkpoint copies the whole durable WAL; group commits wait while the file
 * is synced; nothing (not even a synchronous commit) restarts the WAL before that sync succeeded, and the next group
 * does after it; after a failed sync the WAL is never restarted or removed, and the next open replays it; a failed
 * copy hands checkpoints back to SQLite without keeping the WAL; synchronous commits
 * (which cannot wait) are checkpointed on the thread, as SQLite would; and over HTTP under concurrent load the WAL stays
 * bounded.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { JsCommandsInput } from '../../../src/simulator/schemas.js';
import { DB_FILE, openDatabase } from '../../../src/simulator/store/open.js';
import { WalCheckpoints } from '../../../src/simulator/store/wal-checkpoints.js';
import { call, createIou, heldSync, openCommitTestLedger, startTestSim } from './helpers.js';
import type { TestSim } from './helpers.js';
import { until } from '../../support/hostile-dar.js';

const disposers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const d of disposers) await d();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The WAL index header (walformat.html): frames in the WAL and frames copied into the database file. */
function walIndex(dataDir: string): { frames: number; copied: number } {
  const b = fs.readFileSync(path.join(dataDir, `${DB_FILE}-shm`)).subarray(0, 100);
  return { frames: b.readUInt32LE(16), copied: b.readUInt32LE(96) };
}

/** The WAL header's salts (bytes 16–23): SQLite changes them each time it restarts the WAL from its start. */
const walSalts = (dataDir: string): string =>
  fs
    .readFileSync(path.join(dataDir, `${DB_FILE}-wal`))
    .subarray(16, 24)
    .toString('hex');

const turns = async (k: number) => {
  for (let i = 0; i < k; i++) await new Promise((r) => setImmediate(r));
};

function open(frames: number) {
  const dbSync = heldSync();
  const t = openCommitTestLedger('sim-checkpoints-', { syncDb: dbSync.sync, checkpointFrames: frames }, true);
  disposers.push(async () => {
    dbSync.passThrough();
    await t.sim.durability.close();
    t.dispose();
  });
  let n = 0;
  const cmd = (): JsCommandsInput => ({ commandId: `ckpt-${++n}`, actAs: [t.alice], commands: [createIou(t.alice, t.alice, '1')] });
  const answered = { count: 0 };
  const submit = (count: number) =>
    Array.from({ length: count }, () =>
      t.writer.submit(cmd(), 'user').then((r) => {
        answered.count++;
        return r;
      }),
    );
  /** Groups of four until a checkpoint's database sync is held. */
  const untilCheckpoint = async () => {
    const held = dbSync.held();
    while (dbSync.held() === held) await Promise.all(submit(4));
  };
  return { ...t, dbSync, submit, answered, untilCheckpoint };
}

describe('WAL checkpoints with the database sync off the thread', () => {
  it('copies the durable WAL, holds groups while the file is synced, and lets the next group restart the WAL', async () => {
    const { sim, dataDir, dbSync, submit, answered, committedEnd, untilCheckpoint } = open(40);
    // SQLite's automatic checkpoint (inside COMMIT, syncing on this thread) is off
    expect(sim.store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await untilCheckpoint();
    const idx = walIndex(dataDir);
    expect(idx.frames).toBeGreaterThanOrEqual(40);
    expect(idx.copied).toBe(idx.frames);
    // the checkpoint ran without syncing (synchronous=OFF) and restored the setting (FULL = 2)
    expect(sim.store.db.pragma('synchronous', { simple: true })).toBe(2);
    const salts = walSalts(dataDir);

    // while the database file is synced: groups wait, readers do not
    const end = committedEnd();
    answered.count = 0;
    const held = submit(3);
    await turns(5);
    expect(committedEnd()).toBe(end);
    expect(answered.count).toBe(0);
    await sim.durability.settled();

    dbSync.release();
    expect((await Promise.all(held)).map((r) => r.offset)).toEqual([end + 1, end + 2, end + 3]);
    // the group after the sync found the whole WAL copied and started it over
    expect(walSalts(dataDir)).not.toBe(salts);
    expect(walIndex(dataDir).frames).toBeLessThan(idx.frames);
  });

  it('never restarts the WAL before the database file is synced, not even for a synchronous commit', async () => {
    const { sim, dataDir, dbSync, writer, untilCheckpoint } = open(40);
    await untilCheckpoint();
    const before = walIndex(dataDir);
    const salts = walSalts(dataDir);
    // a party allocation commits at once (synchronous=FULL), during the database sync: appended, not restarted
    const bob = writer.allocateParty({ partyIdHint: 'Bob' }).party;
    expect(walSalts(dataDir)).toBe(salts);
    expect(walIndex(dataDir).frames).toBeGreaterThan(before.frames);
    dbSync.release();
    await until(() => sim.durability.acceptsGroup());
    expect(sim.store.hasParty(bob)).toBe(true);
  });

  it('after a failed database sync never restarts or removes the WAL, so the next start replays it', async () => {
    const { sim, dataDir, dbSync, submit, untilCheckpoint, committedEnd, closeReader } = open(40);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await untilCheckpoint();
    const salts = walSalts(dataDir);
    const held = submit(2);
    dbSync.fail();
    // groups go on, appended to the WAL; no checkpoint is tried again (SQLite has recorded those pages as copied)
    await Promise.all(held);
    for (let i = 0; i < 10; i++) await Promise.all(submit(4));
    expect(walSalts(dataDir)).toBe(salts);
    expect(walIndex(dataDir).frames).toBeGreaterThan(80);
    expect(dbSync.calls()).toBe(1);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('could not be synced (EIO: i/o error, fdatasync); the WAL is kept'));

    // closing leaves the WAL in place (the reader's connection outlives the database's): the next open replays it
    const end = committedEnd();
    closeReader();
    await sim.durability.close();
    sim.store.db.close();
    expect(fs.existsSync(path.join(dataDir, `${DB_FILE}-wal`))).toBe(true);
    const again = new Database(path.join(dataDir, DB_FILE));
    try {
      expect(again.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(Number(again.prepare("SELECT value FROM meta WHERE key = 'ledger_end'").pluck().get())).toBe(end);
    } finally {
      again.close();
    }
  });
});

describe('a checkpoint whose copy fails', () => {
  it('leaves checkpoints to SQLite and lets go of the WAL', async () => {
    const { sim, writer, dataDir, submit, dbSync } = open(40);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const db = sim.store.db;
    const pragma = db.pragma.bind(db);
    const failing = vi.spyOn(db, 'pragma').mockImplementation((source, options) => {
      if (source === 'wal_checkpoint(PASSIVE)') throw new Error('disk I/O error');
      return pragma(source, options);
    });
    // groups go on: the failed copy neither holds them nor answers them with an error
    for (let i = 0; i < 10; i++) await Promise.all(submit(4));
    expect(dbSync.calls()).toBe(0);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('WAL checkpoint failed (disk I/O error); checkpoints are left to SQLite'));
    failing.mockRestore();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    // no reader is kept: a checkpoint now copies every frame, written after the failure too
    writer.allocateParty({ partyIdHint: 'After' });
    const [r] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
    expect(r?.checkpointed).toBe(r?.log);
    expect(walIndex(dataDir).copied).toBe(walIndex(dataDir).frames);
  });
});

describe('the default checkpoint threshold', () => {
  it("is 64 MiB of WAL frames (4,096 of 16 KiB), not SQLite's 1,000", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-ckpt-default-'));
    const db = openDatabase(dir, false);
    try {
      expect(db.pragma('page_size', { simple: true })).toBe(16384);
      const checkpoints = new WalCheckpoints(db, path.join(dir, DB_FILE));
      db.pragma('synchronous = OFF');
      db.exec('CREATE TABLE filler (x BLOB)');
      const insert = db.prepare('INSERT INTO filler (x) VALUES (randomblob(16000))');
      // one page per row, written by transactions of 100 rows (frames = pages written)
      const fill = (until: number) => {
        while (walIndex(dir).frames < until) db.transaction(() => Array.from({ length: 100 }, () => insert.run()))();
      };
      fill(1100);
      expect(checkpoints.isDue()).toBe(false);
      fill(4096);
      expect(checkpoints.isDue()).toBe(true);
      checkpoints.close();
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('WAL checkpoints for commits that do not wait', () => {
  it('checkpoints synchronous commits on the thread, as SQLite would, so the WAL is restarted', () => {
    const { dataDir, dbSync, writer } = open(40);
    const salts = walSalts(dataDir);
    let restarted = false;
    for (let i = 0; i < 200 && !restarted; i++) {
      writer.allocateParty({ partyIdHint: `Sync${i}` });
      restarted = walSalts(dataDir) !== salts;
    }
    expect(restarted).toBe(true);
    expect(walIndex(dataDir).frames).toBeLessThan(40);
    // SQLite synced the database file itself: nothing went through the off-thread sync
    expect(dbSync.calls()).toBe(0);
  });
});

describe('WAL checkpoints over HTTP under concurrent load', () => {
  it('keeps the WAL bounded and every acknowledged command readable after a restart', async () => {
    const frames = 200;
    const sim = await startTestSim({ checkpointFrames: frames });
    const reopened: TestSim[] = [];
    disposers.push(async () => {
      for (const r of reopened) await r.close();
      await sim.dispose();
    });
    const alloc = await call(sim.url, 'POST', '/v2/parties', { body: { partyIdHint: 'Alice' } });
    const alice = (alloc.json as { partyDetails: { party: string } }).partyDetails.party;
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, c) => {
        for (let k = 0; k < 40; k++) {
          const r = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
            body: { commandId: `load-${c}-${k}`, actAs: [alice], commands: [createIou(alice, alice, '1')] },
          });
          expect(r.status).toBe(200);
          ids.push((r.json as { updateId: string }).updateId);
        }
      }),
    );
    // 320 commands write thousands of frames; restarted after each checkpoint, the WAL never grew past a few hundred
    const walFrames = (fs.statSync(path.join(sim.dataDir, `${DB_FILE}-wal`)).size - 32) / (16384 + 24);
    expect(walFrames).toBeLessThan(3 * frames);
    await sim.close();

    const again = await startTestSim({ dataDir: sim.dataDir });
    reopened.push(again);
    for (const id of ids) {
      const r = await call(again.url, 'POST', '/v2/updates/update-by-id', {
        body: {
          updateId: id,
          updateFormat: {
            includeTransactions: { eventFormat: { filtersByParty: { [alice]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
          },
        },
      });
      expect(r.status).toBe(200);
    }
  });
});
