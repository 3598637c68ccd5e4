/**
 * Neither the OAuth2 client secret, nor a static bearer token, nor any access token the console obtained
 * ever reaches the renderer or a log. The whole profile life cycle (save, list, select, test, use with
 * the dashboard and the live stream, failures of the token endpoint, mode switches, delete) runs
 * through the real browser host: every frame the renderer side receives on the WebSocket is
 * recorded, as are console.* calls of the main side, and both are searched for the secrets.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Entry } from '@napi-rs/keyring';
import { startConsoleApp, type ConsoleApp } from '../../src/app/console-app.js';
import { startHost, type RunningHost } from '../../src/host/server.js';
import { ConsoleClient } from '../../src/ipc/client.js';
import { WebSocketTransport, type WsLike } from '../../src/ipc/ws-transport.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { signHs256, startOAuth2Server, type RunningOAuth2Server } from '../support/oauth2-server.js';

const SERVICE = `canton-console-test-oauth-leak-${process.pid}-${Date.now()}`;
const JWT_SECRET = 'leak-test-shared-hs256-secret';
const AUDIENCE = 'https://daml.com/jwt/aud/participant/leak-test';
const CLIENT_SECRET = 'leak-client-secret-d41d8cd98f';
const METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

let dir: string;
let simDir: string;
let staticDir: string;
let sim: RunningSimulator;
let idp: RunningOAuth2Server;
let app: ConsoleApp;
let host: RunningHost;
const frames: string[] = [];
const logged: unknown[][] = [];
const accounts = new Set<string>();

beforeAll(async () => {
  for (const m of METHODS) vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void logged.push(args));
  dir = mkdtempSync(path.join(os.tmpdir(), 'oauth-leak-'));
  simDir = mkdtempSync(path.join(os.tmpdir(), 'oauth-leak-sim-'));
  staticDir = mkdtempSync(path.join(os.tmpdir(), 'oauth-leak-static-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  sim = await startSimulator({ dataDir: simDir, port: 0, auth: { mode: 'hs256', secret: JWT_SECRET, audience: AUDIENCE } });
  idp = await startOAuth2Server({
    clients: { console: { secret: CLIENT_SECRET, subject: 'participant_admin' } },
    signingSecret: JWT_SECRET,
  });
  app = await startConsoleApp({ dataDir: dir, demo: false, transport: 'browser-host', keychainService: SERVICE });
  host = await startHost({ router: app.router, staticDir, log: (line) => logged.push([line]) });
});
afterAll(async () => {
  vi.restoreAllMocks();
  // unassigned when beforeAll failed before starting them
  const started: Array<{ close(): Promise<void> } | undefined> = [host, app, sim, idp];
  for (const s of started) await s?.close();
  for (const a of accounts) new Entry(SERVICE, a).deletePassword();
  for (const d of [dir, simDir, staticDir]) rmSync(d, { recursive: true, force: true });
});

async function rendererClient(): Promise<{ client: ConsoleClient; ws: WebSocket }> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc?token=${encodeURIComponent(host.token)}`, {
    headers: { origin: `http://127.0.0.1:${host.port}` },
  });
  // Record every frame the renderer receives, before the transport parses it.
  ws.on('message', (data) => frames.push((Array.isArray(data) ? Buffer.concat(data) : Buffer.from(new Uint8Array(data))).toString()));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { client: new ConsoleClient(new WebSocketTransport(ws as unknown as WsLike)), ws };
}

describe('secrets of connection profiles', () => {
  it('never appear in IPC frames or console output', async () => {
    const { client, ws } = await rendererClient();
    const auth = {
      mode: 'oauth2-client-credentials' as const,
      tokenUrl: idp.tokenUrl,
      clientId: 'console',
      audience: AUDIENCE,
      clientSecret: CLIENT_SECRET,
    };
    const p = await client.call('profiles.save', { name: 'Leak check', ledgerApiUrl: sim.url, auth });
    accounts.add(`profile:${p.id}:oauth2-client-secret`);
    accounts.add(`profile:${p.id}:bearer-token`);
    await client.call('profiles.list', {});
    await client.call('profiles.select', { id: p.id });
    expect((await client.call('profiles.test', { id: p.id })).ok).toBe(true);
    await client.call('dashboard.snapshot', {});

    // A live stream on the participant WebSocket (token in its subprotocol) with the obtained token.
    const events: unknown[] = [];
    const stop = client.subscribe(
      'updates.stream',
      { streamId: 'leak-stream', filter: { includeTopology: true }, beginExclusive: null, backlog: 0 },
      (e) => events.push(e),
    );
    await expect.poll(() => JSON.stringify(events), { timeout: 10_000 }).toContain('"live"');
    stop();

    // The token endpoint failing in every way, and the participant refusing a token it cannot verify.
    idp.failNext({ kind: 'status', status: 401, body: { error: 'invalid_client', error_description: 'nope' } });
    await client.call('profiles.save', {
      id: p.id,
      name: 'Leak check',
      ledgerApiUrl: sim.url,
      auth: { ...auth, clientSecret: CLIENT_SECRET },
    });
    await client.call('profiles.test', { id: p.id });
    idp.failNext({ kind: 'not-json' });
    await client.call('dashboard.snapshot', {}).catch(() => undefined);
    const forged = signHs256({ sub: 'participant_admin', aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 }, 'wrong-key');
    idp.failNext({ kind: 'status', status: 200, body: { access_token: forged, token_type: 'Bearer', expires_in: 600 } });
    await client.call('dashboard.snapshot', {});

    // A static token, then no authentication, then delete.
    const staticToken = signHs256({ sub: 'participant_admin', aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 }, JWT_SECRET);
    await client.call('profiles.save', {
      id: p.id,
      name: 'Leak check',
      ledgerApiUrl: sim.url,
      auth: { mode: 'static', token: staticToken },
    });
    await client.call('profiles.test', { id: p.id });
    await client.call('dashboard.snapshot', {});
    await client.call('profiles.save', { id: p.id, name: 'Leak check', ledgerApiUrl: sim.url, auth: { mode: 'none' } });
    await client.call('profiles.test', { id: p.id });
    await client.call('profiles.delete', { id: p.id });
    ws.close();

    const secrets = [CLIENT_SECRET, staticToken, forged, ...idp.issued];
    expect(idp.issued.length).toBeGreaterThanOrEqual(2);
    const wire = frames.join('\n');
    const logs = JSON.stringify(logged);
    expect(frames.length).toBeGreaterThan(10);
    for (const s of secrets) {
      // JWT signatures are the unguessable part; checking them too catches a token split across fields.
      const signature = s.split('.').at(-1) ?? s;
      expect(wire).not.toContain(s);
      expect(wire).not.toContain(signature);
      expect(logs).not.toContain(s);
      expect(logs).not.toContain(signature);
    }
    // The frames did carry the non-secret configuration and the flags.
    expect(wire).toContain('"hasClientSecret":true');
    expect(wire).toContain(idp.tokenUrl);
  });
});
