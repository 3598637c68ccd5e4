/** The console's Ledger API client against the real simulator over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { LedgerClient } from '../../src/services/ledger-client.js';
import { fetchDashboard } from '../../src/services/dashboard.js';
import { ConsoleError } from '../../src/ipc/errors.js';
import { z } from 'zod';

let sim: RunningSimulator;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-client-'));
  sim = await startSimulator({ dataDir: dir, port: 0, seedDemo: true });
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwtFor = (sub: string) =>
  `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub, aud: 'https://canton.network.global' })}.c2lnbmF0dXJl`;

describe('LedgerClient', () => {
  it('reads the dashboard from the participant', async () => {
    const client = new LedgerClient({ baseUrl: sim.url + '/' });
    const snap = await fetchDashboard(client, {
      id: 'demo',
      name: 'Demo',
      kind: 'demo',
      ledgerApiUrl: sim.url,
      validatorApiUrl: null,
      auth: { mode: 'none' as const },
    });
    expect(snap.participantId).toBe(sim.participantId);
    expect(snap.health).toEqual({ live: true, ready: true });
    expect(snap.synchronizers.length).toBe(2);
    expect(snap.ledgerEnd).toBeGreaterThan(0);
    expect(snap.apiVersion).toMatch(/^3\.5\./);
  });

  it('sends the profile bearer token, fetched per request', async () => {
    let calls = 0;
    const client = new LedgerClient({ baseUrl: sim.url, getToken: () => (calls++, Promise.resolve(jwtFor('ops-user'))) });
    const me = await client.read(client.api.GET('/v2/authenticated-user'));
    expect(me.user.id).toBe('ops-user');
    expect(calls).toBe(1);
  });

  it('keeps the participant error structured (code, cause, context, HTTP status)', async () => {
    const client = new LedgerClient({ baseUrl: sim.url });
    const err = await client.callParsed('GET', '/v2/no-such-endpoint', z.unknown()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConsoleError);
    const ce = err as ConsoleError;
    expect(ce.code).toBe('LEDGER_API_ERROR');
    expect(ce.canton?.httpStatus).toBe(404);
    expect(ce.canton?.code).toMatch(/[A-Z_]+/);
    expect(ce.canton?.cause.length).toBeGreaterThan(0);
  });

  it('calls the Ledger API by path, typed by the official spec: path and query parameters, bodies, answers', async () => {
    const client = new LedgerClient({ baseUrl: sim.url });
    const user = `typed|user:${Date.now()}`; // `|` is percent-encoded into the path segment
    await client.read(client.api.POST('/v2/users', { body: { user: { id: user, isDeactivated: false }, rights: [] } }));
    const got = await client.read(client.api.GET('/v2/users/{user-id}', { params: { path: { 'user-id': user } } }));
    expect(got.user.id).toBe(user);
    const page = await client.read(client.api.GET('/v2/users', { params: { query: { pageSize: 1 } } }));
    expect(page.users).toHaveLength(1);
    expect(page.nextPageToken).not.toBe('');
    const missing = await client
      .read(client.api.GET('/v2/users/{user-id}', { params: { path: { 'user-id': 'nobody-here' } } }))
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ConsoleError);
    expect((missing as ConsoleError).canton).toMatchObject({ code: 'USER_NOT_FOUND', httpStatus: 404 });
  });

  it('sends typed calls with the token and resends once with a fresh one after a 401', async () => {
    const sent: string[] = [];
    const client = new LedgerClient({
      baseUrl: sim.url,
      getToken: () => (sent.push('stale'), Promise.resolve('not-a-jwt')),
      onUnauthorized: () => (sent.push('fresh'), Promise.resolve(jwtFor('participant_admin'))),
    });
    const me = await client.read(client.api.GET('/v2/authenticated-user'));
    expect(me.user.id).toBe('participant_admin');
    expect(sent).toEqual(['stale', 'fresh']);
  });

  it('checks a call outside the spec against its schema and names the path when the answer does not match', async () => {
    const client = new LedgerClient({ baseUrl: sim.url });
    const version = await client.callParsed('GET', '/v2/version', z.object({ version: z.string() }));
    expect(version.version).toMatch(/^3\.5\./);
    const err = await client.callParsed('GET', '/v2/version', z.object({ version: z.number() })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConsoleError);
    expect(err).toMatchObject({ code: 'LEDGER_API_ERROR', issues: [{ path: 'version' }] });
    expect((err as ConsoleError).message).toContain('GET /v2/version');
    const custom = new ConsoleError('VALIDATOR_ERROR', 'mismatch');
    const mapped = await client.callParsed('GET', '/v2/version', z.array(z.string()), { mismatch: () => custom }).catch((e: unknown) => e);
    expect(mapped).toBe(custom);
  });

  it('reads an active-contracts page by POST, typed by the corrected path', async () => {
    const client = new LedgerClient({ baseUrl: sim.url, getToken: () => Promise.resolve(jwtFor('participant_admin')) });
    const end = await client.ledgerEnd();
    const page = await client.read(
      client.api.POST('/v2/state/active-contracts-page', {
        body: { activeAtOffset: end.offset, eventFormat: { filtersForAnyParty: { cumulative: [] }, verbose: false } },
      }),
    );
    expect(page.activeAtOffset).toBe(end.offset);
    expect(page.activeContracts.length).toBeGreaterThan(0);
  });

  it('reports an unreachable participant as UNREACHABLE, not a crash', async () => {
    const client = new LedgerClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2_000 });
    await expect(client.ledgerEnd()).rejects.toMatchObject({ code: 'UNREACHABLE' });
    expect(await client.probe('/livez')).toBe(false);
  });
});
