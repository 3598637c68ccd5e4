/**
 * The offline signing channels between two consoles through the real composition (contract router, real keychain,
 * embedded simulator; the second console has no network): the key moved as an encrypted backup, a transaction's
 * request file verified and signed on the air-gapped console and its response imported and executed, onboarding by
 * file, refusals of altered, foreign, expired and wrong-key files, and no private key byte in any answer or output.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Response } from '../../../src/ipc/contract.js';
import { createSigningRequest, type SigningRequest } from '../../../src/services/signing/index.js';
import { requestDigest } from '../../../src/services/signing/offline-files.js';
import { must } from '../../support/must.js';
import { IOU, createIouCommand, transferIou, useSigningConsoles } from './consoles.js';

const t = useSigningConsoles('signing-flows-offline', { air: true });
const { online, air } = t;

let bank: string;
let bob: string;
let key: Response<'signing.keys.create'>;
let party: string;

beforeAll(async () => {
  bank = await t.allocate('FlowsBank');
  bob = await t.allocate('FlowsBob');
  ({ party, key } = await t.onboard('Treasury', 'flows-treasury'));
});

describe('signing flows through the contract: offline', () => {
  it('offline round trip: request file → air-gapped console (no network) verifies and signs → response imported → executed', async () => {
    // The signing key lives on the air-gapped machine too (moved as an encrypted backup).
    const backup = await online.exportFile('keys.backup', {
      fingerprints: [key.fingerprint],
      passphrase: 'correct horse battery staple',
    });
    const wrong = await air.call('signing.keys.restorePreview', { text: backup.text, passphrase: 'wrong passphrase here' });
    expect(wrong).toMatchObject({ status: 'refused', reason: 'WRONG_PASSPHRASE' });
    const preview = await air.call('signing.keys.restorePreview', { text: backup.text, passphrase: 'correct horse battery staple' });
    expect(preview).toMatchObject({ status: 'ok', keys: [{ fingerprint: key.fingerprint, present: false, parties: [party] }] });
    expect(await air.call('signing.keys.restore', { text: backup.text, passphrase: 'correct horse battery staple' })).toMatchObject({
      status: 'ok',
      restored: [{ fingerprint: key.fingerprint, status: 'imported' }],
    });

    const iou = await t.createIou(bank, party, '7');
    const p = await online.call('signing.prepare', {
      party,
      fingerprint: key.fingerprint,
      command: transferIou(iou, bob),
    });
    if (p.status !== 'verified') throw new Error(p.message);
    const req = await online.call('signing.offline.createRequest', { sessionId: p.sessionId });
    if (req.status !== 'created') throw new Error(req.message);
    expect(req.collector).toMatchObject({ threshold: 1, collected: [], missing: [key.fingerprint], met: false });

    // air-gapped: no profile, no network
    await air.callError('dashboard.snapshot', {});
    // a request that carries no packages: the air-gapped console cannot type it, and asks for the blind word
    const bare = JSON.parse(req.text) as SigningRequest & Record<string, unknown>;
    bare.packages = [];
    bare.digest = requestDigest(bare);
    const bareText = JSON.stringify(bare);
    const blind = await air.call('signing.offline.inspect', { text: bareText });
    expect(blind).toMatchObject({ status: 'verified', summary: { mode: 'blind' } });
    expect(await air.call('signing.offline.sign', { text: bareText, blindConfirmation: 'yes' })).toMatchObject({
      status: 'refused',
      reason: 'BLIND_NOT_ACKNOWLEDGED',
    });
    // an older request format (version 1) does not say which policy it was checked against: refused
    const v1 = { ...bare, version: 1 } as Record<string, unknown>;
    delete v1.packages;
    delete v1.policies;
    v1.digest = requestDigest(v1 as unknown as SigningRequest);
    expect(await air.call('signing.offline.inspect', { text: JSON.stringify(v1) })).toMatchObject({
      status: 'refused',
      reason: 'UNKNOWN_FILE_VERSION',
    });
    // the request itself carries the package: verified by the air-gapped console, kept, the transfer described
    const ins = await air.call('signing.offline.inspect', { text: req.text });
    if (ins.status !== 'verified') throw new Error(ins.message);
    expect(ins.summary?.hashBase64).toBe(p.summary.hashBase64);
    expect(ins.summary?.exercises[0]?.choice).toBe('Iou_Transfer');
    expect(ins.summary?.mode).toBe('described');
    expect(ins.summary?.description.nodes[0]?.argument.find((r) => r.label === 'newOwner')).toMatchObject({ kind: 'party', party: bob });
    // from now on it knows the package: the request without packages is described too
    expect(await air.call('signing.offline.inspect', { text: bareText })).toMatchObject({ summary: { mode: 'described' } });

    const altered = req.text.replace(/"expiresAt": "[^"]+"/, '"expiresAt": "2099-01-01T00:00:00.000Z"');
    expect(await air.call('signing.offline.inspect', { text: altered })).toMatchObject({
      status: 'refused',
      reason: 'DIGEST_MISMATCH',
    });
    expect(await air.call('signing.offline.sign', { text: altered, blindConfirmation: 'BLIND' })).toMatchObject({
      status: 'refused',
      reason: 'DIGEST_MISMATCH',
    });
    const signed = await air.call('signing.offline.sign', { text: req.text });
    if (signed.status !== 'signed') throw new Error(signed.message);
    expect(signed.signedBy).toEqual([key.fingerprint]);

    const wrongParty = signed.text.replace(party, bob);
    expect(await online.call('signing.offline.importResponse', { requestId: req.requestId, text: wrongParty })).toMatchObject({
      status: 'refused',
      reason: 'WRONG_PARTY',
    });
    const badSig = signed.text.replace(/"signature": "([A-Za-z0-9+/])/, (_m, c: string) => `"signature": "${c === 'A' ? 'B' : 'A'}`);
    expect(await online.call('signing.offline.importResponse', { requestId: req.requestId, text: badSig })).toMatchObject({
      status: 'refused',
      reason: 'BAD_SIGNATURE',
    });
    expect(await online.call('signing.offline.execute', { requestId: req.requestId, mode: 'executeAndWait' })).toMatchObject({
      status: 'refused',
    });

    const got = await online.call('signing.offline.importResponse', { requestId: req.requestId, text: signed.text });
    expect(got).toMatchObject({ status: 'collected', added: [key.fingerprint], collector: { met: true, missing: [] } });
    const done = await online.call('signing.offline.execute', { requestId: req.requestId, mode: 'executeAndWaitForTransaction' });
    if (done.status !== 'executed') throw new Error(done.message);
    expect(done.events.some((e) => e.choice === 'Iou_Transfer')).toBe(true);
    expect((await online.call('signing.offline.pending', {})).requests).toEqual([]);

    // the air-gapped audit log has the decisions, and its chain verifies
    const airAudit = (await air.call('signing.audit.list', {})).records;
    expect(airAudit.map((r) => [r.decision, r.channel])).toContainEqual(['signed', 'offline']);
    expect(airAudit.some((r) => r.reason === 'DIGEST_MISMATCH')).toBe(true);
    expect(await air.call('signing.audit.verify', {})).toMatchObject({ ok: true, problems: [] });
  });

  it('offline onboarding by file: request out, air-gapped console verifies the multi-hash and signs, response in, allocated', async () => {
    // the key is on both consoles (restored from the backup in the previous test)
    const onb = await online.call('signing.onboard.prepare', { fingerprint: key.fingerprint, partyHint: 'flows-offline-onboard' });
    if (onb.status !== 'verified') throw new Error(onb.message);
    const req = await online.call('signing.onboard.offline.createRequest', { sessionId: onb.sessionId, ttlMinutes: 30 });
    if (req.status !== 'created') throw new Error(req.message);
    expect(req.partyId).toBe(`flows-offline-onboard::${key.fingerprint}`);
    expect(req.fileName).toMatch(/^onboarding-request-[0-9a-f]{8}\.json$/);
    const file = JSON.parse(req.text) as {
      format: string;
      version: number;
      topology: { topologyTransactions: string[]; multiHash: string };
    };
    expect(file).toMatchObject({ format: 'canton-console/onboarding-request', version: 1 });
    expect((await online.call('signing.onboard.offline.pending', {})).requests.map((r) => r.requestId)).toEqual([req.requestId]);
    // the session is used up; the party does not exist yet
    expect((await online.callError('signing.onboard.confirm', { sessionId: onb.sessionId })).code).toBe('NOT_FOUND');
    expect((await t.sim<{ partyDetails: Array<{ party: string }> }>('/v2/parties')).partyDetails.map((p) => p.party)).not.toContain(
      req.partyId,
    );

    // air-gapped: inspect (multi-hash recomputed), refuse altered / wrong-version / foreign files, sign
    const ins = await air.call('signing.onboard.offline.inspect', { text: req.text });
    if (ins.status !== 'verified') throw new Error(ins.message);
    expect(ins.summary.partyId).toBe(req.partyId);
    expect(ins.summary.multiHashBase64).toBe(file.topology.multiHash);
    expect(ins.signer).toEqual({ fingerprint: key.fingerprint, label: 'Treasury' });
    const [, second, third] = file.topology.topologyTransactions;
    const altered = req.text.replace(must(third, 'topology transaction 3'), must(second, 'topology transaction 2'));
    expect(await air.call('signing.onboard.offline.sign', { text: altered })).toMatchObject({
      status: 'refused',
      reason: 'DIGEST_MISMATCH',
    });
    const v2 = req.text.replace('"version": 1', '"version": 2');
    expect(await air.call('signing.onboard.offline.inspect', { text: v2 })).toMatchObject({
      status: 'refused',
      reason: 'UNKNOWN_FILE_VERSION',
    });
    expect(
      await air.call('signing.onboard.offline.inspect', { text: '{"format":"canton-console/signing-request","version":1}' }),
    ).toMatchObject({ status: 'refused', reason: 'NOT_A_VALID_FILE' });
    const signed = await air.call('signing.onboard.offline.sign', { text: req.text });
    if (signed.status !== 'signed') throw new Error(signed.message);
    expect(signed.partyId).toBe(req.partyId);
    expect(signed.fileName).toMatch(/^onboarding-response-[0-9a-f]{8}\.json$/);

    // online: bad responses refused (and audited), the right one allocates the party
    const badSig = signed.text.replace(/"signature": "([A-Za-z0-9+/])/, (_m, c: string) => `"signature": "${c === 'A' ? 'B' : 'A'}`);
    expect(await online.call('signing.onboard.offline.importResponse', { requestId: req.requestId, text: badSig })).toMatchObject({
      status: 'refused',
      reason: 'BAD_SIGNATURE',
    });
    const wrongParty = signed.text.replaceAll(req.partyId, party);
    expect(await online.call('signing.onboard.offline.importResponse', { requestId: req.requestId, text: wrongParty })).toMatchObject({
      status: 'refused',
      reason: 'WRONG_PARTY',
    });
    const txResponse = '{"format":"canton-console/signature-response","version":1}';
    expect(await online.call('signing.onboard.offline.importResponse', { requestId: req.requestId, text: txResponse })).toMatchObject({
      status: 'refused',
      reason: 'NOT_A_VALID_FILE',
    });
    const done = await online.call('signing.onboard.offline.importResponse', { requestId: req.requestId, text: signed.text });
    if (done.status !== 'allocated') throw new Error(done.message);
    expect(done.partyId).toBe(req.partyId);
    expect(done.key.parties).toContain(req.partyId);
    expect((await t.sim<{ partyDetails: Array<{ party: string }> }>('/v2/parties')).partyDetails.map((p) => p.party)).toContain(
      req.partyId,
    );
    expect((await online.call('signing.onboard.offline.pending', {})).requests).toEqual([]);
    expect((await online.callError('signing.onboard.offline.importResponse', { requestId: req.requestId, text: signed.text })).code).toBe(
      'NOT_FOUND',
    );

    const onlineAudit = (await online.call('signing.audit.list', { limit: 3 })).records;
    expect(onlineAudit.map((r) => [r.subject, r.channel, r.reason])).toEqual([
      ['topology', 'offline', 'NOT_A_VALID_FILE'],
      ['topology', 'offline', 'WRONG_PARTY'],
      ['topology', 'offline', 'BAD_SIGNATURE'],
    ]);
    const airAudit = (await air.call('signing.audit.list', { limit: 5 })).records;
    expect(airAudit[0]).toMatchObject({ subject: 'topology', channel: 'offline', decision: 'signed', party: req.partyId });
    expect(airAudit.some((r) => r.subject === 'topology' && r.reason === 'DIGEST_MISMATCH')).toBe(true);
  });

  it('refuses a request for a key that is not on the air-gapped machine, and an expired request', async () => {
    const other = await online.call('signing.keys.create', { label: 'Online only', backend: 'os-keychain' });
    const onb = await online.call('signing.onboard.prepare', { fingerprint: other.fingerprint, partyHint: 'flows-online-only' });
    if (onb.status !== 'verified') throw new Error(onb.message);
    const done = await online.call('signing.onboard.confirm', { sessionId: onb.sessionId });
    if (done.status !== 'allocated') throw new Error(done.message);
    const p = await online.call('signing.prepare', {
      party: done.partyId,
      fingerprint: other.fingerprint,
      command: createIouCommand(done.partyId, done.partyId, 'USD', '1'),
    });
    if (p.status !== 'verified') throw new Error(p.message);
    const req = await online.call('signing.offline.createRequest', { sessionId: p.sessionId });
    if (req.status !== 'created') throw new Error(req.message);
    expect(await air.call('signing.offline.inspect', { text: req.text })).toMatchObject({ status: 'refused', reason: 'WRONG_KEY' });

    // A genuine request file created an hour and a half ago with a one-hour validity.
    const prepared = await t.sim<{ preparedTransaction: string; preparedTransactionHash: string; hashingSchemeVersion: string }>(
      '/v2/interactive-submission/prepare',
      {
        commandId: `flows-expired-${process.pid}`,
        actAs: [party],
        commands: [
          {
            CreateCommand: {
              templateId: IOU,
              createArguments: { issuer: party, owner: party, currency: 'USD', amount: '1', observers: [] },
            },
          },
        ],
      },
    );
    const old = await createSigningRequest({
      prepared,
      party,
      signers: [{ fingerprint: key.fingerprint, publicKeyBase64: key.publicKeyBase64 }],
      participantId: 'PAR::x',
      now: new Date(Date.now() - 90 * 60_000),
    });
    expect(await air.call('signing.offline.inspect', { text: old.text })).toMatchObject({
      status: 'refused',
      reason: 'REQUEST_EXPIRED',
    });
    expect(await air.call('signing.offline.sign', { text: old.text, blindConfirmation: 'BLIND' })).toMatchObject({
      status: 'refused',
      reason: 'REQUEST_EXPIRED',
    });
  });

  it('never lets a private key byte cross the contract or reach the console output', async () => {
    await t.expectNoKeyLeak({ keys: 3, answers: 40 });
  });
});
