/**
 * The prebuilt command-line bundles (scripts/cli-bundle.mjs, scripts/run.cjs): when a bundle counts as stale,
 * that `npm run sim` runs the bundle, and that stack traces from a bundle run through vm.Script name the
 * TypeScript sources.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTRIES, OUT_DIR, staleReason, staleReasonAsync, staleReasonFor, type CliManifest } from '../../scripts/cli-bundle.mjs';
import { REPO_ROOT } from '../support/console-process.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('bundle freshness', () => {
  const manifest: CliManifest = { root: '/repo', builtAt: 1_000, workers: [], inputs: ['src/cli/sim.ts', 'src/simulator/index.ts'] };
  const files = (over: Record<string, number | null> = {}) => {
    const base: Record<string, number | null> = {
      'package-lock.json': 500,
      'tsconfig.json': 500,
      'scripts/cli-bundle.mjs': 500,
      'src/cli/sim.ts': 900,
      'src/simulator/index.ts': 900,
      ...Object.fromEntries(Object.keys(ENTRIES).map((n) => [`dist/cli/${n}.cjs`, 1_100])),
    };
    const all = { ...base, ...over };
    return (rel: string) => all[rel] ?? null;
  };

  it('is fresh when no input is newer than the build', () => {
    expect(staleReasonFor(manifest, '/repo', files())).toBeNull();
  });

  it('is stale when never built, built elsewhere, a bundle is missing, or an input changed or is gone', () => {
    expect(staleReasonFor(null, '/repo', files())).toBe('not built yet');
    expect(staleReasonFor(manifest, '/other', files())).toBe('built in another checkout');
    expect(staleReasonFor(manifest, '/repo', files({ 'dist/cli/sim.cjs': null }))).toBe('dist/cli/sim.cjs is missing');
    expect(staleReasonFor(manifest, '/repo', files({ 'src/simulator/index.ts': 1_001 }))).toBe('src/simulator/index.ts changed');
    expect(staleReasonFor(manifest, '/repo', files({ 'src/simulator/index.ts': null }))).toBe('src/simulator/index.ts is gone');
    expect(staleReasonFor(manifest, '/repo', files({ 'package-lock.json': 2_000 }))).toBe('package-lock.json changed');
    expect(staleReasonFor(manifest, '/repo', files({ 'src/dar-reader/dar-worker.ts': 900 }))).toBe('src/dar-reader/dar-worker.ts is new');
  });

  it('gives the same answer with parallel stats as with one stat after another', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'freshness-'));
    dirs.push(root);
    const write = (rel: string, mtimeMs: number) => {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), '');
      utimesSync(path.join(root, rel), mtimeMs / 1000, mtimeMs / 1000);
    };
    const inputs = Array.from({ length: 300 }, (_, i) => `src/m${String(i)}.ts`);
    const both = async () => {
      const sync = staleReason(root);
      expect(await staleReasonAsync(root)).toBe(sync);
      return sync;
    };
    expect(await both()).toBe('not built yet');
    write('dist/cli/bundles.json', 0);
    writeFileSync(path.join(root, 'dist/cli/bundles.json'), JSON.stringify({ root, builtAt: 2_000_000, workers: [], inputs }));
    expect(await both()).toMatch(/^dist\/cli\/\w+\.cjs is missing$/);
    for (const name of Object.keys(ENTRIES)) write(`dist/cli/${name}.cjs`, 3_000_000);
    for (const rel of ['package-lock.json', 'tsconfig.json', 'scripts/cli-bundle.mjs', ...inputs]) write(rel, 1_000_000);
    expect(await both()).toBeNull();
    write('src/m299.ts', 2_500_000);
    expect(await both()).toBe('src/m299.ts changed');
    rmSync(path.join(root, 'src/m150.ts'));
    expect(await both()).toBe('src/m150.ts is gone');
    write('src/dar-reader/dar-worker.ts', 1_000_000);
    expect(await both()).toBe('src/dar-reader/dar-worker.ts is new');
    writeFileSync(
      path.join(root, 'dist/cli/bundles.json'),
      JSON.stringify({ root: '/elsewhere', builtAt: 2_000_000, workers: [], inputs }),
    );
    expect(await both()).toBe('built in another checkout');
  });

  it('lists every local source of the built bundles (the vitest global setup built them)', () => {
    expect(staleReason()).toBeNull();
    const built = JSON.parse(readFileSync(path.join(OUT_DIR, 'bundles.json'), 'utf8')) as CliManifest;
    expect(built.inputs).toEqual(
      expect.arrayContaining(['src/cli/sim.ts', 'src/cli/launch.ts', 'src/simulator/index.ts', 'src/app/console-app.ts']),
    );
    expect(built.inputs.some((f) => f.includes('node_modules'))).toBe(false);
  });
});

describe('scripts/run.cjs', () => {
  it('runs the named bundle with its arguments, and refuses an unknown name', () => {
    const help = spawnSync(process.execPath, ['scripts/run.cjs', 'sim', '--help'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^usage: sim --data DIR/);
    const bad = spawnSync(process.execPath, ['scripts/run.cjs', 'nope'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/usage: node scripts\/run\.cjs sim\|launch\|host/);
  });

  it('maps stack frames of a vm-compiled bundle back to the TypeScript source', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'stack-map-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'thrower.ts'), 'export function boom(): never {\n  throw new Error("boom");\n}\nboom();\n');
    await build({
      entryPoints: [path.join(dir, 'thrower.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      sourcemap: 'linked',
      minifyWhitespace: true,
      outfile: path.join(dir, 'thrower.cjs'),
      logLevel: 'silent',
    });
    const runner = [
      "import vm from 'node:vm';",
      "import Module from 'node:module';",
      "import { readFileSync } from 'node:fs';",
      `import { installStackMapping } from ${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'scripts/stack-map.cjs')).href)};`,
      `const file = ${JSON.stringify(path.join(dir, 'thrower.cjs'))};`,
      "const source = readFileSync(file, 'utf8');",
      'const wrapped = Module.wrap(source);',
      'installStackMapping(file, wrapped.indexOf(source));',
      'try { new vm.Script(wrapped, { filename: file }).runInThisContext()({}, () => {}, {}, file, "."); } ' +
        'catch (e) { console.log(e.stack); }',
    ].join('\n');
    writeFileSync(path.join(dir, 'runner.mjs'), runner);
    const r = spawnSync(process.execPath, [path.join(dir, 'runner.mjs')], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stdout).toContain('Error: boom');
    expect(r.stdout).toContain(`at boom (${path.join(dir, 'thrower.ts')}:2:9)`);
  });
});
