/**
 * Prepared submissions are written without their own fsync (they are not acknowledged ledger state), and the
 * connection is back to synchronous=FULL afterwards, so commands keep "acknowledged ⇒ durable".
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LedgerStore } from '../../src/simulator/store/ledger-store.js';
import { DB_FILE, openDatabase } from '../../src/simulator/store/open.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-prepared-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('prepared submissions in the store', () => {
  it('are committed (another connection reads them) and leave the connection at synchronous=FULL', () => {
    const db = openDatabase(dir, true);
    const store = new LedgerStore(db);
    store.putPrepared('hash-1', { commands: 'x' }, 1n);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    const other = new Database(path.join(dir, DB_FILE), { readonly: true });
    expect((other.prepare('SELECT payload FROM prepared WHERE hash = ?').get('hash-1') as { payload: string }).payload).toBe(
      '{"commands":"x"}',
    );
    other.close();
    // inside a transaction the row joins it (no pragma change, which SQLite would refuse there)
    db.transaction(() => store.putPrepared('hash-2', { commands: 'y' }, 2n))();
    expect(store.prepared('hash-2')).toMatchObject({ commands: 'y' });
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  });
});
