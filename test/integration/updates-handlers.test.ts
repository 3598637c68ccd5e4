/**
 * The update channels through the real composition (startConsoleApp in demo mode: embedded
 * simulator over HTTP/WebSocket, contract router): batched live tail with pause/resume by stream
 * id, unsubscribe closing the stream, export as a subscription (file name checked by the contract,
 * cancel deletes the partial file).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startConsoleApp, type ConsoleApp } from '../../src/app/console-app.js';
import type { SubscriptionEvent } from '../../src/ipc/contract.js';

let app: ConsoleApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'updates-handlers-'));
  // The demo profile has no token, so the keychain is never read here.
  app = await startConsoleApp({ dataDir: dir, demo: true, transport: 'browser-host', keychainService: `updates-test-${process.pid}` });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

async function sim<T>(p: string, body?: unknown): Promise<T> {
  const res = await fetch(
    app.demoLedgerUrl + p,
    body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
const allocate = async (hint: string) =>
  (await sim<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: hint })).partyDetails.party;

type StreamEvent = SubscriptionEvent<'updates.stream'>;
type ExportEvent = SubscriptionEvent<'updates.export'>;

function subscribe<E>(channel: string, params: unknown) {
  const events: E[] = [];
  const r = app.router.subscribe(channel, params, (e) => events.push(e as E));
  if (!r.ok) throw new Error(r.error.message);
  return { events, unsubscribe: r.unsubscribe };
}

describe('updates.stream through the router', () => {
  it('tails in batches, pauses and resumes by stream id, and stops on unsubscribe', async () => {
    const streamId = 'test-stream-0001';
    const s = subscribe<StreamEvent>('updates.stream', { streamId, filter: { includeTopology: true }, beginExclusive: null, backlog: 0 });
    await expect.poll(() => s.events.some((e) => e.type === 'state' && e.state === 'live')).toBe(true);
    const offsets = () => s.events.flatMap((e) => (e.type === 'batch' ? e.items.map((i) => i.offset) : []));

    await allocate(`Tail${Date.now()}`);
    await expect.poll(() => offsets().length).toBe(1);
    expect(s.events.find((e) => e.type === 'batch' && e.items.length > 0)).toMatchObject({ items: [{ kind: 'topology' }] });

    expect(await app.router.invoke('updates.stream.control', { streamId, action: 'pause' })).toEqual({
      ok: true,
      value: { state: 'paused' },
    });
    await allocate(`Held${Date.now()}`);
    await new Promise((r) => setTimeout(r, 400));
    expect(offsets()).toHaveLength(1);
    expect(await app.router.invoke('updates.stream.control', { streamId, action: 'resume' })).toEqual({
      ok: true,
      value: { state: 'live' },
    });
    await expect.poll(() => offsets().length).toBe(2);

    s.unsubscribe();
    const after = s.events.length;
    await allocate(`Gone${Date.now()}`);
    await new Promise((r) => setTimeout(r, 300));
    expect(s.events.length).toBe(after);
    expect(await app.router.invoke('updates.stream.control', { streamId, action: 'pause' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });

  it('reports a participant error as an event and ends the stream', async () => {
    const s = subscribe<StreamEvent>('updates.stream', {
      streamId: 'test-stream-0002',
      filter: { templates: ['#simulator-demo:No:Such'] },
    });
    await expect
      .poll(() => s.events.find((e) => e.type === 'error'))
      .toMatchObject({
        error: { code: 'LEDGER_API_ERROR', canton: { code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND' } },
      });
    await expect.poll(() => s.events.at(-1)).toEqual({ type: 'state', state: 'closed' });
    s.unsubscribe();
  });
});

describe('updates.export through the router', () => {
  it('refuses paths in the file name before doing anything', () => {
    const r = app.router.subscribe('updates.export', { filter: {}, fileName: '../../etc/x' }, () => {});
    expect(r).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });

  it('writes the file into <data dir>/exports and reports progress up to done', async () => {
    const end = (await sim<{ offset: number }>('/v2/state/ledger-end')).offset;
    const s = subscribe<ExportEvent>('updates.export', {
      filter: { includeTopology: true },
      fileName: 'everything',
      beginExclusive: 0,
      endInclusive: end,
    });
    await expect.poll(() => s.events.at(-1)?.type, { timeout: 10_000 }).toBe('done');
    const done = s.events.at(-1) as Extract<ExportEvent, { type: 'done' }>;
    expect(done.path).toBe(path.join(dir, 'exports', 'everything.ndjson'));
    const lines = readFileSync(done.path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(done.lines);
    // Every offset from 1 to the end is one update visible to some party or a topology event.
    const range = await app.router.invoke('updates.range', {
      filter: { includeTopology: true },
      descending: false,
      limit: 1000,
      endInclusive: end,
    });
    expect(range.ok && (range.value as { items: unknown[] }).items.length).toBe(done.lines);
    expect(s.events[0]).toMatchObject({ type: 'progress', lines: 0, beginExclusive: 0, endInclusive: end });
    s.unsubscribe();
  });

  it('cancel (unsubscribe) leaves no file behind', async () => {
    const s = subscribe<ExportEvent>('updates.export', { filter: {}, fileName: 'cancelled-one' });
    s.unsubscribe();
    await new Promise((r) => setTimeout(r, 300));
    const files = existsSync(path.join(dir, 'exports')) ? readdirSync(path.join(dir, 'exports')) : [];
    expect(files.filter((f) => f.startsWith('cancelled-one'))).toEqual([]);
    expect(s.events.filter((e) => e.type === 'done' || e.type === 'error')).toEqual([]);
  });
});
