/** The console's own SQLite database (profiles, settings; later key metadata and the audit log). */
import Database from 'better-sqlite3';
import path from 'node:path';
import { privateDatabase, privateDir } from './private-files.js';

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
  // Profile authentication modes. Only non-secret configuration lives here; the bearer token and the
  // OAuth2 client secret stay in the OS keychain (has_token / has_client_secret say whether one is stored).
  // Existing profiles with a stored token become 'static', the others 'none'.
  `ALTER TABLE profiles ADD COLUMN auth_mode TEXT NOT NULL DEFAULT 'none'
     CHECK (auth_mode IN ('none', 'static', 'oauth2-client-credentials'));
   UPDATE profiles SET auth_mode = 'static' WHERE has_token = 1;
   ALTER TABLE profiles ADD COLUMN oauth2_token_url TEXT;
   ALTER TABLE profiles ADD COLUMN oauth2_client_id TEXT;
   ALTER TABLE profiles ADD COLUMN oauth2_audience TEXT;
   ALTER TABLE profiles ADD COLUMN oauth2_scope TEXT;
   ALTER TABLE profiles ADD COLUMN oauth2_client_auth TEXT NOT NULL DEFAULT 'client_secret_post'
     CHECK (oauth2_client_auth IN ('client_secret_post', 'client_secret_basic'));
   ALTER TABLE profiles ADD COLUMN has_client_secret INTEGER NOT NULL DEFAULT 0;`,
  // Wallet: balance samples for the balance chart and the tracking ids of requests the console sent (no secrets).
  `CREATE TABLE wallet_balance_samples (
     profile_id TEXT NOT NULL,
     wallet_user TEXT NOT NULL,
     at TEXT NOT NULL,
     unlocked TEXT NOT NULL,
     locked TEXT NOT NULL,
     source TEXT NOT NULL CHECK (source IN ('sample', 'history'))
   );
   CREATE INDEX wallet_balance_samples_user ON wallet_balance_samples (profile_id, wallet_user, at);
   CREATE TABLE wallet_tracked (
     profile_id TEXT NOT NULL,
     wallet_user TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('offer', 'traffic')),
     tracking_id TEXT NOT NULL,
     summary TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (profile_id, kind, tracking_id)
   );`,
  // Audit log authenticated with the console's audit key (secret in the OS keychain): an HMAC per entry and for the head.
  // Entries written before the key existed keep a NULL mac (the key records from which entry it authenticates).
  `ALTER TABLE signing_audit ADD COLUMN mac TEXT;
   ALTER TABLE signing_audit_head ADD COLUMN mac TEXT;`,
  // Signing policies are versioned (each officer's change is the next version; backups and policy files carry it).
  `ALTER TABLE signing_policies ADD COLUMN version INTEGER NOT NULL DEFAULT 1;`,
  // Daml-LF archives whose package id the console verified (SHA-256 of the payload), for describing transactions to sign
  // (also on an air-gapped machine). Content-addressed: a row never changes.
  `CREATE TABLE verified_packages (
     package_id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     version TEXT NOT NULL,
     archive BLOB NOT NULL,
     source TEXT NOT NULL CHECK (source IN ('participant', 'signing-request', 'import')),
     added_at TEXT NOT NULL
   );`,
  // Where a profile's secret lives: the OS keychain (all profiles so far) or the passphrase-encrypted secret file.
  `ALTER TABLE profiles ADD COLUMN secret_store TEXT NOT NULL DEFAULT 'os-keychain'
     CHECK (secret_store IN ('os-keychain', 'encrypted-file'));`,
];

export function openAppDb(dataDir: string): AppDb {
  privateDir(dataDir);
  const file = path.join(dataDir, 'console.sqlite');
  privateDatabase(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  const version = db.pragma('user_version', { simple: true }) as number;
  for (const [v, migration] of MIGRATIONS.entries()) {
    if (v < version) continue;
    db.transaction(() => {
      db.exec(migration);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  cacheStatements(db);
  return db;
}

/** More distinct SQL texts than the console has; past it the cache starts over (dynamic SQL cannot grow it unbounded). */
const STATEMENT_CACHE_MAX = 512;

/**
 * The services call `db.prepare(sql)` where they use a statement; compiling it again each time was a measurable part
 * of a signature (key, policy and audit reads run several statements per signing round, bench/signing). Statements
 * are reusable, and SQLite re-prepares one by itself when the schema changes, so one compiled statement per SQL text
 * is kept. Shared statements must keep their default modes: no caller changes them (pluck/raw/expand/safeIntegers).
 */
function cacheStatements(db: AppDb): void {
  const compile = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  const prepare = (sql: string): Database.Statement => {
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = compile(sql);
      if (cache.size >= STATEMENT_CACHE_MAX) cache.clear();
      cache.set(sql, statement);
    }
    return statement;
  };
  db.prepare = prepare as AppDb['prepare'];
}
