/**
 * Stored streaming forms of transactions (packed.ts `ptx2|` and `ptx1|`, splice.ts, payload only): new
 * transactions are stored packed; rows in the older forms (data dirs written by earlier versions)
 * answer exactly the same lists; large lists are streamed while produced, and a client leaving
 * mid-answer is harmless.
 */
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkLoad } from '../../../src/simulator/bulk.js';
import type { StoredTransaction } from '../../../src/simulator/model.js';
import { serializeTransaction } from '../../../src/simulator/splice.js';
import { DB_FILE } from '../../../src/simulator/store/open.js';
import { packTransactionV1 } from '../../support/simulator-packed-v1.js';
import {
  ACCOUNT,
  ASSET,
  IOU,
  allocate,
  cantonError,
  createIou,
  exercise,
  ledgerEnd,
  makeTempDir,
  startTestSim,
  submitTx,
  updates,
  wildcard,
} from './helpers.js';
import type { TestSim } from './helpers.js';

describe('stored forms of transactions', () => {
  let sim: TestSim;
  let bank: string, alice: string, bob: string;
  const formats: [string, Record<string, unknown>, string][] = [];

  beforeAll(async () => {
    sim = await startTestSim({ settings: { httpListMaxElementsLimit: 1000 } });
    bank = await allocate(sim.url, 'Bank');
    alice = await allocate(sim.url, 'Alice');
    bob = await allocate(sim.url, 'Bob');
    const a = await submitTx(sim.url, [bank], [createIou(bank, alice, '100'), createIou(bank, bob, '5', 'EUR', [alice])]);
    await submitTx(sim.url, [alice], [exercise(IOU, a.created[0]?.contractId as string, 'Iou_Split', { splitAmount: '40' })]);
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
    );
    await submitTx(
      sim.url,
      [bank],
      [{ CreateCommand: { templateId: ACCOUNT, createArguments: { bank, holder: alice, accountId: 'A-1', label: 'naïve “quoted” ✓' } } }],
    );
    const b = a.created[1]?.contractId as string;
    await submitTx(sim.url, [bob], [exercise(IOU, b, 'Iou_Describe'), exercise(IOU, b, 'Iou_Transfer', { newOwner: alice })]);
    const c = (await submitTx(sim.url, [bank], [createIou(bank, alice, '3')])).created[0]?.contractId as string;
    await submitTx(sim.url, [alice], [exercise(ASSET, c, 'Asset_Describe', { viewer: alice })]);

    const byParty = (shape: string, filters: Record<string, unknown>) => ({
      includeTransactions: { transactionShape: shape, eventFormat: { filtersByParty: filters } },
    });
    for (const shape of ['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS']) {
      formats.push([`${shape} bob (commandIds of others hidden)`, { updateFormat: byParty(shape, { [bob]: {} }) }, '/v2/updates']);
      formats.push([`${shape} alice+bank`, { updateFormat: byParty(shape, { [alice]: {}, [bank]: {} }) }, '/v2/updates']);
      formats.push([
        `${shape} any party`,
        { updateFormat: { includeTransactions: { transactionShape: shape, eventFormat: { filtersForAnyParty: {} } } } },
        '/v2/updates',
      ]);
      formats.push([
        `${shape} interface views + template blob`,
        {
          updateFormat: byParty(shape, {
            [alice]: {
              cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: ASSET, includeInterfaceView: true } } } }],
            },
            [bank]: {
              cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: ACCOUNT, includeCreatedEventBlob: true } } } }],
            },
          }),
        },
        '/v2/updates',
      ]);
    }
    formats.push(['trees, legacy filter', { filter: wildcard(alice, bob), verbose: true }, '/v2/updates/trees']);
    for (const shape of ['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS'])
      formats.push([`trees, ${shape} alice`, { updateFormat: byParty(shape, { [alice]: {} }) }, '/v2/updates/trees']);
  });
  afterAll(async () => {
    await sim.dispose();
  });

  const lists = async (): Promise<unknown[]> => {
    const end = await ledgerEnd(sim.url);
    const out: unknown[] = [];
    for (const [name, req, route] of formats) {
      const r = await updates(sim.url, { beginExclusive: 0, endInclusive: end, ...req }, route);
      expect(r.status, name).toBe(200);
      expect((r.json as unknown[]).length, name).toBeGreaterThan(1);
      out.push(r.json);
    }
    return out;
  };

  it('stores new transactions packed and answers the same lists from rows in the earlier forms', async () => {
    const before = await lists();
    await sim.close();
    const db = new Database(path.join(sim.dataDir, DB_FILE));
    const rows = db
      .prepare(
        'SELECT u.offset, u.meta, typeof(u.frags) AS t, p.payload ' +
          "FROM updates u JOIN update_payloads p USING (offset) WHERE u.kind = 'transaction'",
      )
      .all() as {
      offset: number;
      meta: string | null;
      t: string;
      payload: string;
    }[];
    expect(rows.length).toBeGreaterThanOrEqual(7);
    for (const r of rows) expect([r.meta, r.t]).toEqual([null, 'text']);
    // rewrite rows as earlier versions stored them: the first packed form, schema-2 meta + fragments, or no streaming form at all
    const setForm = db.prepare('UPDATE updates SET meta = ?, frags = ? WHERE offset = ?');
    const pids = new Map(
      (db.prepare('SELECT party, pid FROM parties').all() as { party: string; pid: number }[]).map((p) => [p.party, p.pid]),
    );
    for (const [i, r] of rows.entries()) {
      const tx = JSON.parse(r.payload) as StoredTransaction;
      if (i % 4 === 3) continue; // stays packed
      if (i % 4 === 0) {
        const s = serializeTransaction(tx);
        setForm.run(s.meta, s.frags, r.offset);
      } else if (i % 4 === 1) setForm.run(null, packTransactionV1(tx, (p) => pids.get(p)) ?? null, r.offset);
      else setForm.run(null, null, r.offset);
    }
    db.close();
    sim = await startTestSim({ dataDir: sim.dataDir, settings: { httpListMaxElementsLimit: 1000 } });
    expect(await lists()).toEqual(before);
  });
});

/** POST /v2/updates over a raw connection: status, headers and the number of body bytes read before `stopAfter`. */
function rawUpdates(
  url: string,
  body: unknown,
  stopAfter = Infinity,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/v2/updates`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks: Buffer[] = [];
        let n = 0;
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          n += c.length;
          if (n >= stopAfter) {
            res.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '' });
          }
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('large update lists', () => {
  const dir = makeTempDir();
  let sim: TestSim;
  let end = 0;
  let bank = '';
  let alice = '';
  beforeAll(async () => {
    const load = bulkLoad({ dataDir: dir, partyHints: ['Bank', 'Alice', 'Bob', 'Carol'], contracts: 3000 });
    end = load.ledgerEnd;
    [bank, alice] = load.parties as [string, string];
    sim = await startTestSim({ dataDir: dir, settings: { httpListMaxElementsLimit: 5000 } });
  });
  afterAll(async () => {
    await sim.dispose();
  });
  const request = (party: string) => ({
    beginExclusive: 0,
    endInclusive: end,
    updateFormat: {
      includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: { filtersByParty: { [party]: {} } } },
    },
  });

  it('streams a list that cannot exceed the cap (chunked), and survives a client leaving mid-answer', async () => {
    const cut = await rawUpdates(sim.url, request(bank), 64 * 1024);
    expect(cut.status).toBe(200);
    const full = await rawUpdates(sim.url, request(bank));
    expect(full.status).toBe(200);
    expect(full.headers['transfer-encoding']).toBe('chunked');
    expect(full.headers['content-length']).toBeUndefined();
    const items = JSON.parse(full.text) as { update: { Transaction?: { value: { offset: number } } } }[];
    expect(items.filter((u) => u.update.Transaction).length).toBe(3000);
    // the same list through the spec-validating client
    const checked = await updates(sim.url, request(bank));
    expect(checked.json).toEqual(items);
    // descending, across several production steps: the same updates in reverse
    const down = await updates(sim.url, { ...request(bank), descendingOrder: true });
    expect(down.json).toEqual([...items].reverse());
    // a client limit truncates (streamed too): the first 700, no checkpoint
    const limited = await updates(sim.url, request(bank), '/v2/updates', '?limit=700');
    expect(limited.json).toEqual(items.slice(0, 700));
  });

  it('answers in full, or MAXIMUM_LIST_ELEMENTS, when the range could exceed the cap', async () => {
    await sim.close();
    sim = await startTestSim({ dataDir: dir, settings: { httpListMaxElementsLimit: 1000 } });
    const tooMany = await updates(sim.url, request(bank));
    expect(tooMany.status).toBe(413);
    expect(cantonError(tooMany).code).toBe('JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED');
    // Alice owns every 4th contract: 750 visible of a 3,000+ offset range
    const some = await rawUpdates(sim.url, request(alice));
    expect(some.status).toBe(200);
    expect(Number(some.headers['content-length'])).toBe(Buffer.byteLength(some.text));
    expect((JSON.parse(some.text) as unknown[]).length).toBe(751); // + the trailing OffsetCheckpoint
  });
});
