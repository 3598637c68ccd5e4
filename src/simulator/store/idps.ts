/**
 * Identity provider configurations (`/v2/idps`), stored in their own table of the simulator
 * database (created on first use, so older data directories keep working).
 */
import type { Db } from './open.js';

export interface IdpRow {
  identityProviderId: string;
  issuer: string;
  jwksUrl: string;
  audience: string;
  isDeactivated: boolean;
}

interface DbRow {
  id: string;
  issuer: string;
  jwks_url: string;
  audience: string;
  is_deactivated: number;
}

const toRow = (r: DbRow): IdpRow => ({
  identityProviderId: r.id,
  issuer: r.issuer,
  jwksUrl: r.jwks_url,
  audience: r.audience,
  isDeactivated: r.is_deactivated !== 0,
});

export class IdpStore {
  private readonly s;

  constructor(private readonly db: Db) {
    db.exec(`CREATE TABLE IF NOT EXISTS identity_provider_configs (
      id TEXT PRIMARY KEY,
      issuer TEXT NOT NULL,
      jwks_url TEXT NOT NULL,
      audience TEXT NOT NULL DEFAULT '',
      is_deactivated INTEGER NOT NULL DEFAULT 0,
      created_seq INTEGER NOT NULL
    )`);
    this.s = {
      list: db.prepare('SELECT * FROM identity_provider_configs ORDER BY created_seq, id'),
      get: db.prepare('SELECT * FROM identity_provider_configs WHERE id = ?'),
      byIssuer: db.prepare('SELECT * FROM identity_provider_configs WHERE issuer = ?'),
      count: db.prepare('SELECT COUNT(*) AS n FROM identity_provider_configs'),
      nextSeq: db.prepare('SELECT COALESCE(MAX(created_seq), 0) + 1 AS seq FROM identity_provider_configs'),
      insert: db.prepare(
        'INSERT INTO identity_provider_configs (id, issuer, jwks_url, audience, is_deactivated, created_seq) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      update: db.prepare('UPDATE identity_provider_configs SET issuer = ?, jwks_url = ?, audience = ?, is_deactivated = ? WHERE id = ?'),
      delete: db.prepare('DELETE FROM identity_provider_configs WHERE id = ?'),
    };
  }

  list(): IdpRow[] {
    return (this.s.list.all() as DbRow[]).map(toRow);
  }
  get(id: string): IdpRow | undefined {
    const r = this.s.get.get(id) as DbRow | undefined;
    return r ? toRow(r) : undefined;
  }
  byIssuer(issuer: string): IdpRow | undefined {
    const r = this.s.byIssuer.get(issuer) as DbRow | undefined;
    return r ? toRow(r) : undefined;
  }
  count(): number {
    return (this.s.count.get() as { n: number }).n;
  }

  /** Inserts unless `check` throws; check and insert run in one immediate transaction. */
  insert(row: IdpRow, check: () => void): void {
    this.db
      .transaction(() => {
        check();
        const seq = (this.s.nextSeq.get() as { seq: number }).seq;
        this.s.insert.run(row.identityProviderId, row.issuer, row.jwksUrl, row.audience, row.isDeactivated ? 1 : 0, seq);
      })
      .immediate();
  }
  update(row: IdpRow): void {
    this.s.update.run(row.issuer, row.jwksUrl, row.audience, row.isDeactivated ? 1 : 0, row.identityProviderId);
  }
  delete(id: string): boolean {
    return this.s.delete.run(id).changes > 0;
  }
}

const stores = new WeakMap<Db, IdpStore>();
/** The IDP store of a simulator database (one per open database). */
export function idpStore(db: Db): IdpStore {
  let s = stores.get(db);
  if (!s) stores.set(db, (s = new IdpStore(db)));
  return s;
}
