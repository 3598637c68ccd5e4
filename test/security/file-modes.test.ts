/**
 * Issue #13 item 10: `console.sqlite` was created 0644 (readable by every user of the machine). The data directory and
 * everything the console writes into it — the app database and its WAL/SHM, the embedded simulator's data, exports,
 * the encrypted key file — must be private to the user: directories 0700, files 0600, both when they are created
 * and when the console opens a data directory that an older version (or a copy) left with looser modes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startConsoleApp, type ConsoleApp } from '../../src/app/console-app.js';
import { exportUpdatesNdjson } from '../../src/services/ledger/export-ndjson.js';
import { EncryptedFileSecretStore } from '../../src/services/signing/encrypted-file-secret-store.js';
import { startSimulator } from '../../src/simulator/index.js';
import { MemorySecrets } from '../support/memory-secrets.js';
import { must } from '../support/must.js';

const mode = (p: string): number => statSync(p).mode & 0o777;
const octal = (m: number): string => `0${m.toString(8)}`;

/** Every directory and file under `dir` (and `dir` itself) with its mode, for a readable failure message. */
function modesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = { '.': octal(mode(dir)) };
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      out[path.relative(dir, p)] = octal(mode(p));
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

function expectPrivate(dir: string): void {
  const modes = modesUnder(dir);
  const loose = Object.entries(modes).filter(([p, m]) => {
    const isDir = statSync(path.join(dir, p)).isDirectory();
    return isDir ? m !== '0700' : m !== '0600';
  });
  expect(loose, JSON.stringify(modes, null, 1)).toEqual([]);
}

let root: string;
let app: ConsoleApp | undefined;
const previousUmask = process.umask(0o022); // what most desktops run with
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'file-modes-'));
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  rmSync(root, { recursive: true, force: true });
});
process.on('exit', () => process.umask(previousUmask));

describe.skipIf(process.platform === 'win32')('data files 0600, data directories 0700', () => {
  it('a new data directory: console.sqlite (+ WAL, SHM), the simulator data, the key file, an export', async () => {
    const dataDir = path.join(root, 'data');
    app = await startConsoleApp({ dataDir, demo: true, transport: 'browser-host', secretStore: new MemorySecrets() });
    // the app database is in WAL mode: writing creates the -wal and -shm files
    await app.router.invoke('profiles.save', { name: 'Modes', ledgerApiUrl: 'http://127.0.0.1:1' });
    const keys = await EncryptedFileSecretStore.open(path.join(dataDir, 'keys.enc.json'), 'a passphrase that is long enough');
    await keys.set('k', 'v');
    keys.lock();
    await exportUpdatesNdjson({
      baseUrl: must(app.demoLedgerUrl, 'app.demoLedgerUrl'),
      token: null,
      updateFormat: {},
      beginExclusive: 0,
      endInclusive: 0,
      dir: path.join(dataDir, 'exports'),
      fileName: 'empty',
    });
    for (const f of ['console.sqlite', 'console.sqlite-wal', 'console.sqlite-shm', 'simulator/ledger.sqlite', 'exports/empty.ndjson'])
      expect(existsSync(path.join(dataDir, f)), f).toBe(true);
    expectPrivate(dataDir);
  });

  it('an existing data directory with loose modes is tightened when the console opens it', async () => {
    const dataDir = path.join(root, 'old');
    app = await startConsoleApp({ dataDir, demo: true, transport: 'browser-host', secretStore: new MemorySecrets() });
    await app.router.invoke('profiles.save', { name: 'Modes', ledgerApiUrl: 'http://127.0.0.1:1' });
    await app.close();
    app = undefined;
    mkdirSync(path.join(dataDir, 'exports'), { recursive: true });
    writeFileSync(path.join(dataDir, 'exports', 'old.ndjson'), '{}\n');
    // as an older version, a copy or a restore from backup might have left them
    const loosen = (d: string): void => {
      chmodSync(d, 0o755);
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) loosen(p);
        else chmodSync(p, 0o644);
      }
    };
    loosen(dataDir);
    expect(mode(path.join(dataDir, 'console.sqlite'))).toBe(0o644);

    app = await startConsoleApp({ dataDir, demo: true, transport: 'browser-host', secretStore: new MemorySecrets() });
    expectPrivate(dataDir);
  });

  it('the standalone simulator keeps its own data directory private too', async () => {
    const dataDir = path.join(root, 'sim');
    const sim = await startSimulator({ dataDir, port: 0 });
    await fetch(`${sim.url}/v2/parties`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"partyIdHint":"Modes"}',
    });
    await sim.close();
    expectPrivate(dataDir);
  });
});
