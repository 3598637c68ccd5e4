/** The passphrase-encrypted secret file backend, on real files with real scrypt + XChaCha20-Poly1305. */
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ed from '@noble/ed25519';
import { openAppDb, type AppDb } from '../../../src/services/app-db.js';
import { EncryptedFileSecretStore } from '../../../src/services/signing/encrypted-file-secret-store.js';
import { KeyStore } from '../../../src/services/signing/key-store.js';
import { useTestScryptCost } from '../../../src/services/signing/passphrase-envelope.js';
import { must } from '../../support/must.js';
import { stringMatching } from '../../support/matchers.js';

const PASS = 'correct horse battery staple';
let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'secret-file-'));
  file = path.join(dir, 'keys.enc.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function tamper(mutate: (json: Record<string, unknown>) => void): void {
  const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  mutate(json);
  writeFileSync(file, JSON.stringify(json));
}

describe('EncryptedFileSecretStore', { timeout: 90_000 }, () => {
  it('stores secrets encrypted with the console’s scrypt parameters, survives reopening, and leaves no temp files', async () => {
    // the suite writes with a cheaper N (test/support/test-kdf-cost.ts); this test checks what the console writes
    useTestScryptCost(false);
    onTestFinished(() => useTestScryptCost(true));
    const store = await EncryptedFileSecretStore.open(file, PASS);
    await store.set('signing-key:a', 'SECRET-VALUE-ONE');
    await store.set('signing-key:b', 'SECRET-VALUE-TWO');
    expect(await store.delete('signing-key:b')).toBe(true);
    expect(await store.delete('signing-key:b')).toBe(false);
    const raw = readFileSync(file, 'utf8');
    expect(raw).not.toContain('SECRET-VALUE');
    expect(JSON.parse(raw)).toMatchObject({
      format: 'canton-console/secret-file',
      version: 1,
      cipher: 'xchacha20poly1305',
      kdf: { name: 'scrypt', N: 131072, r: 8, p: 1 },
    });
    expect(readdirSync(dir)).toEqual(['keys.enc.json']);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

    const reopened = await EncryptedFileSecretStore.open(file, PASS);
    expect(await reopened.get('signing-key:a')).toBe('SECRET-VALUE-ONE');
    expect(await reopened.get('signing-key:b')).toBeNull();
  });

  it('uses a fresh nonce for every write', async () => {
    const store = await EncryptedFileSecretStore.open(file, PASS);
    await store.set('x', 'same');
    const n1 = (JSON.parse(readFileSync(file, 'utf8')) as { nonce: string }).nonce;
    await store.set('x', 'same');
    const n2 = (JSON.parse(readFileSync(file, 'utf8')) as { nonce: string }).nonce;
    expect(n1).not.toBe(n2);
  });

  it('refuses a wrong passphrase with a clear error', async () => {
    await (await EncryptedFileSecretStore.open(file, PASS)).set('a', 'b');
    await expect(EncryptedFileSecretStore.open(file, 'not the passphrase')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      reason: 'WRONG_PASSPHRASE',
      message: stringMatching(/Wrong passphrase/),
    });
  });

  it('detects an altered ciphertext, nonce or KDF header, an unknown version and garbage', async () => {
    await (await EncryptedFileSecretStore.open(file, PASS)).set('a', 'b');
    const original = readFileSync(file, 'utf8');
    tamper((j) => {
      const ct = Buffer.from(j.ciphertext as string, 'base64');
      ct[3] = must(ct[3], 'ct[3]') ^ 1;
      j.ciphertext = ct.toString('base64');
    });
    await expect(EncryptedFileSecretStore.open(file, PASS)).rejects.toMatchObject({ reason: 'FILE_ALTERED' });
    writeFileSync(file, original);
    tamper((j) => {
      const n = Buffer.from(j.nonce as string, 'base64');
      n[0] = must(n[0], 'n[0]') ^ 1;
      j.nonce = n.toString('base64');
    });
    await expect(EncryptedFileSecretStore.open(file, PASS)).rejects.toMatchObject({ reason: 'FILE_ALTERED' });
    writeFileSync(file, original);
    tamper((j) => {
      (j.kdf as { salt: string }).salt = Buffer.alloc(16, 7).toString('base64');
    });
    await expect(EncryptedFileSecretStore.open(file, PASS)).rejects.toMatchObject({ reason: 'WRONG_PASSPHRASE' });
    writeFileSync(file, original);
    tamper((j) => {
      (j.kdf as { N: number }).N = 2 ** 30;
    });
    await expect(EncryptedFileSecretStore.open(file, PASS)).rejects.toMatchObject({ reason: 'UNSUPPORTED_KDF' });
    writeFileSync(file, original);
    tamper((j) => {
      j.version = 2;
    });
    await expect(EncryptedFileSecretStore.open(file, PASS)).rejects.toMatchObject({ reason: 'UNKNOWN_FILE_VERSION' });
    writeFileSync(file, 'not json');
    await expect(EncryptedFileSecretStore.open(file, PASS)).rejects.toMatchObject({ reason: 'NOT_A_VALID_FILE' });
  });

  it('refuses a short passphrase on creation, and operations after lock()', async () => {
    await expect(EncryptedFileSecretStore.open(file, 'short')).rejects.toMatchObject({ reason: 'WEAK_PASSPHRASE' });
    const store = await EncryptedFileSecretStore.open(file, PASS);
    store.lock();
    await expect(store.get('a')).rejects.toMatchObject({ reason: 'LOCKED' });
    await expect(EncryptedFileSecretStore.open(path.join(dir, 'missing'), PASS, { create: false })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('changes the passphrase', async () => {
    const store = await EncryptedFileSecretStore.open(file, PASS);
    await store.set('a', 'kept');
    await store.changePassphrase('a brand new passphrase');
    await expect(EncryptedFileSecretStore.open(file, PASS)).rejects.toMatchObject({ reason: 'WRONG_PASSPHRASE' });
    expect(await (await EncryptedFileSecretStore.open(file, 'a brand new passphrase')).get('a')).toBe('kept');
  });

  it('serves as the KeyStore backend on machines without a keychain', async () => {
    let db: AppDb = openAppDb(dir);
    try {
      const store = await EncryptedFileSecretStore.open(file, PASS);
      const keys = new KeyStore(db, { 'encrypted-file': store });
      const k = await keys.create('Laptop key');
      expect(k.backend).toBe('encrypted-file');
      const hash = new Uint8Array(32).fill(9);
      const sig = await keys.signHash(k.fingerprint, hash);
      expect(await ed.verifyAsync(sig, hash, keys.publicKey(k.fingerprint))).toBe(true);
      db.close();
      db = openAppDb(dir);
      const keys2 = new KeyStore(db, { 'encrypted-file': await EncryptedFileSecretStore.open(file, PASS) });
      expect(await ed.verifyAsync(await keys2.signHash(k.fingerprint, hash), hash, keys2.publicKey(k.fingerprint))).toBe(true);
      await keys2.delete(k.fingerprint);
      const reopened = await EncryptedFileSecretStore.open(file, PASS);
      expect(await reopened.get(`signing-key:${k.fingerprint}`)).toBeNull();
      // a KeyStore without that backend says so clearly
      const keys3 = new KeyStore(db, { 'os-keychain': reopened });
      await expect(keys3.create('x', { backend: 'encrypted-file' })).rejects.toMatchObject({ code: 'KEYCHAIN_UNAVAILABLE' });
    } finally {
      db.close();
    }
  });
});
