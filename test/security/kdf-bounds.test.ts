/**
 * Issue #13 item 8 (KDF part): a crafted key backup or key file may not choose what reading it costs. scrypt at
 * N=2^20, r=15, p=4 took 116 s of CPU and 1.8 GB; the console now refuses any parameters beyond what it writes
 * (N=2^17, r=8, p=1) before deriving anything, with an error that names them.
 */
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openAppDb, type AppDb } from '../../src/services/app-db.js';
import { KeyStore } from '../../src/services/signing/key-store.js';
import { EncryptedFileSecretStore } from '../../src/services/signing/encrypted-file-secret-store.js';
import { exportKeyBackup, previewKeyBackup, restoreKeyBackup } from '../../src/services/signing/key-backup.js';
import { DEFAULT_SCRYPT, useTestScryptCost } from '../../src/services/signing/passphrase-envelope.js';
import { MemorySecrets } from '../support/memory-secrets.js';

const PASS = 'kdf bounds passphrase';
let dir: string;
let db: AppDb;
let keys: KeyStore;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'kdf-bounds-'));
  db = openAppDb(dir);
  keys = new KeyStore(db, { 'os-keychain': new MemorySecrets() });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const CRAFTED = [
  { N: 2 ** 20, r: 15, p: 4, what: 'the reported bomb (116 s, +1.8 GB)' },
  { N: 2 ** 18, r: 8, p: 1, what: 'N above what the console writes' },
  { N: 2 ** 17, r: 16, p: 1, what: 'r above what the console writes' },
  { N: 2 ** 17, r: 8, p: 2, what: 'p above what the console writes' },
  { N: 2 ** 30, r: 8, p: 1, what: 'N = 2^30' },
  { N: 100_000, r: 8, p: 1, what: 'N not a power of two' },
];

/** Runs `fn`, returning its rejection, the wall time and the growth of the resident set. */
async function measure(fn: () => Promise<unknown>): Promise<{ err: unknown; ms: number; rssGrowth: number }> {
  const rss = process.memoryUsage().rss;
  const t0 = performance.now();
  let err: unknown = null;
  try {
    await fn();
  } catch (e) {
    err = e;
  }
  return { err, ms: performance.now() - t0, rssGrowth: process.memoryUsage().rss - rss };
}

describe('KDF bounds of passphrase-encrypted files', () => {
  it('writes exactly the parameters it reads', async () => {
    // the suite writes with a cheaper N (test/support/test-kdf-cost.ts); this test checks what the console writes
    useTestScryptCost(false);
    onTestFinished(() => useTestScryptCost(true));
    const k = await keys.create('Bounded');
    const backup = JSON.parse(await exportKeyBackup(keys, [k.fingerprint], PASS)) as { kdf: Record<string, unknown> };
    expect(backup.kdf).toMatchObject({ name: 'scrypt', ...DEFAULT_SCRYPT });
    expect((await previewKeyBackup(JSON.stringify(backup), PASS)).map((i) => i.fingerprint)).toEqual([k.fingerprint]);
  });

  for (const c of CRAFTED) {
    it(`refuses a key backup demanding ${c.what} at once, naming the parameters, and restores nothing`, async () => {
      const k = await keys.create('Victim');
      const text = await exportKeyBackup(keys, [k.fingerprint], PASS);
      await keys.delete(k.fingerprint);
      const crafted = JSON.parse(text) as { kdf: Record<string, unknown> };
      Object.assign(crafted.kdf, { N: c.N, r: c.r, p: c.p });
      for (const read of [
        () => previewKeyBackup(JSON.stringify(crafted), PASS),
        () => restoreKeyBackup(keys, JSON.stringify(crafted), PASS),
      ]) {
        const { err, ms, rssGrowth } = await measure(read);
        expect(err).toMatchObject({ code: 'BAD_REQUEST', reason: 'UNSUPPORTED_KDF' });
        expect((err as Error).message).toContain(`r=${c.r}, p=${c.p}`);
        expect((err as Error).message).toMatch(/reads only the parameters it writes/);
        // no derivation ran: well under the ~0.3 s one legitimate derivation takes, and no scrypt buffer was allocated
        expect(ms).toBeLessThan(250);
        expect(rssGrowth).toBeLessThan(64 * 2 ** 20);
      }
      expect(keys.list()).toEqual([]);
    });
  }

  it('refuses an encrypted key file demanding the bomb, and leaves the file as it was', async () => {
    const file = path.join(dir, 'keys.enc.json');
    const store = await EncryptedFileSecretStore.open(file, PASS);
    await store.set('a', 'secret');
    store.lock();
    const crafted = JSON.parse(readFileSync(file, 'utf8')) as { kdf: Record<string, unknown> };
    Object.assign(crafted.kdf, { N: 2 ** 20, r: 15, p: 4 });
    writeFileSync(file, JSON.stringify(crafted));
    const { err, ms } = await measure(() => EncryptedFileSecretStore.open(file, PASS));
    expect(err).toMatchObject({ reason: 'UNSUPPORTED_KDF' });
    expect((err as Error).message).toContain('N=2^20, r=15, p=4');
    expect(ms).toBeLessThan(250);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(crafted);
  });
});
