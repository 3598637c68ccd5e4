/**
 * The suite's cheaper scrypt N (test/support/test-kdf-cost.ts) stays a test matter: it is on in this process, it is
 * still an N the console reads, nothing outside the tests switches it on, and it refuses to run outside vitest.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_SCRYPT, DerivedKey, MIN_SCRYPT_N, useTestScryptCost } from '../../../src/services/signing/passphrase-envelope.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|cts|js|mjs|cjs|svelte)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('the test suite’s scrypt cost', () => {
  it('new keys in the tests use the weakest N the console reads; switched off, the console’s own', async () => {
    const cheap = await DerivedKey.derive('a test passphrase');
    expect(cheap.kdf).toMatchObject({ N: MIN_SCRYPT_N, r: DEFAULT_SCRYPT.r, p: DEFAULT_SCRYPT.p });
    cheap.destroy();
    useTestScryptCost(false);
    onTestFinished(() => useTestScryptCost(true));
    const real = await DerivedKey.derive('a test passphrase');
    expect(real.kdf).toMatchObject({ ...DEFAULT_SCRYPT });
    // a file of either cost opens with the same passphrase
    const sealed = cheap.kdf;
    const again = await DerivedKey.derive('a test passphrase', sealed);
    expect(again.keyCheck).toBe(cheap.keyCheck);
    real.destroy();
    again.destroy();
  });

  it('refuses to run outside vitest', () => {
    const was = process.env.VITEST;
    onTestFinished(() => {
      process.env.VITEST = was;
    });
    delete process.env.VITEST;
    expect(() => useTestScryptCost(true)).toThrow(/test suite only/);
  });

  it('no product source calls it', () => {
    const callers = ['src', 'electron', 'renderer', 'scripts']
      .flatMap(sources)
      .filter((f) => readFileSync(f, 'utf8').includes('useTestScryptCost('))
      .map((f) => path.relative(ROOT, f));
    expect(callers).toEqual(['src/services/signing/passphrase-envelope.ts']);
  });
});
