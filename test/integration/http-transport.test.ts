/**
 * The ledger client's HTTP transport (src/services/http-transport.ts) against real Node HTTP/HTTPS servers: what a
 * participant answers arrives read whole (status, headers and body as a fetch Response gives them), connections are
 * kept alive, deadlines and cancels end the request on both sides, and TLS is verified — and the LedgerClient on top
 * of it sends openapi-fetch's typed calls through it and says what happened when one fails.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { httpRequest } from '../../src/services/http-transport.js';
import { LedgerClient } from '../../src/services/ledger-client.js';
import { ConsoleError } from '../../src/ipc/errors.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

interface Started {
  url: string;
  connections: () => number;
  /** Resolves when a request that the server holds open is closed by the client. */
  clientClosed: Promise<void>;
  close: () => Promise<void>;
}

const servers: Started[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function listen(server: http.Server | https.Server, handler: Handler, scheme: 'http' | 'https'): Promise<Started> {
  let connections = 0;
  let closed: () => void = () => undefined;
  const clientClosed = new Promise<void>((resolve) => (closed = resolve));
  server.on('connection', () => (connections += 1));
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handler(req, res, Buffer.concat(chunks).toString());
    });
    res.on('close', () => {
      if (!res.writableFinished) closed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const started: Started = {
    url: `${scheme}://127.0.0.1:${String(port)}`,
    connections: () => connections,
    clientClosed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
  servers.push(started);
  return started;
}

const serve = (handler: Handler) => listen(http.createServer(), handler, 'http');

describe('httpRequest', () => {
  it('sends method, headers and body, and answers with status, headers, body and url', async () => {
    const s = await serve((req, res, body) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-seen': `${req.method ?? ''} ${req.headers['content-length'] ?? ''}` });
      res.end(JSON.stringify({ echoed: JSON.parse(body) as unknown, path: req.url, auth: req.headers.authorization }));
    });
    const res = await httpRequest(`${s.url}/v2/x?y=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      body: JSON.stringify({ a: 'é' }),
    });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.url).toBe(`${s.url}/v2/x?y=1`);
    // content-length counts bytes, not characters
    expect(res.headers.get('x-seen')).toBe('POST 10');
    expect(await res.json()).toEqual({ echoed: { a: 'é' }, path: '/v2/x?y=1', auth: 'Bearer t' });
  });

  it('keeps one connection alive across sequential requests', async () => {
    const s = await serve((_req, res) => res.end('{}'));
    for (let i = 0; i < 5; i++) await (await httpRequest(`${s.url}/`, { method: 'GET', headers: {} })).text();
    expect(s.connections()).toBe(1);
  });

  it('sends again once, on a new connection, when the server drops a kept-alive connection the request went out on', async () => {
    const seen: string[] = [];
    const s = await serve((req, res, body) => {
      seen.push(body);
      // the second request arrives on the kept-alive connection: dropped without an answer, as a server closing an
      // idle connection does
      if (seen.length === 2) req.socket.destroy();
      else res.end(String(seen.length));
    });
    expect(await (await httpRequest(`${s.url}/a`, { method: 'POST', headers: {}, body: 'first' })).text()).toBe('1');
    expect(await (await httpRequest(`${s.url}/b`, { method: 'POST', headers: {}, body: 'second' })).text()).toBe('3');
    expect(seen).toEqual(['first', 'second', 'second']);
    expect(s.connections()).toBe(2);
  });

  it("closes an idle kept-alive connection before the server would, as the server's Keep-Alive hint says", async () => {
    const server = http.createServer();
    server.keepAliveTimeout = 3_000;
    // a client that closes sends FIN ('end' on the server's side); the server's own timeout destroys the socket instead
    let closedByClient = false;
    server.on('connection', (socket: Socket) => socket.on('end', () => (closedByClient = true)));
    const s = await listen(server, (_req, res) => res.end('ok'), 'http');
    expect(await (await httpRequest(`${s.url}/`, { method: 'GET', headers: {} })).text()).toBe('ok');
    await expect.poll(() => closedByClient, { timeout: 15_000 }).toBe(true);
  });

  it('does not send again when a new connection is dropped', async () => {
    let requests = 0;
    const s = await serve((req) => {
      requests += 1;
      req.socket.destroy();
    });
    await expect(httpRequest(`${s.url}/a`, { method: 'POST', headers: {}, body: 'x' })).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(requests).toBe(1);
  });

  it('answers 204 without a body and an error status with its body', async () => {
    const s = await serve((req, res) => {
      if (req.url === '/empty') {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
    });
    const empty = await httpRequest(`${s.url}/empty`, { method: 'DELETE', headers: {} });
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
    const failed = await httpRequest(`${s.url}/other`, { method: 'GET', headers: {} });
    expect(failed.ok).toBe(false);
    expect(failed.status).toBe(503);
    expect(await failed.text()).toBe('down for maintenance');
  });

  it('reads headers, text and JSON as a fetch Response does', async () => {
    const s = await serve((req, res) => {
      if (req.url === '/html') {
        res.end('<html>');
        return;
      }
      res.setHeader('X-Twice', ['a', 'b']);
      res.setHeader('Content-Type', 'application/json');
      // a byte-order mark, which Response.text() drops
      res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"é":1}')]));
    });
    const res = await httpRequest(`${s.url}/`, { method: 'GET', headers: {} });
    const reference = new Response(new Uint8Array(await res.arrayBuffer()), {
      headers: [
        ['x-twice', 'a'],
        ['X-Twice', 'b'],
      ],
    });
    expect(res.headers.get('x-twice')).toBe(reference.headers.get('x-twice'));
    expect(res.headers.get('X-TWICE')).toBe('a, b');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.has('x-missing')).toBe(false);
    expect(res.headers.get('x-missing')).toBeNull();
    expect(await res.text()).toBe(await reference.text());
    expect(await res.json()).toEqual({ é: 1 });
    const notJson = await httpRequest(`${s.url}/html`, { method: 'GET', headers: {} });
    await expect(notJson.json()).rejects.toBeInstanceOf(SyntaxError);
  });

  it('sends bytes as bytes', async () => {
    const s = await serve((req, res, body) => res.end(JSON.stringify({ length: req.headers['content-length'], body })));
    const res = await httpRequest(`${s.url}/bytes`, { method: 'POST', headers: {}, body: new Uint8Array([104, 105]) });
    expect(await res.json()).toEqual({ length: '2', body: 'hi' });
  });

  it('ends a request at its deadline with a TimeoutError, and the server sees the connection close', async () => {
    const s = await serve(() => undefined); // never answers
    const failure = httpRequest(`${s.url}/slow`, { method: 'GET', headers: {}, signal: AbortSignal.timeout(300) });
    await expect(failure).rejects.toMatchObject({ name: 'TimeoutError' });
    await s.clientClosed;
  });

  it("ends a request when the caller's signal fires, before or during the request", async () => {
    const s = await serve(() => undefined);
    const cancel = new AbortController();
    const failure = httpRequest(`${s.url}/held`, { method: 'GET', headers: {}, signal: cancel.signal });
    cancel.abort();
    await expect(failure).rejects.toMatchObject({ name: 'AbortError' });
    await expect(httpRequest(`${s.url}/held`, { method: 'GET', headers: {}, signal: cancel.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('rejects a refused connection and a URL that is not http(s)', async () => {
    const s = await serve((_req, res) => res.end());
    const url = s.url;
    await s.close();
    await expect(httpRequest(`${url}/`, { method: 'GET', headers: {} })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(httpRequest('ftp://127.0.0.1/', { method: 'GET', headers: {} })).rejects.toThrow(/only http and https/);
  });

  it('verifies TLS: a self-signed participant certificate is refused', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tls-'));
    try {
      const key = path.join(dir, 'key.pem');
      const cert = path.join(dir, 'cert.pem');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-keyout',
          key,
          '-out',
          cert,
        ],
        { stdio: 'ignore' },
      );
      const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) });
      const s = await listen(server, (_req, res) => res.end('{}'), 'https');
      await expect(httpRequest(`${s.url}/v2/version`, { method: 'GET', headers: {} })).rejects.toMatchObject({
        code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('LedgerClient over the transport', () => {
  const refusal = async (call: Promise<unknown>): Promise<ConsoleError> => {
    const err: unknown = await call.then(
      () => null,
      (e: unknown) => e,
    );
    if (!(err instanceof ConsoleError)) throw new Error(`expected a ConsoleError, got ${String(err)}`);
    return err;
  };

  it('names a deadline, a refused connection, a cancel and a body that is not JSON', async () => {
    const s = await serve((req, res) => {
      if (req.url === '/v2/version') res.end('<html>proxy error</html>');
    });
    const slow = new LedgerClient({ baseUrl: s.url, timeoutMs: 300 });
    expect((await refusal(slow.ledgerEnd())).message).toBe(`GET ${s.url}/v2/state/ledger-end: timed out`);
    expect((await refusal(slow.version())).message).toMatch(/not JSON/);

    const cancel = new AbortController();
    const cancelled = refusal(new LedgerClient({ baseUrl: s.url }).withSignal(cancel.signal).ledgerEnd());
    cancel.abort();
    expect((await cancelled).code).toBe('CANCELLED');

    const url = s.url;
    await s.close();
    const gone = await refusal(new LedgerClient({ baseUrl: url }).ledgerEnd());
    expect(gone.code).toBe('UNREACHABLE');
    expect(gone.message).toBe(`GET ${url}/v2/state/ledger-end: could not connect`);
  });

  it("sends openapi-fetch's typed calls: path parameters, query, JSON body, and the answer as data", async () => {
    const seen: string[] = [];
    const s = await serve((req, res, body) => {
      seen.push(`${req.method ?? ''} ${req.url ?? ''} ${req.headers['content-type'] ?? '-'} ${body}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echoed: req.url }));
    });
    const client = new LedgerClient({ baseUrl: s.url });
    const user = await client.read(client.api.GET('/v2/users/{user-id}', { params: { path: { 'user-id': 'alice bob' } } }));
    expect(user).toEqual({ echoed: '/v2/users/alice%20bob' });
    await client.read(client.api.GET('/v2/parties', { params: { query: { pageSize: 5 } } }));
    await client.read(client.api.POST('/v2/parties', { body: { partyIdHint: 'carol', identityProviderId: '' } }));
    expect(seen).toEqual([
      'GET /v2/users/alice%20bob - ',
      'GET /v2/parties?pageSize=5 - ',
      `POST /v2/parties application/json ${JSON.stringify({ partyIdHint: 'carol', identityProviderId: '' })}`,
    ]);
  });

  it('resends once with a fresh token after a 401', async () => {
    const seen: string[] = [];
    const s = await serve((req, res) => {
      const auth = req.headers.authorization ?? '';
      seen.push(auth);
      if (auth !== 'Bearer fresh') {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'UNAUTHENTICATED', cause: 'expired' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ offset: 42 }));
    });
    const client = new LedgerClient({
      baseUrl: s.url,
      getToken: () => Promise.resolve('stale'),
      onUnauthorized: () => Promise.resolve('fresh'),
    });
    expect(await client.ledgerEnd()).toEqual({ offset: 42 });
    expect(seen).toEqual(['Bearer stale', 'Bearer fresh']);
  });
});
