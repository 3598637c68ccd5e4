/** `npm start`'s launcher: without Electron's binary it starts the browser host in demo mode. */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { electronBinary } from '../../src/cli/launch-probe.js';
import { REPO_ROOT } from '../support/console-process.js';
import { must } from '../support/must.js';

describe('launcher', () => {
  it('finds no Electron binary on this machine, and finds one when path.txt points at a file', () => {
    expect(electronBinary(REPO_ROOT)).toBeNull();
    const fake = mkdtempSync(path.join(os.tmpdir(), 'fake-electron-'));
    mkdirSync(path.join(fake, 'node_modules/electron/dist'), { recursive: true });
    writeFileSync(path.join(fake, 'node_modules/electron/path.txt'), 'electron');
    expect(electronBinary(fake)).toBeNull();
    writeFileSync(path.join(fake, 'node_modules/electron/dist/electron'), '');
    expect(electronBinary(fake)).toBe(path.join(fake, 'node_modules/electron/dist/electron'));
    rmSync(fake, { recursive: true, force: true });
  });

  it('starts the browser host with the embedded simulator and prints the console URL', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'launcher-'));
    const child = spawn(process.execPath, ['scripts/run.cjs', 'launch', '--keychain-service', `launcher-test-${process.pid}`], {
      cwd: REPO_ROOT,
      env: { ...process.env, CONSOLE_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const lines: string[] = [];
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL within 120 s: ${lines.join('\n')}\n${stderr}`)), 120_000);
        child.once('exit', (code) => reject(new Error(`launcher exited with ${code}: ${lines.join('\n')}\n${stderr}`)));
        createInterface({ input: child.stdout }).on('line', (line) => {
          lines.push(line);
          const m = /^Console ready: (http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+)$/.exec(line);
          if (m) {
            clearTimeout(timer);
            resolve(must(m[1], 'the console URL'));
          }
        });
      });
      expect(lines.join('\n')).toContain('Electron binary not present');
      const page = await fetch(must(url.split('#')[0], 'the URL without its fragment'));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app"');
      const sim = await new Promise<string>((resolve) => {
        const found = lines.map((l) => /Embedded simulator \(demo mode\): (\S+)/.exec(l)?.[1]).find(Boolean);
        if (found) {
          resolve(found);
          return;
        }
        createInterface({ input: child.stdout }).on('line', (l) => {
          const m = /Embedded simulator \(demo mode\): (\S+)/.exec(l);
          if (m) resolve(must(m[1], 'the simulator URL'));
        });
      });
      const end = (await (await fetch(`${sim}/v2/state/ledger-end`)).json()) as { offset: number };
      expect(end.offset).toBeGreaterThan(0); // demo data was seeded
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
