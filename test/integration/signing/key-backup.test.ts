/** Encrypted key backup / restore with the real keychain, real SQLite and real scrypt + AEAD. */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ed from '@noble/ed25519';
import { Entry } from '@napi-rs/keyring';
import { openAppDb, type AppDb } from '../../../src/services/app-db.js';
import { KeychainSecretStore } from '../../../src/services/secret-store.js';
import { KeyStore, secretAccount } from '../../../src/services/signing/key-store.js';
import { externalPartyId } from '../../../src/services/signing/fingerprint.js';
import { EncryptedFileSecretStore } from '../../../src/services/signing/encrypted-file-secret-store.js';
import { exportKeyBackup, previewKeyBackup, restoreKeyBackup } from '../../../src/services/signing/key-backup.js';
import { must } from '../../support/must.js';
import { stringMatching } from '../../support/matchers.js';

const SERVICE = `canton-console-test-backup-${process.pid}-${Date.now()}`;
const PASS = 'backup passphrase 42';
let dir: string;
let db: AppDb;
let keys: KeyStore;
const created = new Set<string>();

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'backup-'));
  db = openAppDb(dir);
  keys = new KeyStore(db, { 'os-keychain': new KeychainSecretStore(SERVICE) });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  for (const fp of created) new Entry(SERVICE, secretAccount(fp)).deletePassword();
});

async function newKey(label: string) {
  const k = await keys.create(label);
  created.add(k.fingerprint);
  return k;
}
function secretOf(fp: string): string {
  return must(new Entry(SERVICE, secretAccount(fp)).getPassword(), `the keychain entry of ${fp}`).slice('ed25519-seed:v1:'.length);
}
function mutate(text: string, fn: (j: Record<string, unknown>) => void): string {
  const j = JSON.parse(text) as Record<string, unknown>;
  fn(j);
  return JSON.stringify(j);
}
const fingerprints = () =>
  keys
    .list()
    .map((k) => k.fingerprint)
    .sort();

describe('key backup', { timeout: 90_000 }, () => {
  it('exports selected keys encrypted and restores them byte-for-byte with labels and parties', async () => {
    const a = await newKey('A');
    const b = await newKey('B');
    const c = await newKey('C not exported');
    const party = externalPartyId('alice', a.fingerprint);
    keys.attachParty(a.fingerprint, party);
    const seeds = [secretOf(a.fingerprint), secretOf(b.fingerprint)];
    const text = await exportKeyBackup(keys, [a.fingerprint, b.fingerprint], PASS);
    for (const s of seeds) {
      expect(text).not.toContain(s);
      expect(text).not.toContain(Buffer.from(s, 'base64').toString('hex'));
    }
    expect(JSON.parse(text)).toMatchObject({ format: 'canton-console/key-backup', version: 2 });
    expect((await previewKeyBackup(text, PASS)).map((k) => k.label)).toEqual(['A', 'B']);

    await keys.delete(a.fingerprint);
    await keys.delete(b.fingerprint);
    const report = await restoreKeyBackup(keys, text, PASS);
    expect(report.restored).toEqual([
      { fingerprint: a.fingerprint, label: 'A', status: 'imported', policy: null },
      { fingerprint: b.fingerprint, label: 'B', status: 'imported', policy: null },
    ]);
    expect(keys.get(a.fingerprint).parties).toEqual([party]);
    expect(secretOf(a.fingerprint)).toBe(seeds[0]);
    const hash = new Uint8Array(32).fill(1);
    expect(await ed.verifyAsync(await keys.signHash(b.fingerprint, hash), hash, keys.publicKey(b.fingerprint))).toBe(true);
    expect(fingerprints()).toEqual([a.fingerprint, b.fingerprint, c.fingerprint].sort());

    // idempotent
    const again = await restoreKeyBackup(keys, text, PASS);
    expect(again.restored.map((r) => r.status)).toEqual(['already-present', 'already-present']);
    expect(fingerprints()).toHaveLength(3);
  });

  it('restores onto another machine that only has the encrypted-file backend', async () => {
    const a = await newKey('Moving key');
    const text = await exportKeyBackup(keys, [a.fingerprint], PASS);
    const dir2 = mkdtempSync(path.join(os.tmpdir(), 'backup-target-'));
    const db2 = openAppDb(dir2);
    try {
      const store = await EncryptedFileSecretStore.open(path.join(dir2, 'keys.enc.json'), 'file passphrase!');
      const keys2 = new KeyStore(db2, { 'encrypted-file': store });
      await restoreKeyBackup(keys2, text, PASS);
      expect(keys2.get(a.fingerprint)).toMatchObject({ label: 'Moving key', backend: 'encrypted-file' });
      expect(await store.get(secretAccount(a.fingerprint))).toBe(`ed25519-seed:v1:${secretOf(a.fingerprint)}`);
    } finally {
      db2.close();
      rmSync(dir2, { recursive: true, force: true });
    }
  });

  it('refuses a wrong passphrase, an altered file and an unknown version — and changes nothing', async () => {
    const a = await newKey('A');
    const text = await exportKeyBackup(keys, [a.fingerprint], PASS);
    await keys.delete(a.fingerprint);
    created.delete(a.fingerprint);
    const before = fingerprints();

    await expect(restoreKeyBackup(keys, text, 'wrong passphrase')).rejects.toMatchObject({
      reason: 'WRONG_PASSPHRASE',
      code: 'FORBIDDEN',
    });
    const flipped = mutate(text, (j) => {
      const ct = Buffer.from(j.ciphertext as string, 'base64');
      ct.writeUInt8(ct.readUInt8(10) ^ 0x80, 10);
      j.ciphertext = ct.toString('base64');
    });
    await expect(restoreKeyBackup(keys, flipped, PASS)).rejects.toMatchObject({ reason: 'FILE_ALTERED' });
    const redated = mutate(text, (j) => {
      j.createdAt = '2020-01-01T00:00:00.000Z';
    });
    await expect(restoreKeyBackup(keys, redated, PASS)).rejects.toMatchObject({ reason: 'FILE_ALTERED' });
    const truncated = mutate(text, (j) => {
      delete j.nonce;
    });
    await expect(restoreKeyBackup(keys, truncated, PASS)).rejects.toMatchObject({ reason: 'FILE_ALTERED' });
    const v3 = mutate(text, (j) => {
      j.version = 3;
    });
    await expect(restoreKeyBackup(keys, v3, PASS)).rejects.toMatchObject({
      reason: 'UNKNOWN_FILE_VERSION',
      message: stringMatching(/version 3/),
    });
    // the version is authenticated: a version 2 file relabelled as version 1 does not open
    const relabelled = mutate(text, (j) => {
      j.version = 1;
    });
    await expect(restoreKeyBackup(keys, relabelled, PASS)).rejects.toMatchObject({ reason: 'FILE_ALTERED' });
    await expect(restoreKeyBackup(keys, '{"hello":1}', PASS)).rejects.toMatchObject({ reason: 'NOT_A_VALID_FILE' });
    await expect(restoreKeyBackup(keys, 'garbage', PASS)).rejects.toMatchObject({ reason: 'NOT_A_VALID_FILE' });

    expect(fingerprints()).toEqual(before);
    expect(new Entry(SERVICE, secretAccount(a.fingerprint)).getPassword()).toBeFalsy();
  });

  it('refuses an empty selection and a weak passphrase', async () => {
    const a = await newKey('A');
    await expect(exportKeyBackup(keys, [], PASS)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(exportKeyBackup(keys, [a.fingerprint], 'short')).rejects.toMatchObject({ reason: 'WEAK_PASSPHRASE' });
  });
});
