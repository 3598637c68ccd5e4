/**
 * `npm run build [renderer|electron|cli …]`: the renderer (Vite), the Electron bundles and the command-line
 * bundles (esbuild; scripts/cli-bundle.mjs); all three without arguments.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as viteBuild } from 'vite';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const TARGETS = ['renderer', 'electron', 'cli'] as const;
type Target = (typeof TARGETS)[number];

export async function buildRenderer(): Promise<void> {
  await viteBuild({ configFile: path.join(ROOT, 'renderer/vite.config.ts'), logLevel: 'warn' });
}

export async function buildAll(targets: readonly Target[] = TARGETS): Promise<void> {
  if (targets.includes('renderer')) await buildRenderer();
  if (targets.includes('electron')) {
    const { buildElectron } = await import('./build-electron.js');
    await buildElectron();
  }
  if (targets.includes('cli')) {
    const { buildCliBundles } = await import('./cli-bundle.mjs');
    await buildCliBundles();
  }
}

function isTarget(s: string): s is Target {
  return (TARGETS as readonly string[]).includes(s);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => !isTarget(a));
  if (unknown.length > 0) {
    console.error(`usage: build [${TARGETS.join('|')} …] (unknown: ${unknown.join(', ')})`);
    process.exit(2);
  }
  const targets = args.filter(isTarget);
  buildAll(targets.length > 0 ? targets : TARGETS).then(
    () => console.log(`build complete: ${(targets.length > 0 ? targets : TARGETS).map((t) => `dist/${t}`).join(', ')}`),
    (err: unknown) => {
      console.error(`build failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
