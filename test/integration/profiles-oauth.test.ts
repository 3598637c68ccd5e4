/**
 * OAuth2 client-credentials profiles through the real composition (startConsoleApp: contract router,
 * SQLite on disk, the real OS keychain) against the simulator started with HS256 JWT auth and a local
 * OAuth2 token endpoint that signs its tokens with the simulator's secret. Also: the migration of
 * token profiles to `static`, mode switches cleaning the keychain, "Test connection", the one retry
 * after a 401, the WebSocket stream authenticated with the obtained token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Entry } from '@napi-rs/keyring';
import { startConsoleApp, type ConsoleApp } from '../../src/app/console-app.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { openAppDb } from '../../src/services/app-db.js';
import { ProfileService } from '../../src/services/profiles.js';
import { KeychainSecretStore } from '../../src/services/secret-store.js';
import type { ChannelName, Request, Response, SubscriptionEvent } from '../../src/ipc/contract.js';
import type { IpcError } from '../../src/ipc/errors.js';
import { startDownloads, type Downloads } from '../support/exports.js';
import { arrayContaining, stringContaining, stringMatching } from '../support/matchers.js';
import { must } from '../support/must.js';
import { signHs256, startOAuth2Server, type RunningOAuth2Server } from '../support/oauth2-server.js';

const SERVICE = `canton-console-test-oauth-${process.pid}-${Date.now()}`;
const JWT_SECRET = 'simulator-and-idp-shared-hs256-secret';
const AUDIENCE = 'https://daml.com/jwt/aud/participant/sim-oauth-test';
const CLIENT_SECRET = 'oauth-client-secret-7c1e9a';
const USER = 'ops-user';

let dir: string;
let simDir: string;
let sim: RunningSimulator;
let idp: RunningOAuth2Server;
let app: ConsoleApp;
let downloads: Downloads;
let party: string;
const accounts: string[] = [];

const adminToken = () => signHs256({ sub: 'participant_admin', aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 }, JWT_SECRET);
async function simAdmin<T>(p: string, body: unknown): Promise<T> {
  const res = await fetch(sim.url + p, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken()}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function call<C extends ChannelName>(channel: C, req: Request<C>): Promise<Response<C>> {
  const r = await app.router.invoke(channel, req);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
  return r.value as Response<C>;
}
async function callError<C extends ChannelName>(channel: C, req: Request<C>): Promise<IpcError> {
  const r = await app.router.invoke(channel, req);
  if (r.ok) throw new Error(`${channel} unexpectedly succeeded`);
  return r.error;
}

function oauthProfile(extra: Partial<Extract<NonNullable<Request<'profiles.save'>['auth']>, { mode: 'oauth2-client-credentials' }>> = {}) {
  return {
    name: 'JWT participant',
    ledgerApiUrl: sim.url,
    auth: {
      mode: 'oauth2-client-credentials' as const,
      tokenUrl: idp.tokenUrl,
      clientId: 'console',
      audience: AUDIENCE,
      clientSecret: CLIENT_SECRET,
      ...extra,
    },
  };
}
const keychain = (account: string) => {
  accounts.push(account);
  return new Entry(SERVICE, account).getPassword();
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'profiles-oauth-'));
  simDir = mkdtempSync(path.join(os.tmpdir(), 'profiles-oauth-sim-'));
  sim = await startSimulator({ dataDir: simDir, port: 0, auth: { mode: 'hs256', secret: JWT_SECRET, audience: AUDIENCE } });
  idp = await startOAuth2Server({ clients: { console: { secret: CLIENT_SECRET, subject: USER } }, signingSecret: JWT_SECRET });
  party = (await simAdmin<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: `OAuthOps${Date.now()}` })).partyDetails.party;
  await simAdmin('/v2/users', {
    user: { id: USER, primaryParty: party, isDeactivated: false, identityProviderId: '' },
    // The dashboard reads participant-wide state (participant admins only); a party-wildcard update
    // stream needs CanReadAsAnyParty.
    rights: [
      { kind: { CanActAs: { value: { party } } } },
      { kind: { CanReadAs: { value: { party } } } },
      { kind: { ParticipantAdmin: { value: {} } } },
      { kind: { CanReadAsAnyParty: { value: {} } } },
    ],
  });
  downloads = await startDownloads();
  app = await startConsoleApp({
    dataDir: dir,
    demo: false,
    transport: 'browser-host',
    keychainService: SERVICE,
    exportSink: downloads.sink,
  });
});
afterAll(async () => {
  // unassigned when beforeAll failed before starting them
  const started: Array<{ close(): Promise<void> } | undefined> = [app, sim, idp, downloads];
  for (const s of started) await s?.close();
  for (const a of new Set(accounts)) new Entry(SERVICE, a).deletePassword();
  rmSync(dir, { recursive: true, force: true });
  rmSync(simDir, { recursive: true, force: true });
});

describe('OAuth2 client-credentials profiles', () => {
  it('stores the client secret only in the OS keychain and returns only the non-secret config', async () => {
    const p = await call('profiles.save', oauthProfile());
    expect(p.auth).toEqual({
      mode: 'oauth2-client-credentials',
      tokenUrl: idp.tokenUrl,
      clientId: 'console',
      audience: AUDIENCE,
      scope: null,
      clientAuthMethod: 'client_secret_post',
      hasClientSecret: true,
      secretStore: 'os-keychain',
    });
    expect(keychain(`profile:${p.id}:oauth2-client-secret`)).toBe(CLIENT_SECRET);
    expect(JSON.stringify(await call('profiles.list', {}))).not.toContain(CLIENT_SECRET);
    const db = new Database(path.join(dir, 'console.sqlite'));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readdirSync(dir)
      .filter((f) => f.startsWith('console.sqlite'))
      .map((f) => readFileSync(path.join(dir, f)).toString('latin1'))
      .join('');
    expect(bytes).toContain(idp.tokenUrl);
    expect(bytes).not.toContain(CLIENT_SECRET);
    await call('profiles.delete', { id: p.id });
    expect(keychain(`profile:${p.id}:oauth2-client-secret`)).toBeNull();
  });

  it('refuses a profile without its secret, or with a bad token URL, with field issues and changes nothing', async () => {
    const before = (await call('profiles.list', {})).profiles.length;
    const noSecret = await callError('profiles.save', { ...oauthProfile(), auth: { ...oauthProfile().auth, clientSecret: undefined } });
    expect(noSecret).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'auth.clientSecret' }] });
    const noToken = await callError('profiles.save', { name: 'S', ledgerApiUrl: sim.url, auth: { mode: 'static' } });
    expect(noToken).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'auth.token' }] });
    const badUrl = await callError('profiles.save', oauthProfile({ tokenUrl: 'ftp://idp/token', clientId: '' }));
    expect(badUrl.issues?.map((i) => i.path).sort()).toEqual(['auth.clientId', 'auth.tokenUrl']);
    const unknownField = await callError('profiles.save', { ...oauthProfile(), auth: { ...oauthProfile().auth, password: 'x' } } as never);
    expect(unknownField.code).toBe('BAD_REQUEST');
    expect((await call('profiles.list', {})).profiles.length).toBe(before);
  });

  it('reaches the JWT-protected participant with an obtained token, caching it across requests', async () => {
    const p = await call('profiles.save', oauthProfile());
    await call('profiles.select', { id: p.id });
    idp.requests.length = 0;
    const snap = await call('dashboard.snapshot', {});
    expect(snap.participantId).toBe(sim.participantId);
    await call('dashboard.snapshot', {});
    expect(idp.requests).toEqual([
      expect.objectContaining({ clientId: 'console', clientAuth: 'post', audience: AUDIENCE, outcome: 'issued' }),
    ]);

    // Without a token the same participant refuses: the token really is what lets the console in.
    const res = await fetch(`${sim.url}/v2/authenticated-user`);
    expect(res.status).toBe(401);
    await call('profiles.delete', { id: p.id });
  });

  it('tests the connection: token and expiry, API version, authenticated user, rights', async () => {
    const p = await call('profiles.save', oauthProfile({ clientAuthMethod: 'client_secret_basic' }));
    idp.requests.length = 0;
    const before = Date.now();
    const t = await call('profiles.test', { id: p.id });
    expect(t.ok).toBe(true);
    expect(idp.requests).toEqual([expect.objectContaining({ clientAuth: 'basic' })]);
    expect(t.token).toMatchObject({ status: 'ok', source: 'oauth2-client-credentials' });
    if (t.token.status !== 'ok') throw new Error('unreachable');
    expect(Date.parse(t.token.expiresAt ?? '')).toBeGreaterThanOrEqual(before + 3_590_000);
    expect(t.ledger).toMatchObject({ status: 'ok', apiVersion: stringMatching(/^3\./) });
    expect(t.user).toEqual({ status: 'ok', userId: USER, primaryParty: party, isDeactivated: false, identityProviderId: '' });
    expect(t.rights).toEqual({
      status: 'ok',
      rights: arrayContaining([{ kind: 'CanActAs', party }, { kind: 'CanReadAs', party }, { kind: 'ParticipantAdmin' }]),
    });
    expect(JSON.stringify(t)).not.toContain(idp.issued.at(-1));
    await call('profiles.delete', { id: p.id });
  });

  it('reports a refused client secret as a failed token step (AUTH_FAILED, invalid_client) and skips the rest', async () => {
    const p = await call('profiles.save', oauthProfile({ clientSecret: 'not-the-secret' }));
    const t = await call('profiles.test', { id: p.id });
    expect(t).toMatchObject({
      ok: false,
      token: { status: 'failed', error: { code: 'AUTH_FAILED', canton: { code: 'invalid_client', httpStatus: 401 } } },
      ledger: { status: 'skipped' },
      user: { status: 'skipped' },
      rights: { status: 'skipped' },
    });
    await call('profiles.select', { id: p.id });
    expect(await callError('dashboard.snapshot', {})).toMatchObject({ code: 'AUTH_FAILED' });
    // Fixing only the secret (config kept) makes it work: the cached provider is dropped on save.
    await call('profiles.save', { id: p.id, name: p.name, ledgerApiUrl: sim.url, auth: { ...oauthProfile().auth } });
    expect((await call('profiles.test', { id: p.id })).ok).toBe(true);
    await call('profiles.delete', { id: p.id });
  });

  it('after a 401 from the participant obtains a new token and retries once', async () => {
    const p = await call('profiles.save', oauthProfile());
    await call('profiles.select', { id: p.id });
    // The endpoint first hands out a token the participant cannot verify (as after a key rotation).
    const forged = signHs256({ sub: USER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 3600 }, 'some-other-key');
    idp.failNext({ kind: 'status', status: 200, body: { access_token: forged, token_type: 'Bearer', expires_in: 3600 } });
    idp.requests.length = 0;
    const snap = await call('dashboard.snapshot', {});
    expect(snap.participantId).toBe(sim.participantId);
    expect(idp.requests).toHaveLength(2);
    await call('profiles.delete', { id: p.id });
  });

  it('opens the participant WebSocket with the obtained token (daml.ws.auth subprotocol)', async () => {
    const p = await call('profiles.save', oauthProfile());
    await call('profiles.select', { id: p.id });
    const events: SubscriptionEvent<'updates.stream'>[] = [];
    const sub = app.router.subscribe(
      'updates.stream',
      { streamId: 'oauth-stream-1', filter: { includeTopology: true }, beginExclusive: null, backlog: 0 },
      (e) => events.push(e as SubscriptionEvent<'updates.stream'>),
    );
    if (!sub.ok) throw new Error(sub.error.message);
    try {
      await expect
        .poll(() => events.find((e) => e.type === 'state' && e.state === 'live') ?? events.find((e) => e.type === 'error'), {
          timeout: 10_000,
        })
        .toMatchObject({
          type: 'state',
          state: 'live',
        });
      // The participant authorized the stream with that token: a new update arrives.
      await simAdmin('/v2/parties', { partyIdHint: `StreamSeen${Date.now()}` });
      await expect.poll(() => events.flatMap((e) => (e.type === 'batch' ? e.items : [])).length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(events.filter((e) => e.type === 'error')).toEqual([]);
    } finally {
      sub.unsubscribe();
      await call('profiles.delete', { id: p.id });
    }
  });

  it('reconnects the participant WebSocket once with a new token after the participant refuses the token', async () => {
    const p = await call('profiles.save', oauthProfile());
    await call('profiles.select', { id: p.id });
    const forged = signHs256({ sub: USER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 3600 }, 'rotated-away-key');
    idp.failNext({ kind: 'status', status: 200, body: { access_token: forged, token_type: 'Bearer', expires_in: 3600 } });
    idp.requests.length = 0;
    const events: SubscriptionEvent<'updates.stream'>[] = [];
    // beginExclusive given: no HTTP request precedes the socket, so the socket is what meets the forged token.
    const sub = app.router.subscribe(
      'updates.stream',
      { streamId: 'oauth-stream-2', filter: { includeTopology: true }, beginExclusive: 0 },
      (e) => events.push(e as SubscriptionEvent<'updates.stream'>),
    );
    if (!sub.ok) throw new Error(sub.error.message);
    try {
      // The simulator refuses the forged token with UNAUTHENTICATED; the stream gets a new token and reconnects.
      await expect.poll(() => idp.requests.length, { timeout: 10_000 }).toBe(2);
      await simAdmin('/v2/parties', { partyIdHint: `AfterReconnect${Date.now()}` });
      await expect.poll(() => events.flatMap((e) => (e.type === 'batch' ? e.items : [])).length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(events.filter((e) => e.type === 'error')).toEqual([]);
      expect(events.filter((e) => e.type === 'state').at(-1)).toMatchObject({ state: 'live' });
    } finally {
      sub.unsubscribe();
      await call('profiles.delete', { id: p.id });
    }
  });

  it('reconnects the completions WebSocket once with a new token after the participant refuses the token', async () => {
    const p = await call('profiles.save', oauthProfile());
    await call('profiles.select', { id: p.id });
    const forged = signHs256({ sub: USER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 3600 }, 'rotated-away-key');
    idp.failNext({ kind: 'status', status: 200, body: { access_token: forged, token_type: 'Bearer', expires_in: 3600 } });
    idp.requests.length = 0;
    const events: SubscriptionEvent<'commands.completions'>[] = [];
    // beginExclusive given: the socket is the first request, so it meets the forged token.
    const sub = app.router.subscribe('commands.completions', { parties: [party], beginExclusive: 0 }, (e) =>
      events.push(e as SubscriptionEvent<'commands.completions'>),
    );
    if (!sub.ok) throw new Error(sub.error.message);
    try {
      await expect.poll(() => idp.requests.length, { timeout: 10_000 }).toBe(2);
      await expect.poll(() => events.filter((e) => e.type === 'state').at(-1), { timeout: 10_000 }).toMatchObject({ state: 'live' });
      expect(events.filter((e) => e.type === 'error')).toEqual([]);
    } finally {
      sub.unsubscribe();
      await call('profiles.delete', { id: p.id });
    }
  });

  it('an NDJSON export survives a refused token: its WebSocket reconnects with the refreshed one', async () => {
    const p = await call('profiles.save', oauthProfile());
    await call('profiles.select', { id: p.id });
    await simAdmin('/v2/parties', { partyIdHint: `ExportMe${Date.now()}` });
    const forged = signHs256({ sub: USER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 3600 }, 'rotated-away-key');
    idp.failNext({ kind: 'status', status: 200, body: { access_token: forged, token_type: 'Bearer', expires_in: 3600 } });
    try {
      const out = await downloads.run(app.router, {
        kind: 'updates',
        filter: { includeTopology: true },
        fileName: `oauth-export-${Date.now()}.ndjson`,
      });
      expect(out.done.lines).toBeGreaterThan(0);
      expect(out.text.trim().split('\n')).toHaveLength(must(out.done.lines, 'the exported line count'));
    } finally {
      await call('profiles.delete', { id: p.id });
    }
  });

  it('asks for the secret again before sending it to another origin', async () => {
    const p = await call('profiles.save', oauthProfile());
    const moved = await callError('profiles.save', {
      id: p.id,
      name: p.name,
      ledgerApiUrl: sim.url,
      auth: { ...oauthProfile().auth, clientSecret: undefined, tokenUrl: 'https://idp.elsewhere.example/token' },
    });
    expect(moved).toMatchObject({
      code: 'BAD_REQUEST',
      issues: [{ path: 'auth.clientSecret', message: stringContaining('another origin') }],
    });
    expect((await call('profiles.list', {})).profiles.find((x) => x.id === p.id)?.auth).toMatchObject({ tokenUrl: idp.tokenUrl });
    // Same origin, other path: the stored secret is kept.
    const samePlace = await call('profiles.save', {
      id: p.id,
      name: p.name,
      ledgerApiUrl: sim.url,
      auth: { ...oauthProfile().auth, clientSecret: undefined, tokenUrl: `${idp.url}/other` },
    });
    expect(samePlace.auth).toMatchObject({ tokenUrl: `${idp.url}/other`, hasClientSecret: true });
    const s = await call('profiles.save', { name: 'Static', ledgerApiUrl: sim.url, auth: { mode: 'static', token: adminToken() } });
    const otherParticipant = await callError('profiles.save', {
      id: s.id,
      name: 'Static',
      ledgerApiUrl: 'https://participant.elsewhere.example',
    });
    expect(otherParticipant).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'auth.token' }] });
    accounts.push(`profile:${s.id}:bearer-token`, `profile:${p.id}:oauth2-client-secret`);
    await call('profiles.delete', { id: p.id });
    await call('profiles.delete', { id: s.id });
  });

  it('switching modes deletes the secret the new mode does not use', async () => {
    const p = await call('profiles.save', oauthProfile());
    const kept = await call('profiles.save', { id: p.id, name: 'Renamed', ledgerApiUrl: sim.url });
    expect(kept.auth).toMatchObject({ mode: 'oauth2-client-credentials', hasClientSecret: true });
    const toStatic = await call('profiles.save', {
      id: p.id,
      name: 'Renamed',
      ledgerApiUrl: sim.url,
      auth: { mode: 'static', token: adminToken() },
    });
    expect(toStatic.auth).toEqual({ mode: 'static', hasToken: true, secretStore: 'os-keychain' });
    expect(keychain(`profile:${p.id}:oauth2-client-secret`)).toBeNull();
    expect(keychain(`profile:${p.id}:bearer-token`)).not.toBeNull();
    expect((await call('profiles.test', { id: p.id })).user).toMatchObject({ status: 'ok', userId: 'participant_admin' });
    const toNone = await call('profiles.save', { id: p.id, name: 'Renamed', ledgerApiUrl: sim.url, auth: { mode: 'none' } });
    expect(toNone.auth).toEqual({ mode: 'none' });
    expect(keychain(`profile:${p.id}:bearer-token`)).toBeNull();
    const t = await call('profiles.test', { id: p.id });
    expect(t).toMatchObject({ ok: false, token: { status: 'ok', source: 'none', expiresAt: null } });
    expect(t.ledger.status === 'ok' ? t.user : t.ledger).toMatchObject({ status: 'failed', error: { canton: { httpStatus: 401 } } });
    await call('profiles.delete', { id: p.id });
  });
});

describe('401 from the participant (local server recording Authorization headers)', () => {
  it('retries once with a different token and never loops; an unchanged static token is not retried', async () => {
    const seen: Array<string | undefined> = [];
    let accept = 'Bearer token-B';
    const participant = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      const ok = req.headers.authorization === accept;
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { version: '3.5.0', features: {} } : { code: 'UNAUTHENTICATED', cause: 'bad token', context: {} }));
    });
    await new Promise<void>((r) => participant.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(participant.address() as AddressInfo).port}`;
    try {
      const p = await call('profiles.save', { name: 'Header recorder', ledgerApiUrl: url, auth: { mode: 'static', token: 'token-A' } });
      await call('profiles.select', { id: p.id });
      // Unchanged static token: one request, the 401 is reported.
      const first = await call('profiles.test', { id: p.id });
      expect(first.ledger).toMatchObject({ status: 'failed', error: { canton: { httpStatus: 401 } } });
      expect(seen).toEqual(['Bearer token-A']);

      // A static token is read from the keychain per request: a replaced entry applies at once.
      new Entry(SERVICE, `profile:${p.id}:bearer-token`).setPassword('token-B');
      accounts.push(`profile:${p.id}:bearer-token`);
      seen.length = 0;
      accept = 'Bearer token-B';
      const second = await call('profiles.test', { id: p.id });
      expect(second.ledger).toMatchObject({ status: 'ok', apiVersion: '3.5.0' });
      expect(seen).toEqual(['Bearer token-B', 'Bearer token-B']);

      // A participant that refuses everything: one resend at most per request, no loop.
      accept = 'never';
      const oauth = await call('profiles.save', { ...oauthProfile(), ledgerApiUrl: url });
      idp.requests.length = 0;
      seen.length = 0;
      const third = await call('profiles.test', { id: oauth.id });
      expect(third.ledger).toMatchObject({ status: 'failed', error: { canton: { httpStatus: 401 } } });
      expect(seen).toHaveLength(2);
      expect(seen[0]).not.toBe(seen[1]);
      expect(idp.requests).toHaveLength(2);
      await call('profiles.delete', { id: p.id });
      await call('profiles.delete', { id: oauth.id });
    } finally {
      await new Promise<void>((r) => participant.close(() => r()));
    }
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
      accounts.push(`profile:${id}:bearer-token`);
      new Entry(SERVICE, `profile:${id}:bearer-token`).setPassword('legacy-token');
      const db = openAppDb(old);
      try {
        const profiles = new ProfileService(db, new KeychainSecretStore(SERVICE), null);
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
