/**
 * Reading the simulator as a client does — HTTP (every answer validated against the reference OpenAPI
 * by helpers.call) and WebSocket (every message validated against the reference AsyncAPI) — and
 * comparing answers with the model.
 */
import WebSocket from 'ws';
import type { ApiResponse } from '../helpers.js';
import { asyncApi, call } from '../helpers.js';
import type { OpaqueValues } from './compare.js';
import { diff } from './compare.js';
import type { ModelLedger } from './ledger.js';
import type { CheckpointExpectation } from './rules-reads.js';

export type WsChannel =
  | '/v2/updates'
  | '/v2/updates/flats'
  | '/v2/updates/trees'
  | '/v2/state/active-contracts'
  | '/v2/commands/completions'
  | '/v2/commands/command-completions';

const MESSAGE_SCHEMA: Record<WsChannel, string> = {
  '/v2/updates': 'JsGetUpdatesResponse',
  '/v2/updates/flats': 'JsGetUpdatesResponse',
  '/v2/updates/trees': 'JsGetUpdateTreesResponse',
  '/v2/state/active-contracts': 'JsGetActiveContractsResponse',
  '/v2/commands/completions': 'CompletionStreamResponse',
  '/v2/commands/command-completions': 'CompletionStreamResponse',
};

/**
 * Sends `request` on a WebSocket channel and collects messages until the server closes the stream
 * (or, for open-ended streams, until `until` says the last message ends it). Every message must match
 * the channel's AsyncAPI schema.
 */
export function wsRead(base: string, channel: WsChannel, request: unknown, until?: (m: unknown) => boolean): Promise<unknown[]> {
  const validate = asyncApi().schema(MESSAGE_SCHEMA[channel]);
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + channel, ['daml.ws.auth']);
    const messages: unknown[] = [];
    const fail = (e: Error): void => {
      ws.terminate();
      reject(e);
    };
    const timer = setTimeout(() => fail(new Error(`${channel}: no end after 60 s; ${messages.length} messages`)), 60_000);
    ws.on('open', () => ws.send(JSON.stringify(request)));
    ws.on('message', (d: Buffer) => {
      const m = JSON.parse(d.toString('utf8')) as unknown;
      if (typeof m === 'object' && m !== null && 'code' in m && 'cause' in m) {
        clearTimeout(timer);
        fail(new Error(`${channel}: error message ${JSON.stringify(m)}`));
        return;
      }
      if (!validate(m)) {
        clearTimeout(timer);
        fail(
          new Error(
            `${channel}: message does not match ${MESSAGE_SCHEMA[channel]}: ${JSON.stringify(validate.errors?.slice(0, 3))}\n` +
              JSON.stringify(m).slice(0, 600),
          ),
        );
        return;
      }
      messages.push(m);
      if (until?.(m)) {
        clearTimeout(timer);
        ws.close();
        resolve(messages);
      }
    });
    ws.on('close', () => {
      clearTimeout(timer);
      resolve(messages);
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** The first error message of a WebSocket stream (which must then close). */
export function wsError(base: string, channel: WsChannel, request: unknown): Promise<{ code: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + channel, ['daml.ws.auth']);
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`${channel}: no error within 30 s`));
    }, 30_000);
    ws.on('open', () => ws.send(JSON.stringify(request)));
    ws.on('message', (d: Buffer) => {
      clearTimeout(timer);
      const m = JSON.parse(d.toString('utf8')) as { code: string };
      const v = asyncApi().schema('JsCantonError');
      if (!v(m)) reject(new Error(`${channel}: not a JsCantonError: ${d.toString('utf8').slice(0, 300)}`));
      else resolve(m);
      ws.close();
    });
    ws.on('error', reject);
  });
}

/** POST and expect 200 (the body is validated against the spec by `call`). */
export async function post(base: string, specPath: string, body: unknown, path?: string): Promise<unknown> {
  const r = await call(base, 'POST', specPath, { body, ...(path ? { path } : {}) });
  if (r.status !== 200)
    throw new Error(`POST ${path ?? specPath} → ${r.status}: ${r.text.slice(0, 500)}\nrequest: ${JSON.stringify(body).slice(0, 500)}`);
  return r.json;
}

export async function get(base: string, specPath: string, path: string): Promise<ApiResponse> {
  return call(base, 'GET', specPath, { path });
}

/**
 * Splits a list answer into its elements and its trailing OffsetCheckpoint (if any) and checks the
 * checkpoint: at the expected offset, naming every connected synchronizer.
 */
export function splitCheckpoint(
  items: unknown[],
  key: 'update' | 'completionResponse',
  expected: CheckpointExpectation | undefined,
  ledger: ModelLedger,
  what: string,
): unknown[] {
  const last = items.at(-1) as
    Record<string, Record<string, { value: { offset: number; synchronizerTimes: { synchronizerId: string }[] } }>> | undefined;
  const cp = last?.[key]?.OffsetCheckpoint?.value;
  const body = cp ? items.slice(0, -1) : items;
  if (expected === undefined && cp) throw new Error(`${what}: unexpected OffsetCheckpoint at ${cp.offset}`);
  if (expected !== undefined) {
    if (!cp)
      throw new Error(
        `${what}: expected an OffsetCheckpoint at ${expected.offset}, the answer ends with ${JSON.stringify(last).slice(0, 200)}`,
      );
    if (cp.offset !== expected.offset) throw new Error(`${what}: OffsetCheckpoint at ${cp.offset}, expected ${expected.offset}`);
    const syncs = cp.synchronizerTimes.map((s) => s.synchronizerId).sort();
    if (JSON.stringify(syncs) !== JSON.stringify([...ledger.synchronizers].sort()))
      throw new Error(`${what}: OffsetCheckpoint names synchronizers ${JSON.stringify(syncs)}`);
  }
  return body;
}

/** Throws with the differences (and `what`, the request) when the answer differs from the model. */
export function assertSame(what: string, expected: unknown, actual: unknown, opaques: OpaqueValues): void {
  const d = diff(expected, actual, opaques);
  if (d.length > 0) throw new Error(`${what}\n${d.join('\n')}`);
}
