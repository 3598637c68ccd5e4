/**
 * Opens the simulator database. WAL journal with synchronous=FULL: every committed transaction is
 * fsynced before `COMMIT` returns, so a command is acknowledged only once its effects survive a crash
 * (NORMAL in WAL mode may lose the last transactions on power loss, which would break "acknowledged
 * ⇒ durable").
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { privateDataDir } from './private-files.js';
import { DDL, SCHEMA_VERSION } from './schema.js';

export type Db = Database.Database;

export const DB_FILE = 'ledger.sqlite';

export function openDatabase(dataDir: string, reset: boolean): Db {
  if (reset) rmSync(dataDir, { recursive: true, force: true });
  const file = path.join(dataDir, DB_FILE);
  privateDataDir(dataDir, file);
  const db = new Database(file);
  // 16 KiB pages (new data dirs only; an existing file keeps its page size): an update row (~2-4 KB
  // with its stream fragments) fits in a page instead of spilling into an overflow page, so a
  // stream scan reads ~4 rows per page fetch instead of ~2 page fetches per row.
  db.pragma('page_size = 16384');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrateFromV1(db);
  // One transaction: a new data dir's CREATE statements cost one fsync together instead of one each.
  db.transaction(() => {
    dropOutdatedIndexes(db);
    db.exec(DDL);
    addColumns(db, 'reassignments', ['submitter TEXT', 'workflow_id TEXT', 'record_time TEXT']);
    const row = db.prepare('SELECT value FROM meta WHERE key = ?').get('schema_version') as { value: string } | undefined;
    if (!row) db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('schema_version', String(SCHEMA_VERSION));
    else if (Number(row.value) !== SCHEMA_VERSION)
      throw new Error(`Unsupported simulator database schema ${row.value} in ${dataDir} (expected ${SCHEMA_VERSION}); use --reset`);
  }).immediate();
  return db;
}

/**
 * Indexes whose definition changed within schema 2, dropped so DDL creates them anew: contracts_key held every active
 * contract, keyless ones under NULL — one more index entry per create and per archive, for lookups that only ever
 * ask for a key.
 */
function dropOutdatedIndexes(db: Db): void {
  const sql = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'contracts_key'").pluck().get() as
    string | undefined;
  if (sql !== undefined && !sql.includes('key_hash IS NOT NULL')) db.exec('DROP INDEX contracts_key');
}

/** Additive, nullable columns of schema 2 that data dirs written before they existed lack. */
function addColumns(db: Db, table: string, columns: string[]): void {
  const have = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
  for (const c of columns) if (!have.has(c.split(' ')[0] as string)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${c}`);
}

/**
 * Schema 1 → 2: contracts get a creation-order `seq` key and a stakeholder index (contract_parties),
 * parties an integer id, updates the (nullable) streaming columns — old rows keep NULL and are read through
 * their payload, now in update_payloads. Runs once, in one transaction, when a version-1 data dir is opened.
 */
function migrateFromV1(db: Db): void {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (!hasMeta) return;
  const v = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
  if (v?.value !== '1') return;
  db.transaction(() => {
    db.exec(`
      DROP INDEX IF EXISTS contracts_active;
      DROP INDEX IF EXISTS contracts_key;
      ALTER TABLE contracts RENAME TO contracts_v1;
      ALTER TABLE parties RENAME TO parties_v1;
      ALTER TABLE updates RENAME TO updates_v1;
    `);
    db.exec(DDL);
    db.exec(`
      INSERT INTO contracts (contract_id, template_qn, package_name, created_offset, archived_offset, key_hash, synchronizer_id,
        reassignment_counter, unassigned_id, unassigned_target, unassigned_offset, workflow_id, create_node)
      SELECT contract_id, template_qn, package_name, created_offset, archived_offset, key_hash, synchronizer_id,
        reassignment_counter, unassigned_id, unassigned_target, unassigned_offset, workflow_id, create_node
      FROM contracts_v1 ORDER BY created_offset, rowid;
      INSERT INTO parties (party, offset, is_local, idp, metadata)
      SELECT party, offset, is_local, idp, metadata FROM parties_v1 ORDER BY offset, party;
      INSERT OR IGNORE INTO contract_parties (pid, seq)
      SELECT p.pid, c.seq FROM contracts c, json_each(c.create_node, '$.signatories') j JOIN parties p ON p.party = j.value;
      INSERT OR IGNORE INTO contract_parties (pid, seq)
      SELECT p.pid, c.seq FROM contracts c, json_each(c.create_node, '$.observers') j JOIN parties p ON p.party = j.value;
      INSERT INTO updates (offset, update_id, kind, synchronizer_id, record_time)
      SELECT offset, update_id, kind, synchronizer_id, record_time FROM updates_v1;
      INSERT INTO update_payloads (offset, payload) SELECT offset, payload FROM updates_v1;
      DROP TABLE updates_v1;
      DROP TABLE contracts_v1;
      DROP TABLE parties_v1;
      UPDATE meta SET value = '2' WHERE key = 'schema_version';
    `);
  }).immediate();
}
