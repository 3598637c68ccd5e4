/**
 * WebSocket client for a participant's `/v2/commands/completions` (AsyncAPI): sends the
 * `CompletionStreamRequest` first, then receives `CompletionStreamResponse` items (completions and
 * offset checkpoints) until closed, or one JsCantonError. Auth as for the update stream, including one
 * reconnect with a refreshed token after a refusal.
 */
import { WebSocket, type RawData } from 'ws';
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { CompletionRow } from '../../ipc/contract.js';
import { ConsoleError } from '../../ipc/errors.js';
import { cantonError } from '../ledger-client.js';
import { RetryingSocket } from './token-retry.js';
import { authSubprotocols } from './update-stream.js';

type S = v3_5.components['schemas'];

export interface CompletionStreamOptions {
  baseUrl: string;
  token: string | null;
  /** The participant refused the token: a different one to reconnect with once, or null (see token-retry.ts). */
  refreshToken?: (rejected: string) => Promise<string | null>;
  request: S['CompletionStreamRequest'];
  onCompletion: (row: CompletionRow) => void;
  /** An offset checkpoint (the stream has seen everything up to it). */
  onCheckpoint?: (offset: number) => void;
  onOpen?: () => void;
  onError: (error: ConsoleError) => void;
  onEnd: () => void;
}

export function completionsWebSocketUrl(baseUrl: string): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + '/v2/commands/completions');
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * The Canton error code at the start of a status message, e.g.
 * `DUPLICATE_COMMAND(10,abc): A command with the given command id …` → `DUPLICATE_COMMAND`.
 */
export function cantonCodeOf(message: string): string | null {
  const m = /^\s*([A-Z][A-Z0-9_]{2,})(?=[(:\s]|$)/.exec(message);
  return m?.[1] ?? null;
}

export function completionRow(c: S['Completion1']): CompletionRow {
  const message = c.status?.message ?? '';
  const statusCode = c.status?.code ?? 0;
  return {
    commandId: c.commandId,
    submissionId: c.submissionId || null,
    updateId: c.updateId || null,
    userId: c.userId,
    actAs: c.actAs,
    offset: c.offset,
    recordTime: c.synchronizerTime.recordTime,
    synchronizerId: c.synchronizerTime.synchronizerId,
    statusCode,
    cantonCode: statusCode === 0 ? null : cantonCodeOf(message),
    message,
  };
}

function text(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

export function openCompletionStream(opts: CompletionStreamOptions): { close(): void } {
  const url = completionsWebSocketUrl(opts.baseUrl);
  let ended = false;
  let closedByUs = false;
  let received = false;
  const end = () => {
    if (ended) return;
    ended = true;
    opts.onEnd();
  };
  const fail = (err: ConsoleError) => {
    if (ended || closedByUs) return;
    opts.onError(err);
  };

  /** One socket; its events are ignored once a reconnect replaced it. */
  const connect = (token: string | null): WebSocket => {
    const ws = new WebSocket(url, authSubprotocols(token), { handshakeTimeout: 10_000, maxPayload: 16 * 1024 * 1024 });
    const current = () => sockets.isCurrent(ws);
    ws.on('open', () => {
      if (!current()) return;
      ws.send(JSON.stringify(opts.request));
      opts.onOpen?.();
    });
    ws.on('message', (data) => {
      if (!current() || ended || closedByUs) return;
      let msg: unknown;
      try {
        msg = JSON.parse(text(data));
      } catch {
        fail(new ConsoleError('LEDGER_API_ERROR', `${url}: the participant sent a message that is not JSON`));
        ws.close();
        return;
      }
      const r = (msg as S['CompletionStreamResponse'] | null)?.completionResponse;
      if (r && typeof r === 'object') {
        received = true;
        if ('Completion' in r) opts.onCompletion(completionRow(r.Completion.value));
        else if ('OffsetCheckpoint' in r) opts.onCheckpoint?.(r.OffsetCheckpoint.value.offset);
        return;
      }
      const err = cantonError(msg);
      if (err) {
        if (err.canton?.code === 'UNAUTHENTICATED' && sockets.retry(token, err)) return;
        fail(err);
        ws.close();
      }
    });
    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (!current()) return;
        const status = res.statusCode ?? 0;
        const body = Buffer.concat(chunks).toString('utf8').trim().slice(0, 300);
        const refusal = new ConsoleError(
          status === 401 || status === 403 ? 'FORBIDDEN' : 'LEDGER_API_ERROR',
          `WebSocket ${url} refused with HTTP ${status}`,
          {
            code: `HTTP_${status}`,
            cause: body || `HTTP ${status}`,
            context: {},
            httpStatus: status,
          },
        );
        if (status === 401 && sockets.retry(token, refusal)) return;
        fail(refusal);
        end();
      });
    });
    ws.on('error', (err) => current() && fail(new ConsoleError('UNREACHABLE', `WebSocket ${url}: could not connect (${err.message})`)));
    ws.on('close', () => current() && end());
    return ws;
  };

  const sockets = new RetryingSocket({
    refreshToken: opts.refreshToken,
    settled: () => received || closedByUs,
    closed: () => closedByUs,
    connect,
    giveUp: (err) => {
      fail(err);
      end();
    },
  });
  sockets.start(opts.token);
  return {
    close() {
      if (closedByUs) return;
      closedByUs = true;
      const ws = sockets.socket;
      if (ws?.readyState === WebSocket.CONNECTING) ws.terminate();
      else if (ws?.readyState === WebSocket.OPEN) ws.close(1000);
      end();
    },
  };
}
