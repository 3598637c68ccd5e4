/**
 * The browser host: serves the built renderer on loopback and carries the IPC contract over a
 * WebSocket at /ipc. Connections need the one-time token printed at start and our own Origin.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Router } from '../ipc/router.js';
import { ClientMessageSchema, type ServerMessage } from '../ipc/wire.js';
import { zodIssues } from '../ipc/errors.js';
import { decodeBinaryFrame, FrameError } from '../ipc/bytes-frame.js';
import { contentTypeFor, resolveStaticPath } from './static-files.js';
import type { DownloadSink } from './downloads.js';
import { allowedOrigins, hostContentSecurityPolicy, isAllowedHost, newHostToken, tokensEqual } from './security.js';

export interface HostOptions {
  router: Router;
  staticDir: string;
  port?: number;
  /** Serves the exports' downloads (`GET /exports/<id>`); the same sink the console app delivers exports to. */
  downloads?: DownloadSink;
  /** For tests only; normally a fresh random token per start. */
  token?: string;
  log?: (line: string) => void;
}

export interface RunningHost {
  port: number;
  token: string;
  /** The URL to open, token in the fragment so it never reaches logs or Referer headers. */
  url: string;
  close(): Promise<void>;
}

/** Largest IPC message accepted (DAR chunks are 1 MiB before base64; offline files and backups are far smaller). */
export const MAX_IPC_FRAME_BYTES = 16 * 1024 * 1024;
/** Limits that keep a misbehaving or frozen renderer (or a runaway script holding the token) from exhausting memory. */
export const IPC_LIMITS = {
  /** Concurrent IPC WebSockets (a browser tab uses one). */
  connections: 32,
  /** Subscriptions open on one connection. */
  subscriptions: 128,
  /** Calls in flight on one connection. */
  calls: 256,
  /** Bytes waiting to be sent on one connection: a client that stops reading is disconnected (1008) above this. */
  bufferedBytes: 32 * 1024 * 1024,
} as const;
/** TCP connections to the host at once (static files and IPC); more are dropped. */
export const MAX_HOST_CONNECTIONS = 128;

/** A frame's payload as one Buffer (ws hands over a Buffer, an ArrayBuffer or the fragments). */
function bytesOf(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}

/** A text frame's payload as a string. */
function textOf(data: RawData): string {
  return bytesOf(data).toString('utf8');
}

export async function startHost(opts: HostOptions): Promise<RunningHost> {
  const token = opts.token ?? newHostToken();
  const log = opts.log ?? (() => {});
  let port = 0;

  // A connection that sends no complete request head within 10 s is closed (checked every 2 s): idle or trickling
  // connections cannot pile up. The server takes at most MAX_HOST_CONNECTIONS at once.
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 2_000 }, (req, res) => {
    void serveStatic(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    });
  });
  server.maxConnections = MAX_HOST_CONNECTIONS;

  async function serveStatic(req: IncomingMessage, res: ServerResponse) {
    if (!isAllowedHost(req.headers.host, port)) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected request: wrong Host header');
      return;
    }
    if (opts.downloads?.serve(req, res)) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': 'text/plain', allow: 'GET, HEAD' }).end('Method not allowed');
      return;
    }
    const file = resolveStaticPath(opts.staticDir, req.url ?? '/');
    if (!file) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad path');
      return;
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    res.writeHead(200, {
      'content-type': contentTypeFor(file),
      'content-security-policy': hostContentSecurityPolicy(port),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_IPC_FRAME_BYTES });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node leaves an upgraded socket without an 'error' listener: a client that resets the connection
    // (ECONNRESET) would otherwise be an uncaught exception that ends the console.
    socket.on('error', () => socket.destroy());
    const refusal = upgradeRefusal(req);
    if (refusal) {
      const [status, reason] = refusal;
      log(`refused IPC connection: ${reason}`);
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws));
  });

  /** Why an upgrade to the IPC socket is refused (status, reason), or null when it may proceed. */
  function upgradeRefusal(req: IncomingMessage): [number, string] | null {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/ipc') return [404, 'Not Found'];
    if (!isAllowedHost(req.headers.host, port)) return [421, 'Misdirected Request'];
    if (!allowedOrigins(port).has(req.headers.origin ?? '')) return [403, 'Forbidden Origin'];
    if (!tokensEqual(token, url.searchParams.get('token'))) return [401, 'Unauthorized'];
    if (wss.clients.size >= IPC_LIMITS.connections) return [503, 'Service Unavailable'];
    return null;
  }

  function attach(ws: WebSocket) {
    // Invalid UTF-8, an oversize or malformed frame: `ws` has already sent the close frame with the RFC 6455 code
    // (1007, 1009, 1002) and closes the connection; the error only needs a listener.
    ws.on('error', (err) => log(`IPC connection closed: ${err.message}`));
    const subs = new Map<number, () => void>();
    /** Calls in flight by frame id, so a `cancel` frame (or the socket closing) can abort them. */
    const calls = new Map<number, AbortController>();
    const send = (msg: ServerMessage) => {
      if (ws.readyState !== ws.OPEN) return;
      ws.send(JSON.stringify(msg));
      // a client that does not read would make the host buffer every event for it: disconnect it instead
      if (ws.bufferedAmount > IPC_LIMITS.bufferedBytes) {
        log(`IPC connection closed: the client does not read its messages (${ws.bufferedAmount} bytes waiting)`);
        ws.close(1008, 'The client does not read its messages');
        // the close frame waits behind the unread bytes: drop the connection if the client does not take them
        setTimeout(() => ws.terminate(), 2_000).unref();
      }
    };
    const limitReached = (what: string) => ({ code: 'LIMIT_REACHED' as const, message: `Too many ${what} on this connection` });
    // A handler that throws synchronously must not escape into the socket's data callback (uncaught → process exit).
    ws.on('message', (data, isBinary) => {
      try {
        onMessage(data, isBinary);
      } catch (err) {
        log(`IPC frame failed: ${err instanceof Error ? err.message : String(err)}`);
        send({ type: 'protocolError', error: { code: 'INTERNAL', message: 'The frame could not be handled' } });
      }
    });
    const onMessage = (data: RawData, isBinary: boolean): void => {
      let json: unknown;
      if (isBinary) {
        // A message with bytes (a DAR chunk): JSON header + attachments, see src/ipc/bytes-frame.ts.
        try {
          json = decodeBinaryFrame(bytesOf(data));
        } catch (err) {
          const message = err instanceof FrameError ? `Malformed binary frame: ${err.message}` : 'Malformed binary frame';
          send({ type: 'protocolError', error: { code: 'BAD_REQUEST', message } });
          return;
        }
      } else {
        try {
          json = JSON.parse(textOf(data));
        } catch {
          send({ type: 'protocolError', error: { code: 'BAD_REQUEST', message: 'Frame is not valid JSON' } });
          return;
        }
      }
      const parsed = ClientMessageSchema.safeParse(json);
      if (!parsed.success) {
        send({ type: 'protocolError', error: { code: 'BAD_REQUEST', message: 'Malformed IPC frame', issues: zodIssues(parsed.error) } });
        return;
      }
      const msg = parsed.data;
      switch (msg.type) {
        case 'invoke': {
          if (calls.has(msg.id)) {
            send({
              type: 'result',
              id: msg.id,
              result: { ok: false, error: { code: 'CONFLICT', message: `Call id ${msg.id} is in use` } },
            });
            break;
          }
          if (calls.size >= IPC_LIMITS.calls) {
            send({ type: 'result', id: msg.id, result: { ok: false, error: limitReached(`calls in flight (${IPC_LIMITS.calls})`) } });
            break;
          }
          const controller = new AbortController();
          calls.set(msg.id, controller);
          void opts.router
            .invoke(msg.channel, msg.payload, controller.signal)
            .then((result) => send({ type: 'result', id: msg.id, result }))
            .catch((err: unknown) => {
              log(`IPC call ${msg.channel} failed: ${err instanceof Error ? err.message : String(err)}`);
              send({ type: 'result', id: msg.id, result: { ok: false, error: { code: 'INTERNAL', message: `${msg.channel} failed` } } });
            })
            .finally(() => calls.delete(msg.id));
          break;
        }
        case 'cancel':
          calls.get(msg.id)?.abort();
          break;
        case 'subscribe': {
          if (subs.has(msg.id)) {
            send({ type: 'subscriptionError', id: msg.id, error: { code: 'CONFLICT', message: `Subscription id ${msg.id} is in use` } });
            break;
          }
          if (subs.size >= IPC_LIMITS.subscriptions) {
            send({ type: 'subscriptionError', id: msg.id, error: limitReached(`subscriptions (${IPC_LIMITS.subscriptions})`) });
            break;
          }
          const r = opts.router.subscribe(msg.channel, msg.params, (event) => send({ type: 'event', id: msg.id, event }));
          if (r.ok) subs.set(msg.id, r.unsubscribe);
          else send({ type: 'subscriptionError', id: msg.id, error: r.error });
          break;
        }
        case 'unsubscribe':
          subs.get(msg.id)?.();
          subs.delete(msg.id);
          break;
      }
    };
    ws.on('close', () => {
      for (const un of subs.values()) un();
      subs.clear();
      // Nobody is left to read the answers: stop the participant requests behind them.
      for (const c of calls.values()) c.abort();
      calls.clear();
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/#token=${token}`,
    async close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive sockets would otherwise hold close() open until they time out.
      server.closeAllConnections();
      await closed;
    },
  };
}
