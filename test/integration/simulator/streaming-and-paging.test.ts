/**
 * Read paths built for scale: spliced update lists equal the object projection, ACS pages use a
 * keyset (stable snapshot, multi-party merge), and WebSocket streams respect backpressure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { bulkLoad } from '../../../src/simulator/bulk.js';
import {
  ACCOUNT,
  ASSET,
  IOU,
  acs,
  acsCreated,
  allocate,
  asyncApi,
  call,
  createIou,
  exercise,
  ledgerEnd,
  makeTempDir,
  startTestSim,
  submitTx,
  updates,
  wildcard,
  wsText,
} from './helpers.js';
import type { TestSim } from './helpers.js';

describe('spliced update lists and keyset ACS pages', () => {
  let sim: TestSim;
  let bank: string, alice: string, bob: string;
  beforeAll(async () => {
    sim = await startTestSim({ settings: { httpListMaxElementsLimit: 1000 } });
    bank = await allocate(sim.url, 'Bank');
    alice = await allocate(sim.url, 'Alice');
    bob = await allocate(sim.url, 'Bob');
    const a = await submitTx(sim.url, [bank], [createIou(bank, alice, '100'), createIou(bank, bob, '5', 'EUR', [alice])]);
    const iou = a.created[0]?.contractId as string;
    await submitTx(sim.url, [alice], [exercise(IOU, iou, 'Iou_Split', { splitAmount: '40' })]); // nested creates
    await submitTx(
      sim.url,
      [bank],
      [
        {
          CreateAndExerciseCommand: {
            templateId: IOU,
            createArguments: { issuer: bank, owner: bank, currency: 'X', amount: '1', observers: [] },
            choice: 'Archive',
            choiceArgument: {},
          },
        },
      ],
    ); // transient
    await submitTx(
      sim.url,
      [bank],
      [{ CreateCommand: { templateId: ACCOUNT, createArguments: { bank, holder: alice, accountId: 'A-1', label: 'main' } } }],
    ); // keyed
    const b = a.created[1]?.contractId as string;
    await submitTx(sim.url, [bob], [exercise(IOU, b, 'Iou_Describe'), exercise(IOU, b, 'Iou_Transfer', { newOwner: alice })]);
    const c = (await submitTx(sim.url, [bank], [createIou(bank, alice, '3')])).created[0]?.contractId as string;
    await submitTx(sim.url, [alice], [exercise(ASSET, c, 'Asset_Describe', { viewer: alice })]); // interface choice
  });
  afterAll(async () => {
    await sim.dispose();
  });

  const formats: [string, unknown][] = [];
  beforeAll(() => {
    const byParty = (shape: string, filters: Record<string, unknown>) => ({
      includeTransactions: { transactionShape: shape, eventFormat: { filtersByParty: filters } },
    });
    for (const shape of ['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS']) {
      formats.push([`${shape} wildcard alice`, byParty(shape, { [alice]: {} })]);
      formats.push([`${shape} wildcard alice+bob`, byParty(shape, { [alice]: {}, [bob]: {} })]);
      formats.push([
        `${shape} any party`,
        { includeTransactions: { transactionShape: shape, eventFormat: { filtersForAnyParty: {}, verbose: true } } },
      ]);
      formats.push([
        `${shape} template filter with blob`,
        byParty(shape, {
          [bank]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: IOU, includeCreatedEventBlob: true } } } }] },
        }),
      ]);
      formats.push([
        `${shape} interface views`,
        byParty(shape, {
          [alice]: {
            cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: ASSET, includeInterfaceView: true } } } }],
          },
        }),
      ]);
    }
  });

  it('POST /v2/updates (spliced from stored fragments) equals update-by-offset (object projection) for every format', async () => {
    const end = await ledgerEnd(sim.url);
    for (const [name, updateFormat] of formats) {
      const list = await updates(sim.url, { beginExclusive: 0, endInclusive: end, updateFormat });
      expect(list.status, name).toBe(200);
      const items = (list.json as { update: Record<string, { value: { offset: number } }> }[]).filter(
        (u) => !('OffsetCheckpoint' in u.update),
      );
      expect(items.length, name).toBeGreaterThan(0);
      for (const item of items) {
        const offset = (Object.values(item.update)[0] as { value: { offset: number } }).value.offset;
        const one = await call(sim.url, 'POST', '/v2/updates/update-by-offset', { body: { offset, updateFormat } });
        expect(one.status).toBe(200);
        expect(item, `${name} @${offset}`).toEqual(one.json);
      }
      // the page endpoint splices the same way
      const page = await call(sim.url, 'POST', '/v2/updates/get-updates-page', { body: { updateFormat, maxPageSize: 1000 } });
      expect((page.json as { updates: unknown[] }).updates, name).toEqual(items);
    }
  });

  it('trees: /v2/updates/trees equals transaction-tree-by-offset', async () => {
    const end = await ledgerEnd(sim.url);
    const list = await updates(
      sim.url,
      { beginExclusive: 0, endInclusive: end, filter: wildcard(alice, bob), verbose: true },
      '/v2/updates/trees',
    );
    const trees = (list.json as { update: { TransactionTree?: { value: { offset: number } } } }[]).flatMap((u) =>
      u.update.TransactionTree ? [u.update.TransactionTree.value] : [],
    );
    expect(trees.length).toBeGreaterThan(2);
    for (const t of trees) {
      const one = await call(sim.url, 'GET', '/v2/updates/transaction-tree-by-offset/{offset}', {
        path: `/v2/updates/transaction-tree-by-offset/${t.offset}?parties=${alice}&parties=${bob}`,
      });
      expect(t).toEqual((one.json as { transaction: unknown }).transaction);
    }
  });

  it('ACS pages: keyset tokens walk the snapshot of their offset, multi-party filters merge without duplicates', async () => {
    // more contracts, some visible to both parties
    for (let i = 0; i < 7; i++)
      await submitTx(sim.url, [bank], [createIou(bank, i % 2 ? alice : bob, String(i + 1), 'USD', i % 3 ? [] : [alice, bob])]);
    const fmt = wildcard(alice, bob);
    const full = acsCreated(await acs(sim.url, fmt)).map((c) => c.contractId);
    expect(new Set(full).size).toBe(full.length);
    const at = await ledgerEnd(sim.url);
    const paged: string[] = [];
    let token: string | undefined;
    let first = true;
    do {
      const r = await call(sim.url, 'POST', '/v2/state/active-contracts-page', {
        body: { eventFormat: fmt, activeAtOffset: at, maxPageSize: 3, ...(token ? { pageToken: token } : {}) },
      });
      expect(r.status).toBe(200);
      const page = r.json as {
        activeContracts: { contractEntry: { JsActiveContract: { createdEvent: { contractId: string } } } }[];
        nextPageToken?: string;
        activeAtOffset: number;
      };
      expect(page.activeAtOffset).toBe(at);
      paged.push(...page.activeContracts.map((e) => e.contractEntry.JsActiveContract.createdEvent.contractId));
      token = page.nextPageToken;
      if (first && token) {
        // archiving a contract after the first page does not change the snapshot the token walks
        const victim = full.at(-1) as string;
        await submitTx(sim.url, [bank], [exercise(IOU, victim, 'Archive')]);
        first = false;
      }
    } while (token);
    expect(paged).toEqual(full);
    // a filter for any party pages over all contracts in the same creation order
    const any = acsCreated(await acs(sim.url, { filtersForAnyParty: {} }, at)).map((c) => c.contractId);
    expect(any.filter((c) => full.includes(c))).toEqual(full);
  });
});

describe('WebSocket backpressure', () => {
  let sim: TestSim;
  let total: number;
  beforeAll(async () => {
    const dataDir = makeTempDir();
    // ~27 MB of updates, far more than the socket buffers of a client that stops reading
    const r = bulkLoad({ dataDir, partyHints: ['Bank', 'Alice'], contracts: 20_000 });
    total = r.ledgerEnd;
    sim = await startTestSim({ dataDir });
  }, 60_000);
  afterAll(async () => {
    await sim.dispose();
  });

  it('stops reading the ledger while the client does not read, and resumes when it does', async () => {
    const bank = ((await call(sim.url, 'GET', '/v2/parties')).json as { partyDetails: { party: string }[] }).partyDetails.find((p) =>
      p.party.startsWith('Bank'),
    )?.party as string;
    const ws = new WebSocket(sim.url.replace(/^http/, 'ws') + '/v2/updates', ['daml.ws.auth']);
    const offsets: number[] = [];
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    let schemaChecked = false;
    ws.on('message', (d) => {
      const m = JSON.parse(wsText(d)) as { update: Record<string, { value: { offset: number } }> };
      if (!schemaChecked) {
        expect(asyncApi().schema('JsGetUpdatesResponse')(m)).toBe(true);
        schemaChecked = true;
      }
      offsets.push((Object.values(m.update)[0] as { value: { offset: number } }).value.offset);
    });
    await new Promise<void>((resolve) => ws.on('open', () => resolve()));
    const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause(); // a client that stops reading
    ws.send(
      JSON.stringify({
        beginExclusive: 0,
        endInclusive: total,
        updateFormat: { includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: wildcard(bank) } },
      }),
    );

    const streams = async () =>
      (await call(sim.url, 'GET', '/simulator/admin/streams', { validate: false })).json as {
        channel: string;
        sent: number;
        bufferedAmount: number;
        maxBufferedAmount: number;
        paused: boolean;
      }[];
    let s: Awaited<ReturnType<typeof streams>>[number] | undefined;
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      s = (await streams()).find((x) => x.channel === '/v2/updates');
      if (s?.paused) break;
    }
    expect(s?.paused).toBe(true);
    const sentWhenPaused = s?.sent ?? 0;
    expect(sentWhenPaused).toBeLessThan(total);
    await new Promise((r) => setTimeout(r, 500));
    s = (await streams()).find((x) => x.channel === '/v2/updates');
    // nothing more was read while paused, and the buffer stays bounded (high-water mark 1 MiB + one batch)
    expect(s?.sent).toBe(sentWhenPaused);
    expect(s?.maxBufferedAmount).toBeLessThan(1024 * 1024 + 128 * 4096);

    socket.resume();
    expect(await closed).toBe(1000);
    expect(offsets.length).toBe(total - 2); // every transaction (the two party allocations are topology updates)
    for (let i = 1; i < offsets.length; i++) expect(offsets[i]).toBe((offsets[i - 1] as number) + 1);
  }, 60_000);
});
