/** Update stream services (HTTP ranges, lookups, WebSocket tail, NDJSON export) against the real simulator. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { WebSocketServer } from 'ws';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { LedgerClient } from '../../src/services/ledger-client.js';
import { UpdateFilterSchema, type UpdateFilterInput } from '../../src/ipc/contract.js';
import { ConsoleError } from '../../src/ipc/errors.js';
import { buildUpdateFormat, fetchUpdate, fetchUpdateRange, listParties, type JsUpdate } from '../../src/services/ledger/updates.js';
import { openUpdateStream } from '../../src/services/ledger/update-stream.js';
import { exportUpdatesNdjson } from '../../src/services/ledger/export-ndjson.js';
import { must } from '../support/must.js';

let sim: RunningSimulator;
let dir: string;
let client: LedgerClient;
let alice: string;
let bob: string;
let bank: string;

const IOU = '#simulator-demo:Demo.Iou:Iou';
const filter = (f: UpdateFilterInput = {}) => UpdateFilterSchema.parse(f);

async function post<T>(p: string, body: unknown): Promise<T> {
  const res = await fetch(sim.url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
let cmd = 0;
async function createIou(issuer: string, owner: string, amount = '10.0'): Promise<number> {
  const r = await post<{ completionOffset: number }>('/v2/commands/submit-and-wait', {
    commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer, owner, currency: 'USD', amount, observers: [] } } }],
    commandId: `updates-test-${++cmd}-${Date.now()}`,
    actAs: [issuer],
  });
  return r.completionOffset;
}
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
const ledgerEnd = async () => (await client.ledgerEnd()).offset ?? 0;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'updates-services-'));
  sim = await startSimulator({ dataDir: path.join(dir, 'sim'), port: 0, seedDemo: true });
  client = new LedgerClient({ baseUrl: sim.url });
  const parties = await listParties(client);
  const find = (hint: string) => parties.find((p) => p.party.startsWith(`${hint}::`))?.party ?? '';
  [alice, bob, bank] = [find('Alice'), find('Bob'), find('Bank')];
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('update ranges over HTTP', () => {
  it('lists the demo parties, local first', () => {
    expect(alice).toMatch(/^Alice::/);
    expect(bob).toMatch(/^Bob::/);
    expect(bank).toMatch(/^Bank::/);
  });

  it('returns newest first, pages with next bounds, and stops at the range', async () => {
    const all = await fetchUpdateRange(client, filter(), { beginExclusive: 0, endInclusive: null, descending: true, limit: 1000 });
    expect(all.items.length).toBeGreaterThanOrEqual(3);
    const offsets = all.items.map((i) => i.offset);
    expect(offsets).toEqual([...offsets].sort((a, b) => b - a));
    expect(all.next).toBeNull();

    const first = await fetchUpdateRange(client, filter(), { beginExclusive: 0, endInclusive: null, descending: true, limit: 2 });
    expect(first.items.map((i) => i.offset)).toEqual(offsets.slice(0, 2));
    expect(first.next).not.toBeNull();
    const second = await fetchUpdateRange(client, filter(), { ...must(first.next, 'the next page bounds'), descending: true, limit: 2 });
    expect(second.items.map((i) => i.offset)).toEqual(offsets.slice(2, 4));

    const asc = await fetchUpdateRange(client, filter(), { beginExclusive: 0, endInclusive: null, descending: false, limit: 1000 });
    expect(asc.items.map((i) => i.offset)).toEqual([...offsets].reverse());
  });

  it('filters by party: only updates the party is a stakeholder of', async () => {
    const r = await fetchUpdateRange(client, filter({ parties: [bob] }), {
      beginExclusive: 0,
      endInclusive: null,
      descending: true,
      limit: 1000,
    });
    expect(r.items.length).toBeGreaterThan(0);
    for (const item of r.items) expect(item.parties).toContain(bob);
    const all = await fetchUpdateRange(client, filter(), { beginExclusive: 0, endInclusive: null, descending: true, limit: 1000 });
    expect(r.items.length).toBeLessThan(all.items.length);
  });

  it('filters by template (package-name form without #) and summarises events', async () => {
    const r = await fetchUpdateRange(client, filter({ templates: ['simulator-demo:Demo.Account:Account'] }), {
      beginExclusive: 0,
      endInclusive: null,
      descending: true,
      limit: 100,
    });
    expect(r.items).toHaveLength(1);
    const account = must(r.items[0], 'the Account update');
    expect(account.templates).toEqual(['Demo.Account:Account']);
    expect(account.counts.created).toBe(2);
  });

  it('reports an unknown template as a structured Canton error', async () => {
    const err = await fetchUpdateRange(client, filter({ templates: ['#simulator-demo:Nope:Nope'] }), {
      beginExclusive: 0,
      endInclusive: null,
      descending: true,
      limit: 10,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConsoleError);
    expect((err as ConsoleError).canton?.code).toBe('TEMPLATES_OR_INTERFACES_NOT_FOUND');
  });
});

describe('update lookups and the event tree', () => {
  it('nests ledger-effects events under their exercise by node ids', async () => {
    const r = await fetchUpdateRange(client, filter({ shape: 'LEDGER_EFFECTS' }), {
      beginExclusive: 0,
      endInclusive: null,
      descending: false,
      limit: 100,
    });
    const split = must(
      r.items.find((i) => i.counts.exercised > 0),
      'an update with an exercise',
    );
    const detail = await fetchUpdate(client, filter({ shape: 'LEDGER_EFFECTS' }), { offset: split.offset });
    const [root, ...children] = detail.events;
    expect(root).toMatchObject({ kind: 'exercised', choice: 'Iou_Split', depth: 0, consuming: true });
    expect(children.length).toBe(2);
    for (const c of children) expect(c).toMatchObject({ kind: 'created', depth: 1 });
    expect(JSON.parse(detail.json)).toHaveProperty('Transaction');

    const byId = await fetchUpdate(client, filter({ shape: 'LEDGER_EFFECTS' }), {
      updateId: must(detail.summary.updateId, 'the update id'),
    });
    expect(byId.summary.offset).toBe(split.offset);

    // ACS delta of the same update: archive + two creates, all at depth 0.
    const delta = await fetchUpdate(client, filter(), { offset: split.offset });
    expect(delta.events.map((e) => e.kind).sort()).toEqual(['archived', 'created', 'created']);
    expect(delta.events.every((e) => e.depth === 0)).toBe(true);
  });

  it('answers UPDATE_NOT_FOUND for an unknown id', async () => {
    const err = await fetchUpdate(client, filter(), { updateId: 'no-such-update' }).catch((e: unknown) => e);
    expect((err as ConsoleError).code).toBe('LEDGER_API_ERROR');
    expect((err as ConsoleError).canton?.code).toBe('UPDATE_NOT_FOUND');
  });
});

describe('live tail over the WebSocket', () => {
  it('delivers a newly committed update, holds it while paused, and closes on request', async () => {
    const begin = await ledgerEnd();
    const transactions = (us: JsUpdate[]) => us.filter((u) => 'Transaction' in u).length;
    // `got` is the stream under test; `witness` is a second stream that is never paused: once it has an update, the
    // participant has sent it to both, so the paused stream had every chance to deliver it.
    const open = (onUpdate: (u: JsUpdate) => void, onEnd: () => void) => {
      const opened = deferred<undefined>();
      const stream = openUpdateStream({
        baseUrl: sim.url,
        token: null,
        request: { beginExclusive: begin, updateFormat: buildUpdateFormat(filter({ parties: [alice] })) },
        onOpen: () => opened.resolve(undefined),
        onUpdate,
        onError: (e) => {
          throw e;
        },
        onEnd,
      });
      return { stream, opened: opened.promise };
    };
    const got: JsUpdate[] = [];
    const witnessed: JsUpdate[] = [];
    let ended = false;
    const { stream: s, opened } = open(
      (u) => got.push(u),
      () => (ended = true),
    );
    const witness = open(
      (u) => witnessed.push(u),
      () => undefined,
    );
    await Promise.all([opened, witness.opened]);
    const offset = await createIou(bank, alice);
    await expect.poll(() => transactions(got)).toBe(1);
    const first = must(got[0], 'the first update');
    expect('Transaction' in first && first.Transaction.value.offset).toBe(offset);
    // Bob's Iou is not visible to Alice.
    await createIou(bank, bob);

    s.pause();
    await createIou(bank, alice);
    await expect.poll(() => transactions(witnessed)).toBe(2);
    // one more round trip to the participant, so a frame the paused socket had read would have been delivered
    await ledgerEnd();
    expect(transactions(got)).toBe(1);
    s.resume();
    await expect.poll(() => transactions(got)).toBe(2);
    s.close();
    witness.stream.close();
    expect(ended).toBe(true);
  });

  it('reports a bad request as the participant error', async () => {
    const failure = deferred<ConsoleError>();
    openUpdateStream({
      baseUrl: sim.url,
      token: null,
      request: { beginExclusive: (await ledgerEnd()) + 1000, updateFormat: buildUpdateFormat(filter()) },
      onUpdate: () => {},
      onError: (e) => failure.resolve(e),
      onEnd: () => {},
    });
    const err = await failure.promise;
    expect(err.canton?.code).toBe('OFFSET_AFTER_LEDGER_END');
  });

  it('sends the auth subprotocols only when there is a token', async () => {
    const seen: string[][] = [];
    const wss = new WebSocketServer({
      port: 0,
      host: '127.0.0.1',
      handleProtocols: (p) => (p.has('daml.ws.auth') ? 'daml.ws.auth' : false),
    });
    wss.on('connection', (ws, req) => {
      seen.push(
        (req.headers['sec-websocket-protocol'] ?? '')
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      );
      ws.close(1000);
    });
    await new Promise((r) => wss.once('listening', r));
    const url = `http://127.0.0.1:${(wss.address() as AddressInfo).port}`;
    const run = (token: string | null) =>
      new Promise<void>((resolve) =>
        openUpdateStream({
          baseUrl: url,
          token,
          request: { beginExclusive: 0 },
          onUpdate: () => {},
          onError: () => {},
          onEnd: () => resolve(),
        }),
      );
    await run('header.payload.sig');
    await run(null);
    wss.close();
    expect(seen).toEqual([['daml.ws.auth', 'jwt.token.header.payload.sig'], []]);
  });
});

describe('NDJSON export', () => {
  it('writes one line per update in the range', async () => {
    const end = await ledgerEnd();
    const exportDir = path.join(dir, 'exports');
    const progress: number[] = [];
    const r = await exportUpdatesNdjson({
      baseUrl: sim.url,
      token: null,
      updateFormat: buildUpdateFormat(filter()),
      beginExclusive: 0,
      endInclusive: end,
      dir: exportDir,
      fileName: 'all updates',
      onProgress: (p) => progress.push(p.lines),
    });
    expect(r.path).toBe(path.join(exportDir, 'all updates.ndjson'));
    const lines = readFileSync(r.path, 'utf8').trim().split('\n');
    const expected = await fetchUpdateRange(client, filter(), { beginExclusive: 0, endInclusive: end, descending: false, limit: 1000 });
    expect(lines).toHaveLength(expected.items.length);
    expect(r.lines).toBe(expected.items.length);
    const offsets = lines.map((l) => {
      const u = (JSON.parse(l) as { update: JsUpdate }).update;
      return 'Transaction' in u ? u.Transaction.value.offset : 'TopologyTransaction' in u ? u.TopologyTransaction.value.offset : -1;
    });
    expect(offsets).toEqual(expected.items.map((i) => i.offset));
    expect(progress.at(-1)).toBe(lines.length);

    // The same name again is refused instead of overwriting.
    const again = await exportUpdatesNdjson({
      baseUrl: sim.url,
      token: null,
      updateFormat: buildUpdateFormat(filter()),
      beginExclusive: 0,
      endInclusive: end,
      dir: exportDir,
      fileName: 'all updates.ndjson',
    }).catch((e: unknown) => e);
    expect((again as ConsoleError).code).toBe('CONFLICT');
  });

  it('refuses path separators and leaves nothing behind on cancel', async () => {
    const exportDir = path.join(dir, 'exports-cancel');
    for (const bad of ['../evil', 'a/b', 'a\\b', '.hidden']) {
      await expect(
        exportUpdatesNdjson({
          baseUrl: sim.url,
          token: null,
          updateFormat: {},
          beginExclusive: 0,
          endInclusive: 1,
          dir: exportDir,
          fileName: bad,
        }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
    const controller = new AbortController();
    const p = exportUpdatesNdjson({
      baseUrl: sim.url,
      token: null,
      updateFormat: buildUpdateFormat(filter()),
      beginExclusive: 0,
      endInclusive: await ledgerEnd(),
      dir: exportDir,
      fileName: 'cancelled',
      signal: controller.signal,
    });
    controller.abort();
    await expect(p).rejects.toMatchObject({ code: 'CONFLICT', message: 'Export cancelled' });
    expect(existsSync(exportDir) ? readdirSync(exportDir) : []).toEqual([]);
  });
});
