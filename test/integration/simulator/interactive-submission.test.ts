import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { decodePreparedTransaction, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import {
  IOU,
  acs,
  acsCreated,
  allocate,
  call,
  cantonError,
  createIou,
  exercise,
  newExternalKey,
  onboardExternal,
  signBase64,
  startTestSim,
  submitTx,
  wildcard,
} from './helpers.js';
import type { ExternalKey, TestSim } from './helpers.js';

describe('interactive submission (prepare → sign → execute)', () => {
  let sim: TestSim;
  let bank: string, bob: string, ext: string;
  let key: ExternalKey;
  beforeAll(async () => {
    sim = await startTestSim();
    const sync = (
      (await call(sim.url, 'GET', '/v2/state/connected-synchronizers')).json as { connectedSynchronizers: { synchronizerId: string }[] }
    ).connectedSynchronizers[0]?.synchronizerId as string;
    bank = await allocate(sim.url, 'Bank');
    bob = await allocate(sim.url, 'Bob');
    key = newExternalKey();
    ext = await onboardExternal(sim.url, sync, 'ext-wallet', key);
  });
  afterAll(async () => {
    await sim.dispose();
  });

  const sig = (k: ExternalKey, hash: string) => ({
    format: 'SIGNATURE_FORMAT_RAW',
    signature: signBase64(k, hash),
    signedBy: k.fingerprint,
    signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
  });

  it('prepares a decodable transaction whose V2 hash the client can recompute, and executes it once signed', async () => {
    const c = await submitTx(sim.url, [bank], [createIou(bank, ext, '25')]);
    const iou = c.created[0]?.contractId as string;
    const prep = await call(sim.url, 'POST', '/v2/interactive-submission/prepare', {
      body: { commandId: 'ext-transfer-1', actAs: [ext], commands: [exercise(IOU, iou, 'Iou_Transfer', { newOwner: bob })] },
    });
    expect(prep.status).toBe(200);
    const p = prep.json as { preparedTransaction: string; preparedTransactionHash: string; hashingSchemeVersion: string };
    expect(p.hashingSchemeVersion).toBe('HASHING_SCHEME_VERSION_V2');
    // what a wallet does before signing: decode, recompute the hash, inspect
    const decoded = decodePreparedTransaction(p.preparedTransaction);
    expect(await hashPreparedTransaction(decoded, 'base64')).toBe(p.preparedTransactionHash);
    expect(decoded.metadata?.submitterInfo?.actAs).toEqual([ext]);
    expect(decoded.metadata?.inputContracts.map((i) => (i.contract.oneofKind === 'v1' ? i.contract.v1.contractId : ''))).toEqual([iou]);
    const kinds = decoded.transaction?.nodes.map((n) =>
      n.versionedNode.oneofKind === 'v1' ? n.versionedNode.v1.nodeType.oneofKind : undefined,
    );
    expect(kinds).toEqual(['exercise', 'create']);
    expect(decoded.transaction?.roots).toEqual(['0']);

    // a signature by another key is refused
    const wrong = await call(sim.url, 'POST', '/v2/interactive-submission/executeAndWait', {
      body: {
        preparedTransaction: p.preparedTransaction,
        partySignatures: { signatures: [{ party: ext, signatures: [sig(newExternalKey(), p.preparedTransactionHash)] }] },
        submissionId: 's-1',
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      },
    });
    expect(wrong.status).toBe(400);
    expect(cantonError(wrong).code).toBe('INVALID_ARGUMENT');
    // a modified transaction no longer matches what was prepared
    const tampered = PreparedTransaction.fromBinary(Buffer.from(p.preparedTransaction, 'base64'));
    if (tampered.metadata?.submitterInfo) tampered.metadata.submitterInfo.commandId = 'other';
    const tamperedB64 = Buffer.from(PreparedTransaction.toBinary(tampered)).toString('base64');
    const t = await call(sim.url, 'POST', '/v2/interactive-submission/executeAndWait', {
      body: {
        preparedTransaction: tamperedB64,
        partySignatures: { signatures: [{ party: ext, signatures: [sig(key, await hashPreparedTransaction(tamperedB64))] }] },
        submissionId: 's-2',
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      },
    });
    expect(t.status).toBe(400);

    const done = await call(sim.url, 'POST', '/v2/interactive-submission/executeAndWaitForTransaction', {
      body: {
        preparedTransaction: p.preparedTransaction,
        partySignatures: { signatures: [{ party: ext, signatures: [sig(key, p.preparedTransactionHash)] }] },
        submissionId: 's-3',
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
        transactionFormat: { transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS', eventFormat: wildcard(ext) },
      },
    });
    expect(done.status).toBe(200);
    expect((done.json as { transaction: { commandId: string } }).transaction.commandId).toBe('ext-transfer-1');
    expect(acsCreated(await acs(sim.url, wildcard(bob))).map((x) => x.createArgument.amount)).toEqual(['25.0000000000']);

    // executing the same submission again is deduplicated
    const again = await call(sim.url, 'POST', '/v2/interactive-submission/execute', {
      body: {
        preparedTransaction: p.preparedTransaction,
        partySignatures: { signatures: [{ party: ext, signatures: [sig(key, p.preparedTransactionHash)] }] },
        submissionId: 's-4',
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      },
    });
    expect(again.status).toBe(409);
    expect(cantonError(again).code).toBe('DUPLICATE_COMMAND');
  });

  it('requires the external party to be authorized and known', async () => {
    const r = await call(sim.url, 'POST', '/v2/interactive-submission/prepare', {
      body: { commandId: 'ext-bad', actAs: [ext], commands: [createIou(bank, ext, '1')] },
    });
    expect(r.status).toBe(400);
    expect(cantonError(r).code).toBe('DAML_AUTHORIZATION_ERROR');
    const p2 = await call(sim.url, 'POST', '/v2/interactive-submission/prepare', {
      body: { commandId: 'ext-ok', actAs: [ext], commands: [createIou(ext, bob, '3')] },
    });
    expect(p2.status).toBe(200);
    const noSig = await call(sim.url, 'POST', '/v2/interactive-submission/execute', {
      body: {
        preparedTransaction: (p2.json as { preparedTransaction: string }).preparedTransaction,
        partySignatures: { signatures: [] },
        submissionId: 's-5',
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      },
    });
    expect(noSig.status).toBe(400);
    const v3 = await call(sim.url, 'POST', '/v2/interactive-submission/execute', {
      body: {
        preparedTransaction: (p2.json as { preparedTransaction: string }).preparedTransaction,
        partySignatures: { signatures: [] },
        submissionId: 's-6',
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3',
      },
    });
    expect(cantonError(v3).code).toBe('INVALID_ARGUMENT');
  });

  it('executes a transaction prepared before a restart (its hash computed again from the bytes)', async () => {
    const before = await startTestSim();
    const sync = (
      (await call(before.url, 'GET', '/v2/state/connected-synchronizers')).json as { connectedSynchronizers: { synchronizerId: string }[] }
    ).connectedSynchronizers[0]?.synchronizerId as string;
    const k = newExternalKey();
    const party = await onboardExternal(before.url, sync, 'restarted', k);
    const prep = await call(before.url, 'POST', '/v2/interactive-submission/prepare', {
      body: { commandId: 'across-restart', actAs: [party], commands: [createIou(party, party, '7')] },
    });
    const p = prep.json as { preparedTransaction: string; preparedTransactionHash: string };
    await before.close();
    const after = await startTestSim({ dataDir: before.dataDir });
    try {
      const done = await call(after.url, 'POST', '/v2/interactive-submission/executeAndWait', {
        body: {
          preparedTransaction: p.preparedTransaction,
          partySignatures: { signatures: [{ party, signatures: [sig(k, p.preparedTransactionHash)] }] },
          submissionId: 's-restart',
          hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
        },
      });
      expect(done.status).toBe(200);
      expect(acsCreated(await acs(after.url, wildcard(party))).map((x) => x.createArgument.amount)).toEqual(['7.0000000000']);
    } finally {
      await after.dispose();
    }
  });
});
