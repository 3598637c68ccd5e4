/** The console's own SQLite database (profiles, settings; later key metadata and the audit log). */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

export type AppDb = Database.Database;

const MIGRATIONS: string[] = [
  `CREATE TABLE profiles (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     ledger_api_url TEXT NOT NULL,
     validator_api_url TEXT,
     has_token INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL
   );
   CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  // Signing keys (metadata only; private keys live in a SecretStore), policies and the hash-chained audit log.
  `CREATE TABLE signing_keys (
     fingerprint TEXT PRIMARY KEY,
     label TEXT NOT NULL,
     public_key_hex TEXT NOT NULL UNIQUE,
     backend TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE TABLE signing_key_parties (
     fingerprint TEXT NOT NULL REFERENCES signing_keys(fingerprint) ON DELETE CASCADE,
     party_id TEXT NOT NULL,
     attached_at TEXT NOT NULL,
     PRIMARY KEY (fingerprint, party_id)
   );
   CREATE TABLE signing_policies (
     fingerprint TEXT PRIMARY KEY REFERENCES signing_keys(fingerprint) ON DELETE CASCADE,
     policy_json TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE signing_audit (
     seq INTEGER PRIMARY KEY,
     entry_json TEXT NOT NULL,
     prev_hash TEXT NOT NULL,
     hash TEXT NOT NULL
   );
   CREATE TABLE signing_audit_head (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     seq INTEGER NOT NULL,
     hash TEXT NOT NULL
   );`,
];

export function openAppDb(dataDir: string): AppDb {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'console.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  const version = db.pragma('user_version', { simple: true }) as number;
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  return db;
}
