/**
 * Cancelling a long read end to end: renderer client → browser host WebSocket (`cancel` frame) →
 * router (AbortSignal) → handler → LedgerClient fetch → participant. The participant is the real
 * simulator with a few hundred updates, behind a proxy that passes the answer on slowly (as a slow
 * network would) and records whether the console dropped the connection mid-answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { startHost, type RunningHost } from '../../src/host/server.js';
import { createRouter } from '../../src/ipc/router.js';
import { ConsoleClient, IpcCallError } from '../../src/ipc/client.js';
import { WebSocketTransport, type WsLike } from '../../src/ipc/ws-transport.js';
import { LedgerClient } from '../../src/services/ledger-client.js';
import { updatesHandlers } from '../../src/app/handlers/updates.js';
import { adminHandlers } from '../../src/app/handlers/admin.js';
import { withHandlers, withSubscriptions } from '../support/handlers.js';
import { must } from '../support/must.js';
import { startSlowParticipant, type SlowParticipant } from '../support/slow-participant.js';

const PARTIES = 300;

let dir: string;
let sim: RunningSimulator;
let slow: SlowParticipant;
let host: RunningHost;
let client: ConsoleClient;
let ws: WebSocket;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ipc-cancel-'));
  sim = await startSimulator({ dataDir: path.join(dir, 'sim'), port: 0 });
  // Every allocation is a topology update: a few hundred make a range answer of a few hundred KiB.
  for (let i = 0; i < PARTIES; i += 20) {
    await Promise.all(
      Array.from({ length: 20 }, async (_, k) => {
        const res = await fetch(`${sim.url}/v2/parties`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ partyIdHint: `Bulk${i + k}` }),
        });
        if (!res.ok) throw new Error(`allocate: ${res.status} ${await res.text()}`);
      }),
    );
  }
  slow = await startSlowParticipant(sim.url, { slow: (p) => p.startsWith('/v2/updates'), bytesPerTick: 4096, tickMs: 100 });
  const ledger = new LedgerClient({ baseUrl: slow.url, timeoutMs: 60_000 });
  const deps = { activeClient: () => ({ client: ledger }) };
  const router = createRouter(withHandlers({ ...updatesHandlers(deps), ...adminHandlers(deps) }), withSubscriptions({}));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  host = await startHost({ router, staticDir: dir });
  ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc?token=${host.token}`, { headers: { origin: `http://127.0.0.1:${host.port}` } });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  client = new ConsoleClient(new WebSocketTransport(ws as unknown as WsLike));
}, 120_000);

afterAll(async () => {
  // unassigned when beforeAll failed before starting them
  (ws as WebSocket | undefined)?.close();
  const started: Array<{ close(): Promise<void> } | undefined> = [host, slow, sim];
  for (const s of started) await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

// 199 (+1 to tell whether there is more) stays within the simulator's 200-element list limit.
const rangeRequest = { filter: { includeTopology: true }, beginExclusive: 0, descending: false, limit: 199 };

describe('cancelling a long read', () => {
  it('a full read through the slow participant takes seconds (the baseline the cancel cuts short)', async () => {
    const started = Date.now();
    const page = await client.call('updates.range', { ...rangeRequest, limit: 100 });
    expect(page.items.length).toBe(100);
    const read = must(slow.reads.at(-1), 'a read of the slow participant');
    await expect.poll(() => read.completed).toBe(true);
    expect(read.closedEarly).toBe(false);
    expect(Date.now() - started).toBeGreaterThan(500);
  }, 60_000);

  it('aborts the participant request mid-answer and answers CANCELLED at once; the next call works', async () => {
    const before = slow.reads.length;
    const controller = new AbortController();
    const pending = client.call('updates.range', rangeRequest, { signal: controller.signal });
    const outcome = pending.then(
      () => 'answered',
      (err: unknown) => err,
    );
    // Wait until the participant's answer is flowing, then cancel in the middle of it.
    await expect.poll(() => slow.reads[before]?.bytesSent ?? 0, { timeout: 20_000 }).toBeGreaterThan(8_000);
    const cancelledAt = Date.now();
    controller.abort();
    const err = await outcome;
    expect(Date.now() - cancelledAt).toBeLessThan(500);
    expect(err).toBeInstanceOf(IpcCallError);
    expect((err as IpcCallError).error.code).toBe('CANCELLED');

    // On the participant side: the console closed its connection before the answer was complete,
    // and the connection to the simulator was dropped with it.
    const read = must(slow.reads[before], 'the read after the cancel');
    await expect.poll(() => read.closedEarly, { timeout: 5_000 }).toBe(true);
    expect(read.completed).toBe(false);
    expect(read.upstreamAborted).toBe(true);
    const sentAtCancel = read.bytesSent;
    await new Promise((r) => setTimeout(r, 400));
    expect(read.bytesSent).toBe(sentAtCancel);

    // The same connection carries the next call normally.
    const users = await client.call('users.list', {});
    expect(users.users.length).toBeGreaterThan(0);
  }, 60_000);

  it('a signal aborted before the call sends nothing to the participant', async () => {
    const before = slow.reads.length;
    const controller = new AbortController();
    controller.abort();
    await expect(client.call('updates.range', rangeRequest, { signal: controller.signal })).rejects.toMatchObject({
      error: { code: 'CANCELLED' },
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(slow.reads.length).toBe(before);
  });

  it('closing the renderer connection aborts its calls in flight', async () => {
    const before = slow.reads.length;
    const other = new WebSocket(`ws://127.0.0.1:${host.port}/ipc?token=${host.token}`, {
      headers: { origin: `http://127.0.0.1:${host.port}` },
    });
    await new Promise((resolve) => other.once('open', resolve));
    const otherClient = new ConsoleClient(new WebSocketTransport(other as unknown as WsLike));
    const pending = otherClient.call('updates.range', rangeRequest).catch((err: unknown) => err);
    await expect.poll(() => slow.reads[before]?.bytesSent ?? 0, { timeout: 20_000 }).toBeGreaterThan(4_000);
    other.close();
    expect(await pending).toMatchObject({ error: { code: 'UNREACHABLE' } });
    await expect.poll(() => slow.reads[before]?.closedEarly, { timeout: 5_000 }).toBe(true);
  }, 60_000);
});
