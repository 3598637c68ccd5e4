/**
 * CPU burners for benchmarks that must also hold on a busy machine: `n` child processes spinning on a core each,
 * each bounded to 10 minutes so nothing outlives a crashed benchmark for long. `start` waits until the 1-minute load
 * average reaches `n` (at most `maxWaitMs`), so the figures are taken on a machine that is loaded, not warming up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';

const BURN = 'const end = Date.now() + 600000; while (Date.now() < end) {}';

export interface Burners {
  readonly count: number;
  stop(): Promise<void>;
}

export async function startBurners(n: number, maxWaitMs = 120_000): Promise<Burners> {
  const procs: ChildProcess[] = [];
  for (let i = 0; i < n; i++) procs.push(spawn(process.execPath, ['-e', BURN], { stdio: 'ignore' }));
  const stop = async (): Promise<void> => {
    await Promise.all(
      procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.exitCode !== null || p.signalCode !== null) {
              resolve();
              return;
            }
            p.once('exit', () => resolve());
            p.kill('SIGKILL');
          }),
      ),
    );
  };
  process.once('exit', () => procs.forEach((p) => p.kill('SIGKILL')));
  const until = Date.now() + maxWaitMs;
  while (n > 0 && (os.loadavg()[0] ?? 0) < n && Date.now() < until) await new Promise((r) => setTimeout(r, 1000));
  return { count: n, stop };
}

export const loadAverage = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
