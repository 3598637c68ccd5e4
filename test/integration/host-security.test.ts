/** The browser host over real HTTP/WebSocket: token, Origin and Host checks, static files, the contract. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { startHost, type RunningHost } from '../../src/host/server.js';
import { createRouter } from '../../src/ipc/router.js';
import { ConsoleClient } from '../../src/ipc/client.js';
import { WebSocketTransport, type WsLike } from '../../src/ipc/ws-transport.js';
import type { Handlers, SubscriptionHandlers } from '../../src/ipc/router.js';
import { ConsoleError } from '../../src/ipc/errors.js';
import { withHandlers, withSubscriptions } from '../support/handlers.js';
import { wsText } from './simulator/helpers.js';

let host: RunningHost;
let dir: string;
const calls: unknown[] = [];

const handlers = {
  'app.info': () => Promise.resolve({ name: 'test', version: '1', transport: 'browser-host' as const, demoMode: false }),
  'profiles.list': () => Promise.resolve({ profiles: [], activeId: null }),
  'profiles.save': (req) => {
    calls.push(req);
    return Promise.resolve({
      id: 'x',
      name: req.name,
      kind: 'remote' as const,
      ledgerApiUrl: req.ledgerApiUrl,
      validatorApiUrl: null,
      auth: { mode: 'none' as const },
    });
  },
  'profiles.delete': () => Promise.resolve({ deleted: false }),
  'profiles.select': ({ id }) => Promise.reject(new ConsoleError('NOT_FOUND', `No connection profile with id "${id}"`)),
  'dashboard.snapshot': () => Promise.reject(new ConsoleError('LEDGER_API_ERROR', 'boom', { code: 'X', cause: 'y', context: { a: 'b' } })),
} satisfies Partial<Handlers>;
const subs: Partial<SubscriptionHandlers> = {
  'dashboard.live': (_p, emit) => {
    const t = setInterval(() => emit({ ok: false, error: { code: 'UNREACHABLE', message: 'tick' } }), 20);
    return () => clearInterval(t);
  },
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'host-test-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(path.join(os.tmpdir(), 'secret-outside.txt'), 'secret');
  host = await startHost({ router: createRouter(withHandlers(handlers), withSubscriptions(subs)), staticDir: dir });
});
afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

function connect(opts: { token?: string; origin?: string; path?: string } = {}): Promise<{ ws: WebSocket; status: number | null }> {
  const url = `ws://127.0.0.1:${host.port}${opts.path ?? '/ipc'}?token=${encodeURIComponent(opts.token ?? host.token)}`;
  const ws = new WebSocket(url, { headers: { origin: opts.origin ?? `http://127.0.0.1:${host.port}` } });
  return new Promise((resolve) => {
    ws.on('open', () => resolve({ ws, status: null }));
    ws.on('unexpected-response', (_req, res) => resolve({ ws, status: res.statusCode ?? -1 }));
    ws.on('error', () => resolve({ ws, status: -1 }));
  });
}

function rawGet(p: string, hostHeader?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: host.port, path: p, headers: hostHeader ? { host: hostHeader } : {} }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('browser host', () => {
  it('listens on loopback only and prints the token in the URL fragment', () => {
    expect(host.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/#token=[A-Za-z0-9_-]{43}$`));
  });

  it('refuses a wrong token, a missing token, a foreign Origin and another path', async () => {
    expect((await connect({ token: 'nope' })).status).toBe(401);
    expect((await connect({ token: '' })).status).toBe(401);
    expect((await connect({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await connect({ origin: 'null' })).status).toBe(403);
    expect((await connect({ path: '/other' })).status).toBe(404);
  });

  it('accepts our own origin with the token and carries the contract', async () => {
    const { ws, status } = await connect();
    expect(status).toBeNull();
    const client = new ConsoleClient(new WebSocketTransport(ws as unknown as WsLike));
    await expect(client.call('app.info', {})).resolves.toMatchObject({ name: 'test', transport: 'browser-host' });
    ws.close();
  });

  it('rejects requests that fail the channel schema, with field-level issues, and never calls the handler', async () => {
    const { ws } = await connect();
    const transport = new WebSocketTransport(ws as unknown as WsLike);
    calls.length = 0;
    const bad = await transport.invoke('profiles.save', { name: '', ledgerApiUrl: 'ftp://x' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('BAD_REQUEST');
      expect(bad.error.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['name', 'ledgerApiUrl']));
    }
    expect(calls).toHaveLength(0);
    const unknown = await transport.invoke('fs.readFile', { path: '/etc/passwd' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    ws.close();
  });

  it('passes errors as typed values with Canton details', async () => {
    const { ws } = await connect();
    const transport = new WebSocketTransport(ws as unknown as WsLike);
    const r = await transport.invoke('dashboard.snapshot', {});
    expect(r).toEqual({
      ok: false,
      error: { code: 'LEDGER_API_ERROR', message: 'boom', canton: { code: 'X', cause: 'y', context: { a: 'b' } } },
    });
    ws.close();
  });

  it('answers malformed frames with a protocol error and keeps the connection', async () => {
    const { ws } = await connect();
    const replies: unknown[] = [];
    ws.on('message', (d) => replies.push(JSON.parse(wsText(d))));
    ws.send('not json');
    ws.send(JSON.stringify({ type: 'invoke', id: -1, channel: 'app.info' }));
    await new Promise((r) => setTimeout(r, 100));
    expect(replies).toHaveLength(2);
    expect(replies.every((r) => (r as { type: string }).type === 'protocolError')).toBe(true);
    const client = new ConsoleClient(new WebSocketTransport(ws as unknown as WsLike));
    await expect(client.call('app.info', {})).resolves.toBeTruthy();
    ws.close();
  });

  it('streams subscription events until unsubscribed', async () => {
    const { ws } = await connect();
    const client = new ConsoleClient(new WebSocketTransport(ws as unknown as WsLike));
    const events: unknown[] = [];
    const stop = client.subscribe('dashboard.live', { intervalMs: 250 }, (e) => events.push(e));
    await new Promise((r) => setTimeout(r, 150));
    stop();
    const seen = events.length;
    expect(seen).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 100));
    expect(events.length).toBe(seen);
    const errs: unknown[] = [];
    client.subscribe(
      'dashboard.live',
      { intervalMs: 5 },
      () => {},
      (e) => errs.push(e),
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(errs).toMatchObject([{ code: 'BAD_REQUEST' }]);
    ws.close();
  });

  it('serves the renderer with a strict CSP and refuses traversal and foreign Host headers', async () => {
    const index = await rawGet('/');
    expect(index.status).toBe(200);
    const csp = String(index.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('unsafe-inline');
    expect((await rawGet('/../secret-outside.txt')).status).not.toBe(200);
    expect((await rawGet('/%2e%2e/secret-outside.txt')).status).toBe(400);
    expect((await rawGet('/', 'evil.example:80')).status).toBe(421);
  });
});
