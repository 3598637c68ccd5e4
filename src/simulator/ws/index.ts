/**
 * WebSocket endpoints (AsyncAPI channels). The client sends the request JSON as the first message;
 * the server streams items (or one JsCantonError) and, for open-ended streams, keeps tailing the
 * ledger as commits happen. Auth: `Sec-WebSocket-Protocol: daml.ws.auth, jwt.token.<JWT>` (or an
 * `Authorization` header; optional in demo mode). The token is authenticated at the upgrade; the stream's
 * authorization (the rule of the HTTP `POST` route of the same path, authz-rules.ts) is checked when the
 * first request message arrives, and a refusal is sent as one JsCantonError message before closing.
 */
import type http from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import type { Access } from '../authz.js';
import { lenientJson } from '../authz.js';
import type { RequestAuth } from '../auth.js';
import type { SimContext, StreamInfo } from '../context.js';
import type { RequestGuard } from '../server.js';
import { CantonError, DecodeError, errorText } from '../errors.js';
import { streamActiveContracts, streamCompletions, streamUpdates } from './streams.js';
import type { StreamSink } from './streams.js';

type ChannelHandler = (sim: SimContext, text: string, sink: StreamSink, user: string) => void;

const channels: Record<string, ChannelHandler> = {
  '/v2/updates': (sim, text, sink) => streamUpdates(sim, text, sink, 'flat'),
  '/v2/updates/flats': (sim, text, sink) => streamUpdates(sim, text, sink, 'flat'),
  '/v2/updates/trees': (sim, text, sink) => streamUpdates(sim, text, sink, 'tree'),
  '/v2/state/active-contracts': (sim, text, sink) => streamActiveContracts(sim, text, sink),
  '/v2/commands/completions': (sim, text, sink, user) => streamCompletions(sim, text, sink, user, 'legacy'),
  '/v2/commands/command-completions': (sim, text, sink, user) => streamCompletions(sim, text, sink, user, 'new'),
};

/** Paths of the WebSocket channels (each authorized with the rule of `POST <path>`). */
export const WS_CHANNEL_PATHS: readonly string[] = Object.keys(channels);

/** The `Authorization` value a WebSocket request carries: the `jwt.token.` subprotocol, else the header. */
function authorizationOf(req: http.IncomingMessage): string | undefined {
  const protocols = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  const token = protocols.find((p) => p.startsWith('jwt.token.'))?.slice('jwt.token.'.length);
  if (token) return `Bearer ${token}`;
  return req.headers.authorization;
}

function errorBody(err: unknown): unknown {
  if (err instanceof CantonError) return err.toBody();
  if (err instanceof DecodeError) return new CantonError('INVALID_ARGUMENT', err.message).toBody();
  return new CantonError('INTERNAL', `Internal simulator error: ${errorText(err)}`).toBody();
}

const tooManyStreams = (inUse: number, limit: number): CantonError =>
  new CantonError(
    'MAXIMUM_NUMBER_OF_STREAMS',
    `The number of streams in use (${inUse}) has reached or exceeded the ` +
      `limit (${limit}). Metrics are available at /simulator/admin/streams.`,
    { context: { value: String(inUse), limit: String(limit) } },
  );

/** Answers an upgrade request with the error as a JsCantonError body and closes the connection. */
export function refuseUpgrade(socket: Duplex, err: unknown): void {
  if (socket.destroyed) return;
  const status = err instanceof CantonError ? err.httpStatus : err instanceof DecodeError ? 400 : 500;
  const body = JSON.stringify(errorBody(err));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nconnection: close\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** A stream stops reading from the store while more than this many bytes wait for the client… */
export const HIGH_WATER_MARK = 1024 * 1024;
/** …and resumes once the socket buffer is below this. */
export const LOW_WATER_MARK = 256 * 1024;
let streamIds = 0;
const MAX_TIMER_MS = 2 ** 31 - 1;

export function attachWebSockets(server: http.Server, sim: SimContext, access: Access, guard?: RequestGuard): { close(): void } {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 8 * 1024 * 1024,
    handleProtocols: (protocols) => (protocols.has('daml.ws.auth') ? 'daml.ws.auth' : false),
  });
  const cleanups = new Set<() => void>();
  /** Upgrades being authenticated and open streams (counted from the upgrade request until the socket closes). */
  let streamsInUse = 0;

  server.on('upgrade', (req, socket, head) => {
    // Node leaves an upgraded socket without an 'error' listener: a client that resets the connection
    // (ECONNRESET) would otherwise be an uncaught exception in the console's process.
    socket.on('error', () => socket.destroy());
    const refused = guard?.(req);
    if (refused) {
      refuseUpgrade(socket, refused);
      return;
    }
    // each stream may buffer up to HIGH_WATER_MARK for a client that does not read: their number is bounded
    const limit = sim.settings.maxStreams;
    if (streamsInUse >= limit) {
      refuseUpgrade(socket, tooManyStreams(streamsInUse, limit));
      return;
    }
    streamsInUse++;
    socket.once('close', () => streamsInUse--);
    Promise.resolve()
      .then(() => access.authenticate(authorizationOf(req)))
      .then(
        // the client may have gone while an identity provider's JWKS was being fetched
        ({ user, auth }) => (socket.destroyed ? undefined : upgrade(req, socket, head, user, auth)),
        // demo mode: a token that is not a JWT (JWT modes report failures in `auth` instead)
        (err: unknown) => refuseUpgrade(socket, err),
      )
      .catch((err: unknown) => refuseUpgrade(socket, err));
  });

  const upgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer, user: string, auth: RequestAuth): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const handler = channels[path];
    if (!handler) {
      refuseUpgrade(socket, new CantonError('NOT_FOUND', `No WebSocket channel at ${path}`));
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      let started = false;
      let cleanup: (() => void) | undefined;
      let closed = false;
      const info: StreamInfo = {
        id: ++streamIds,
        channel: path,
        sent: 0,
        bufferedAmount: () => ws.bufferedAmount,
        maxBufferedAmount: 0,
        paused: false,
      };
      sim.streams.set(info.id, info);
      const drainWaiters: (() => void)[] = [];
      const wakeDrained = (): void => {
        for (const w of drainWaiters.splice(0)) w();
      };
      const rawSocket = (ws as unknown as { _socket?: { on(ev: string, fn: () => void): void; cork(): void; uncork(): void } })._socket;
      rawSocket?.on('drain', () => {
        if (ws.bufferedAmount <= LOW_WATER_MARK) wakeDrained();
      });
      const sendText = (text: string | Buffer): void => {
        if (ws.readyState !== ws.OPEN) return;
        ws.send(text, { binary: false });
        info.sent++;
        if (ws.bufferedAmount > info.maxBufferedAmount) info.maxBufferedAmount = ws.bufferedAmount;
      };
      const sink: StreamSink = {
        send: (item) => sendText(JSON.stringify(item)),
        sendRaw: (text) => sendText(text),
        fail: (err) => {
          if (ws.readyState === ws.OPEN) {
            ws.send(JSON.stringify(errorBody(err)));
            ws.close(1000);
          }
        },
        complete: () => {
          if (ws.readyState === ws.OPEN) ws.close(1000);
        },
        onClose: (fn) => {
          cleanup = fn;
          cleanups.add(fn);
        },
        writable: () => ws.bufferedAmount < HIGH_WATER_MARK,
        drained: () =>
          new Promise<void>((resolve) => {
            if (closed || ws.bufferedAmount <= LOW_WATER_MARK) resolve();
            else drainWaiters.push(resolve);
            // 'drain' fires only after a write was refused; poll as well so no wake-up is missed
            const poll = setInterval(() => {
              if (closed || ws.bufferedAmount <= LOW_WATER_MARK) {
                clearInterval(poll);
                wakeDrained();
              }
            }, 20);
            drainWaiters.push(() => clearInterval(poll));
          }),
        get closed() {
          return closed || ws.readyState !== ws.OPEN;
        },
        setPaused: (p) => {
          info.paused = p;
        },
        batch: (fn) => {
          rawSocket?.cork();
          try {
            return fn();
          } finally {
            rawSocket?.uncork();
          }
        },
      };
      // a client that connects and never sends its request would hold a stream slot forever
      const requestTimer = setTimeout(() => {
        if (!started)
          sink.fail(
            new CantonError('INVALID_ARGUMENT', `No request message within ${sim.settings.streamRequestTimeoutMs} ms of connecting`),
          );
      }, sim.settings.streamRequestTimeoutMs);
      ws.on('message', (data) => {
        if (started) return; // one request per connection
        started = true;
        clearTimeout(requestTimer);
        const text = Buffer.isBuffer(data)
          ? data.toString('utf8')
          : Array.isArray(data)
            ? Buffer.concat(data).toString('utf8')
            : Buffer.from(data).toString('utf8');
        access
          .authorize('POST', path, auth, { params: {}, query: url.searchParams, json: () => Promise.resolve(lenientJson(text)) })
          .then(() => {
            endAtExpiry(auth);
            handler(sim, text, sink, user);
          })
          .catch((err: unknown) => sink.fail(err));
      });
      // As Canton's ongoing authorization does, a stream opened with an expiring token ends when it expires.
      let expiryTimer: NodeJS.Timeout | undefined;
      const endAtExpiry = (a: RequestAuth): void => {
        if (a.mode !== 'jwt' || !a.result.ok || a.result.expiresAt === undefined) return;
        const expiresAtMs = a.result.expiresAt * 1000;
        const arm = (): void => {
          const left = expiresAtMs - Date.now();
          // timers cannot wait longer than 2^31-1 ms (they would fire at once): re-arm in steps
          if (left > MAX_TIMER_MS) expiryTimer = setTimeout(arm, MAX_TIMER_MS);
          else
            expiryTimer = setTimeout(
              () =>
                sink.fail(
                  new CantonError(
                    'UNAUTHENTICATED',
                    `The access token expired at ${new Date(expiresAtMs).toISOString()}; the stream is closed`,
                  ),
                ),
              Math.max(0, left),
            );
        };
        arm();
      };
      ws.on('close', () => {
        clearTimeout(requestTimer);
        clearTimeout(expiryTimer);
        closed = true;
        sim.streams.delete(info.id);
        wakeDrained();
        if (cleanup) {
          cleanup();
          cleanups.delete(cleanup);
        }
      });
      ws.on('error', () => ws.terminate());
    });
  };
  return {
    close() {
      for (const c of cleanups) c();
      cleanups.clear();
      for (const c of wss.clients) c.terminate();
      wss.close();
    },
  };
}
