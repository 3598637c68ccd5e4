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
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { bulkLoad } from '../../src/simulator/bulk.js';
import { startSimulator } from '../../src/simulator/index.js';
import { DB_FILE } from '../../src/simulator/store/open.js';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const argStr = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const N = arg('--n', 300);
const EVENTS = arg('--events', 100_000);
const ACS = arg('--acs', 1_000_000);
const KEEP_ACS = argStr('--keep-acs');
/** `--only updates|submit|acs`: run one part. */
const ONLY = argStr('--only');
/** `--cpu-prof DIR`: the read benchmark's child writes a V8 CPU profile there (figures are then not representative). */
const CPU_PROF = argStr('--cpu-prof');
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');

interface Row {
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  pass: boolean;
}
const rows: Row[] = [];
const report = (r: Row): void => {
  rows.push(r);
  console.log(`${r.pass ? 'PASS' : 'FAIL'}  ${r.figure}: ${r.value} | baseline ${r.baseline} | ratio ${r.ratio} | target ${r.target}`);
};
const fmt = (n: number, d = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] as number;
};

async function post(url: string, body: unknown): Promise<unknown> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const t = await r.text();
  if (r.status !== 200) throw new Error(`${url}: ${r.status} ${t.slice(0, 300)}`);
  return JSON.parse(t);
}

// ------------------------------------------------------------------------------------------------
// 1. submit-and-wait vs bare http + one WAL insert (synchronous=FULL)
// ------------------------------------------------------------------------------------------------

async function baselineServer(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const db = new Database(path.join(dir, 'baseline.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS commands (offset INTEGER PRIMARY KEY, command_id TEXT NOT NULL, payload TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO commands (command_id, payload) VALUES (?, ?)');
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(text) as { commandId: string };
      const info = insert.run(body.commandId, text);
      const out = JSON.stringify({ updateId: body.commandId, completionOffset: Number(info.lastInsertRowid) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
        db.close();
      }),
  };
}

async function benchSubmit(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-bench-submit-'));
  const sim = await startSimulator({ dataDir: path.join(dir, 'sim'), port: 0 });
  const base = await baselineServer(dir);
  try {
    const party = ((await post(`${sim.url}/v2/parties`, { partyIdHint: 'Bench' })) as { partyDetails: { party: string } }).partyDetails
      .party;
    let i = 0;
    const body = () => ({
      commandId: `bench-${++i}`,
      actAs: [party],
      commands: [
        {
          CreateCommand: {
            templateId: '#simulator-demo:Demo.Iou:Iou',
            createArguments: { issuer: party, owner: party, currency: 'USD', amount: '1', observers: [] },
          },
        },
      ],
    });
    const run = async (url: string, count: number): Promise<number> => {
      const t = performance.now();
      for (let k = 0; k < count; k++) await post(url, body());
      return performance.now() - t;
    };
    await run(`${sim.url}/v2/commands/submit-and-wait`, 20); // warm-up
    await run(`${base.url}/submit`, 20);
    let simMs = 0;
    let baseMs = 0;
    const rounds = 3;
    for (let r = 0; r < rounds; r++) {
      baseMs += await run(`${base.url}/submit`, Math.ceil(N / rounds));
      simMs += await run(`${sim.url}/v2/commands/submit-and-wait`, Math.ceil(N / rounds));
    }
    const count = Math.ceil(N / rounds) * rounds;
    const simRate = (count * 1000) / simMs;
    const baseRate = (count * 1000) / baseMs;
    report({
      figure: `submit-and-wait (create), sequential, ${count} commands`,
      value: `${fmt(simRate)} cmd/s (${fmt(simMs / count, 2)} ms)`,
      baseline: `${fmt(baseRate)} req/s (${fmt(baseMs / count, 2)} ms) bare http + 1 WAL insert, synchronous=FULL`,
      ratio: `${fmt(simRate / baseRate, 2)}×`,
      target: '≥ 0.5×',
      pass: simRate / baseRate >= 0.5,
    });
  } finally {
    await sim.close();
    await base.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------------------------------------
// child process helpers
// ------------------------------------------------------------------------------------------------

interface Child {
  url: string;
  startMs: number;
  spawnToListeningMs: number;
  pid: number;
  proc: ChildProcess;
  rssMb(): { rss: number; hwm: number };
  stop(): Promise<void>;
}

async function startChild(dataDir: string, limit = 200, profileDir?: string): Promise<Child> {
  const t0 = performance.now();
  const prof = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const proc = spawn(
    process.execPath,
    [...prof, '--import', 'tsx', path.join(here, 'child.ts'), '--data', dataDir, '--limit', String(limit)],
    {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const info = await new Promise<{ url: string; startMs: number; pid: number }>((resolve, reject) => {
    let buf = '';
    proc.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)) as { url: string; startMs: number; pid: number });
    });
    proc.once('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
  const spawnToListeningMs = performance.now() - t0;
  return {
    ...info,
    spawnToListeningMs,
    proc,
    rssMb() {
      const status = readFileSync(`/proc/${info.pid}/status`, 'utf8');
      const kb = (k: string): number => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

async function partyOf(url: string, hint: string): Promise<string> {
  const r = (await (await fetch(`${url}/v2/parties`)).json()) as { partyDetails: { party: string }[] };
  return r.partyDetails.find((p) => p.party.startsWith(`${hint}::`))?.party as string;
}

// ------------------------------------------------------------------------------------------------
// 2. update reads
// ------------------------------------------------------------------------------------------------

async function benchUpdates(): Promise<void> {
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

// ------------------------------------------------------------------------------------------------
// 3. 1,000,000 active contracts: ACS pages, cold start, RSS
// ------------------------------------------------------------------------------------------------

async function benchAcs(): Promise<void> {
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
