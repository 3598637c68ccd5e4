/**
 * `npm start`: builds what is stale, then launches Electron when its binary is present, otherwise
 * the browser host in demo mode.
 */
import { spawn } from 'node:child_process';
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

async function main() {
  const args = process.argv.slice(2);
  const { buildRenderer } = await import('../../scripts/build.js');
  if (isStale(path.join(ROOT, 'dist/renderer/index.html'), ['renderer', 'src/ipc'])) {
    process.stdout.write('building renderer…\n');
    await buildRenderer();
  }
  const electron = electronBinary(ROOT);
  if (electron) {
    const { buildElectron } = await import('../../scripts/build-electron.js');
    if (isStale(path.join(ROOT, 'dist/electron/main.cjs'), ['electron', 'src'])) await buildElectron();
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
