/**
 * Simulator benchmark: `npx tsx bench/simulator/run.ts [--n 300]`.
 * Baseline (same run): an HTTP round trip that reads but does not write (`GET /v2/state/ledger-end`).
 * Every other figure is printed as a ratio to it, so results compare across machines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSimulator } from '../../src/simulator/index.js';

const nArg = process.argv.indexOf('--n');
const N = nArg >= 0 ? Number(process.argv[nArg + 1]) : 300;

async function post(url: string, body: unknown): Promise<unknown> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const t = await r.text();
  if (r.status !== 200) throw new Error(`${url}: ${r.status} ${t}`);
  return JSON.parse(t);
}

async function timeIt(label: string, count: number, fn: (i: number) => Promise<unknown>, concurrency = 1): Promise<{ label: string; perOpMs: number; opsPerSec: number }> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await fn(next++);
    }),
  );
  const ms = performance.now() - start;
  return { label, perOpMs: ms / count, opsPerSec: (count * 1000) / ms };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-bench-'));
  const sim = await startSimulator({ dataDir: dir, port: 0 });
  try {
    const party = ((await post(`${sim.url}/v2/parties`, { partyIdHint: 'Bench' })) as { partyDetails: { party: string } }).partyDetails.party;
    const create = (i: number) =>
      post(`${sim.url}/v2/commands/submit-and-wait`, {
        commandId: `bench-${i}-${Math.random()}`,
        actAs: [party],
        commands: [{ CreateCommand: { templateId: '#simulator-demo:Demo.Iou:Iou', createArguments: { issuer: party, owner: party, currency: 'USD', amount: '1', observers: [] } } }],
      });
    const baseline = await timeIt('GET ledger-end (baseline)', N, () => fetch(`${sim.url}/v2/state/ledger-end`).then((r) => r.text()));
    const results = [
      baseline,
      await timeIt('submit-and-wait create, sequential', N, create),
      await timeIt('submit-and-wait create, 8 concurrent', N, (i) => create(N + i), 8),
    ];
    const end = ((await (await fetch(`${sim.url}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
    const fmt = { filtersByParty: { [party]: {} } };
    results.push(
      await timeIt(`ACS page of 100 (of ${2 * N})`, 50, () => post(`${sim.url}/v2/state/active-contracts-page`, { activeAtOffset: end, eventFormat: fmt, maxPageSize: 100 })),
      await timeIt('updates page of 100', 50, () =>
        post(`${sim.url}/v2/updates/get-updates-page`, { maxPageSize: 100, updateFormat: { includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS', eventFormat: fmt } } }),
      ),
    );
    console.log(`simulator benchmark, N=${N}, ${os.cpus().length} cpus, node ${process.version}`);
    for (const r of results)
      console.log(`${r.label.padEnd(40)} ${r.perOpMs.toFixed(3).padStart(9)} ms/op ${r.opsPerSec.toFixed(0).padStart(7)} op/s  x${(r.perOpMs / baseline.perOpMs).toFixed(2)} baseline`);
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
