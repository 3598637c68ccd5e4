/** SigningService end to end: real keychain, real SQLite, real crypto, official hashing; every refusal is audited. */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ed from '@noble/ed25519';
import { Entry } from '@napi-rs/keyring';
import { openAppDb, type AppDb } from '../../../src/services/app-db.js';
import type { PackageFetcher } from '../../../src/services/signing/verified-packages.js';
import { referenceTypes } from '../../support/reference-packages.js';
import { KeychainSecretStore } from '../../../src/services/secret-store.js';
import { KeyStore, secretAccount, type KeyMetadata } from '../../../src/services/signing/key-store.js';
import { AuditLog } from '../../../src/services/signing/audit-log.js';
import { PolicyStore } from '../../../src/services/signing/policy-store.js';
import { executeSubmissionRequest, SigningService } from '../../../src/services/signing/signing-service.js';
import { externalPartyId } from '../../../src/services/signing/fingerprint.js';
import {
  amuletTransfer,
  iouSplit,
  multiHashOf,
  numeric,
  preapprovalProposal,
  prepareResponse,
  tampered,
  tokenTransfer,
  topologyTransactions,
  VALIDATOR,
} from '../../unit/signing/fixtures.js';
import { assertMatchesSchema } from './spec.js';
import { must } from '../../support/must.js';
import { anyString, stringContaining, stringMatching } from '../../support/matchers.js';

const SERVICE = `canton-console-test-signing-${process.pid}-${Date.now()}`;
const BOB = 'bob::1220' + '22'.repeat(32);
const MALLORY = 'mallory::1220' + '66'.repeat(32);
let dir: string;
let db: AppDb;
let keys: KeyStore;
let policies: PolicyStore;
let audit: AuditLog;
let service: SigningService;
/** The reference participant's packages (real Splice DARs), fetched and verified by the service's store. */
let fetchPackage: PackageFetcher;
let key: KeyMetadata;
let alice: string;
const created = new Set<string>();

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'signing-'));
  db = openAppDb(dir);
  keys = new KeyStore(db, { 'os-keychain': new KeychainSecretStore(SERVICE) });
  policies = new PolicyStore(db);
  audit = new AuditLog(db);
  const types = referenceTypes(db);
  fetchPackage = types.fetch;
  service = new SigningService(keys, policies, audit, types.packages);
  key = await keys.create('Alice hot key');
  created.add(key.fingerprint);
  alice = externalPartyId('alice', key.fingerprint);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  for (const fp of created) new Entry(SERVICE, secretAccount(fp)).deletePassword();
});

const lastAudit = () => must(audit.list({ limit: 1 })[0], 'an audit record').entry;

describe('SigningService.sign', () => {
  it('signs the verified hash and returns execute-ready, spec-conformant party signatures', async () => {
    const prep = await prepareResponse(tokenTransfer({ sender: alice, receiver: BOB, amount: '25.5', memo: 'rent' }));
    const res = await service.sign({ fetchPackage, fingerprint: key.fingerprint, party: alice, prepared: prep });
    expect(res.signature).toEqual({
      format: 'SIGNATURE_FORMAT_CONCAT',
      signature: anyString(),
      signedBy: key.fingerprint,
      signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
    });
    const sig = Buffer.from(res.signature.signature, 'base64');
    expect(sig).toHaveLength(64);
    const hash = Buffer.from(prep.preparedTransactionHash, 'base64');
    expect(await ed.verifyAsync(sig, hash, keys.publicKey(key.fingerprint))).toBe(true);
    expect(res.partySignatures).toEqual({ signatures: [{ party: alice, signatures: [res.signature] }] });
    assertMatchesSchema('PartySignatures', res.partySignatures);
    assertMatchesSchema(
      'JsExecuteSubmissionRequest',
      executeSubmissionRequest(prep, res.partySignatures, { submissionId: 'sub-1', userId: 'ledger-api-user' }),
    );
    expect(res.summary.mode).toBe('clear');
    expect(lastAudit()).toMatchObject({
      seq: res.auditSeq,
      decision: 'signed',
      subject: 'prepared-transaction',
      channel: 'online',
      fingerprint: key.fingerprint,
      party: alice,
      hash: prep.preparedTransactionHash,
      summary: `Transfer 25.5 Amulet from ${alice} to ${BOB} (memo: rent)`,
    });
    expect(audit.verifyChain().ok).toBe(true);
  });

  it('requires an explicit acknowledgement before a blind signature', async () => {
    const prep = await prepareResponse(iouSplit({ owner: alice, amount: '5.0', counterparty: BOB }));
    await expect(service.sign({ fetchPackage, fingerprint: key.fingerprint, party: alice, prepared: prep })).rejects.toMatchObject({
      reason: 'BLIND_NOT_ACKNOWLEDGED',
    });
    expect(lastAudit()).toMatchObject({ decision: 'refused', reason: 'BLIND_NOT_ACKNOWLEDGED', hash: prep.preparedTransactionHash });
    const res = await service.sign({ fetchPackage, fingerprint: key.fingerprint, party: alice, prepared: prep, acknowledgeBlind: true });
    expect(res.summary.mode).toBe('blind');
    expect(lastAudit()).toMatchObject({ decision: 'signed', message: 'blind signature (acknowledged)' });
  });

  it('refuses (and audits) tampered transactions, foreign parties and unknown keys', async () => {
    const honest = tokenTransfer({ sender: alice, receiver: BOB, amount: '25.5' });
    const tamperedAmount = await tampered(honest, (tx) => {
      const n = must(must(tx.transaction, 'a transaction').nodes[0], 'the root node');
      if (n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'exercise') {
        const rec = must(n.versionedNode.v1.nodeType.exercise.chosenValue, 'the choice argument');
        if (rec.sum.oneofKind === 'record') {
          const transfer = must(rec.sum.record.fields.find((f) => f.label === 'transfer')?.value, 'the transfer field');
          if (transfer.sum.oneofKind === 'record')
            must(
              transfer.sum.record.fields.find((f) => f.label === 'amount'),
              'the amount field',
            ).value = numeric('9999.0');
        }
      }
    });
    await expect(
      service.sign({ fetchPackage, fingerprint: key.fingerprint, party: alice, prepared: tamperedAmount }),
    ).rejects.toMatchObject({
      reason: 'HASH_MISMATCH',
    });
    expect(lastAudit()).toMatchObject({ decision: 'refused', reason: 'HASH_MISMATCH', hash: tamperedAmount.preparedTransactionHash });

    const notSubmitter = await prepareResponse(tokenTransfer({ sender: BOB, receiver: alice, amount: '1.0' }));
    keys.attachParty(key.fingerprint, BOB); // even with the party attached, the transaction must act as it
    await expect(service.sign({ fetchPackage, fingerprint: key.fingerprint, party: alice, prepared: notSubmitter })).rejects.toMatchObject({
      reason: 'PARTY_NOT_SUBMITTER',
    });
    const forMallory = await prepareResponse(tokenTransfer({ sender: MALLORY, receiver: BOB, amount: '1.0' }));
    await expect(service.sign({ fetchPackage, fingerprint: key.fingerprint, party: MALLORY, prepared: forMallory })).rejects.toMatchObject({
      reason: 'PARTY_NOT_ATTACHED',
    });
    await expect(
      service.sign({ fetchPackage, fingerprint: '1220' + 'ee'.repeat(32), party: alice, prepared: await prepareResponse(honest) }),
    ).rejects.toMatchObject({ reason: 'WRONG_KEY', code: 'NOT_FOUND' });
    const reasons = audit.list().map((r) => [r.entry.decision, r.entry.reason]);
    expect(reasons).toEqual([
      ['refused', 'WRONG_KEY'],
      ['refused', 'PARTY_NOT_ATTACHED'],
      ['refused', 'PARTY_NOT_SUBMITTER'],
      ['refused', 'HASH_MISMATCH'],
    ]);
    expect(audit.verifyChain().ok).toBe(true);
  });
});

describe('signing policy', () => {
  const sign = (
    prepared: Awaited<ReturnType<typeof prepareResponse>>,
    extra: { acknowledgeBlind?: boolean; channel?: 'online' | 'offline' } = {},
  ) => service.sign({ fetchPackage, fingerprint: key.fingerprint, party: alice, prepared, ...extra });

  it('enforces allowed templates and choices', async () => {
    policies.set(key.fingerprint, {
      allowedTemplates: ['Splice.Api.Token.TransferInstructionV1:TransferFactory'],
      allowedChoices: ['TransferFactory_Transfer'],
    });
    await sign(await prepareResponse(tokenTransfer({ sender: alice, receiver: BOB, amount: '1.0' })));
    await expect(sign(await prepareResponse(amuletTransfer({ sender: alice, receiver: BOB, amount: '1.0' })))).rejects.toMatchObject({
      reason: 'POLICY_TEMPLATE',
      message: stringContaining('Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules'),
    });
    await expect(sign(await prepareResponse(preapprovalProposal({ receiver: alice, provider: VALIDATOR })))).rejects.toMatchObject({
      reason: 'POLICY_TEMPLATE',
    });
    policies.set(key.fingerprint, { allowedChoices: ['TransferFactory_Transfer'] });
    await expect(sign(await prepareResponse(amuletTransfer({ sender: alice, receiver: BOB, amount: '1.0' })))).rejects.toMatchObject({
      reason: 'POLICY_CHOICE',
    });
    expect(lastAudit()).toMatchObject({
      decision: 'refused',
      reason: 'POLICY_CHOICE',
      summary: stringMatching(/^Transfer 1 Canton Coin/),
    });
  });

  it('enforces counterparties and the per-transaction amount limit (exact decimals)', async () => {
    policies.set(key.fingerprint, { allowedCounterparties: [BOB], maxAmountPerTransaction: '100' });
    await sign(await prepareResponse(tokenTransfer({ sender: alice, receiver: BOB, amount: '100.0000000000' })));
    await expect(sign(await prepareResponse(tokenTransfer({ sender: alice, receiver: MALLORY, amount: '1.0' })))).rejects.toMatchObject({
      reason: 'POLICY_COUNTERPARTY',
      message: stringContaining(MALLORY),
    });
    await expect(
      sign(await prepareResponse(amuletTransfer({ sender: alice, receiver: BOB, amount: '100.0000000001' }))),
    ).rejects.toMatchObject({
      reason: 'POLICY_AMOUNT',
    });
    // not recognised (here also blind: its package is unknown): every party and every amount in the transaction counts
    await expect(
      sign(await prepareResponse(iouSplit({ owner: alice, amount: '5.0', counterparty: MALLORY })), { acknowledgeBlind: true }),
    ).rejects.toMatchObject({
      reason: 'POLICY_COUNTERPARTY',
    });
    await expect(
      sign(await prepareResponse(iouSplit({ owner: alice, amount: '500.0', counterparty: BOB })), { acknowledgeBlind: true }),
    ).rejects.toMatchObject({
      reason: 'POLICY_AMOUNT',
      message: stringContaining('Iou_Split.splitAmount'),
    });
  });

  it('enforces offline-only keys and disallowed blind signing', async () => {
    policies.set(key.fingerprint, { requireOfflineConfirmation: true, allowBlindSigning: false });
    const prep = await prepareResponse(tokenTransfer({ sender: alice, receiver: BOB, amount: '1.0' }));
    await expect(sign(prep)).rejects.toMatchObject({ reason: 'POLICY_OFFLINE_ONLY' });
    expect((await sign(prep, { channel: 'offline' })).summary.mode).toBe('clear');
    await expect(
      sign(await prepareResponse(iouSplit({ owner: alice, amount: '1.0', counterparty: BOB })), {
        channel: 'offline',
        acknowledgeBlind: true,
      }),
    ).rejects.toMatchObject({
      reason: 'POLICY_BLIND_SIGNING',
    });
    expect(audit.list().map((r) => r.entry.reason)).toEqual(['POLICY_BLIND_SIGNING', null, 'POLICY_OFFLINE_ONLY']);
  });

  it('validates policies and previews the decision without signing or auditing', async () => {
    expect(() => policies.set(key.fingerprint, { maxAmountPerTransaction: 'lots' })).toThrow(/Invalid signing policy/);
    expect(() => policies.set('1220' + '00'.repeat(32), {})).toThrow(/No signing key/);
    policies.set(key.fingerprint, { maxAmountPerTransaction: '10' });
    const p = await service.preview({
      fetchPackage,
      fingerprint: key.fingerprint,
      party: alice,
      prepared: await prepareResponse(tokenTransfer({ sender: alice, receiver: BOB, amount: '11' })),
    });
    expect(p.policy).toEqual({ allowed: false, reason: 'POLICY_AMOUNT', message: stringContaining('limit of 10') });
    expect(p.summary.clearSign?.kind).toBe('token-transfer');
    expect(audit.list()).toEqual([]);
    // policies survive a restart
    db.close();
    db = openAppDb(dir);
    expect(new PolicyStore(db).get(key.fingerprint).maxAmountPerTransaction).toBe('10');
  });
});

describe('SigningService.signTopology', () => {
  it('verifies the onboarding topology, signs the multi-hash and attaches the party', async () => {
    const partyId = externalPartyId('carol', key.fingerprint);
    const txs = topologyTransactions({ partyId, publicKey: keys.publicKey(key.fingerprint) });
    const topology = { partyId, publicKeyFingerprint: key.fingerprint, topologyTransactions: txs, multiHash: await multiHashOf(txs) };
    const res = await service.signTopology({ fingerprint: key.fingerprint, topology });
    const sig = must(res.multiHashSignatures[0], 'a multi-hash signature');
    expect(
      await ed.verifyAsync(
        Buffer.from(sig.signature, 'base64'),
        Buffer.from(topology.multiHash, 'base64'),
        keys.publicKey(key.fingerprint),
      ),
    ).toBe(true);
    assertMatchesSchema('AllocateExternalPartyRequest', {
      synchronizer: 'global-domain::1220' + 'be'.repeat(32),
      onboardingTransactions: txs.map((transaction) => ({ transaction })),
      multiHashSignatures: res.multiHashSignatures,
    });
    expect(keys.get(key.fingerprint).parties).toContain(partyId);
    expect(lastAudit()).toMatchObject({ decision: 'signed', subject: 'topology', party: partyId, hash: topology.multiHash });

    await expect(
      service.signTopology({ fingerprint: key.fingerprint, topology: { ...topology, multiHash: Buffer.alloc(34, 1).toString('base64') } }),
    ).rejects.toMatchObject({
      reason: 'TOPOLOGY_HASH_MISMATCH',
    });
    expect(lastAudit()).toMatchObject({ decision: 'refused', subject: 'topology', reason: 'TOPOLOGY_HASH_MISMATCH' });
    await expect(service.signTopology({ fingerprint: '1220' + 'ee'.repeat(32), topology })).rejects.toMatchObject({ reason: 'WRONG_KEY' });
    policies.set(key.fingerprint, { requireOfflineConfirmation: true });
    await expect(service.signTopology({ fingerprint: key.fingerprint, topology })).rejects.toMatchObject({ reason: 'POLICY_OFFLINE_ONLY' });
    expect((await service.signTopology({ fingerprint: key.fingerprint, topology, channel: 'offline' })).multiHashSignatures).toHaveLength(
      1,
    );
  });
});
