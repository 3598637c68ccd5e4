/** The simulator benchmark's options (from argv), its result rows and the small helpers its parts share. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const argStr = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
export const N = arg('--n', 300);
export const EVENTS = arg('--events', 100_000);
export const ACS = arg('--acs', 1_000_000);
export const KEEP_ACS = argStr('--keep-acs');
/** `--only updates|submit|acs`: run one part. */
export const ONLY = argStr('--only');
/** `--cpu-prof DIR`: the read benchmark's child writes a V8 CPU profile there (figures are then not representative). */
export const CPU_PROF = argStr('--cpu-prof');
export const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '../..');

export interface Row {
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  pass: boolean;
}
export const rows: Row[] = [];
export const report = (r: Row): void => {
  rows.push(r);
  console.log(`${r.pass ? 'PASS' : 'FAIL'}  ${r.figure}: ${r.value} | baseline ${r.baseline} | ratio ${r.ratio} | target ${r.target}`);
};
export const fmt = (n: number, d = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
export const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] as number;
};

export async function post(url: string, body: unknown): Promise<unknown> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const t = await r.text();
  if (r.status !== 200) throw new Error(`${url}: ${r.status} ${t.slice(0, 300)}`);
  return JSON.parse(t);
}

// ------------------------------------------------------------------------------------------------
// child process helpers
// ------------------------------------------------------------------------------------------------

export interface Child {
  url: string;
  startMs: number;
  spawnToListeningMs: number;
  pid: number;
  proc: ChildProcess;
  rssMb(): { rss: number; hwm: number };
  stop(): Promise<void>;
}

export async function startChild(dataDir: string, limit = 200, profileDir?: string): Promise<Child> {
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

export async function partyOf(url: string, hint: string): Promise<string> {
  const r = (await (await fetch(`${url}/v2/parties`)).json()) as { partyDetails: { party: string }[] };
  return r.partyDetails.find((p) => p.party.startsWith(`${hint}::`))?.party as string;
}
