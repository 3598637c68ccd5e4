/** SQLite schema of the simulator's durable ledger. */
export const SCHEMA_VERSION = 1;

export const DDL = `
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
-- One row per ledger update (transaction, reassignment, topology transaction). payload = StoredUpdate JSON.
CREATE TABLE IF NOT EXISTS updates (
  offset          INTEGER PRIMARY KEY,
  update_id       TEXT NOT NULL UNIQUE,
  kind            TEXT NOT NULL,
  synchronizer_id TEXT NOT NULL,
  record_time     INTEGER NOT NULL,
  payload         TEXT NOT NULL
);
-- Every contract ever created, with its current state. create_node = the CreatedNode JSON.
CREATE TABLE IF NOT EXISTS contracts (
  contract_id          TEXT PRIMARY KEY,
  template_qn          TEXT NOT NULL,
  package_name         TEXT NOT NULL,
  created_offset       INTEGER NOT NULL,
  archived_offset      INTEGER,
  key_hash             TEXT,
  synchronizer_id      TEXT NOT NULL,
  reassignment_counter INTEGER NOT NULL DEFAULT 0,
  unassigned_id        TEXT,
  unassigned_target    TEXT,
  unassigned_offset    INTEGER,
  workflow_id          TEXT,
  create_node          TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS contracts_active ON contracts (archived_offset, created_offset);
CREATE INDEX IF NOT EXISTS contracts_key ON contracts (key_hash) WHERE archived_offset IS NULL;
-- Command completions (offset = offset of the update the command produced).
CREATE TABLE IF NOT EXISTS completions (
  offset  INTEGER PRIMARY KEY,
  payload TEXT NOT NULL
);
-- Command deduplication: key = hash(userId, commandId, sorted actAs).
CREATE TABLE IF NOT EXISTS dedup (
  dedup_key     TEXT PRIMARY KEY,
  offset        INTEGER NOT NULL,
  record_time   INTEGER NOT NULL,
  submission_id TEXT,
  update_id     TEXT NOT NULL
);
-- Reassignment history per contract (for the ACS at past offsets).
CREATE TABLE IF NOT EXISTS reassignments (
  contract_id     TEXT NOT NULL,
  offset          INTEGER NOT NULL,
  type            TEXT NOT NULL,
  source          TEXT NOT NULL,
  target          TEXT NOT NULL,
  counter         INTEGER NOT NULL,
  reassignment_id TEXT NOT NULL,
  PRIMARY KEY (contract_id, offset)
);
CREATE TABLE IF NOT EXISTS parties (
  party      TEXT PRIMARY KEY,
  offset     INTEGER NOT NULL,
  is_local   INTEGER NOT NULL,
  idp        TEXT NOT NULL DEFAULT '',
  metadata   TEXT NOT NULL DEFAULT '{}'
);
-- Signing keys of external parties (PartyToKeyMapping): keys = [{fingerprint, raw (base64)}].
CREATE TABLE IF NOT EXISTS party_keys (
  party     TEXT PRIMARY KEY,
  threshold INTEGER NOT NULL,
  keys      TEXT NOT NULL
);
-- Prepared interactive submissions, by prepared transaction hash (base64).
CREATE TABLE IF NOT EXISTS prepared (
  hash       TEXT PRIMARY KEY,
  payload    TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS users (
  id          TEXT PRIMARY KEY,
  payload     TEXT NOT NULL
);
`;
