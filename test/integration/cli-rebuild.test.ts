/**
 * scripts/run.cjs in a checkout of its own (scripts and tsconfig.json copied, the sources and node_modules linked):
 * it builds the bundles that are missing, runs fresh ones without building, and rebuilds them when an input
 * changed — before the bundle runs, although it compiles the old bundle while the freshness check is under way (and
 * whether or not the old bundle still parses).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/console-process.js';

const checkout = mkdtempSync(path.join(os.tmpdir(), 'cli-rebuild-'));
afterAll(() => {
  rmSync(checkout, { recursive: true, force: true });
});

function runSimHelp() {
  const r = spawnSync(process.execPath, [path.join(checkout, 'scripts/run.cjs'), 'sim', '--help'], {
    cwd: checkout,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^usage: sim --data DIR/);
  return r.stderr;
}

describe('the launcher in a checkout of its own', () => {
  it('builds missing bundles, runs fresh ones as they are, and rebuilds after a change', () => {
    cpSync(path.join(REPO_ROOT, 'scripts'), path.join(checkout, 'scripts'), { recursive: true });
    for (const f of ['package.json', 'tsconfig.json']) cpSync(path.join(REPO_ROOT, f), path.join(checkout, f));
    for (const f of ['src', 'node_modules', 'package-lock.json']) symlinkSync(path.join(REPO_ROOT, f), path.join(checkout, f));

    expect(runSimHelp()).toContain('building dist/cli (not built yet)');
    expect(runSimHelp()).toBe('');
    // a bundle that must never run again, and an input edited after its build (newer than the build's start, older
    // than the next build's)
    writeFileSync(path.join(checkout, 'dist/cli/sim.cjs'), 'process.stdout.write("the stale bundle ran\\n");\n');
    const now = Date.now() / 1000;
    utimesSync(path.join(checkout, 'tsconfig.json'), now, now);
    expect(runSimHelp()).toContain('building dist/cli (tsconfig.json changed)');
    expect(runSimHelp()).toBe('');

    // a stale bundle that no longer even parses is rebuilt too, not reported
    writeFileSync(path.join(checkout, 'dist/cli/sim.cjs'), 'this is not JavaScript (\n');
    const again = Date.now() / 1000;
    utimesSync(path.join(checkout, 'tsconfig.json'), again, again);
    expect(runSimHelp()).toContain('building dist/cli (tsconfig.json changed)');
  });
});
