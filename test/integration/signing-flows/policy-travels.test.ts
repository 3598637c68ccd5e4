/**
 * Issue #14 through the real composition (contract router, real keychain, embedded simulator; a second console without
 * network as the air-gapped signer): the policy is versioned and travels with the key's backup, an older backup never
 * loosens it, a policy file brings a newer version to the signer, offline requests carry the version they were
 * checked against, the signer refuses a request checked against a newer policy and applies its own, executing
 * signatures re-evaluates the policy whoever signed, every refusal is one audit entry with its rule and hash, and a
 * quorum rule (k signatures above an amount) is enforced online and offline.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as ed from '@noble/ed25519';
import { Entry } from '@napi-rs/keyring';
import { secretAccount } from '../../../src/services/signing/key-store.js';
import { anyNumber } from '../../support/matchers.js';
import { must } from '../../support/must.js';
import { OPEN_POLICY, createIouCommand, useSigningConsoles, type SigningConsole } from './consoles.js';

const t = useSigningConsoles('policy-travels', { air: true });
const { online, air } = t;
const PASS = 'officer passphrase for policies';

let fp = '';
let party = '';

const iou = (owner: string, amount: string) => createIouCommand(owner, owner, 'CC', amount);
async function audit(c: SigningConsole) {
  return (await c.call('signing.audit.list', { limit: 500 })).records;
}

beforeAll(async () => {
  const o = await t.onboard('Officer key', 'policy-treasury');
  fp = o.key.fingerprint;
  party = o.party;
});

describe('the signing policy travels with the key and is enforced at both ends', () => {
  it('versions every change and audits what got looser or stricter', async () => {
    expect(await online.call('signing.policy.get', { fingerprint: fp })).toMatchObject({ version: 0, updatedAt: null });
    const v1 = await online.call('signing.policy.set', { fingerprint: fp, policy: { ...OPEN_POLICY, maxAmountPerTransaction: '10000' } });
    expect(v1.version).toBe(1);
    const v2 = await online.call('signing.policy.set', { fingerprint: fp, policy: { ...OPEN_POLICY, maxAmountPerTransaction: '1000' } });
    expect(v2.version).toBe(2);
    // saving the same rules again is not a new version
    expect(
      (await online.call('signing.policy.set', { fingerprint: fp, policy: { ...OPEN_POLICY, maxAmountPerTransaction: '1000' } })).version,
    ).toBe(2);
    const changes = (await audit(online)).filter((r) => r.decision === 'policy-changed');
    expect(changes[0]).toMatchObject({ fingerprint: fp, message: 'amount limit 10000 → 1000 (stricter)' });
    expect(must(changes[0], 'the latest policy change').summary).toMatch(/version 1 → 2 \(edited on this console\)$/);
    expect(changes[1]).toMatchObject({ message: 'amount limit none → 10000 (stricter)' });
    expect((await online.call('signing.keys.list', {})).policies[fp]).toMatchObject({ version: 2 });
    // the audit log leaves through exports.run too, and the exported file checks out with its policy changes in it
    const log = await t.downloads.run(online.app.router, { kind: 'audit' });
    expect(log.done.fileName).toMatch(/^signing-audit-.*\.ndjson$/);
    expect(log.text).toContain('amount limit 10000 → 1000 (stricter)');
    expect(await online.call('signing.audit.verifyExport', { text: log.text })).toMatchObject({ ok: true, problems: [] });
  });

  it('backs up the policy with the key; the restoring console shows and adopts it; an older backup never loosens it', async () => {
    const old = await online.exportFile('keys.backup', { fingerprints: [fp], passphrase: PASS });
    const preview = await air.call('signing.keys.restorePreview', { text: old.text, passphrase: PASS });
    expect(preview).toMatchObject({
      status: 'ok',
      fileVersion: 2,
      keys: [{ fingerprint: fp, present: false, policy: { offered: 2, outcome: 'newer' } }],
    });
    const restored = await air.call('signing.keys.restore', { text: old.text, passphrase: PASS });
    expect(restored).toMatchObject({ status: 'ok', restored: [{ status: 'imported', policy: { outcome: 'adopted', version: 2 } }] });
    expect(await air.call('signing.policy.get', { fingerprint: fp })).toMatchObject({
      version: 2,
      policy: { maxAmountPerTransaction: '1000' },
    });
    // the policy was integrity-protected with the key: nothing in the file can be changed without the passphrase noticing
    const tampered = JSON.parse(old.text) as { ciphertext: string };
    tampered.ciphertext = Buffer.from(Buffer.from(tampered.ciphertext, 'base64').map((b, i) => (i === 40 ? b ^ 1 : b))).toString('base64');
    expect(await air.call('signing.keys.restorePreview', { text: JSON.stringify(tampered), passphrase: PASS })).toMatchObject({
      status: 'refused',
      reason: 'FILE_ALTERED',
    });
    // a stricter version 3 online; the old backup (version 2, looser) is visibly older and changes nothing
    await online.call('signing.policy.set', { fingerprint: fp, policy: { ...OPEN_POLICY, maxAmountPerTransaction: '500' } });
    const newer = await online.exportFile('keys.backup', { fingerprints: [fp], passphrase: PASS });
    await air.call('signing.keys.restore', { text: newer.text, passphrase: PASS });
    expect(await air.call('signing.policy.get', { fingerprint: fp })).toMatchObject({ version: 3 });
    const again = await air.call('signing.keys.restorePreview', { text: old.text, passphrase: PASS });
    expect(again).toMatchObject({
      status: 'ok',
      keys: [
        {
          present: true,
          policy: {
            offered: 2,
            local: 3,
            outcome: 'older',
            changes: [{ rule: 'amount limit', from: '500', to: '1000', direction: 'looser' }],
          },
        },
      ],
    });
    expect(await air.call('signing.keys.restore', { text: old.text, passphrase: PASS })).toMatchObject({
      restored: [{ status: 'already-present', policy: { outcome: 'older', version: 3 } }],
    });
    expect(await air.call('signing.policy.get', { fingerprint: fp })).toMatchObject({
      version: 3,
      policy: { maxAmountPerTransaction: '500' },
    });
    expect((await audit(air)).filter((r) => r.decision === 'policy-changed').map((r) => r.summary)).toEqual([
      expect.stringMatching(/version 2 → 3 \(restored from a key backup\)/),
      expect.stringMatching(/version 0 → 2 \(restored from a key backup\)/),
    ]);
  });

  it('refuses at the air-gapped signer a request checked against a newer policy until a policy file updates it', async () => {
    await online.call('signing.policy.set', { fingerprint: fp, policy: { ...OPEN_POLICY, maxAmountPerTransaction: '600' } });
    const prep = await online.call('signing.prepare', { party, fingerprint: fp, command: iou(party, '50') });
    if (prep.status !== 'verified') throw new Error(prep.message);
    expect(prep.policy).toMatchObject({ allowed: true, policyVersion: 4 });
    const req = await online.call('signing.offline.createRequest', { sessionId: prep.sessionId, ttlMinutes: 60 });
    if (req.status !== 'created') throw new Error(req.message);
    expect(JSON.parse(req.text)).toMatchObject({ version: 3, policies: [{ fingerprint: fp, version: 4 }] });

    const ins = await air.call('signing.offline.inspect', { text: req.text });
    if (ins.status !== 'verified') throw new Error(ins.message);
    expect(ins.policyVersions).toEqual([{ fingerprint: fp, checked: 4, here: 3 }]);
    expect(ins.policy).toMatchObject({ allowed: false, reason: 'POLICY_OUTDATED', auditSeq: anyNumber() });
    const forced = await air.call('signing.offline.sign', { text: req.text, blindConfirmation: 'BLIND' });
    expect(forced).toMatchObject({ status: 'refused', reason: 'POLICY_OUTDATED', auditSeq: anyNumber() });

    // the officer exports the policy online and imports it on the signer (passphrase-sealed, no key material)
    const file = await online.exportFile('policy', { fingerprints: [fp], passphrase: PASS });
    expect(file.text).not.toContain('seed');
    expect(await air.call('signing.policy.importPreview', { text: file.text, passphrase: 'not the passphrase' })).toMatchObject({
      status: 'refused',
      reason: 'WRONG_PASSPHRASE',
    });
    expect(await air.call('signing.policy.importPreview', { text: file.text, passphrase: PASS })).toMatchObject({
      status: 'ok',
      policies: [{ fingerprint: fp, offered: 4, local: 3, outcome: 'newer', changes: [{ rule: 'amount limit', direction: 'looser' }] }],
    });
    expect(await air.call('signing.policy.import', { text: file.text, passphrase: PASS })).toMatchObject({
      status: 'ok',
      policies: [{ fingerprint: fp, outcome: 'adopted', version: 4 }],
    });
    const signed = await air.call('signing.offline.sign', { text: req.text, blindConfirmation: 'BLIND' });
    expect(signed).toMatchObject({ status: 'signed' });
    if (signed.status !== 'signed') return;
    expect(await online.call('signing.offline.importResponse', { requestId: req.requestId, text: signed.text })).toMatchObject({
      status: 'collected',
    });
    expect(await online.call('signing.offline.execute', { requestId: req.requestId, mode: 'executeAndWait' })).toMatchObject({
      status: 'executed',
    });
  });

  it('refuses the bypass: the signer applies its own policy, and a tampered signer’s signature is refused at execution', async () => {
    // prepared while the limit allowed it (or by a console whose policy was looser)
    await online.call('signing.policy.set', { fingerprint: fp, policy: { ...OPEN_POLICY, maxAmountPerTransaction: '10000' } });
    const prep = await online.call('signing.prepare', { party, fingerprint: fp, command: iou(party, '5000') });
    if (prep.status !== 'verified') throw new Error(prep.message);
    const req = await online.call('signing.offline.createRequest', { sessionId: prep.sessionId, ttlMinutes: 60 });
    if (req.status !== 'created') throw new Error(req.message);
    // the officer tightens the policy to 1000 on both consoles
    await online.call('signing.policy.set', { fingerprint: fp, policy: { ...OPEN_POLICY, maxAmountPerTransaction: '1000' } });
    const file = await online.exportFile('policy', { fingerprints: [fp], passphrase: PASS });
    await air.call('signing.policy.import', { text: file.text, passphrase: PASS });

    const hash = prep.summary.hashBase64;
    const ins = await air.call('signing.offline.inspect', { text: req.text });
    expect(ins).toMatchObject({ status: 'verified', policy: { allowed: false, reason: 'POLICY_AMOUNT', offlineAllowed: false } });
    const forced = await air.call('signing.offline.sign', { text: req.text, blindConfirmation: 'BLIND' });
    expect(forced).toMatchObject({ status: 'refused', reason: 'POLICY_AMOUNT' });

    // a tampered signer (anything holding the key) signs the hash anyway
    const seed = Buffer.from(
      must(new Entry(air.service, secretAccount(fp)).getPassword(), 'the key in the keychain').slice('ed25519-seed:v1:'.length),
      'base64',
    );
    const request = JSON.parse(req.text) as { requestId: string; digest: string; party: string };
    const signature = Buffer.from(await ed.signAsync(Buffer.from(hash, 'base64'), seed)).toString('base64');
    const response = JSON.stringify({
      format: 'canton-console/signature-response',
      version: 1,
      requestId: request.requestId,
      requestDigest: request.digest,
      party: request.party,
      signedAt: new Date().toISOString(),
      signatures: [{ format: 'SIGNATURE_FORMAT_CONCAT', signature, signedBy: fp, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }],
    });
    const end = (await t.sim<{ offset: number }>('/v2/state/ledger-end')).offset;
    const imported = await online.call('signing.offline.importResponse', { requestId: req.requestId, text: response });
    expect(imported).toMatchObject({ status: 'refused', reason: 'POLICY_AMOUNT', auditSeq: anyNumber() });
    if (imported.status === 'refused') expect(imported.message).toMatch(/refused at execution/);
    expect(await online.call('signing.offline.execute', { requestId: req.requestId, mode: 'executeAndWait' })).toMatchObject({
      status: 'refused',
    });
    expect((await t.sim<{ offset: number }>('/v2/state/ledger-end')).offset).toBe(end);

    // every refusal of this transaction is one audit entry with its rule and the hash: preview, forced sign, execution
    const refusedAir = (await audit(air)).filter((r) => r.decision === 'refused' && r.hash === hash);
    expect(refusedAir.map((r) => r.reason)).toEqual(['POLICY_AMOUNT', 'POLICY_AMOUNT']);
    const refusedOnline = (await audit(online)).filter((r) => r.decision === 'refused' && r.hash === hash);
    expect(refusedOnline.map((r) => r.reason)).toEqual(expect.arrayContaining(['POLICY_AMOUNT']));
  });

  it('refuses online with the rule and says what would work; the disabled button is audited once, a forced confirm again', async () => {
    const over = await online.call('signing.prepare', { party, fingerprint: fp, command: iou(party, '2000') });
    expect(over).toMatchObject({ status: 'refused', reason: 'POLICY_AMOUNT', auditSeq: anyNumber() });
    // offline-only key: the online preview routes to a request file (not a refusal), a forced confirm is refused
    await online.call('signing.policy.set', {
      fingerprint: fp,
      policy: { ...OPEN_POLICY, maxAmountPerTransaction: '1000', requireOfflineConfirmation: true },
    });
    const routed = await online.call('signing.prepare', { party, fingerprint: fp, command: iou(party, '10') });
    expect(routed).toMatchObject({
      status: 'verified',
      policy: { allowed: false, reason: 'POLICY_OFFLINE_ONLY', offlineAllowed: true, auditSeq: null },
    });
    if (routed.status !== 'verified') return;
    const forced = await online.call('signing.confirm', {
      sessionId: routed.sessionId,
      mode: 'executeAndWait',
      blindConfirmation: 'BLIND',
    });
    expect(forced).toMatchObject({ status: 'refused', reason: 'POLICY_OFFLINE_ONLY', auditSeq: anyNumber() });
    // offline-only and over the limit: refused for the amount, not "use offline signing"
    const both = await online.call('signing.prepare', { party, fingerprint: fp, command: iou(party, '3000') });
    expect(both).toMatchObject({ status: 'refused', reason: 'POLICY_AMOUNT' });
    await online.call('signing.policy.set', { fingerprint: fp, policy: { ...OPEN_POLICY, maxAmountPerTransaction: '1000' } });
  });

  it('enforces a quorum above an amount: 2 of the party’s keys online and offline before executing', async () => {
    const q = await t.onboard('Quorum 1', 'policy-quorum', ['Quorum 2']);
    const [q1, q2] = q.keys as [string, string];
    const quorum = { ...OPEN_POLICY, quorum: { above: '10000', signatures: 2 } };
    await online.call('signing.policy.set', { fingerprint: q1, policy: quorum });
    // Quorum 2 signs only offline: online only Quorum 1 can sign
    await online.call('signing.policy.set', { fingerprint: q2, policy: { ...quorum, requireOfflineConfirmation: true } });

    // below the threshold one signature does
    const small = await online.call('signing.prepare', { party: q.party, fingerprint: q1, command: iou(q.party, '100') });
    if (small.status !== 'verified') throw new Error(small.message);
    expect(
      await online.call('signing.confirm', { sessionId: small.sessionId, mode: 'executeAndWait', blindConfirmation: 'BLIND' }),
    ).toMatchObject({
      status: 'executed',
    });
    // above it, online cannot collect 2: routed to an offline request, a forced confirm is refused
    const big = await online.call('signing.prepare', { party: q.party, fingerprint: q1, command: iou(q.party, '20000') });
    expect(big).toMatchObject({ status: 'verified', policy: { allowed: false, reason: 'POLICY_QUORUM', offlineAllowed: true } });
    if (big.status !== 'verified') return;
    expect(
      await online.call('signing.confirm', { sessionId: big.sessionId, mode: 'executeAndWait', blindConfirmation: 'BLIND' }),
    ).toMatchObject({
      status: 'refused',
      reason: 'POLICY_QUORUM',
    });
    // the request asks for 2 signatures whatever the operator chose
    const req = await online.call('signing.offline.createRequest', { sessionId: big.sessionId, ttlMinutes: 60, threshold: 1 });
    if (req.status !== 'created') throw new Error(req.message);
    expect(req.collector).toMatchObject({ threshold: 2, met: false });
    // a request edited down to 1 signature is refused by the signer's own quorum rule
    // (the digest is recomputed: the file is not authenticated, the policy is the defence)
    const { requestDigest } = await import('../../../src/services/signing/offline-files.js');
    const lowered = JSON.parse(req.text) as Record<string, unknown>;
    lowered.threshold = 1;
    lowered.digest = requestDigest(lowered as never);
    expect(await online.call('signing.offline.sign', { text: JSON.stringify(lowered), blindConfirmation: 'BLIND' })).toMatchObject({
      status: 'refused',
      reason: 'POLICY_QUORUM',
    });

    // Quorum 2 is on the air-gapped signer, Quorum 1 signs through this console's Offline signer
    const b2 = await online.exportFile('keys.backup', { fingerprints: [q2], passphrase: PASS });
    await air.call('signing.keys.restore', { text: b2.text, passphrase: PASS });
    const fromAir = await air.call('signing.offline.sign', { text: req.text, blindConfirmation: 'BLIND' });
    if (fromAir.status !== 'signed') throw new Error(fromAir.message);
    expect(fromAir.signedBy).toEqual([q2]);
    expect(await online.call('signing.offline.importResponse', { requestId: req.requestId, text: fromAir.text })).toMatchObject({
      collector: { threshold: 2, collected: [q2], met: false },
    });
    // executing with 1 signature: refused by the quorum rule as this console evaluates it now, and audited
    const early = await online.call('signing.offline.execute', { requestId: req.requestId, mode: 'executeAndWait' });
    expect(early).toMatchObject({ status: 'refused', reason: 'POLICY_QUORUM' });
    if (early.status !== 'refused') throw new Error('executed early');
    const [entry] = (await online.call('signing.audit.list', { limit: 1 })).records;
    expect(entry).toMatchObject({ seq: early.auditSeq, decision: 'refused', reason: 'POLICY_QUORUM', party: q.party });
    const here = await online.call('signing.offline.sign', { text: req.text, blindConfirmation: 'BLIND' });
    if (here.status !== 'signed') throw new Error(here.message);
    expect(await online.call('signing.offline.importResponse', { requestId: req.requestId, text: here.text })).toMatchObject({
      collector: { met: true },
    });
    const executed = await online.call('signing.offline.execute', { requestId: req.requestId, mode: 'executeAndWaitForTransaction' });
    expect(executed).toMatchObject({ status: 'executed' });
  });

  it('refuses a request whose policy has the same version but other rules on the signer (POLICY_DIVERGED), audited', async () => {
    const d = await t.onboard('Diverged key', 'policy-diverged');
    const [dk] = d.keys as [string];
    await online.call('signing.policy.set', { fingerprint: dk, policy: { ...OPEN_POLICY, maxAmountPerTransaction: '1000' } });
    const b = await online.exportFile('keys.backup', { fingerprints: [dk], passphrase: PASS });
    await air.call('signing.keys.restore', { text: b.text, passphrase: PASS });
    // each console's officer changes the policy on their own: both are at version 2, with other rules
    expect(
      await online.call('signing.policy.set', { fingerprint: dk, policy: { ...OPEN_POLICY, maxAmountPerTransaction: '2000' } }),
    ).toMatchObject({
      version: 2,
    });
    expect(
      await air.call('signing.policy.set', { fingerprint: dk, policy: { ...OPEN_POLICY, maxAmountPerTransaction: '500' } }),
    ).toMatchObject({
      version: 2,
    });
    const prep = await online.call('signing.prepare', { party: d.party, fingerprint: dk, command: iou(d.party, '100') });
    if (prep.status !== 'verified') throw new Error(prep.message);
    const req = await online.call('signing.offline.createRequest', { sessionId: prep.sessionId, ttlMinutes: 60 });
    if (req.status !== 'created') throw new Error(req.message);
    const ins = await air.call('signing.offline.inspect', { text: req.text });
    if (ins.status !== 'verified') throw new Error(ins.message);
    expect(ins.policy).toMatchObject({ allowed: false, reason: 'POLICY_DIVERGED', auditSeq: anyNumber() });
    const forced = await air.call('signing.offline.sign', { text: req.text, blindConfirmation: 'BLIND' });
    expect(forced).toMatchObject({ status: 'refused', reason: 'POLICY_DIVERGED', auditSeq: anyNumber() });
    const refused = (await audit(air)).filter((r) => r.decision === 'refused' && r.reason === 'POLICY_DIVERGED');
    // the screen and the forced request: one entry each, with the transaction hash
    expect(refused).toHaveLength(2);
    expect(refused.every((r) => r.hash === prep.summary.hashBase64 && r.party === d.party)).toBe(true);
  });
});
