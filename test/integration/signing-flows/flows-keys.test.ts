/**
 * Key custody through the real composition (contract router, real keychain, embedded simulator; a second console
 * without network as the air-gapped signer): a k-of-n party signing online with its local keys and collecting offline
 * signatures until the threshold, the passphrase-encrypted key file, and no private key byte in any answer or output.
 */
import { describe, expect, it } from 'vitest';
import { startConsoleApp } from '../../../src/app/console-app.js';
import { anyString } from '../../support/matchers.js';
import { createIouCommand, useSigningConsoles } from './consoles.js';

const t = useSigningConsoles('signing-flows-keys', { air: true });
const { online, air } = t;

describe('signing flows through the contract: k-of-n parties and the key file', () => {
  it('k-of-n: onboards a 2-of-3 party, signs online with its local keys, and collects offline signatures until the threshold', async () => {
    const k1 = await online.call('signing.keys.create', { label: 'Board 1', backend: 'os-keychain' });
    const k2 = await online.call('signing.keys.create', { label: 'Board 2', backend: 'os-keychain' });
    const k3 = await online.call('signing.keys.create', { label: 'Board 3', backend: 'os-keychain' });
    const bad = await online.callError('signing.onboard.prepare', {
      fingerprint: k1.fingerprint,
      partyHint: 'flows-board',
      extraFingerprints: [k2.fingerprint],
      signingThreshold: 3,
    });
    expect(bad).toMatchObject({ code: 'BAD_REQUEST' });
    const onb = await online.call('signing.onboard.prepare', {
      fingerprint: k1.fingerprint,
      partyHint: 'flows-board',
      extraFingerprints: [k2.fingerprint, k3.fingerprint],
      signingThreshold: 2,
    });
    if (onb.status !== 'verified') throw new Error(onb.message);
    expect(onb.summary.signingKeys).toEqual({ threshold: 2, fingerprints: [k1.fingerprint, k2.fingerprint, k3.fingerprint] });
    const done = await online.call('signing.onboard.confirm', { sessionId: onb.sessionId });
    if (done.status !== 'allocated') throw new Error(done.message);
    const board = done.partyId;
    expect((await online.call('signing.parties', {})).parties.find((p) => p.party === board)?.keys.map((k) => k.label)).toEqual([
      'Board 1',
      'Board 2',
      'Board 3',
    ]);

    // Online: all three keys are here and sign.
    const command = createIouCommand(board, board, 'USD', '3');
    const p1 = await online.call('signing.prepare', {
      party: board,
      fingerprint: k1.fingerprint,
      command,
    });
    if (p1.status !== 'verified') throw new Error(p1.message);
    const r1 = await online.call('signing.confirm', { sessionId: p1.sessionId, mode: 'executeAndWait', blindConfirmation: 'BLIND' });
    expect(r1).toMatchObject({ status: 'executed' });
    expect(r1.status === 'executed' && r1.auditSeqs).toHaveLength(3);

    // Offline, 2 of 3.
    const p2 = await online.call('signing.prepare', {
      party: board,
      fingerprint: k1.fingerprint,
      command,
    });
    if (p2.status !== 'verified') throw new Error(p2.message);
    const req = await online.call('signing.offline.createRequest', { sessionId: p2.sessionId, threshold: 2 });
    if (req.status !== 'created') throw new Error(req.message);
    expect(req.collector).toMatchObject({ threshold: 2, collected: [], met: false });
    expect(req.collector.signers.map((x) => x.fingerprint)).toEqual([k1.fingerprint, k2.fingerprint, k3.fingerprint]);

    // Air-gapped machine holds Board 2 only: one response, one of two.
    const b2 = await online.exportFile('keys.backup', { fingerprints: [k2.fingerprint], passphrase: 'board key two passphrase' });
    await air.call('signing.keys.restore', { text: b2.text, passphrase: 'board key two passphrase' });
    const s2 = await air.call('signing.offline.sign', { text: req.text, blindConfirmation: 'BLIND' });
    if (s2.status !== 'signed') throw new Error(s2.message);
    expect(s2.signedBy).toEqual([k2.fingerprint]);
    const c1 = await online.call('signing.offline.importResponse', { requestId: req.requestId, text: s2.text });
    expect(c1).toMatchObject({
      status: 'collected',
      added: [k2.fingerprint],
      collector: { collected: [k2.fingerprint], missing: [k1.fingerprint, k3.fingerprint], met: false },
    });
    expect(await online.call('signing.offline.execute', { requestId: req.requestId, mode: 'executeAndWait' })).toMatchObject({
      status: 'refused',
      reason: 'SIGNATURES_MISSING',
    });
    // ...and the participant agrees: one valid signature of a 2-of-3 party is not enough.
    const one = await fetch(t.ledgerUrl() + '/v2/interactive-submission/executeAndWait', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        preparedTransaction: (JSON.parse(req.text) as { prepared: { preparedTransaction: string } }).prepared.preparedTransaction,
        partySignatures: { signatures: [{ party: board, signatures: (JSON.parse(s2.text) as { signatures: unknown[] }).signatures }] },
        submissionId: `flows-one-of-two-${process.pid}`,
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
        deduplicationPeriod: { Empty: {} },
      }),
    });
    expect(one.status).not.toBe(200);

    // Board 3 arrives on the air-gapped machine: its response carries both local keys; 2 of 2 collected.
    const b3 = await online.exportFile('keys.backup', { fingerprints: [k3.fingerprint], passphrase: 'board key three passphrase' });
    await air.call('signing.keys.restore', { text: b3.text, passphrase: 'board key three passphrase' });
    const s3 = await air.call('signing.offline.sign', { text: req.text, blindConfirmation: 'BLIND' });
    if (s3.status !== 'signed') throw new Error(s3.message);
    const c2 = await online.call('signing.offline.importResponse', { requestId: req.requestId, text: s3.text });
    expect(c2).toMatchObject({
      status: 'collected',
      added: [k3.fingerprint],
      alreadyCollected: [k2.fingerprint],
      collector: { met: true, missing: [k1.fingerprint] },
    });
    expect(await online.call('signing.offline.execute', { requestId: req.requestId, mode: 'executeAndWait' })).toMatchObject({
      status: 'executed',
    });
  });

  it('keeps keys in the passphrase-encrypted key file when chosen: locked until the passphrase, wrong passphrase refused', async () => {
    expect((await air.call('signing.keys.list', {})).backends).toEqual({
      encryptedFileExists: false,
      encryptedFileUnlocked: false,
      encryptedFileUnlockedUntil: null,
    });
    expect(await air.callError('signing.keys.create', { label: 'File key', backend: 'encrypted-file' })).toMatchObject({
      code: 'BAD_REQUEST',
      issues: [{ path: 'passphrase' }],
    });
    expect(await air.callError('signing.keys.create', { label: 'File key', backend: 'encrypted-file', passphrase: 'short' })).toMatchObject(
      { code: 'BAD_REQUEST' },
    );
    // creating the key file asks for the new passphrase twice
    expect(
      await air.callError('signing.keys.create', {
        label: 'File key',
        backend: 'encrypted-file',
        passphrase: 'a long enough file passphrase',
        passphraseConfirmation: 'a long enough file passphrasf',
      }),
    ).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'passphraseConfirmation' }] });
    const k = await air.call('signing.keys.create', {
      label: 'File key',
      backend: 'encrypted-file',
      passphrase: 'a long enough file passphrase',
      passphraseConfirmation: 'a long enough file passphrase',
    });
    expect(k.backend).toBe('encrypted-file');
    expect((await air.call('signing.keys.list', {})).backends).toMatchObject({
      encryptedFileExists: true,
      encryptedFileUnlocked: true,
    });
    // a second console on the same data directory starts locked; the wrong passphrase is refused, the right one unlocks
    const again = await startConsoleApp({ dataDir: air.dataDir, demo: false, transport: 'browser-host', keychainService: air.service });
    try {
      const r = await again.router.invoke('signing.keys.unlockFile', { passphrase: 'not the passphrase at all' });
      expect(r).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      expect(await again.router.invoke('signing.keys.unlockFile', { passphrase: 'a long enough file passphrase' })).toMatchObject({
        ok: true,
        value: { encryptedFileExists: true, encryptedFileUnlocked: true, encryptedFileUnlockedUntil: anyString() },
      });
      expect(await again.router.invoke('signing.keys.delete', { fingerprint: k.fingerprint })).toMatchObject({
        ok: true,
        value: { deleted: true },
      });
    } finally {
      await again.close();
    }
  });

  it('never lets a private key byte cross the contract or reach the console output', async () => {
    await t.expectNoKeyLeak({ keys: 5, answers: 20 });
  });
});
