/**
 * Start-up benchmark: `npx tsx bench/startup/run.ts [--n 10]`. Not part of `npm test`.
 *
 * Whole processes, timed from spawn to the line a user waits for:
 *   - `npm run sim -- --port 0 --data DIR` → `listening on …` (target < 500 ms), a fresh data directory each time
 *   - `npm start` (browser host, no Electron binary here) → `Console ready: …` (target < 1.5 s), a fresh data
 *     directory each time (the first start ever: the demo ledger is seeded), and again on the data directory of an
 *     earlier start (every later start)
 * Baselines, same run, interleaved: the same entry points transpiled at run time by tsx (what the npm scripts ran
 * before the prebuilt bundles), and the bundles without npm in front (`node scripts/run.cjs …`, to show what npm
 * itself costs). The bundles are built and the V8 code cache written before the first timed run ("warm" start: the
 * untimed first run of each variant stays up a few seconds after its ready line, so any version of scripts/run.cjs has
 * written its cache). Exits 1 when a target is missed.
 *
 * `--against DIR`: another checkout of the project (e.g. `git archive main` unpacked, with node_modules linked) whose
 * `npm run sim` / `npm start` and `node scripts/run.cjs …` are timed in the same run, interleaved, as a before/after.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCliBundles } from '../../scripts/cli-bundle.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const nIndex = process.argv.indexOf('--n');
const N = nIndex >= 0 ? Number(process.argv[nIndex + 1]) : 10;
const againstIndex = process.argv.indexOf('--against');
const against = againstIndex >= 0 ? path.resolve(process.argv[againstIndex + 1] ?? '') : undefined;

interface Variant {
  name: string;
  command: string;
  args: (dataDir: string) => string[];
  env?: (dataDir: string) => Record<string, string>;
  ready: RegExp;
  /** Working directory (default: this checkout). */
  cwd?: string;
  /** Start on the data directory of the variant's earlier runs (made by its untimed first run) instead of a new one. */
  reuseDataDir?: boolean;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tsx = path.join(repo, 'node_modules/.bin/tsx');
const simArgs = (d: string) => ['--port', '0', '--data', d];
const hostEnv = (d: string) => ({ CONSOLE_DATA_DIR: d });

/**
 * What no start-up of ours can beat, timed alongside: npm running a one-line Node script that prints the ready line
 * at once (npm's own start plus Node's), and Node's own start. A project of its own, so npm reads no other config.
 */
const floorProject = mkdtempSync(path.join(os.tmpdir(), 'bench-startup-floor-'));
const readyAtOnce = (line: string) => `node -e "console.log('${line}')"`;
writeFileSync(
  path.join(floorProject, 'package.json'),
  JSON.stringify({ name: 'floor', private: true, scripts: { sim: readyAtOnce('listening on -'), start: readyAtOnce('Console ready: -') } }),
);
const floors = (script: 'sim' | 'start', line: string): Variant[] => [
  {
    name: `floor: npm run ${script} of a one-line Node script`,
    command: npm,
    args: () => ['run', '-s', script],
    cwd: floorProject,
    ready: /./,
  },
  { name: 'floor: node -e (Node starting)', command: process.execPath, args: () => ['-e', `console.log('${line}')`], ready: /./ },
];

const groups: { title: string; target: number; variants: Variant[] }[] = [
  {
    title: 'npm run sim → listening',
    target: 500,
    variants: [
      { name: 'npm run sim (bundle)', command: npm, args: (d) => ['run', '-s', 'sim', '--', ...simArgs(d)], ready: /^listening on / },
      {
        name: 'node scripts/run.cjs sim',
        command: process.execPath,
        args: (d) => ['scripts/run.cjs', 'sim', ...simArgs(d)],
        ready: /^listening on /,
      },
      { name: 'baseline: tsx src/cli/sim.ts', command: tsx, args: (d) => ['src/cli/sim.ts', ...simArgs(d)], ready: /^listening on / },
      ...floors('sim', 'listening on -'),
    ],
  },
  {
    title: 'npm start → Console ready',
    target: 1500,
    variants: [
      { name: 'npm start (bundle)', command: npm, args: () => ['start', '-s'], env: hostEnv, ready: /^Console ready: / },
      {
        name: 'node scripts/run.cjs launch',
        command: process.execPath,
        args: () => ['scripts/run.cjs', 'launch'],
        env: hostEnv,
        ready: /^Console ready: /,
      },
      { name: 'baseline: tsx src/cli/launch.ts', command: tsx, args: () => ['src/cli/launch.ts'], env: hostEnv, ready: /^Console ready: / },
      ...floors('start', 'Console ready: -'),
    ],
  },
  {
    // what a user's every start is: the data directory exists and the demo ledger is already seeded
    title: 'npm start → Console ready, data directory of an earlier start',
    target: 1500,
    variants: [
      {
        name: 'npm start (bundle)',
        command: npm,
        args: () => ['start', '-s'],
        env: hostEnv,
        ready: /^Console ready: /,
        reuseDataDir: true,
      },
      {
        name: 'node scripts/run.cjs launch',
        command: process.execPath,
        args: () => ['scripts/run.cjs', 'launch'],
        env: hostEnv,
        ready: /^Console ready: /,
        reuseDataDir: true,
      },
      {
        name: 'baseline: tsx src/cli/launch.ts',
        command: tsx,
        args: () => ['src/cli/launch.ts'],
        env: hostEnv,
        ready: /^Console ready: /,
        reuseDataDir: true,
      },
    ],
  },
];

// the bundle variants once more in the other checkout, after the first three (whose third is the baseline)
if (against !== undefined) {
  for (const group of groups) {
    const bundled = group.variants.slice(0, 2).map((v) => ({
      ...v,
      name: `${v.name} @ ${path.basename(against)}`,
      cwd: against,
      // checkouts before 2026-11-29 have the ES-module launcher
      args: (d: string) => v.args(d).map((a) => (a === 'scripts/run.cjs' && !existsSync(path.join(against, a)) ? 'scripts/run.mjs' : a)),
    }));
    group.variants.push(...bundled);
  }
}

/** Data directories kept between the runs of variants with `reuseDataDir`, removed at exit. */
const keptDirs = new Map<string, string>();
process.on('exit', () => {
  for (const d of [...keptDirs.values(), floorProject]) rmSync(d, { recursive: true, force: true });
});

/**
 * Milliseconds from spawn to the ready line on stdout; the process group is then stopped, `lingerMs` after the
 * ready line (the warm-up runs linger so the launcher writes its code cache).
 */
function timeOnce(v: Variant, lingerMs = 0): Promise<number> {
  const kept = v.reuseDataDir === true ? keptDirs.get(v.name) : undefined;
  const dataDir = kept ?? mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
  if (v.reuseDataDir === true) keptDirs.set(v.name, dataDir);
  const t0 = performance.now();
  const child = spawn(v.command, v.args(dataDir), {
    cwd: v.cwd ?? repo,
    env: { ...process.env, ...(v.env?.(dataDir) ?? {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`${v.name}: not ready within 60 s\n${out}\n${err}`)), 60_000);
    const finish = (result: number | Error) => {
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.removeAllListeners('exit');
      const done = () => {
        if (v.reuseDataDir !== true) rmSync(dataDir, { recursive: true, force: true });
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      if (child.exitCode !== null || child.signalCode !== null) {
        done();
        return;
      }
      child.once('exit', done);
      const stop = () => {
        if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGTERM');
      };
      if (lingerMs > 0 && !(result instanceof Error)) setTimeout(stop, lingerMs);
      else stop();
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.split('\n').some((line) => v.ready.test(line))) finish(performance.now() - t0);
    });
    child.once('exit', (code) => finish(new Error(`${v.name}: exited ${code} before ready\n${out}\n${err}`)));
  });
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};
const ms = (x: number) => `${Math.round(x).toLocaleString('en-US')} ms`;

await ensureCliBundles();
console.log(
  `start-up, ${N} runs per variant (interleaved), Node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
// Node reads the extra certificates at every start (~75 ms per process on the machine of BENCHMARKS.md), and
// `npm run` starts two Node processes: a sandbox that sets the variable for its proxy pays that twice.
console.log(
  process.env.NODE_EXTRA_CA_CERTS === undefined
    ? 'NODE_EXTRA_CA_CERTS is not set'
    : `NODE_EXTRA_CA_CERTS=${process.env.NODE_EXTRA_CA_CERTS}: every Node process below loads those certificates at start`,
);
let failed = false;
for (const group of groups) {
  // One untimed run each: builds nothing (fresh bundles) but writes the V8 code cache and warms the file cache.
  for (const v of group.variants) await timeOnce(v, 3_000);
  const times = new Map<string, number[]>(group.variants.map((v) => [v.name, []]));
  for (let i = 0; i < N; i++) for (const v of group.variants) times.get(v.name)?.push(await timeOnce(v));
  const baseline = quantile(times.get(group.variants[2]?.name ?? '') ?? [], 0.5);
  console.log(
    `\n${group.title} (target < ${ms(group.target)}; load average now ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  console.log('| variant | p50 | p90 | vs baseline |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const v of group.variants) {
    const xs = times.get(v.name) ?? [];
    const p50 = quantile(xs, 0.5);
    console.log(`| ${v.name} | ${ms(p50)} | ${ms(quantile(xs, 0.9))} | ${(baseline / p50).toFixed(2)}× faster |`);
  }
  const headline = quantile(times.get(group.variants[0]?.name ?? '') ?? [], 0.5);
  const pass = headline < group.target;
  if (!pass) failed = true;
  console.log(`${pass ? 'PASS' : 'FAIL'}: ${group.variants[0]?.name} p50 ${ms(headline)} (target < ${ms(group.target)})`);
}
console.log(
  `\nload average after: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
process.exit(failed ? 1 : 0);
