/**
 * WebSocket client for a participant's `/v2/updates` (AsyncAPI): sends the `GetUpdatesRequest` as
 * the first message, then receives `JsGetUpdatesResponse` items (or one JsCantonError) until the
 * range ends or it is closed. With a token it authenticates with the subprotocols
 * `daml.ws.auth` + `jwt.token.<JWT>`, as real participants expect; without one it sends none. A
 * refused token (401 at the handshake, or UNAUTHENTICATED before any update) is retried once with a
 * token from `refreshToken`, when given.
 *
 * Backpressure: `pause()` stops reading the socket, so TCP flow control holds the participant
 * back; `resume()` continues. Consumers pause when their own queue is full.
 */
import { WebSocket, type RawData } from 'ws';
import { ConsoleError } from '../../ipc/errors.js';
import { cantonError } from '../ledger-client.js';
import { RetryingSocket } from './token-retry.js';
import type { GetUpdatesRequest, JsUpdate } from './updates.js';

export interface UpdateStreamOptions {
  /** The participant's Ledger API base URL (http/https). */
  baseUrl: string;
  token: string | null;
  /**
   * The participant refused the token (401 handshake or UNAUTHENTICATED first message): a different
   * token to reconnect with once (e.g. a refreshed OAuth2 token), or null to report the refusal.
   */
  refreshToken?: (rejected: string) => Promise<string | null>;
  request: GetUpdatesRequest;
  onUpdate: (update: JsUpdate) => void;
  /** The participant answered with an error, or the connection failed. Followed by onEnd. */
  onError: (error: ConsoleError) => void;
  /** The socket opened and the request was sent. */
  onOpen?: () => void;
  /** The stream ended: `complete` = the participant closed it normally (bounded range finished). */
  onEnd: (complete: boolean) => void;
}

export interface UpdateStreamHandle {
  pause(): void;
  resume(): void;
  close(): void;
  readonly paused: boolean;
}

/** `http://host:port/base` → `ws://host:port/base/v2/updates`. */
export function updatesWebSocketUrl(baseUrl: string): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + '/v2/updates');
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** Subprotocols for JSON API WebSocket auth; none without a token. */
export function authSubprotocols(token: string | null): string[] {
  return token ? ['daml.ws.auth', `jwt.token.${token}`] : [];
}

function text(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

export function openUpdateStream(opts: UpdateStreamOptions): UpdateStreamHandle {
  const url = updatesWebSocketUrl(opts.baseUrl);
  let ended = false;
  let failed = false;
  let paused = false;
  let closedByUs = false;
  let received = false;

  const end = (complete: boolean) => {
    if (ended) return;
    ended = true;
    opts.onEnd(complete);
  };
  const fail = (err: ConsoleError) => {
    if (failed || ended) return;
    failed = true;
    opts.onError(err);
  };

  /** One socket; its events are ignored once a reconnect replaced it. */
  const connect = (token: string | null): WebSocket => {
    const socket = new WebSocket(url, authSubprotocols(token), { handshakeTimeout: 10_000, maxPayload: 64 * 1024 * 1024 });
    const current = () => sockets.isCurrent(socket);

    socket.on('open', () => {
      if (!current()) return;
      socket.send(JSON.stringify(opts.request));
      if (paused) socket.pause();
      opts.onOpen?.();
    });
    socket.on('message', (data, isBinary) => {
      if (!current() || ended || closedByUs) return;
      let json: unknown;
      try {
        json = JSON.parse(text(data));
      } catch {
        fail(new ConsoleError('LEDGER_API_ERROR', `${url}: the participant sent a message that is not JSON${isBinary ? ' (binary)' : ''}`));
        socket.close();
        return;
      }
      if (json && typeof json === 'object' && 'update' in json) {
        const update = (json as { update?: JsUpdate }).update;
        received = true;
        if (update) opts.onUpdate(update);
        return;
      }
      const err = cantonError(json);
      if (err) {
        if (err.canton?.code === 'UNAUTHENTICATED' && sockets.retry(token, err)) return;
        fail(err);
        socket.close();
        return;
      }
      fail(new ConsoleError('LEDGER_API_ERROR', `${url}: unexpected message from the participant`));
      socket.close();
    });
    socket.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (!current()) return;
        const status = res.statusCode ?? 0;
        const body = Buffer.concat(chunks).toString('utf8');
        let err: ConsoleError | null = null;
        try {
          err = cantonError(JSON.parse(body), status);
        } catch {
          // not JSON
        }
        const code = status === 401 || status === 403 ? 'FORBIDDEN' : 'LEDGER_API_ERROR';
        const refusal =
          err ??
          new ConsoleError(code, `WebSocket ${url} refused with HTTP ${status}`, {
            code: `HTTP_${status}`,
            cause: body.trim().slice(0, 300) || `HTTP ${status}`,
            context: {},
            httpStatus: status,
          });
        // The token was refused (e.g. the identity provider rotated its key): one reconnect with a new one.
        if (status === 401 && sockets.retry(token, refusal)) return;
        fail(refusal);
        end(false);
      });
      res.on('error', () => current() && end(false));
    });
    socket.on('error', (err) => {
      if (!current() || closedByUs) return;
      const timedOut = /timeout|timed out/i.test(err.message);
      fail(new ConsoleError('UNREACHABLE', `WebSocket ${url}: ${timedOut ? 'timed out' : 'could not connect'} (${err.message})`));
    });
    socket.on('close', (code) => {
      if (!current()) return;
      end(!failed && !closedByUs && (code === 1000 || code === 1005));
    });
    return socket;
  };

  const sockets = new RetryingSocket({
    refreshToken: opts.refreshToken,
    settled: () => received || closedByUs,
    closed: () => closedByUs,
    connect,
    giveUp: (err) => {
      fail(err);
      end(false);
    },
  });
  sockets.start(opts.token);

  return {
    pause() {
      if (paused) return;
      paused = true;
      // Not open yet: the open handler pauses it.
      if (sockets.socket?.readyState === WebSocket.OPEN) sockets.socket.pause();
    },
    resume() {
      if (!paused) return;
      paused = false;
      if (sockets.socket?.readyState === WebSocket.OPEN) sockets.socket.resume();
    },
    close() {
      if (closedByUs) return;
      closedByUs = true;
      const ws = sockets.socket;
      if (!ws) {
        // Between a refusal and the reconnect: nothing is open.
        end(false);
        return;
      }
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else if (ws.readyState === WebSocket.OPEN) {
        // A paused socket would not read the peer's close frame; resume so the close handshake completes.
        if (paused) ws.resume();
        ws.close(1000);
      }
      end(false);
    },
    get paused() {
      return paused;
    },
  };
}
