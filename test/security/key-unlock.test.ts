/**
 * Issue #13 item 12: an encrypted-file key made 5 signatures without asking for its passphrase again, the Keys view
 * showed no locked/unlocked state, the audit had no unlock entry, and the passphrase was typed once, unconfirmed.
 * Through the real composition (no network; the encrypted key file on disk): creating the file needs the passphrase
 * twice, unlocking is an audit entry and visible with its end, the unlock is bounded (the file locks itself and the
 * next signature is refused until the passphrase is entered again), and locking is audited too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startConsoleApp, type ConsoleApp } from '../../src/app/console-app.js';
import type { ChannelName, Request, Response } from '../../src/ipc/contract.js';
import { LockableFileSecretStore } from '../../src/services/signing-flows/file-store.js';
import { secretAccount } from '../../src/services/signing/key-store.js';
import { createSigningRequest } from '../../src/services/signing/index.js';
import { prepareResponse, tokenTransfer } from '../unit/signing/fixtures.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';
import { stringMatching } from '../support/matchers.js';

const PASS = 'key file passphrase, long enough';
let app: ConsoleApp;
let dir: string;

async function invoke<C extends ChannelName>(channel: C, req: Request<C>) {
  return app.router.invoke(channel, req);
}
async function call<C extends ChannelName>(channel: C, req: Request<C>): Promise<Response<C>> {
  const r = await invoke(channel, req);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
  return r.value as Response<C>;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'key-unlock-'));
  app = await startConsoleApp({
    dataDir: path.join(dir, 'console'),
    demo: false,
    transport: 'browser-host',
    keychainService: `key-unlock-${process.pid}`,
  });
});
afterAll(async () => {
  await ifAssigned(app)?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('unlocking the encrypted key file is confirmed, visible, audited and bounded', () => {
  it('creates the key file only with the passphrase typed twice', async () => {
    const once = await invoke('signing.keys.create', { label: 'File key', backend: 'encrypted-file', passphrase: PASS });
    expect(once).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST', issues: [{ path: 'passphraseConfirmation', message: 'Repeat the new passphrase' }] },
    });
    const typo = await invoke('signing.keys.create', {
      label: 'File key',
      backend: 'encrypted-file',
      passphrase: PASS,
      passphraseConfirmation: `${PASS}.`,
    });
    expect(typo).toMatchObject({
      ok: false,
      error: { issues: [{ path: 'passphraseConfirmation', message: 'The passphrases do not match' }] },
    });
    expect((await call('signing.keys.list', {})).backends).toMatchObject({ encryptedFileExists: false, encryptedFileUnlocked: false });
  });

  it('shows and audits the unlock with its end, audits the lock, and asks for the passphrase again after the lock', async () => {
    const key = await call('signing.keys.create', {
      label: 'File key',
      backend: 'encrypted-file',
      passphrase: PASS,
      passphraseConfirmation: PASS,
    });
    const state = (await call('signing.keys.list', {})).backends;
    expect(state).toMatchObject({ encryptedFileExists: true, encryptedFileUnlocked: true });
    const until = Date.parse(must(state.encryptedFileUnlockedUntil, 'state.encryptedFileUnlockedUntil'));
    expect(until - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    const [unlocked] = (await call('signing.audit.list', { limit: 10 })).records;
    expect(unlocked).toMatchObject({
      decision: 'unlocked',
      summary: stringMatching(/^Encrypted key file created and unlocked for 5 min/),
    });

    // a signature while unlocked works; after Lock the same request is refused (LOCKED, audited) until the passphrase is entered
    const prepared = await prepareResponse(
      tokenTransfer({ sender: `alice::${key.fingerprint}`, receiver: `bob::1220${'ab'.repeat(32)}`, amount: '5' }),
    );
    const signer = { fingerprint: key.fingerprint, publicKeyBase64: key.publicKeyBase64 };
    const { text } = await createSigningRequest({ prepared, party: `alice::${key.fingerprint}`, signers: [signer], participantId: 'p' });
    expect(await call('signing.offline.sign', { text, blindConfirmation: 'BLIND' })).toMatchObject({ status: 'signed' });
    expect(await call('signing.keys.lockFile', {})).toMatchObject({ encryptedFileUnlocked: false, encryptedFileUnlockedUntil: null });
    expect((await call('signing.audit.list', { limit: 1 })).records[0]).toMatchObject({ decision: 'locked' });
    for (let i = 0; i < 3; i++) {
      expect(await call('signing.offline.sign', { text, blindConfirmation: 'BLIND' })).toMatchObject({
        status: 'refused',
        reason: 'LOCKED',
      });
    }
    expect((await call('signing.audit.list', { limit: 3 })).records.map((r) => r.reason)).toEqual(['LOCKED', 'LOCKED', 'LOCKED']);
    expect(await call('signing.keys.unlockFile', { passphrase: PASS, minutes: 1 })).toMatchObject({ encryptedFileUnlocked: true });
    expect((await call('signing.audit.list', { limit: 1 })).records[0]).toMatchObject({
      decision: 'unlocked',
      summary: stringMatching(/for 1 min/),
    });
    expect(await call('signing.offline.sign', { text, blindConfirmation: 'BLIND' })).toMatchObject({ status: 'signed' });
    // unlock windows are bounded by the contract too
    expect(await invoke('signing.keys.unlockFile', { passphrase: PASS, minutes: 61 })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
  });

  it('locks its signing keys when the window ends: the next signature asks for the passphrase', async () => {
    const store = new LockableFileSecretStore(path.join(dir, 'console'));
    expect(store.exists).toBe(true);
    await store.unlock(PASS, { signingSeconds: 1 });
    const [fp] = (await call('signing.keys.list', {})).keys.map((k) => k.fingerprint);
    expect(await store.get(secretAccount(must(fp, 'fp')))).toMatch(/^ed25519-seed:v1:/);
    await new Promise((r) => setTimeout(r, 1_200));
    expect(store.signingUntil).toBeNull();
    await expect(store.get(secretAccount(must(fp, 'fp')))).rejects.toMatchObject({ reason: 'LOCKED' });
    // connection secrets kept in the same file stay readable while it is open
    expect(store.unlocked).toBe(true);
    expect(await store.get('profile:none:bearer-token')).toBeNull();
    store.lock();
    await expect(store.get('profile:none:bearer-token')).rejects.toMatchObject({ reason: 'LOCKED' });
  });
});
