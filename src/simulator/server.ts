/** HTTP server: routing, authentication, error mapping. WebSocket upgrades are delegated to `ws/`. */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Access } from './authz.js';
import { lenientJson } from './authz.js';
import { CantonError, DecodeError } from './errors.js';
import { readBody, sendError, sendJson, sendText } from './http.js';
import type { Router } from './router.js';

/** Checks applied to every request before routing (and to WebSocket upgrades): a refusal, or undefined to serve it. */
export type RequestGuard = (req: IncomingMessage) => CantonError | undefined;

/**
 * `settled` resolves once everything committed is durable (Durability.settled): every handler but those of
 * group-committed routes starts after it, and reads the request body after it again (durability.ts).
 */
export function createHttpServer(
  router: Router,
  access: Access,
  settled: () => Promise<void>,
  guard?: RequestGuard,
  maxConnections = 512,
): http.Server {
  const server = http.createServer(
    // A connection that sends no complete request head within 15 s is closed (checked every 2 s), so idle or
    // trickling connections cannot pile up; a request body may take up to 5 min (a large DAR from a slow client).
    { headersTimeout: 15_000, requestTimeout: 300_000, connectionsCheckingInterval: 2_000 },
    (req, res) => {
      // `handle` answers every error itself; this only covers a failure while answering (the client is gone)
      handle(router, access, settled, req, res, guard).catch(() => res.destroy());
    },
  );
  server.maxConnections = maxConnections;
  return server;
}

async function handle(
  router: Router,
  access: Access,
  settled: () => Promise<void>,
  req: IncomingMessage,
  res: ServerResponse,
  guard?: RequestGuard,
): Promise<void> {
  try {
    const refused = guard?.(req);
    if (refused) throw refused;
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    const m = router.match(method, url.pathname);
    if (m === undefined) throw new CantonError('NOT_FOUND', `The requested resource could not be found: ${method} ${url.pathname}`);
    if (m === 'methodMismatch') throw new CantonError('METHOD_NOT_ALLOWED', `HTTP method ${method} is not supported for ${url.pathname}`);
    // Authentication and authorization (authz.ts) run before the handler; the body is read once and
    // shared, so rules may look at it without changing the handler's own validation order.
    const { user, auth } = await access.authenticate(req.headers.authorization);
    let bodyPromise: Promise<string> | undefined;
    const body = (): Promise<string> => (bodyPromise ??= readBody(req));
    const { idpScope } = await access.authorize(method, m.pattern, auth, {
      params: m.params,
      query: url.searchParams,
      json: async () => lenientJson(await body()),
    });
    // a reader must not see a group's effects before they are durable: it runs (and goes on after reading its body)
    // once everything committed is
    const gated = !m.groupCommitted;
    if (gated) await settled();
    const result = await m.handler({
      method,
      path: url.pathname,
      query: url.searchParams,
      params: m.params,
      user,
      auth,
      ...(idpScope !== undefined ? { idpScope } : {}),
      req,
      body: gated
        ? async () => {
            const text = await body();
            await settled();
            return text;
          }
        : body,
    });
    if ('json' in result) sendJson(res, result.status, result.json);
    else if ('jsonChunks' in result) {
      let length = 0;
      for (const c of result.jsonChunks) length += c.length;
      res.writeHead(result.status, { 'content-type': 'application/json', 'content-length': length });
      res.cork();
      for (const c of result.jsonChunks) res.write(c);
      res.uncork();
      res.end();
    } else if ('jsonStream' in result) {
      res.writeHead(result.status, { 'content-type': 'application/json' });
      // pulled as the socket drains; a failure after the head is sent can only cut the connection
      await pipeline(Readable.from(result.jsonStream), res).catch(() => res.destroy());
    } else if ('text' in result) sendText(res, result.status, result.text);
    else if ('binary' in result) {
      res.writeHead(result.status, { 'content-type': result.contentType, 'content-length': result.binary.length });
      res.end(result.binary);
    } else {
      res.writeHead(result.status);
      res.end();
    }
  } catch (err) {
    // Unexpected errors are logged for the operator; every error becomes a spec-shaped answer.
    if (!(err instanceof CantonError) && !(err instanceof DecodeError)) console.error('[simulator] internal error', err);
    // a refusal before the body was read (too large, not allowed): close after answering instead of reading the rest
    if (!req.complete) {
      res.shouldKeepAlive = false;
      lingerBeforeClosing(res.socket);
    }
    sendError(res, err);
  }
}

/** How long a connection closed after an early refusal stays half-open (`lingerBeforeClosing`). */
export const REFUSAL_LINGER_MS = 2_000;

/**
 * After an answer to a request whose body was not read, Node ends the connection and destroys the socket at once;
 * with the client's unread body in its buffer the kernel then sends a TCP reset, and a client still writing its body
 * (Node's own http client, for one) fails with EPIPE/ECONNRESET before it has read the answer — a 200 MB upload got
 * no answer at all, now and then, on a loaded machine. As Go's net/http does, the answer is followed by a FIN and the
 * socket is kept for `REFUSAL_LINGER_MS` (or until the client closes) before it is destroyed, so the client reads the
 * answer first. What the client sends meanwhile is not read: TCP holds it back at the client.
 */
function lingerBeforeClosing(socket: Socket | null): void {
  if (socket === null) return;
  // Node's server calls destroySoon() once the answer of a request without keep-alive is written
  socket.destroySoon = function lingering(this: Socket): void {
    this.end();
    const timer = setTimeout(() => this.destroy(), REFUSAL_LINGER_MS);
    timer.unref();
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(timer));
  };
}
