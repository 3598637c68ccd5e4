/** SQLite schema of the simulator's durable ledger. */
export const SCHEMA_VERSION = 2;

export const DDL = `
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
-- One row per ledger update (transaction, reassignment, topology transaction).
-- Streaming form of transactions: frags = the packed form of packed.ts with meta NULL (written since
-- the packed form exists, recognised by its magic number), or meta + frags = the form of splice.ts
-- (JSON meta + UTF-8 fragments; rows written earlier, still read). Both NULL: read the payload.
-- The full StoredUpdate JSON lives in update_payloads, so stream scans do not read it.
CREATE TABLE IF NOT EXISTS updates (
  offset          INTEGER PRIMARY KEY,
  update_id       TEXT NOT NULL UNIQUE,
  kind            TEXT NOT NULL,
  synchronizer_id TEXT NOT NULL,
  record_time     INTEGER NOT NULL,
  meta            TEXT,
  frags           BLOB
);
CREATE TABLE IF NOT EXISTS update_payloads (
  offset  INTEGER PRIMARY KEY,
  payload TEXT NOT NULL
);
-- Every contract ever created, with its current state. create_node = the CreatedNode JSON.
-- seq = creation order (keyset pagination of the ACS); contract_parties indexes stakeholders by party.
CREATE TABLE IF NOT EXISTS contracts (
  seq                  INTEGER PRIMARY KEY,
  contract_id          TEXT NOT NULL UNIQUE,
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
CREATE INDEX IF NOT EXISTS contracts_key ON contracts (key_hash) WHERE archived_offset IS NULL AND key_hash IS NOT NULL;
CREATE INDEX IF NOT EXISTS contracts_archived ON contracts (archived_offset) WHERE archived_offset IS NOT NULL;
CREATE INDEX IF NOT EXISTS contracts_unassigned ON contracts (unassigned_id) WHERE unassigned_id IS NOT NULL;
-- Stakeholder index: (party, contract seq) for party-filtered ACS pages.
CREATE TABLE IF NOT EXISTS contract_parties (
  pid INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (pid, seq)
) WITHOUT ROWID;
-- Command completions (offset = offset of the update the command produced, or the offset a rejection
-- was assigned; payload.status is set for rejections).
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
-- Reassignment history per contract (for the ACS at past offsets). submitter, workflow_id and
-- record_time (ISO; added to schema 2 later, NULL in older rows) keep what ACS entries show after the
-- reassignment update is pruned.
CREATE TABLE IF NOT EXISTS reassignments (
  contract_id     TEXT NOT NULL,
  offset          INTEGER NOT NULL,
  type            TEXT NOT NULL,
  source          TEXT NOT NULL,
  target          TEXT NOT NULL,
  counter         INTEGER NOT NULL,
  reassignment_id TEXT NOT NULL,
  submitter       TEXT,
  workflow_id     TEXT,
  record_time     TEXT,
  PRIMARY KEY (contract_id, offset)
);
CREATE TABLE IF NOT EXISTS parties (
  pid        INTEGER PRIMARY KEY,
  party      TEXT NOT NULL UNIQUE,
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
