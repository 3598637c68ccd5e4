/** KeyStore against a real SQLite file and the real OS keychain (Secret Service under dbus-run-session). */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ed from '@noble/ed25519';
import { sha256 } from '@noble/hashes/sha2.js';
import { Entry } from '@napi-rs/keyring';
import { computeSha256CantonHash } from '@canton-network/core-tx-visualizer';
import { openAppDb, type AppDb } from '../../../src/services/app-db.js';
import { KeychainSecretStore } from '../../../src/services/secret-store.js';
import { KeyStore, secretAccount } from '../../../src/services/signing/key-store.js';
import { externalPartyId } from '../../../src/services/signing/fingerprint.js';
import { UnlockWindow } from '../../../src/services/signing/unlock-window.js';
import { must } from '../../support/must.js';

const SERVICE = `canton-console-test-keystore-${process.pid}-${Date.now()}`;
let dir: string;
let db: AppDb;
let keys: KeyStore;
const created = new Set<string>();

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'keystore-'));
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

async function newKey(label = 'Treasury') {
  const k = await keys.create(label);
  created.add(k.fingerprint);
  return k;
}

describe('KeyStore', () => {
  it('creates an Ed25519 key whose fingerprint matches Canton (computeSha256CantonHash purpose 12)', async () => {
    const k = await newKey();
    const pub = Uint8Array.from(Buffer.from(k.publicKeyHex, 'hex'));
    expect(pub).toHaveLength(32);
    expect(Buffer.from(k.publicKeyBase64, 'base64').toString('hex')).toBe(k.publicKeyHex);
    const lib = Buffer.from(await computeSha256CantonHash(12, pub)).toString('hex');
    expect(k.fingerprint).toBe(lib);
    // Independent check of the documented layout: 0x12 0x20 ‖ SHA-256(u32be(12) ‖ key)
    const manual = '1220' + Buffer.from(sha256(Buffer.concat([Buffer.from([0, 0, 0, 12]), pub]))).toString('hex');
    expect(k.fingerprint).toBe(manual);
    expect(k).toMatchObject({ label: 'Treasury', backend: 'os-keychain', parties: [] });
    expect(Object.keys(k).sort()).toEqual(
      ['backend', 'createdAt', 'fingerprint', 'label', 'parties', 'publicKeyBase64', 'publicKeyHex', 'unlockedUntil'].sort(),
    );
  });

  it('keeps the private key in the keychain only and signs verifiable signatures', async () => {
    const k = await newKey();
    const stored = new Entry(SERVICE, secretAccount(k.fingerprint)).getPassword();
    expect(stored).toMatch(/^ed25519-seed:v1:/);
    const seed = Buffer.from(must(stored, 'the keychain entry').slice('ed25519-seed:v1:'.length), 'base64');
    expect(Buffer.from(await ed.getPublicKeyAsync(seed)).toString('hex')).toBe(k.publicKeyHex);
    const dump = JSON.stringify(db.prepare('SELECT * FROM signing_keys').all());
    expect(dump).not.toContain(seed.toString('hex'));
    expect(dump).not.toContain(seed.toString('base64'));

    const hash = sha256(new TextEncoder().encode('tx'));
    const sig = await keys.signHash(k.fingerprint, hash);
    expect(await ed.verifyAsync(sig, hash, keys.publicKey(k.fingerprint))).toBe(true);
  });

  it('lists, gets, renames and attaches parties; metadata survives reopening the database', async () => {
    const a = await newKey('A');
    const b = await newKey('B');
    const party = externalPartyId('alice', a.fingerprint);
    expect(party).toBe(`alice::${a.fingerprint}`);
    keys.attachParty(a.fingerprint, party);
    keys.attachParty(a.fingerprint, party); // idempotent
    keys.rename(b.fingerprint, '  Cold storage ');
    db.close();
    db = openAppDb(dir);
    keys = new KeyStore(db, { 'os-keychain': new KeychainSecretStore(SERVICE) });
    expect(keys.list().map((k) => [k.label, k.parties])).toEqual(
      expect.arrayContaining([
        ['A', [party]],
        ['Cold storage', []],
      ]),
    );
    expect(keys.get(a.fingerprint).parties).toEqual([party]);
    expect(keys.detachParty(a.fingerprint, party).parties).toEqual([]);
  });

  it('refuses bad labels, bad party ids and unknown fingerprints', async () => {
    const k = await newKey();
    await expect(keys.create('   ')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(() => keys.rename(k.fingerprint, 'x'.repeat(101))).toThrow(/at most 100/);
    expect(() => keys.attachParty(k.fingerprint, 'alice')).toThrow(/party id/);
    expect(() => keys.attachParty(k.fingerprint, 'a::b::1220' + '0'.repeat(64))).not.toThrow();
    expect(() => keys.get('1220' + 'ab'.repeat(32))).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    await expect(keys.signHash('1220' + 'ab'.repeat(32), new Uint8Array(32))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(keys.signHash(k.fingerprint, new Uint8Array(3))).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('delete removes the keychain entry and the metadata', async () => {
    const k = await newKey();
    keys.attachParty(k.fingerprint, externalPartyId('bob', k.fingerprint));
    await keys.delete(k.fingerprint);
    created.delete(k.fingerprint);
    expect(new Entry(SERVICE, secretAccount(k.fingerprint)).getPassword()).toBeFalsy();
    expect(keys.find(k.fingerprint)).toBeNull();
    expect(db.prepare('SELECT COUNT(*) AS n FROM signing_key_parties').get()).toEqual({ n: 0 });
  });

  it('refuses to sign when the keychain entry vanished or belongs to another key', async () => {
    const k = await newKey();
    const other = await newKey('other');
    const otherSecret = must(new Entry(SERVICE, secretAccount(other.fingerprint)).getPassword(), 'the other keychain entry');
    new Entry(SERVICE, secretAccount(k.fingerprint)).setPassword(otherSecret);
    await expect(keys.signHash(k.fingerprint, new Uint8Array(32))).rejects.toThrow(/does not belong/);
    new Entry(SERVICE, secretAccount(k.fingerprint)).deletePassword();
    await expect(keys.signHash(k.fingerprint, new Uint8Array(32))).rejects.toThrow(/missing from the os-keychain/);
  });

  it('unlock window: off by default; when asked, signs without the keychain until lock, timeout or delete', async () => {
    const k = await newKey();
    expect(k.unlockedUntil).toBeNull();
    const hash = sha256(new TextEncoder().encode('unlock'));
    const account = secretAccount(k.fingerprint);
    const secret = must(new Entry(SERVICE, account).getPassword(), 'the keychain entry');
    // default: every signature reads the keychain (the entry gone → refused)
    new Entry(SERVICE, account).deletePassword();
    await expect(keys.signHash(k.fingerprint, hash)).rejects.toThrow(/missing from the os-keychain/);
    new Entry(SERVICE, account).setPassword(secret);

    await expect(keys.unlock(k.fingerprint, 0)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(keys.unlock(k.fingerprint, 3601)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const t0 = Date.now();
    const unlocked = await keys.unlock(k.fingerprint, 60);
    expect(Date.parse(must(unlocked.unlockedUntil, 'an unlocked-until time')) - t0).toBeGreaterThanOrEqual(59_000);
    expect(keys.get(k.fingerprint).unlockedUntil).toBe(unlocked.unlockedUntil);
    // unlocked: the keychain is not read (its entry is gone, the signature still verifies)
    new Entry(SERVICE, account).deletePassword();
    expect(await ed.verifyAsync(await keys.signHash(k.fingerprint, hash), hash, keys.publicKey(k.fingerprint))).toBe(true);
    // locked: back to the keychain
    expect(keys.lock(k.fingerprint).unlockedUntil).toBeNull();
    await expect(keys.signHash(k.fingerprint, hash)).rejects.toThrow(/missing from the os-keychain/);
    new Entry(SERVICE, account).setPassword(secret);

    // timeout
    await keys.unlock(k.fingerprint, 1);
    new Entry(SERVICE, account).deletePassword();
    await keys.signHash(k.fingerprint, hash);
    await new Promise((r) => setTimeout(r, 1100));
    expect(keys.get(k.fingerprint).unlockedUntil).toBeNull();
    await expect(keys.signHash(k.fingerprint, hash)).rejects.toThrow(/missing from the os-keychain/);
    new Entry(SERVICE, account).setPassword(secret);

    // delete ends the window
    await keys.unlock(k.fingerprint, 60);
    await keys.delete(k.fingerprint);
    created.delete(k.fingerprint);
    await expect(keys.signHash(k.fingerprint, hash)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('unlock window zeroises the seed it held on lock and on timeout, and never hands it out', async () => {
    let now = 1_000_000;
    const w = new UnlockWindow(() => now);
    const a = new Uint8Array(32).fill(7);
    const b = new Uint8Array(32).fill(9);
    w.hold('a', a, 10);
    w.hold('b', b, 10);
    expect(w.lock('a')).toBe(true);
    expect(a.every((x) => x === 0)).toBe(true);
    expect(b.every((x) => x === 9)).toBe(true);
    now += 11_000; // past the window: the next use finds it closed and wipes it
    expect(await w.use('b', () => Promise.resolve('used'))).toBeUndefined();
    expect(b.every((x) => x === 0)).toBe(true);
    expect(() => w.hold('c', new Uint8Array(32), 3601)).toThrow(RangeError);
  });
});
