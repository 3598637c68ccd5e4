/** Part 3: a million active contracts: ACS pages, cold start and RSS against an empty data dir. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bulkLoad } from '../../src/simulator/bulk.js';
import { DB_FILE } from '../../src/simulator/store/open.js';
import { ACS, KEEP_ACS, fmt, median, pct, post, report, partyOf, startChild } from './common.js';

export async function benchAcs(): Promise<void> {
  const dir = KEEP_ACS ?? mkdtempSync(path.join(os.tmpdir(), 'sim-bench-acs-'));
  const emptyDir = mkdtempSync(path.join(os.tmpdir(), 'sim-bench-empty-'));
  try {
    if (!KEEP_ACS || !existsSync(path.join(dir, DB_FILE))) {
      let last = performance.now();
      const load = bulkLoad({
        dataDir: dir,
        partyHints: ['Bank', 'Alice', 'Bob', 'Carol', 'Dave'],
        contracts: ACS,
        perTransaction: 10,
        onProgress: (n) => {
          if (performance.now() - last > 10_000) {
            last = performance.now();
            console.log(`  … ${fmt(n)} contracts`);
          }
        },
      });
      console.log(
        `  dataset: ${fmt(ACS)} active Iou contracts (10 per transaction, 5 owners) bulk-loaded in ${fmt(load.millis / 1000, 1)} s`,
      );
    } else console.log(`  dataset: reusing ${dir}`);

    // baselines on an empty data dir (parties only)
    bulkLoad({ dataDir: emptyDir, partyHints: ['Bank', 'Alice'], contracts: 0 });
    const empty = await startChild(emptyDir);
    await fetch(`${empty.url}/v2/state/ledger-end`).then((r) => r.text());
    const emptyRss = empty.rssMb();
    const emptyStart = empty.startMs;
    await empty.stop();

    const child = await startChild(dir);
    try {
      const alice = await partyOf(child.url, 'Alice');
      const end = ((await (await fetch(`${child.url}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
      const pageOf = async (eventFormat: unknown, token?: string): Promise<{ ms: number; next?: string; n: number }> => {
        const t = performance.now();
        const r = (await post(`${child.url}/v2/state/active-contracts-page`, {
          activeAtOffset: end,
          eventFormat,
          maxPageSize: 100,
          ...(token ? { pageToken: token } : {}),
        })) as {
          activeContracts: unknown[];
          nextPageToken?: string;
        };
        return { ms: performance.now() - t, n: r.activeContracts.length, ...(r.nextPageToken ? { next: r.nextPageToken } : {}) };
      };
      const rtt: number[] = [];
      const walkParty: number[] = [];
      const walkAny: number[] = [];
      const first: number[] = [];
      for (let i = 0; i < 20; i++) await pageOf({ filtersByParty: { [alice]: {} } }); // warm-up
      let tokP: string | undefined;
      let tokA: string | undefined;
      for (let i = 0; i < 300; i++) {
        const t = performance.now();
        await fetch(`${child.url}/v2/state/ledger-end`).then((r) => r.text());
        rtt.push(performance.now() - t);
        const p = await pageOf({ filtersByParty: { [alice]: {} } }, tokP);
        if (p.n !== 100) throw new Error(`short page ${p.n}`);
        walkParty.push(p.ms);
        tokP = p.next;
        const a = await pageOf({ filtersForAnyParty: {} }, tokA);
        walkAny.push(a.ms);
        tokA = a.next;
        first.push((await pageOf({ filtersByParty: { [alice]: {} } })).ms);
      }
      // a page deep into the ACS: jump with a token far into the contract sequence
      const deepToken = Buffer.from(JSON.stringify({ a: end, k: Math.floor(ACS * 0.9) })).toString('base64url');
      const deep: number[] = [];
      for (let i = 0; i < 50; i++) deep.push((await pageOf({ filtersByParty: { [alice]: {} } }, deepToken)).ms);
      const base = median(rtt);
      for (const [name, xs] of [
        ['first page, one party (of 5 owners)', first],
        ['walking pages by token, one party', walkParty],
        ['walking pages by token, filtersForAnyParty', walkAny],
        ['page at 90 % of the ACS, one party', deep],
      ] as const) {
        report({
          figure: `active-contracts-page (100 of ${fmt(ACS)} active), ${name}`,
          value: `p50 ${fmt(median(xs), 2)} ms, p95 ${fmt(pct(xs, 95), 2)} ms`,
          baseline: `p50 ${fmt(base, 2)} ms HTTP round trip (GET /v2/state/ledger-end, same server)`,
          ratio: `${fmt(median(xs) / base, 1)}× the round trip`,
          target: 'p50 ≤ 5 ms',
          pass: median(xs) <= 5,
        });
      }
      report({
        figure: `cold start on ${fmt(ACS)} active contracts (startSimulator in a fresh process)`,
        value: `${fmt(child.startMs, 1)} ms (spawn → listening incl. node + tsx: ${fmt(child.spawnToListeningMs)} ms)`,
        baseline: `${fmt(emptyStart, 1)} ms on an empty data dir`,
        ratio: `${fmt(child.startMs / emptyStart, 2)}×`,
        target: '< 1 s',
        pass: child.startMs < 1000,
      });
      const rss = child.rssMb();
      report({
        figure: `RSS after ${fmt(300 * 3 + 70)} ACS pages on ${fmt(ACS)} contracts`,
        value: `${fmt(rss.rss)} MB (peak ${fmt(rss.hwm)} MB)`,
        baseline: `${fmt(emptyRss.rss)} MB (peak ${fmt(emptyRss.hwm)} MB) on an empty data dir`,
        ratio: `${fmt(rss.hwm / emptyRss.hwm, 2)}× (peak)`,
        target: '< 300 MB',
        pass: rss.hwm < 300,
      });
    } finally {
      await child.stop();
    }
  } finally {
    if (!KEEP_ACS) rmSync(dir, { recursive: true, force: true });
    rmSync(emptyDir, { recursive: true, force: true });
  }
}
