/** Key/value metadata (participant id, ledger end, pruning, static time). */
import type { Db } from './open.js';

export class MetaStore {
  private readonly getStmt;
  private readonly setStmt;
  constructor(db: Db) {
    this.getStmt = db.prepare('SELECT value FROM meta WHERE key = ?');
    this.setStmt = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  }
  get(key: string): string | undefined {
    const row = this.getStmt.get(key) as { value: string } | undefined;
    return row?.value;
  }
  set(key: string, value: string): void {
    this.setStmt.run(key, value);
  }
  getOrInit(key: string, init: () => string): string {
    const v = this.get(key);
    if (v !== undefined) return v;
    const nv = init();
    this.set(key, nv);
    return nv;
  }
  getNumber(key: string, dflt: number): number {
    const v = this.get(key);
    return v === undefined ? dflt : Number(v);
  }
}
