/**
 * On Linux, @napi-rs/keyring falls back to the kernel's keyutils keyring (memory only, gone at the next reboot) when no
 * Secret Service answers. The console's OS keychain must not: without a Secret Service the probe names the problem
 * and a write fails with KEYCHAIN_UNAVAILABLE. Run in a child process whose session bus address leads nowhere, so
 * the test's own keyring session is left alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REPO_ROOT } from '../support/console-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'keychain-no-fallback-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const Outcome = z.object({ problem: z.string().nullable(), write: z.string(), read: z.string() });

describe('the OS keychain without a Secret Service', () => {
  it('is reported unavailable and keeps nothing: no silent fallback to the kernel keyring', () => {
    const store = pathToFileURL(path.join(REPO_ROOT, 'src/services/secret-store.ts')).href;
    const script = path.join(dir, 'probe.mts');
    writeFileSync(
      script,
      [
        `import { KeychainSecretStore } from ${JSON.stringify(store)};`,
        `const store = new KeychainSecretStore('canton-console-no-fallback-${String(process.pid)}');`,
        'const outcome = (p) => p.then((v) => `ok ${String(v)}`, (e) => `${e.code ?? ""} ${e.message}`);',
        'const problem = await store.probe();',
        "const write = await outcome(store.set('account', 'a secret'));",
        "const read = await outcome(store.get('account'));",
        'console.log(JSON.stringify({ problem, write, read }));',
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/no-secret-service' },
    });
    expect(run.status, run.stderr).toBe(0);
    const { problem, write, read } = Outcome.parse(JSON.parse(run.stdout.trim().split('\n').pop() ?? ''));
    expect(problem).toMatch(/OS keychain read failed/);
    expect(write).toMatch(/^KEYCHAIN_UNAVAILABLE OS keychain write failed/);
    expect(read).toMatch(/^KEYCHAIN_UNAVAILABLE OS keychain read failed/);
  });
});
