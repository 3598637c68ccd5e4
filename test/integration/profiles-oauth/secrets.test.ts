/**
 * OAuth2 client-credentials profiles' configuration through the real composition (contract router, SQLite on disk,
 * the real OS keychain; participant.ts): the client secret only in the keychain, refused incomplete profiles, the
 * secret asked again before it goes to another origin, mode switches cleaning the keychain, and the migration of
 * token profiles to `static`. Using the obtained tokens with the participant: tokens.test.ts.
 */
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Entry } from '@napi-rs/keyring';
import { openAppDb } from '../../../src/services/app-db.js';
import { ProfileService } from '../../../src/services/profiles.js';
import { KeychainSecretStore } from '../../../src/services/secret-store.js';
import { stringContaining } from '../../support/matchers.js';
import { AUDIENCE, CLIENT_SECRET, useOAuthParticipant } from './participant.js';

const env = useOAuthParticipant('oauth-secrets');
const { call, callError, oauthProfile, keychain, forget, adminToken } = env;

describe('OAuth2 client-credentials profiles: configuration and secrets', () => {
  it('stores the client secret only in the OS keychain and returns only the non-secret config', async () => {
    const p = await call('profiles.save', oauthProfile());
    expect(p.auth).toEqual({
      mode: 'oauth2-client-credentials',
      tokenUrl: env.idp.tokenUrl,
      clientId: 'console',
      audience: AUDIENCE,
      scope: null,
      clientAuthMethod: 'client_secret_post',
      hasClientSecret: true,
      secretStore: 'os-keychain',
    });
    expect(keychain(`profile:${p.id}:oauth2-client-secret`)).toBe(CLIENT_SECRET);
    expect(JSON.stringify(await call('profiles.list', {}))).not.toContain(CLIENT_SECRET);
    const db = new Database(path.join(env.dir, 'console.sqlite'));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readdirSync(env.dir)
      .filter((f) => f.startsWith('console.sqlite'))
      .map((f) => readFileSync(path.join(env.dir, f)).toString('latin1'))
      .join('');
    expect(bytes).toContain(env.idp.tokenUrl);
    expect(bytes).not.toContain(CLIENT_SECRET);
    await call('profiles.delete', { id: p.id });
    expect(keychain(`profile:${p.id}:oauth2-client-secret`)).toBeNull();
  });

  it('refuses a profile without its secret, or with a bad token URL, with field issues and changes nothing', async () => {
    const before = (await call('profiles.list', {})).profiles.length;
    const noSecret = await callError('profiles.save', { ...oauthProfile(), auth: { ...oauthProfile().auth, clientSecret: undefined } });
    expect(noSecret).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'auth.clientSecret' }] });
    const noToken = await callError('profiles.save', { name: 'S', ledgerApiUrl: env.sim.url, auth: { mode: 'static' } });
    expect(noToken).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'auth.token' }] });
    const badUrl = await callError('profiles.save', oauthProfile({ tokenUrl: 'ftp://idp/token', clientId: '' }));
    expect(badUrl.issues?.map((i) => i.path).sort()).toEqual(['auth.clientId', 'auth.tokenUrl']);
    const unknownField = await callError('profiles.save', { ...oauthProfile(), auth: { ...oauthProfile().auth, password: 'x' } } as never);
    expect(unknownField.code).toBe('BAD_REQUEST');
    expect((await call('profiles.list', {})).profiles.length).toBe(before);
  });

  it('asks for the secret again before sending it to another origin', async () => {
    const p = await call('profiles.save', oauthProfile());
    const moved = await callError('profiles.save', {
      id: p.id,
      name: p.name,
      ledgerApiUrl: env.sim.url,
      auth: { ...oauthProfile().auth, clientSecret: undefined, tokenUrl: 'https://env.idp.elsewhere.example/token' },
    });
    expect(moved).toMatchObject({
      code: 'BAD_REQUEST',
      issues: [{ path: 'auth.clientSecret', message: stringContaining('another origin') }],
    });
    expect((await call('profiles.list', {})).profiles.find((x) => x.id === p.id)?.auth).toMatchObject({ tokenUrl: env.idp.tokenUrl });
    // Same origin, other path: the stored secret is kept.
    const samePlace = await call('profiles.save', {
      id: p.id,
      name: p.name,
      ledgerApiUrl: env.sim.url,
      auth: { ...oauthProfile().auth, clientSecret: undefined, tokenUrl: `${env.idp.url}/other` },
    });
    expect(samePlace.auth).toMatchObject({ tokenUrl: `${env.idp.url}/other`, hasClientSecret: true });
    const s = await call('profiles.save', { name: 'Static', ledgerApiUrl: env.sim.url, auth: { mode: 'static', token: adminToken() } });
    const otherParticipant = await callError('profiles.save', {
      id: s.id,
      name: 'Static',
      ledgerApiUrl: 'https://participant.elsewhere.example',
    });
    expect(otherParticipant).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'auth.token' }] });
    forget(`profile:${s.id}:bearer-token`, `profile:${p.id}:oauth2-client-secret`);
    await call('profiles.delete', { id: p.id });
    await call('profiles.delete', { id: s.id });
  });

  it('switching modes deletes the secret the new mode does not use', async () => {
    const p = await call('profiles.save', oauthProfile());
    const kept = await call('profiles.save', { id: p.id, name: 'Renamed', ledgerApiUrl: env.sim.url });
    expect(kept.auth).toMatchObject({ mode: 'oauth2-client-credentials', hasClientSecret: true });
    const toStatic = await call('profiles.save', {
      id: p.id,
      name: 'Renamed',
      ledgerApiUrl: env.sim.url,
      auth: { mode: 'static', token: adminToken() },
    });
    expect(toStatic.auth).toEqual({ mode: 'static', hasToken: true, secretStore: 'os-keychain' });
    expect(keychain(`profile:${p.id}:oauth2-client-secret`)).toBeNull();
    expect(keychain(`profile:${p.id}:bearer-token`)).not.toBeNull();
    expect((await call('profiles.test', { id: p.id })).user).toMatchObject({ status: 'ok', userId: 'participant_admin' });
    const toNone = await call('profiles.save', { id: p.id, name: 'Renamed', ledgerApiUrl: env.sim.url, auth: { mode: 'none' } });
    expect(toNone.auth).toEqual({ mode: 'none' });
    expect(keychain(`profile:${p.id}:bearer-token`)).toBeNull();
    const t = await call('profiles.test', { id: p.id });
    expect(t).toMatchObject({ ok: false, token: { status: 'ok', source: 'none', expiresAt: null } });
    expect(t.ledger.status === 'ok' ? t.user : t.ledger).toMatchObject({ status: 'failed', error: { canton: { httpStatus: 401 } } });
    await call('profiles.delete', { id: p.id });
  });
});

describe('migration of existing profiles', () => {
  it('turns token profiles into `static` and the others into `none`, keeping the stored token', async () => {
    const old = mkdtempSync(path.join(os.tmpdir(), 'profiles-migrate-'));
    try {
      // A database from before authentication modes: schema version 1 (profiles with has_token, settings).
      const raw = new Database(path.join(old, 'console.sqlite'));
      raw.exec(`CREATE TABLE profiles (id TEXT PRIMARY KEY, name TEXT NOT NULL, ledger_api_url TEXT NOT NULL, validator_api_url TEXT,
                  has_token INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL);
                CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                INSERT INTO profiles VALUES ('with-token', 'With', 'http://a.example', NULL, 1, '2025-01-01');
                INSERT INTO profiles VALUES ('without', 'Without', 'http://b.example', NULL, 0, '2025-01-02');`);
      raw.pragma('user_version = 1');
      raw.close();
      const id = 'with-token';
      forget(`profile:${id}:bearer-token`);
      new Entry(env.service, `profile:${id}:bearer-token`).setPassword('legacy-token');
      const db = openAppDb(old);
      try {
        const profiles = new ProfileService(db, new KeychainSecretStore(env.service), null);
        expect(profiles.list().map((p) => [p.id, p.auth])).toEqual([
          ['with-token', { mode: 'static', hasToken: true, secretStore: 'os-keychain' }],
          ['without', { mode: 'none' }],
        ]);
        expect(await profiles.token(id)).toBe('legacy-token');
        expect(await profiles.token('without')).toBeNull();
      } finally {
        db.close();
      }
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });
});
