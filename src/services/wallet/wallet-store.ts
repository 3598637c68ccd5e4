/**
 * What the console remembers about wallets, in its own SQLite database (never tokens or keys):
 *  - balance samples per (profile, wallet user) for the balance chart — the validator API has no balance history;
 *  - the tracking ids of offers and traffic purchases this console sent, so their status can be followed live.
 */
import type { AppDb } from '../app-db.js';

/** Tracked requests whose status is re-read on each refresh. */
export const LIVE_TRACKED = 20;
/** Samples kept per wallet user; older ones are dropped. */
const MAX_SAMPLES = 2_000;
/** An unchanged balance is sampled again only after this long, so the chart shows time passing without flooding. */
const RESAMPLE_UNCHANGED_MS = 5 * 60_000;

export interface StoredSample {
  at: string;
  unlocked: string;
  locked: string;
  source: 'sample' | 'history';
}

export interface TrackedRow {
  kind: 'offer' | 'traffic';
  trackingId: string;
  summary: string;
  createdAt: string;
}

export class WalletStore {
  constructor(private readonly db: AppDb) {}

  samples(profileId: string, user: string): StoredSample[] {
    return this.db
      .prepare(
        'SELECT at, unlocked, locked, source FROM wallet_balance_samples WHERE profile_id = ? AND wallet_user = ? ORDER BY at, rowid',
      )
      .all(profileId, user) as StoredSample[];
  }

  hasSamples(profileId: string, user: string): boolean {
    return (
      this.db.prepare('SELECT 1 FROM wallet_balance_samples WHERE profile_id = ? AND wallet_user = ? LIMIT 1').get(profileId, user) !==
      undefined
    );
  }

  /** Records a sample unless the last one has the same amounts and is recent. Returns whether it was stored. */
  record(profileId: string, user: string, sample: Omit<StoredSample, 'source'>, now = Date.now()): boolean {
    const last = this.db
      .prepare(
        "SELECT at, unlocked, locked FROM wallet_balance_samples WHERE profile_id = ? AND wallet_user = ? AND source = 'sample' " +
          'ORDER BY at DESC, rowid DESC LIMIT 1',
      )
      .get(profileId, user) as { at: string; unlocked: string; locked: string } | undefined;
    if (last && last.unlocked === sample.unlocked && last.locked === sample.locked && now - Date.parse(last.at) < RESAMPLE_UNCHANGED_MS)
      return false;
    this.insert(profileId, user, { ...sample, source: 'sample' });
    return true;
  }

  /** Points reconstructed from the transaction history, stored once before the first real sample. */
  backfill(profileId: string, user: string, points: Array<Omit<StoredSample, 'source'>>): void {
    const tx = this.db.transaction(() => {
      for (const p of points) this.insert(profileId, user, { ...p, source: 'history' });
    });
    tx();
  }

  private insert(profileId: string, user: string, s: StoredSample): void {
    this.db
      .prepare('INSERT INTO wallet_balance_samples (profile_id, wallet_user, at, unlocked, locked, source) VALUES (?, ?, ?, ?, ?, ?)')
      .run(profileId, user, s.at, s.unlocked, s.locked, s.source);
    this.db
      .prepare(
        `DELETE FROM wallet_balance_samples WHERE profile_id = ? AND wallet_user = ? AND rowid NOT IN
           (SELECT rowid FROM wallet_balance_samples WHERE profile_id = ? AND wallet_user = ?
            ORDER BY at DESC, rowid DESC LIMIT ${MAX_SAMPLES})`,
      )
      .run(profileId, user, profileId, user);
  }

  track(profileId: string, user: string, row: TrackedRow): void {
    this.db
      .prepare(
        'INSERT OR IGNORE INTO wallet_tracked (profile_id, wallet_user, kind, tracking_id, summary, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(profileId, user, row.kind, row.trackingId, row.summary, row.createdAt);
  }

  tracked(profileId: string, user: string, kind: TrackedRow['kind'], limit = 50): TrackedRow[] {
    return this.db
      .prepare(
        'SELECT kind, tracking_id AS trackingId, summary, created_at AS createdAt FROM wallet_tracked ' +
          'WHERE profile_id = ? AND wallet_user = ? AND kind = ? ORDER BY created_at DESC LIMIT ?',
      )
      .all(profileId, user, kind, limit) as TrackedRow[];
  }
}
