/**
 * Offline onboarding files against the real keychain: request (topology verified for the key) → air-gapped signer →
 * response → import verified over the recomputed multi-hash; and every refusal: altered file, digest re-forged over a
 * swapped transaction, unknown version, expired or future-dated request, key not on the machine, wrong key or party
 * in the response, bad signature. Files are checked against their documented shape.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ed from '@noble/ed25519';
import { Entry } from '@napi-rs/keyring';
import { openAppDb, type AppDb } from '../../../src/services/app-db.js';
import { VerifiedPackages } from '../../../src/services/signing/verified-packages.js';
import { KeychainSecretStore } from '../../../src/services/secret-store.js';
import { KeyStore, secretAccount, type KeyMetadata } from '../../../src/services/signing/key-store.js';
import { AuditLog } from '../../../src/services/signing/audit-log.js';
import { PolicyStore } from '../../../src/services/signing/policy-store.js';
import { PolicyChecks } from '../../../src/services/signing/policy-checks.js';
import { SigningService } from '../../../src/services/signing/signing-service.js';
import { OfflineSigner } from '../../../src/services/signing/offline-signer.js';
import {
  createOnboardingRequest,
  importOnboardingResponse,
  onboardingRequestDigest,
  parseOnboardingRequest,
  type OnboardingRequest,
} from '../../../src/services/signing/offline-onboarding-files.js';
import { externalPartyId } from '../../../src/services/signing/fingerprint.js';
import { stringMatching } from '../../support/matchers.js';
import { multiHashOf, PARTICIPANT, topologyTransactions } from '../../unit/signing/fixtures.js';
import { must } from '../../support/must.js';

const SERVICE = `canton-console-test-offline-onb-${process.pid}-${Date.now()}`;
const SYNC = 'global-domain::1220' + 'be'.repeat(32);
let dir: string;
let db: AppDb;
let keys: KeyStore;
let audit: AuditLog;
let signer: OfflineSigner;
let key: KeyMetadata;
let partyId: string;
const created = new Set<string>();

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'offline-onb-'));
  db = openAppDb(dir);
  keys = new KeyStore(db, { 'os-keychain': new KeychainSecretStore(SERVICE) });
  audit = new AuditLog(db);
  const policies = new PolicyStore(db, audit);
  const service = new SigningService(keys, policies, audit, new VerifiedPackages(db));
  signer = new OfflineSigner(keys, service, audit, new VerifiedPackages(db), new PolicyChecks(keys, policies, service, audit));
  key = await keys.create('Cold onboarding key');
  created.add(key.fingerprint);
  partyId = externalPartyId('cold-treasury', key.fingerprint);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  for (const fp of created) new Entry(SERVICE, secretAccount(fp)).deletePassword();
});

async function topologyFor(k: KeyMetadata, party: string) {
  const txs = topologyTransactions({
    partyId: party,
    publicKey: Uint8Array.from(Buffer.from(k.publicKeyHex, 'hex')),
    participant: PARTICIPANT,
  });
  return { partyId: party, publicKeyFingerprint: k.fingerprint, topologyTransactions: txs, multiHash: await multiHashOf(txs) };
}
async function newRequest(o: { ttlMs?: number; now?: Date } = {}) {
  return createOnboardingRequest({
    topology: await topologyFor(key, partyId),
    signer: { fingerprint: key.fingerprint, publicKeyBase64: key.publicKeyBase64 },
    participantId: PARTICIPANT,
    synchronizerId: SYNC,
    ...(o.ttlMs !== undefined ? { ttlMs: o.ttlMs } : {}),
    ...(o.now ? { now: o.now } : {}),
  });
}
const reDigest = (r: OnboardingRequest, fn: (j: OnboardingRequest) => void): string => {
  const j = JSON.parse(JSON.stringify(r)) as OnboardingRequest;
  fn(j);
  j.digest = onboardingRequestDigest(j);
  return JSON.stringify(j);
};

describe('offline onboarding files', () => {
  it('round-trips: request → air-gapped signature over the multi-hash → verified import', async () => {
    const { request, text } = await newRequest();
    expect(request).toMatchObject({
      format: 'canton-console/onboarding-request',
      version: 1,
      synchronizerId: SYNC,
      signer: { fingerprint: key.fingerprint },
    });
    expect(Object.keys(request).sort()).toEqual(
      [
        'createdAt',
        'digest',
        'expiresAt',
        'format',
        'participantId',
        'requestId',
        'signer',
        'synchronizerId',
        'topology',
        'version',
      ].sort(),
    );
    expect((await parseOnboardingRequest(text)).digest).toBe(request.digest);
    const ins = await signer.inspectOnboarding(text);
    expect(ins.summary.partyId).toBe(partyId);
    const signed = await signer.signOnboarding(text);
    expect(signed.response).toMatchObject({
      format: 'canton-console/onboarding-response',
      version: 1,
      requestId: request.requestId,
      requestDigest: request.digest,
      partyId,
    });
    const sigs = await importOnboardingResponse(request, signed.text);
    expect(sigs).toHaveLength(1);
    expect(
      await ed.verifyAsync(
        Buffer.from(must(sigs[0], 'a signature').signature, 'base64'),
        Buffer.from(request.topology.multiHash, 'base64'),
        keys.publicKey(key.fingerprint),
      ),
    ).toBe(true);
    // signing attached the party to the key on the air-gapped machine, and the decision is audited there
    expect(keys.get(key.fingerprint).parties).toEqual([partyId]);
    expect(audit.list({ limit: 1 })[0]?.entry).toMatchObject({
      decision: 'signed',
      subject: 'topology',
      channel: 'offline',
      party: partyId,
    });
  });

  it('refuses altered, re-forged, unknown-version, expired and future-dated requests, and keys not on this machine', async () => {
    const { request, text } = await newRequest();
    const altered = text.replace(request.topology.partyId, externalPartyId('mallory', key.fingerprint));
    await expect(signer.signOnboarding(altered)).rejects.toMatchObject({ reason: 'DIGEST_MISMATCH' });
    // a digest recomputed over a replaced transaction (hosted elsewhere): the file is consistent, the multi-hash is not
    const elsewhere = topologyTransactions({
      partyId,
      publicKey: Uint8Array.from(Buffer.from(key.publicKeyHex, 'hex')),
      participant: 'PAR::other::1220' + '99'.repeat(32),
    });
    const differing = elsewhere.findIndex((t, i) => t !== request.topology.topologyTransactions[i]);
    expect(differing).toBeGreaterThanOrEqual(0);
    const swapped = reDigest(request, (j) => {
      j.topology.topologyTransactions[differing] = must(elsewhere[differing], 'the differing transaction');
    });
    await expect(signer.signOnboarding(swapped)).rejects.toMatchObject({ reason: 'TOPOLOGY_HASH_MISMATCH' });
    const v2 = reDigest(request, (j) => ((j as unknown as { version: number }).version = 2));
    await expect(parseOnboardingRequest(v2)).rejects.toMatchObject({ reason: 'UNKNOWN_FILE_VERSION' });
    await expect(parseOnboardingRequest(text, new Date(Date.now() + 2 * 3_600_000))).rejects.toMatchObject({ reason: 'REQUEST_EXPIRED' });
    const future = await newRequest({ now: new Date(Date.now() + 3_600_000) });
    await expect(parseOnboardingRequest(future.text)).rejects.toMatchObject({ reason: 'REQUEST_NOT_YET_VALID' });
    await expect(parseOnboardingRequest('{"format":"canton-console/signing-request","version":1}')).rejects.toMatchObject({
      reason: 'NOT_A_VALID_FILE',
    });
    // right header, body not an onboarding request: the refusal names the first field at fault
    const noSigner = JSON.parse(text) as Record<string, unknown>;
    delete noSigner.signer;
    await expect(parseOnboardingRequest(JSON.stringify(noSigner))).rejects.toMatchObject({
      reason: 'NOT_A_VALID_FILE',
      message: stringMatching(/^Invalid onboarding request: signer: /),
    });
    // the key is not on this machine
    await keys.delete(key.fingerprint);
    created.delete(key.fingerprint);
    await expect(signer.signOnboarding(text)).rejects.toMatchObject({ reason: 'WRONG_KEY' });
    const refusals = audit.list({ limit: 10 }).map((r) => r.entry);
    expect(refusals.every((e) => e.decision === 'refused' && e.subject === 'topology')).toBe(true);
    expect(new Set(refusals.map((e) => e.reason))).toEqual(new Set(['DIGEST_MISMATCH', 'TOPOLOGY_HASH_MISMATCH', 'WRONG_KEY']));
  });

  it('refuses responses for another request, party or key, and bad signatures', async () => {
    const { request, text } = await newRequest();
    const signed = await signer.signOnboarding(text);
    const other = await newRequest();
    await expect(importOnboardingResponse(other.request, signed.text)).rejects.toMatchObject({ reason: 'DIGEST_MISMATCH' });
    const wrongParty = signed.text.replaceAll(partyId, externalPartyId('other', key.fingerprint));
    await expect(importOnboardingResponse(request, wrongParty)).rejects.toMatchObject({ reason: 'WRONG_PARTY' });
    const j = JSON.parse(signed.text) as { multiHashSignatures: Array<{ signature: string; signedBy: string }> };
    const bad = structuredClone(j);
    must(bad.multiHashSignatures[0], 'a signature').signature = Buffer.alloc(64, 7).toString('base64');
    await expect(importOnboardingResponse(request, JSON.stringify(bad))).rejects.toMatchObject({ reason: 'BAD_SIGNATURE' });
    const wrongKey = structuredClone(j);
    must(wrongKey.multiHashSignatures[0], 'a signature').signedBy = '1220' + 'ab'.repeat(32);
    await expect(importOnboardingResponse(request, JSON.stringify(wrongKey))).rejects.toMatchObject({ reason: 'WRONG_KEY' });
    await expect(importOnboardingResponse(request, signed.text.replace('"version": 1', '"version": 3'))).rejects.toMatchObject({
      reason: 'UNKNOWN_FILE_VERSION',
    });
    const noSignatures = { ...j, multiHashSignatures: 'none' };
    await expect(importOnboardingResponse(request, JSON.stringify(noSignatures))).rejects.toMatchObject({
      reason: 'NOT_A_VALID_FILE',
      message: stringMatching(/^Invalid onboarding response: multiHashSignatures: /),
    });
  });
});
