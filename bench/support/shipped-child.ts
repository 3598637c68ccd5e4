/**
 * The benchmark child (bench/simulator/child.ts) compiled the way `npm run sim` ships the simulator: one CommonJS
 * bundle with the CLI bundles' esbuild options (scripts/cli-bundle.mjs), run by plain `node`. Under `--import tsx`
 * the same simulator measured 5–8 % slower with 16 clients (BENCHMARKS.md, group commit).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BuildOptions } from 'esbuild';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Builds the child into node_modules/.cache/bench (inside the repo, so its native externals resolve); returns its path. */
export async function buildShippedChild(): Promise<string> {
  const { build } = await import('esbuild');
  const cliBundle = pathToFileURL(path.join(repo, 'scripts/cli-bundle.mjs')).href;
  const { cliBuildOptions } = (await import(cliBundle)) as { cliBuildOptions: () => BuildOptions };
  const outdir = path.join(repo, 'node_modules/.cache/bench');
  mkdirSync(outdir, { recursive: true });
  await build({ ...cliBuildOptions(), entryPoints: { 'sim-child': path.join(repo, 'bench/simulator/child.ts') }, outdir, write: true });
  return path.join(outdir, 'sim-child.cjs');
}
