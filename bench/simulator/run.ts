/**
 * Simulator benchmark: `npx tsx bench/simulator/run.ts [--n 300] [--events 100000] [--acs 1000000] [--keep-acs DIR]
 *   [--only submit|updates|acs] [--cpu-prof DIR]`.
 * Not part of `npm test`. Every figure is printed with a baseline measured in the same run, the
 * ratio, and PASS/FAIL against the targets of the performance issue:
 *
 * 1. submit-and-wait (one create), sequential ≥ 0.5 × a bare node:http server doing one better-sqlite3
 *    insert per request in WAL mode with synchronous=FULL (the simulator's durability settings).
 * 2. Update reads (POST /v2/updates and WebSocket /v2/updates) ≥ 100,000 events/s and ≥ 0.5 × a raw
 *    SQLite scan of the same updates' stored payloads + JSON.stringify of each row. The HTTP client is a
 *    raw node:http request that reads and counts every byte; the WebSocket client counts every message.
 * 3. With 1,000,000 active contracts: active-contracts-page p50 ≤ 5 ms, cold start < 1 s, RSS < 300 MB
 *    (baselines: an HTTP round trip to the same server, the same start and RSS on an empty data dir).
 *
 * Datasets are written with `bulkLoad` (src/simulator/bulk.ts): real interpreted transactions written
 * through the store, 20,000 ledger transactions per SQLite transaction — not one HTTP call per contract.
 * Read benchmarks run the simulator in a child process (bench/simulator/child.ts), so client and
 * server do not share a thread.
 */
import os from 'node:os';
import { ACS, ONLY, fmt, rows } from './common.js';
import { benchAcs } from './acs.js';
import { benchSubmit } from './submit.js';
import { benchUpdates } from './updates.js';

async function main(): Promise<void> {
  console.log(
    `simulator benchmark: ${os.cpus().length} cpus, node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const run = (part: string): boolean => ONLY === undefined || ONLY === part;
  if (run('submit')) {
    console.log('1. submit-and-wait');
    await benchSubmit();
  }
  if (run('updates')) {
    console.log('2. update reads');
    await benchUpdates();
  }
  if (run('acs')) {
    console.log(`3. ${fmt(ACS)} active contracts`);
    await benchAcs();
  }
  console.log(
    `\nload average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('| figure | value | baseline (same run) | ratio | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(`| ${r.figure} | ${r.value} | ${r.baseline} | ${r.ratio} | ${r.target} | ${r.pass ? 'PASS' : 'FAIL'} |`);
  process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 2;
});
