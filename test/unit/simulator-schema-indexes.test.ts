/**
 * The contract key index holds keyed active contracts only (keyless creates and archives add no entry), and a data
 * dir written with its earlier definition — every active contract, keyless ones under NULL — gets the new one when
 * opened; lookups by key still go through it (SQLite's query plan) and find the contract.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DB_FILE, openDatabase } from '../../src/simulator/store/open.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-schema-indexes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BY_KEY = 'SELECT contract_id FROM contracts WHERE key_hash = ? AND archived_offset IS NULL ORDER BY created_offset LIMIT 1';
const indexSql = (db: Database.Database): string =>
  db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'contracts_key'").pluck().get() as string;

describe('the contract key index', () => {
  it('is rebuilt for keyed contracts only when a data dir with the earlier definition is opened', () => {
    const first = openDatabase(dir, true);
    // as written by earlier versions
    first.exec('DROP INDEX contracts_key; CREATE INDEX contracts_key ON contracts (key_hash) WHERE archived_offset IS NULL');
    const insert = first.prepare(
      `INSERT INTO contracts (contract_id, template_qn, package_name, created_offset, key_hash, synchronizer_id, create_node)
       VALUES (?, 'M:T', 'p', ?, ?, 's', '{}')`,
    );
    insert.run('keyless-1', 1, null);
    insert.run('keyed-1', 2, 'k1');
    insert.run('keyless-2', 3, null);
    first.close();

    const db = openDatabase(dir, false);
    try {
      expect(indexSql(db)).toContain('key_hash IS NOT NULL');
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${BY_KEY}`).all('k1') as { detail: string }[];
      expect(plan.map((p) => p.detail).join('; ')).toContain('USING INDEX contracts_key');
      expect(db.prepare(BY_KEY).pluck().get('k1')).toBe('keyed-1');
      // the index holds the keyed contract alone
      expect(
        db
          .prepare('SELECT count(*) FROM contracts INDEXED BY contracts_key WHERE key_hash IS NOT NULL AND archived_offset IS NULL')
          .pluck()
          .get(),
      ).toBe(1);
    } finally {
      db.close();
    }
    // opening again leaves it as it is
    const again = new Database(path.join(dir, DB_FILE));
    const before = indexSql(again);
    again.close();
    openDatabase(dir, false).close();
    const after = new Database(path.join(dir, DB_FILE));
    expect(indexSql(after)).toBe(before);
    after.close();
  });
});
