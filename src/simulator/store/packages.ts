/**
 * Durable package state: uploaded Daml-LF archives, DAR uploads, and the participant's package vetting per synchronizer
 * (with the serial of its last `VettedPackages` change). Own tables, created with `CREATE TABLE IF NOT EXISTS`, in the
 * simulator's SQLite file; every change runs in one transaction.
 */
import type { Db } from './open.js';

const DDL = `
CREATE TABLE IF NOT EXISTS lf_packages (
  package_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  version TEXT NOT NULL,
  lf_version TEXT NOT NULL,
  archive BLOB NOT NULL,
  uploaded_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS lf_dars (
  main_package_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  version TEXT NOT NULL,
  package_ids TEXT NOT NULL,
  uploaded_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS package_vetting (
  synchronizer_id TEXT NOT NULL,
  package_id TEXT NOT NULL,
  valid_from TEXT,
  valid_until TEXT,
  PRIMARY KEY (synchronizer_id, package_id)
);
CREATE TABLE IF NOT EXISTS package_vetting_serial (
  synchronizer_id TEXT PRIMARY KEY,
  serial INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS package_builtin_seen (
  package_id TEXT PRIMARY KEY
);
`;

export interface StoredPackage {
  packageId: string;
  name: string;
  version: string;
  lfVersion: string;
  archive: Uint8Array;
  uploadedAt: string;
}

export interface VettingBounds {
  /** RFC 3339, inclusive; null = no lower bound. */
  validFrom: string | null;
  /** RFC 3339, exclusive; null = no upper bound. */
  validUntil: string | null;
}

/** synchronizer id → package id → bounds */
export type VettingState = Map<string, Map<string, VettingBounds>>;

export class PackageStore {
  constructor(readonly db: Db) {
    db.exec(DDL);
  }

  transaction<T>(f: () => T): T {
    return this.db.transaction(f).immediate();
  }

  packages(): StoredPackage[] {
    const rows = this.db
      .prepare('SELECT package_id, name, version, lf_version, archive, uploaded_at FROM lf_packages ORDER BY seq')
      .all() as { package_id: string; name: string; version: string; lf_version: string; archive: Buffer; uploaded_at: string }[];
    return rows.map((r) => ({
      packageId: r.package_id,
      name: r.name,
      version: r.version,
      lfVersion: r.lf_version,
      archive: new Uint8Array(r.archive),
      uploadedAt: r.uploaded_at,
    }));
  }

  /** Inserts packages not stored yet; returns the ids actually inserted. */
  insertPackages(pkgs: StoredPackage[]): string[] {
    const next = (this.db.prepare('SELECT COALESCE(MAX(seq), 0) AS m FROM lf_packages').get() as { m: number }).m;
    const ins = this.db.prepare(
      'INSERT OR IGNORE INTO lf_packages (package_id, name, version, lf_version, archive, uploaded_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const added: string[] = [];
    pkgs.forEach((p, i) => {
      if (ins.run(p.packageId, p.name, p.version, p.lfVersion, Buffer.from(p.archive), p.uploadedAt, next + i + 1).changes > 0)
        added.push(p.packageId);
    });
    return added;
  }

  insertDar(mainPackageId: string, name: string, version: string, packageIds: string[], uploadedAt: string): void {
    this.db
      .prepare('INSERT OR IGNORE INTO lf_dars (main_package_id, name, version, package_ids, uploaded_at) VALUES (?, ?, ?, ?, ?)')
      .run(mainPackageId, name, version, JSON.stringify(packageIds), uploadedAt);
  }

  vetting(): VettingState {
    const out: VettingState = new Map();
    const rows = this.db.prepare('SELECT synchronizer_id, package_id, valid_from, valid_until FROM package_vetting').all() as {
      synchronizer_id: string;
      package_id: string;
      valid_from: string | null;
      valid_until: string | null;
    }[];
    for (const r of rows) {
      let m = out.get(r.synchronizer_id);
      if (!m) out.set(r.synchronizer_id, (m = new Map<string, VettingBounds>()));
      m.set(r.package_id, { validFrom: r.valid_from, validUntil: r.valid_until });
    }
    return out;
  }

  serials(): Map<string, number> {
    const rows = this.db.prepare('SELECT synchronizer_id, serial FROM package_vetting_serial').all() as {
      synchronizer_id: string;
      serial: number;
    }[];
    return new Map(rows.map((r) => [r.synchronizer_id, r.serial]));
  }

  /** Replaces the vetting state of one synchronizer and records its new serial. */
  writeVetting(synchronizerId: string, state: Map<string, VettingBounds>, serial: number): void {
    this.db.prepare('DELETE FROM package_vetting WHERE synchronizer_id = ?').run(synchronizerId);
    const ins = this.db.prepare('INSERT INTO package_vetting (synchronizer_id, package_id, valid_from, valid_until) VALUES (?, ?, ?, ?)');
    for (const [id, b] of state) ins.run(synchronizerId, id, b.validFrom, b.validUntil);
    this.db
      .prepare(
        'INSERT INTO package_vetting_serial (synchronizer_id, serial) VALUES (?, ?) ' +
          'ON CONFLICT(synchronizer_id) DO UPDATE SET serial = excluded.serial',
      )
      .run(synchronizerId, serial);
  }

  /** Marks built-in package ids as seen; returns those seen for the first time (to be vetted by default). */
  markBuiltinsSeen(ids: string[]): string[] {
    const ins = this.db.prepare('INSERT OR IGNORE INTO package_builtin_seen (package_id) VALUES (?)');
    return ids.filter((id) => ins.run(id).changes > 0);
  }
}
