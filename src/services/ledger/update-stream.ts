/**
 * WebSocket client for a participant's `/v2/updates` (AsyncAPI): sends the `GetUpdatesRequest` as
 * the first message, then receives `JsGetUpdatesResponse` items (or one JsCantonError) until the
 * range ends or it is closed. With a token it authenticates with the subprotocols
 * `daml.ws.auth` + `jwt.token.<JWT>`, as real participants expect; without one it sends none.
 *
 * Backpressure: `pause()` stops reading the socket, so TCP flow control holds the participant
 * back; `resume()` continues. Consumers pause when their own queue is full.
 */
import { WebSocket, type RawData } from 'ws';
import { z } from 'zod';
import { ConsoleError } from '../../ipc/errors.js';
import type { GetUpdatesRequest, JsUpdate } from './updates.js';

export interface UpdateStreamOptions {
  /** The participant's Ledger API base URL (http/https). */
  baseUrl: string;
  token: string | null;
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

const JsCantonErrorSchema = z.object({
  code: z.string(),
  cause: z.string(),
  context: z.record(z.string(), z.string()).optional(),
  errorCategory: z.number().int().optional(),
  grpcCodeValue: z.number().int().optional(),
  correlationId: z.string().optional(),
  traceId: z.string().optional(),
});

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

function cantonError(value: unknown, httpStatus?: number): ConsoleError | null {
  const parsed = JsCantonErrorSchema.safeParse(value);
  if (!parsed.success) return null;
  const c = parsed.data;
  return new ConsoleError('LEDGER_API_ERROR', `${c.code}: ${c.cause}`, {
    ...c,
    context: c.context ?? {},
    ...(httpStatus !== undefined ? { httpStatus } : {}),
  });
}

function text(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

export function openUpdateStream(opts: UpdateStreamOptions): UpdateStreamHandle {
  const url = updatesWebSocketUrl(opts.baseUrl);
  const protocols = authSubprotocols(opts.token);
  const ws = new WebSocket(url, protocols, { handshakeTimeout: 10_000, maxPayload: 64 * 1024 * 1024 });
  let ended = false;
  let failed = false;
  let paused = false;
  let closedByUs = false;

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

  ws.on('open', () => {
    ws.send(JSON.stringify(opts.request));
    opts.onOpen?.();
  });
  ws.on('message', (data, isBinary) => {
    if (ended || closedByUs) return;
    let json: unknown;
    try {
      json = JSON.parse(text(data));
    } catch {
      fail(new ConsoleError('LEDGER_API_ERROR', `${url}: the participant sent a message that is not JSON${isBinary ? ' (binary)' : ''}`));
      ws.close();
      return;
    }
    if (json && typeof json === 'object' && 'update' in json) {
      const update = (json as { update?: JsUpdate }).update;
      if (update) opts.onUpdate(update);
      return;
    }
    const err = cantonError(json);
    if (err) {
      fail(err);
      ws.close();
      return;
    }
    fail(new ConsoleError('LEDGER_API_ERROR', `${url}: unexpected message from the participant`));
    ws.close();
  });
  ws.on('unexpected-response', (_req, res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      const status = res.statusCode ?? 0;
      const body = Buffer.concat(chunks).toString('utf8');
      let err: ConsoleError | null = null;
      try {
        err = cantonError(JSON.parse(body), status);
      } catch {
        // not JSON
      }
      const code = status === 401 || status === 403 ? 'FORBIDDEN' : 'LEDGER_API_ERROR';
      fail(
        err ??
          new ConsoleError(code, `WebSocket ${url} refused with HTTP ${status}`, {
            code: `HTTP_${status}`,
            cause: body.trim().slice(0, 300) || `HTTP ${status}`,
            context: {},
            httpStatus: status,
          }),
      );
      end(false);
    });
    res.on('error', () => end(false));
  });
  ws.on('error', (err) => {
    if (closedByUs) return;
    const timedOut = /timeout|timed out/i.test(err.message);
    fail(new ConsoleError('UNREACHABLE', `WebSocket ${url}: ${timedOut ? 'timed out' : 'could not connect'} (${err.message})`));
  });
  ws.on('close', (code) => {
    end(!failed && !closedByUs && (code === 1000 || code === 1005));
  });

  return {
    pause() {
      if (paused) return;
      paused = true;
      if (ws.readyState === WebSocket.OPEN) ws.pause();
      else ws.once('open', () => paused && ws.pause());
    },
    resume() {
      if (!paused) return;
      paused = false;
      if (ws.readyState === WebSocket.OPEN) ws.resume();
    },
    close() {
      if (closedByUs) return;
      closedByUs = true;
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
