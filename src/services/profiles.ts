/**
 * Connection profiles: the built-in demo profile (embedded simulator, present only in demo mode)
 * and remote participants persisted in SQLite. Bearer tokens go to the SecretStore, never SQLite.
 */
import { randomUUID } from 'node:crypto';
import { ConsoleError } from '../ipc/errors.js';
import type { Profile, SaveProfileRequest } from '../ipc/contract.js';
import type { AppDb } from './app-db.js';
import type { SecretStore } from './secret-store.js';

export const DEMO_PROFILE_ID = 'demo';

interface ProfileRow {
  id: string;
  name: string;
  ledger_api_url: string;
  validator_api_url: string | null;
  has_token: number;
}

const tokenAccount = (id: string) => `profile:${id}:bearer-token`;

export class ProfileService {
  constructor(
    private readonly db: AppDb,
    private readonly secrets: SecretStore,
    /** URL of the embedded simulator in demo mode, else null (no demo profile). */
    private readonly demoUrl: string | null,
  ) {}

  private demoProfile(): Profile | null {
    if (!this.demoUrl) return null;
    return {
      id: DEMO_PROFILE_ID,
      name: 'Demo — embedded simulator',
      kind: 'demo',
      ledgerApiUrl: this.demoUrl,
      validatorApiUrl: `${this.demoUrl}/api/validator`,
      hasToken: false,
    };
  }

  list(): Profile[] {
    const rows = this.db.prepare('SELECT * FROM profiles ORDER BY created_at, id').all() as ProfileRow[];
    const remote = rows.map((r): Profile => ({
      id: r.id,
      name: r.name,
      kind: 'remote',
      ledgerApiUrl: r.ledger_api_url,
      validatorApiUrl: r.validator_api_url,
      hasToken: r.has_token === 1,
    }));
    const demo = this.demoProfile();
    return demo ? [demo, ...remote] : remote;
  }

  get(id: string): Profile {
    const p = this.list().find((x) => x.id === id);
    if (!p) throw new ConsoleError('NOT_FOUND', `No connection profile with id "${id}"`);
    return p;
  }

  activeId(): string | null {
    const row = this.db.prepare("SELECT value FROM settings WHERE key = 'activeProfile'").get() as { value: string } | undefined;
    const all = this.list();
    if (row && all.some((p) => p.id === row.value)) return row.value;
    return all[0]?.id ?? null;
  }

  active(): Profile {
    const id = this.activeId();
    if (!id) throw new ConsoleError('NOT_FOUND', 'No connection profile: add a remote participant under Connections');
    return this.get(id);
  }

  select(id: string): Profile {
    const p = this.get(id);
    this.db.prepare("INSERT INTO settings (key, value) VALUES ('activeProfile', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(id);
    return p;
  }

  async save(req: SaveProfileRequest): Promise<Profile> {
    if (req.id === DEMO_PROFILE_ID) throw new ConsoleError('CONFLICT', 'The demo profile is built in and cannot be edited');
    const existing = req.id ? (this.db.prepare('SELECT * FROM profiles WHERE id = ?').get(req.id) as ProfileRow | undefined) : undefined;
    if (req.id && !existing) throw new ConsoleError('NOT_FOUND', `No connection profile with id "${req.id}"`);
    const id = req.id ?? randomUUID();
    // Keychain first: if it is unavailable nothing is written and the error says why.
    let hasToken = existing?.has_token === 1;
    if (req.token === null) {
      await this.secrets.delete(tokenAccount(id));
      hasToken = false;
    } else if (typeof req.token === 'string') {
      await this.secrets.set(tokenAccount(id), req.token);
      hasToken = true;
    }
    this.db
      .prepare(
        `INSERT INTO profiles (id, name, ledger_api_url, validator_api_url, has_token, created_at)
         VALUES (@id, @name, @ledger, @validator, @hasToken, @createdAt)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, ledger_api_url = excluded.ledger_api_url,
           validator_api_url = excluded.validator_api_url, has_token = excluded.has_token`,
      )
      .run({
        id,
        name: req.name,
        ledger: req.ledgerApiUrl.replace(/\/+$/, ''),
        validator: req.validatorApiUrl?.replace(/\/+$/, '') ?? null,
        hasToken: hasToken ? 1 : 0,
        createdAt: new Date().toISOString(),
      });
    return this.get(id);
  }

  async delete(id: string): Promise<boolean> {
    if (id === DEMO_PROFILE_ID) throw new ConsoleError('CONFLICT', 'The demo profile is built in and cannot be deleted');
    const row = this.db.prepare('SELECT has_token FROM profiles WHERE id = ?').get(id) as { has_token: number } | undefined;
    if (!row) return false;
    if (row.has_token === 1) await this.secrets.delete(tokenAccount(id));
    this.db.prepare('DELETE FROM profiles WHERE id = ?').run(id);
    return true;
  }

  /** Token for outgoing requests only; it never leaves the main process. */
  async token(id: string): Promise<string | null> {
    const p = this.get(id);
    return p.hasToken ? this.secrets.get(tokenAccount(id)) : null;
  }
}
