/**
 * Opens the simulator database. WAL journal with synchronous=FULL: every committed transaction is
 * fsynced before `COMMIT` returns, so a command is acknowledged only once its effects survive a crash
 * (NORMAL in WAL mode may lose the last transactions on power loss, which would break "acknowledged
 * ⇒ durable").
 */
import Database from 'better-sqlite3';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DDL, SCHEMA_VERSION } from './schema.js';

export type Db = Database.Database;

export const DB_FILE = 'ledger.sqlite';

export function openDatabase(dataDir: string, reset: boolean): Db {
  if (reset) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, DB_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec(DDL);
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get('schema_version') as { value: string } | undefined;
  if (!row) db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('schema_version', String(SCHEMA_VERSION));
  else if (Number(row.value) !== SCHEMA_VERSION)
    throw new Error(`Unsupported simulator database schema ${row.value} in ${dataDir} (expected ${SCHEMA_VERSION}); use --reset`);
  return db;
}
