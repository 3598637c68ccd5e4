/**
 * Benchmark child process: starts the simulator on a data dir and reports how long `startSimulator`
 * took. `node --import tsx bench/simulator/child.ts --data DIR [--limit N] [--no-group-commit]`, or compiled as the
 * CLI ships (bench/support/shipped-child.ts); prints one JSON line `{"url","startMs","pid"}`, then serves until SIGTERM.
 */
import { performance } from 'node:perf_hooks';
import { startSimulator } from '../../src/simulator/index.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

// no top-level await: the compiled child is CommonJS, as the CLI bundles are
async function main(): Promise<void> {
  const t0 = performance.now();
  const sim = await startSimulator({
    dataDir: arg('--data') as string,
    port: 0,
    settings: { httpListMaxElementsLimit: Number(arg('--limit') ?? 200), groupCommit: !process.argv.includes('--no-group-commit') },
  });
  const startMs = performance.now() - t0;
  process.stdout.write(`${JSON.stringify({ url: sim.url, startMs, pid: process.pid, uptimeMs: process.uptime() * 1000 })}\n`);
  const stop = (): void => {
    void sim.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench child: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
