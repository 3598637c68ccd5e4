/** Part 2: update reads over HTTP and WebSocket against a raw SQLite scan of the same stored payloads. */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { bulkLoad } from '../../src/simulator/bulk.js';
import { DB_FILE } from '../../src/simulator/store/open.js';
import { CPU_PROF, EVENTS, fmt, report, partyOf, startChild } from './common.js';

export async function benchUpdates(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-bench-updates-'));
  try {
    const load = bulkLoad({ dataDir: dir, partyHints: ['Bank', 'Alice'], contracts: EVENTS });
    console.log(
      `  dataset: ${fmt(EVENTS)} create transactions (Bank issuer, Alice/Bank owners) bulk-loaded in ${fmt(load.millis / 1000, 1)} s`,
    );
    const end = load.ledgerEnd;

    // baseline: raw scan of the same rows + JSON.stringify of each, in this process
    const scan = (): number => {
      const db = new Database(path.join(dir, DB_FILE), { readonly: true });
      const t = performance.now();
      let bytes = 0;
      for (const row of db.prepare('SELECT offset, payload FROM update_payloads ORDER BY offset').iterate())
        bytes += JSON.stringify(row).length;
      const ms = performance.now() - t;
      db.close();
      if (bytes === 0) throw new Error('empty scan');
      return ms;
    };

    const child = await startChild(dir, EVENTS * 2, CPU_PROF);
    try {
      const bank = await partyOf(child.url, 'Bank');
      const request = {
        beginExclusive: 0,
        endInclusive: end,
        updateFormat: {
          includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: { filtersByParty: { [bank]: {} } } },
        },
      };
      // A raw node:http client (fetch/undici costs more client CPU than the server spends on the
      // answer): it still receives every byte and counts them, and checks the status, the length
      // (content-length when the answer has one) and that the JSON array is closed.
      const payload = JSON.stringify(request);
      const httpRun = (): Promise<number> =>
        new Promise((resolve, reject) => {
          const t = performance.now();
          const req = http.request(
            `${child.url}/v2/updates`,
            { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
            (res) => {
              let bytes = 0;
              let last = 0;
              res.on('data', (c: Buffer) => {
                bytes += c.length;
                last = c[c.length - 1] as number;
              });
              res.on('end', () => {
                const ms = performance.now() - t;
                const expected = res.headers['content-length'] === undefined ? bytes : Number(res.headers['content-length']);
                if (res.statusCode !== 200 || bytes !== expected || bytes < EVENTS * 100 || last !== 0x5d)
                  reject(new Error(`updates: ${res.statusCode}, ${bytes} of ${expected} bytes`));
                else resolve(ms);
              });
              res.on('error', reject);
            },
          );
          req.on('error', reject);
          req.end(payload);
        });
      const wsRun = (): Promise<number> =>
        new Promise((resolve, reject) => {
          const t = performance.now();
          let n = 0;
          const ws = new WebSocket(`${child.url.replace(/^http/, 'ws')}/v2/updates`, ['daml.ws.auth']);
          ws.on('open', () => ws.send(JSON.stringify(request)));
          ws.on('message', () => n++);
          ws.on('close', () => (n >= EVENTS ? resolve(performance.now() - t) : reject(new Error(`ws: ${n} messages`))));
          ws.on('error', reject);
        });
      await httpRun(); // warm-up (page cache, JIT)
      const httpMs: number[] = [];
      const wsMs: number[] = [];
      const scanMs: number[] = [];
      for (let r = 0; r < 3; r++) {
        scanMs.push(scan());
        httpMs.push(await httpRun());
        wsMs.push(await wsRun());
      }
      const baseRate = (EVENTS * 1000) / Math.min(...scanMs);
      for (const [name, ms] of [
        ['POST /v2/updates', httpMs],
        ['WebSocket /v2/updates', wsMs],
      ] as const) {
        const rate = (EVENTS * 1000) / Math.min(...ms);
        report({
          figure: `${name}, ${fmt(EVENTS)} created events (ACS delta, one party), best of 3`,
          value: `${fmt(rate)} events/s (${fmt(Math.min(...ms))} ms)`,
          baseline: `${fmt(baseRate)} rows/s (${fmt(Math.min(...scanMs))} ms) raw SQLite scan + JSON.stringify per row`,
          ratio: `${fmt(rate / baseRate, 2)}×`,
          target: '≥ 100,000 events/s and ≥ 0.5×',
          pass: rate >= 100_000 && rate / baseRate >= 0.5,
        });
      }
    } finally {
      await child.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
