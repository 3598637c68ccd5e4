/**
 * Offline signing: request file → air-gapped signer (real keychain) → response file → import; k-of-n collection.
 * The online machine has the participant's packages (the real Splice DARs); the air-gapped one starts with none and
 * describes the transaction from the packages the request carries, verifying each package id itself.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
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
  createSigningRequest,
  importSignatureResponse,
  parseSigningRequest,
  requestDigest,
  SignatureCollector,
  type SigningRequest,
} from '../../../src/services/signing/offline-files.js';
import { externalPartyId } from '../../../src/services/signing/fingerprint.js';
import { PARTICIPANT, prepareResponse, tampered, tokenTransfer } from '../../unit/signing/fixtures.js';
import { REAL, referenceArchives, referenceTypes } from '../../support/reference-packages.js';
import type { TypeSource } from '../../../src/services/signing/prepared-transaction.js';
import { assertMatchesSchema } from './spec.js';
import { must } from '../../support/must.js';
import { stringContaining, stringMatching } from '../../support/matchers.js';

const SERVICE = `canton-console-test-offline-${process.pid}-${Date.now()}`;
const BOB = 'bob::1220' + '22'.repeat(32);
let dir: string;
let db: AppDb;
let onlineDb: AppDb;
let onlineTypes: TypeSource;
let offlinePackages: VerifiedPackages;
let keys: KeyStore;
let audit: AuditLog;
let signer: OfflineSigner;
let k1: KeyMetadata;
let party: string;
const created = new Set<string>();

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'offline-'));
  db = openAppDb(dir);
  onlineDb = openAppDb(path.join(dir, 'online-machine'));
  onlineTypes = referenceTypes(onlineDb);
  keys = new KeyStore(db, { 'os-keychain': new KeychainSecretStore(SERVICE) });
  audit = new AuditLog(db);
  offlinePackages = new VerifiedPackages(db);
  const policies = new PolicyStore(db, audit);
  const service = new SigningService(keys, policies, audit, offlinePackages);
  signer = new OfflineSigner(keys, service, audit, offlinePackages, new PolicyChecks(keys, policies, service, audit));
  k1 = await keys.create('Cold key 1');
  created.add(k1.fingerprint);
  party = externalPartyId('treasury', k1.fingerprint);
});
afterEach(() => {
  db.close();
  onlineDb.close();
  rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  for (const fp of created) new Entry(SERVICE, secretAccount(fp)).deletePassword();
});

const signerOf = (k: KeyMetadata) => ({ fingerprint: k.fingerprint, publicKeyBase64: k.publicKeyBase64 });
async function newRequest(o: { signers?: KeyMetadata[]; threshold?: number; ttlMs?: number; now?: Date } = {}) {
  const prepared = await prepareResponse(tokenTransfer({ sender: party, receiver: BOB, amount: '42.0' }));
  return createSigningRequest({
    prepared,
    party,
    signers: (o.signers ?? [k1]).map(signerOf),
    threshold: o.threshold ?? 1,
    participantId: PARTICIPANT,
    ...(o.ttlMs !== undefined ? { ttlMs: o.ttlMs } : {}),
    ...(o.now ? { now: o.now } : {}),
    types: onlineTypes,
  });
}
const edit = (r: SigningRequest, fn: (j: Record<string, unknown>) => void): string => {
  const j = JSON.parse(JSON.stringify(r)) as Record<string, unknown>;
  fn(j);
  return JSON.stringify(j);
};
const withDigest = (j: Record<string, unknown>) => {
  j.digest = requestDigest(j as unknown as SigningRequest);
};

describe('offline signing', () => {
  it('round-trips: request file → offline signature → verified import → execute-ready party signatures', async () => {
    const { request, text } = await newRequest();
    expect(JSON.parse(text)).toMatchObject({
      format: 'canton-console/signing-request',
      version: 3,
      party,
      participantId: PARTICIPANT,
      threshold: 1,
    });
    // the request carries the packages that describe it; the air-gapped machine had none of them
    expect(request.version === 3 && request.packages.map((p) => p.packageId)).toEqual(
      expect.arrayContaining([REAL.amulet, REAL.tokenTransferInstruction]),
    );
    expect(offlinePackages.has(REAL.amulet)).toBe(false);
    const inspection = await signer.inspect(text);
    expect(inspection.localSigners).toEqual([k1.fingerprint]);
    expect(inspection.packagesAdded).toEqual(expect.arrayContaining([REAL.amulet, REAL.tokenTransferInstruction]));
    expect(offlinePackages.has(REAL.amulet)).toBe(true);
    expect(inspection.preview?.summary.mode).toBe('clear');
    expect(inspection.preview?.summary.headline).toBe(`Transfer 42 Amulet from ${party} to ${BOB}`);

    const out = await signer.sign(text);
    expect(JSON.parse(out.text)).toMatchObject({
      format: 'canton-console/signature-response',
      version: 1,
      requestDigest: request.digest,
      party,
    });
    expect(must(audit.list()[0], 'the latest audit record').entry).toMatchObject({
      decision: 'signed',
      channel: 'offline',
      fingerprint: k1.fingerprint,
    });

    const sigs = await importSignatureResponse(await parseSigningRequest(text), out.text);
    expect(
      await ed.verifyAsync(
        Buffer.from(must(sigs[0], 'a signature').signature, 'base64'),
        Buffer.from(request.prepared.preparedTransactionHash, 'base64'),
        keys.publicKey(k1.fingerprint),
      ),
    ).toBe(true);
    const collector = new SignatureCollector(request);
    expect((await collector.add(out.text)).status).toEqual({ threshold: 1, collected: [k1.fingerprint], missing: [], met: true });
    assertMatchesSchema('PartySignatures', collector.partySignatures());
  });

  it('describes from the carried packages only what verifies: a package under a wrong id refuses the request', async () => {
    const { request } = await newRequest();
    if (request.version !== 3) throw new Error('expected a version 3 request');
    // another real archive listed under the amulet package's id, digest recomputed: only the package check can catch it
    const impostor = must(referenceArchives().get(REAL.wallet), 'the wallet archive');
    const forged = edit(request, (j) => {
      const pkgs = j.packages as Array<{ packageId: string; archiveGzipBase64: string }>;
      must(
        pkgs.find((p) => p.packageId === REAL.amulet),
        'the amulet package in the request',
      ).archiveGzipBase64 = gzipSync(impostor).toString('base64');
      withDigest(j);
    });
    await expect(signer.inspect(forged)).rejects.toMatchObject({
      reason: 'NOT_A_VALID_FILE',
      message: stringMatching(new RegExp(`package ${REAL.amulet} does not verify: the archive's payload hashes to ${REAL.wallet}`)),
    });
    await expect(signer.sign(forged)).rejects.toMatchObject({ reason: 'NOT_A_VALID_FILE' });
    expect(offlinePackages.has(REAL.amulet)).toBe(false);
    // a request without packages on a machine without them: blind, and signing needs the acknowledgement
    const bare = edit(request, (j) => {
      j.packages = [];
      withDigest(j);
    });
    expect((await signer.inspect(bare)).preview?.summary.mode).toBe('blind');
    await expect(signer.sign(bare)).rejects.toMatchObject({ reason: 'BLIND_NOT_ACKNOWLEDGED' });
    // an older request format does not say which policy it was checked against: refused, whatever its digest
    const v2 = edit(request, (j) => {
      j.version = 2;
      delete j.policies;
      withDigest(j);
    });
    await expect(signer.sign(v2)).rejects.toMatchObject({
      reason: 'UNKNOWN_FILE_VERSION',
      message: stringMatching(/older console/),
    });
  });

  it(
    'refuses on the offline machine: expired, not yet valid, altered, wrong version, invalid, wrong key, ' + 'wrong party — each audited',
    async () => {
      const { request, text } = await newRequest({ ttlMs: 60_000 });
      const later = new Date(Date.now() + 120_000);
      await expect(signer.sign(text, { now: later })).rejects.toMatchObject({ reason: 'REQUEST_EXPIRED' });
      const future = await newRequest({ now: new Date(Date.now() + 3_600_000) });
      await expect(signer.sign(future.text)).rejects.toMatchObject({ reason: 'REQUEST_NOT_YET_VALID' });
      await expect(signer.sign(edit(request, (j) => (j.expiresAt = '2999-01-01T00:00:00.000Z')))).rejects.toMatchObject({
        reason: 'DIGEST_MISMATCH',
      });
      // a consistent digest does not help a forged hash: the transaction is re-hashed
      const other = await prepareResponse(tokenTransfer({ sender: party, receiver: BOB, amount: '4200.0' }));
      await expect(
        signer.sign(
          edit(request, (j) => {
            (j.prepared as Record<string, unknown>).preparedTransactionHash = other.preparedTransactionHash;
            withDigest(j);
          }),
        ),
      ).rejects.toMatchObject({ reason: 'HASH_MISMATCH' });
      await expect(signer.sign(edit(request, (j) => (j.version = 4)))).rejects.toMatchObject({ reason: 'UNKNOWN_FILE_VERSION' });
      await expect(signer.sign(edit(request, (j) => delete j.party))).rejects.toMatchObject({
        reason: 'NOT_A_VALID_FILE',
        message: stringContaining('party'),
      });
      await expect(signer.sign('{"format":"something-else","version":1}')).rejects.toMatchObject({ reason: 'NOT_A_VALID_FILE' });
      // signer entry whose public key is not the fingerprint's
      const k2 = await keys.create('other');
      created.add(k2.fingerprint);
      await expect(
        signer.sign(
          edit(request, (j) => {
            must((j.signers as Array<Record<string, unknown>>)[0], 'a signer').publicKeyBase64 = k2.publicKeyBase64;
            withDigest(j);
          }),
        ),
      ).rejects.toMatchObject({ reason: 'NOT_A_VALID_FILE' });
      // a key this machine does not hold / not among the signers
      const foreign = { fingerprint: '1220' + '99'.repeat(32), publicKeyBase64: '' };
      const ghost = await ed.getPublicKeyAsync(ed.utils.randomSecretKey());
      const { cantonFingerprint } = await import('../../../src/services/signing/fingerprint.js');
      foreign.fingerprint = await cantonFingerprint(ghost);
      foreign.publicKeyBase64 = Buffer.from(ghost).toString('base64');
      const notHere = edit(request, (j) => {
        j.signers = [foreign];
        withDigest(j);
      });
      await expect(signer.sign(notHere)).rejects.toMatchObject({
        reason: 'WRONG_KEY',
        message: stringMatching(/None of the request/),
      });
      await expect(signer.sign(text, { fingerprints: [k2.fingerprint] })).rejects.toMatchObject({ reason: 'WRONG_KEY' });
      // a party this key does not sign for
      const forOther = await createSigningRequest({
        prepared: await prepareResponse(tokenTransfer({ sender: BOB, receiver: party, amount: '1.0' })),
        party: BOB,
        signers: [signerOf(k1)],
        participantId: PARTICIPANT,
      });
      await expect(signer.sign(forOther.text)).rejects.toMatchObject({ reason: 'PARTY_NOT_ATTACHED' });

      expect(audit.list().map((r) => r.entry.reason)).toEqual([
        'PARTY_NOT_ATTACHED',
        'WRONG_KEY',
        'WRONG_KEY',
        'NOT_A_VALID_FILE',
        'NOT_A_VALID_FILE',
        'NOT_A_VALID_FILE',
        'UNKNOWN_FILE_VERSION',
        'HASH_MISMATCH',
        'DIGEST_MISMATCH',
        'REQUEST_NOT_YET_VALID',
        'REQUEST_EXPIRED',
      ]);
      expect(audit.list().every((r) => r.entry.decision === 'refused' && r.entry.channel === 'offline')).toBe(true);
    },
  );

  it('refuses a tampered transaction already when the request is created', async () => {
    const prepared = await tampered(tokenTransfer({ sender: party, receiver: BOB, amount: '1.0' }), (tx) => {
      must(tx.metadata, 'metadata').transactionUuid = 'changed';
    });
    await expect(createSigningRequest({ prepared, party, signers: [signerOf(k1)], participantId: PARTICIPANT })).rejects.toMatchObject({
      reason: 'HASH_MISMATCH',
    });
  });

  it('refuses on import: other request, altered request, wrong party, foreign key, bad signature, expiry, version', async () => {
    const { request, text } = await newRequest();
    const out = await signer.sign(text);
    const resp = JSON.parse(out.text) as Record<string, unknown> & { signatures: Array<{ signature: string; signedBy: string }> };
    const first = (j: typeof resp) => must(j.signatures[0], 'a signature in the response');
    const mut = (fn: (j: typeof resp) => void) => {
      const j = JSON.parse(out.text) as typeof resp;
      fn(j);
      return JSON.stringify(j);
    };
    const second = await newRequest();
    await expect(importSignatureResponse(second.request, out.text)).rejects.toMatchObject({
      reason: 'DIGEST_MISMATCH',
      message: stringMatching(/answers request/),
    });
    const altered = { ...request, note: 'edited after signing' };
    await expect(importSignatureResponse(altered, out.text)).rejects.toMatchObject({ reason: 'DIGEST_MISMATCH' });
    await expect(
      importSignatureResponse(
        request,
        mut((j) => (j.party = BOB)),
      ),
    ).rejects.toMatchObject({ reason: 'WRONG_PARTY' });
    await expect(
      importSignatureResponse(
        request,
        mut((j) => (first(j).signedBy = '1220' + 'ab'.repeat(32))),
      ),
    ).rejects.toMatchObject({
      reason: 'WRONG_KEY',
    });
    const flipped = Buffer.from(first(resp).signature, 'base64');
    flipped.writeUInt8(flipped.readUInt8(5) ^ 1, 5);
    await expect(
      importSignatureResponse(
        request,
        mut((j) => (first(j).signature = flipped.toString('base64'))),
      ),
    ).rejects.toMatchObject({
      reason: 'BAD_SIGNATURE',
    });
    await expect(importSignatureResponse(request, out.text, new Date(Date.now() + 2 * 3_600_000))).rejects.toMatchObject({
      reason: 'REQUEST_EXPIRED',
    });
    await expect(
      importSignatureResponse(
        request,
        mut((j) => (j.version = 3)),
      ),
    ).rejects.toMatchObject({ reason: 'UNKNOWN_FILE_VERSION' });
    await expect(
      importSignatureResponse(
        request,
        mut((j) => (j.signatures = [])),
      ),
    ).rejects.toMatchObject({ reason: 'NOT_A_VALID_FILE', message: stringMatching(/^Invalid signature response: signatures: /) });
    expect(await importSignatureResponse(request, out.text)).toHaveLength(1);
  });

  it('collects k-of-n signatures from several response files and reports when the threshold is met', async () => {
    const k2 = await keys.create('Cold key 2');
    const k3 = await keys.create('Cold key 3');
    created.add(k2.fingerprint);
    created.add(k3.fingerprint);
    keys.attachParty(k2.fingerprint, party);
    keys.attachParty(k3.fingerprint, party);
    const { request, text } = await newRequest({ signers: [k1, k2, k3], threshold: 2 });
    const fromK1 = await signer.sign(text, { fingerprints: [k1.fingerprint] });
    const fromK3 = await signer.sign(text, { fingerprints: [k3.fingerprint] });

    const collector = new SignatureCollector(request);
    const first = await collector.add(fromK1.text);
    expect(first.status).toEqual({ threshold: 2, collected: [k1.fingerprint], missing: [k2.fingerprint, k3.fingerprint], met: false });
    expect(() => collector.partySignatures()).toThrow(/1 of the 2 required signatures is collected/);
    expect(() => collector.partySignatures()).toThrow(expect.objectContaining({ reason: 'SIGNATURES_MISSING' }));
    expect((await collector.add(fromK1.text)).alreadyCollected).toEqual([k1.fingerprint]);
    const second = await collector.add(fromK3.text);
    expect(second.status).toMatchObject({ met: true, missing: [k2.fingerprint] });
    const ps = collector.partySignatures();
    expect(must(ps.signatures[0], "the party's signatures").signatures.map((s) => s.signedBy)).toEqual([k1.fingerprint, k3.fingerprint]);
    assertMatchesSchema('PartySignatures', ps);
    // one file carrying several signatures works too
    const both = await signer.sign(text, { fingerprints: [k1.fingerprint, k2.fingerprint] });
    expect((await new SignatureCollector(request).add(both.text)).status.met).toBe(true);
    await expect(
      createSigningRequest({ prepared: request.prepared, party, signers: [signerOf(k1)], threshold: 2, participantId: PARTICIPANT }),
    ).rejects.toMatchObject({
      reason: 'NOT_A_VALID_FILE',
    });
  });
});
