/**
 * `npm start`: builds what is stale, then launches Electron when its binary is present, otherwise
 * the browser host in demo mode. Runs as the prebuilt bundle dist/cli/launch.cjs (scripts/run.cjs); the
 * renderer and Electron builds are the build scripts themselves, run through tsx only when stale.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinary } from './launch-probe.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function newestMtime(dir: string): number {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function isStale(output: string, inputs: string[]): boolean {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return inputs.some((dir) => newestMtime(path.join(ROOT, dir)) > built);
}

/** Runs a build script of scripts/ (TypeScript, through tsx); its output goes to stderr, stdout stays ours. */
function runBuild([script, ...args]: [string, ...string[]], what: string): void {
  process.stderr.write(`building ${what}…\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', script), ...args], {
    cwd: ROOT,
    stdio: ['ignore', process.stderr, 'inherit'],
  });
  if (r.status !== 0) throw new Error(`building ${what} failed (scripts/${script} exited ${r.status ?? r.signal ?? 'abnormally'})`);
}

async function main() {
  const args = process.argv.slice(2);
  if (isStale(path.join(ROOT, 'dist/renderer/index.html'), ['renderer', 'src/ipc'])) runBuild(['build.ts', 'renderer'], 'the renderer');
  const electron = electronBinary(ROOT);
  if (electron) {
    if (isStale(path.join(ROOT, 'dist/electron/main.cjs'), ['electron', 'src'])) runBuild(['build-electron.ts'], 'the Electron bundles');
    const child = spawn(electron, [ROOT, ...args], { stdio: 'inherit' });
    child.on('exit', (code) => process.exit(code ?? 0));
    return;
  }
  process.stdout.write('Electron binary not present: starting the browser host instead.\n');
  const { runHost } = await import('./host.js');
  await runHost(args);
}

main().catch((err: unknown) => {
  process.stderr.write(`npm start failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
