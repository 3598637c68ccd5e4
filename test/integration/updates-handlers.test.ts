/**
 * The update channels through the real composition (startConsoleApp in demo mode: embedded
 * simulator over HTTP/WebSocket, contract router): batched live tail with pause/resume by stream
 * id, unsubscribe closing the stream; an update range exported through exports.run into the browser host's
 * download (file name checked by the contract, cancel withdraws the download).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startConsoleApp, type ConsoleApp } from '../../src/app/console-app.js';
import type { SubscriptionEvent } from '../../src/ipc/contract.js';
import { startDownloads, type Downloads, type ExportEvent } from '../support/exports.js';
import { must } from '../support/must.js';

let app: ConsoleApp;
let dir: string;
let downloads: Downloads;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'updates-handlers-'));
  // The demo profile has no token, so the keychain is never read here.
  downloads = await startDownloads();
  app = await startConsoleApp({
    dataDir: dir,
    demo: true,
    transport: 'browser-host',
    keychainService: `updates-test-${process.pid}`,
    exportSink: downloads.sink,
  });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
  await downloads.close();
});

async function sim<T>(p: string, body?: unknown): Promise<T> {
  const res = await fetch(
    must(app.demoLedgerUrl, 'the demo ledger URL') + p,
    body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
const allocate = async (hint: string) =>
  (await sim<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: hint })).partyDetails.party;

type StreamEvent = SubscriptionEvent<'updates.stream'>;

function subscribe(channel: 'updates.stream', params: unknown) {
  const events: StreamEvent[] = [];
  const r = app.router.subscribe(channel, params, (e) => events.push(e as StreamEvent));
  if (!r.ok) throw new Error(r.error.message);
  return { events, unsubscribe: r.unsubscribe };
}

describe('updates.stream through the router', () => {
  it('tails in batches, pauses and resumes by stream id, and stops on unsubscribe', async () => {
    const streamId = 'test-stream-0001';
    const s = subscribe('updates.stream', { streamId, filter: { includeTopology: true }, beginExclusive: null, backlog: 0 });
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
    const s = subscribe('updates.stream', {
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

describe('exports.run of an update range through the router', () => {
  it('refuses paths in the file name before doing anything', () => {
    const r = app.router.subscribe('exports.run', { kind: 'updates', filter: {}, fileName: '../../etc/x' }, () => {});
    expect(r).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });

  it('streams the range into the download and reports progress up to done', async () => {
    const end = (await sim<{ offset: number }>('/v2/state/ledger-end')).offset;
    const out = await downloads.run(app.router, {
      kind: 'updates',
      filter: { includeTopology: true },
      fileName: 'everything',
      beginExclusive: 0,
      endInclusive: end,
    });
    expect(out.done).toMatchObject({ fileName: 'everything.ndjson', location: { kind: 'download' } });
    expect(out.done.bytes).toBe(Buffer.byteLength(out.text));
    const lines = out.text.trim().split('\n');
    expect(lines).toHaveLength(must(out.done.lines, 'the exported line count'));
    // Every offset from 1 to the end is one update visible to some party or a topology event.
    const range = await app.router.invoke('updates.range', {
      filter: { includeTopology: true },
      descending: false,
      limit: 1000,
      endInclusive: end,
    });
    expect(range.ok && (range.value as { items: unknown[] }).items.length).toBe(lines.length);
    expect(out.events[0]).toMatchObject({ type: 'ready', fileName: 'everything.ndjson' });
    expect(out.events.filter((e) => e.type === 'progress').at(-1)).toMatchObject({ fraction: 1, lines: lines.length });
  });

  it('cancel (unsubscribe) withdraws the download and reports nothing more', async () => {
    const events: ExportEvent[] = [];
    const r = app.router.subscribe('exports.run', { kind: 'updates', filter: {}, fileName: 'cancelled-one' }, (e) => {
      events.push(e as ExportEvent);
    });
    if (!r.ok) throw new Error(r.error.message);
    await expect.poll(() => events.find((e) => e.type === 'ready')).toBeDefined();
    const ready = must(
      events.find((e) => e.type === 'ready'),
      'the ready event',
    );
    r.unsubscribe();
    const res = await fetch(downloads.base + ready.url);
    expect(res.status).toBe(404);
    await res.arrayBuffer();
    expect(events.filter((e) => e.type !== 'ready')).toEqual([]);
  });
});
