/** Connection profiles on a real SQLite file with tokens in the real OS keychain (Secret Service). */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { Entry } from '@napi-rs/keyring';
import { openAppDb, type AppDb } from '../../src/services/app-db.js';
import { ProfileService } from '../../src/services/profiles.js';
import { KeychainSecretStore } from '../../src/services/secret-store.js';
import { REPO_ROOT } from '../support/console-process.js';

const SERVICE = `canton-console-test-profiles-${process.pid}-${Date.now()}`;
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.secret-token-value-123';
let dir: string;
let db: AppDb;
let service: ProfileService;
const created: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'profiles-'));
  db = openAppDb(dir);
  service = new ProfileService(db, new KeychainSecretStore(SERVICE), 'http://127.0.0.1:1234');
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  for (const id of created) new Entry(SERVICE, `profile:${id}:bearer-token`).deletePassword();
});

function allFileBytes(d: string): string {
  return readdirSync(d)
    .map((f) => readFileSync(path.join(d, f)).toString('latin1'))
    .join('');
}

describe('connection profiles', () => {
  it('lists the demo profile first and makes it active by default', () => {
    expect(service.list()).toEqual([expect.objectContaining({ id: 'demo', kind: 'demo', ledgerApiUrl: 'http://127.0.0.1:1234' })]);
    expect(service.activeId()).toBe('demo');
  });

  it('stores the bearer token in the OS keychain only, never in SQLite', async () => {
    const p = await service.save({
      name: 'Prod',
      ledgerApiUrl: 'https://p1.example.com/',
      validatorApiUrl: null,
      auth: { mode: 'static', token: TOKEN },
    });
    created.push(p.id);
    expect(p).toMatchObject({ kind: 'remote', auth: { mode: 'static', hasToken: true }, ledgerApiUrl: 'https://p1.example.com' });
    expect(new Entry(SERVICE, `profile:${p.id}:bearer-token`).getPassword()).toBe(TOKEN);
    expect(await service.token(p.id)).toBe(TOKEN);
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(allFileBytes(dir)).not.toContain('secret-token-value');
    expect(JSON.stringify(service.list())).not.toContain('secret-token-value');
  });

  it('keeps the token on edit without one, removes it with null and on delete', async () => {
    const p = await service.save({
      name: 'A',
      ledgerApiUrl: 'http://a.example',
      validatorApiUrl: null,
      auth: { mode: 'static', token: TOKEN },
    });
    created.push(p.id);
    const edited = await service.save({ id: p.id, name: 'A2', ledgerApiUrl: 'http://a.example', validatorApiUrl: null });
    expect(edited).toMatchObject({ name: 'A2', auth: { mode: 'static', hasToken: true } });
    const cleared = await service.save({
      id: p.id,
      name: 'A2',
      ledgerApiUrl: 'http://a.example',
      validatorApiUrl: null,
      auth: { mode: 'none' },
    });
    expect(cleared.auth).toEqual({ mode: 'none' });
    expect(new Entry(SERVICE, `profile:${p.id}:bearer-token`).getPassword()).toBeNull();

    const q = await service.save({
      name: 'B',
      ledgerApiUrl: 'http://b.example',
      validatorApiUrl: null,
      auth: { mode: 'static', token: TOKEN },
    });
    created.push(q.id);
    expect(await service.delete(q.id)).toBe(true);
    expect(new Entry(SERVICE, `profile:${q.id}:bearer-token`).getPassword()).toBeNull();
    expect(service.list().map((x) => x.id)).toEqual(['demo', p.id]);
  });

  it('persists profiles and the selection across restarts', async () => {
    const p = await service.save({
      name: 'Persisted',
      ledgerApiUrl: 'http://c.example',
      validatorApiUrl: 'http://c.example/api/validator',
    });
    service.select(p.id);
    db.close();
    db = openAppDb(dir);
    service = new ProfileService(db, new KeychainSecretStore(SERVICE), null);
    expect(service.activeId()).toBe(p.id);
    expect(service.list()).toEqual([expect.objectContaining({ name: 'Persisted', validatorApiUrl: 'http://c.example/api/validator' })]);
  });

  it('refuses to edit or delete the demo profile and unknown ids', async () => {
    await expect(service.save({ id: 'demo', name: 'x', ledgerApiUrl: 'http://x', validatorApiUrl: null })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(service.delete('demo')).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(service.save({ id: 'nope', name: 'x', ledgerApiUrl: 'http://x', validatorApiUrl: null })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(() => service.select('nope')).toThrow(/No connection profile/);
  });

  it('says clearly when no keychain is reachable, and writes nothing', () => {
    const script = `
      import { openAppDb } from './src/services/app-db.ts';
      import { ProfileService } from './src/services/profiles.ts';
      import { KeychainSecretStore } from './src/services/secret-store.ts';
      const db = openAppDb(process.argv[1]);
      const s = new ProfileService(db, new KeychainSecretStore('${SERVICE}'), null);
      try {
        await s.save({ name: 'X', ledgerApiUrl: 'http://x', validatorApiUrl: null, auth: { mode: 'static', token: 'abc' } });
        console.log('SAVED');
      }
      catch (e) { console.log(e.code + ' ' + e.message); }
      console.log('COUNT ' + s.list().length);`;
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir], {
      cwd: REPO_ROOT,
      env,
      encoding: 'utf8',
    });
    expect(out).toMatch(/^KEYCHAIN_UNAVAILABLE OS keychain write failed/m);
    expect(out).toContain('COUNT 0');
  });
});
