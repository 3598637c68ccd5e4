/**
 * Interactive submission over real HTTP: prepare returns a transaction and V2 hash the official library recomputes,
 * execute accepts exactly those bytes signed by the party's key (across a restart too), refuses other keys and
 * modified bytes, deduplicates, and commits exactly the prepared transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { decodePreparedTransaction, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import {
  IOU,
  ledgerEnd,
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
import { must } from '../../support/must.js';

/** The id of the first synchronizer the simulator at `url` is connected to (where external parties are onboarded). */
async function firstSynchronizer(url: string): Promise<string> {
  const body = (await call(url, 'GET', '/v2/state/connected-synchronizers')).json as {
    connectedSynchronizers: { synchronizerId: string }[];
  };
  return must(body.connectedSynchronizers[0], 'a connected synchronizer').synchronizerId;
}

describe('interactive submission (prepare → sign → execute)', () => {
  let sim: TestSim;
  let bank: string, bob: string, ext: string;
  let key: ExternalKey;
  beforeAll(async () => {
    sim = await startTestSim();
    const sync = await firstSynchronizer(sim.url);
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
    const sync = await firstSynchronizer(before.url);
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

describe('interactive submission commits exactly the prepared transaction', () => {
  let sim: TestSim;
  let bank: string, bob: string, ext: string;
  let key: ExternalKey;
  beforeAll(async () => {
    sim = await startTestSim({ staticTime: true });
    const sync = await firstSynchronizer(sim.url);
    bank = await allocate(sim.url, 'Bank');
    bob = await allocate(sim.url, 'Bob');
    key = newExternalKey();
    ext = await onboardExternal(sim.url, sync, 'ext-signer', key);
  });
  afterAll(async () => {
    await sim.dispose();
  });

  const signed = (
    p: { preparedTransaction: string; preparedTransactionHash: string },
    submissionId: string,
    extra: Record<string, unknown> = {},
  ) => ({
    preparedTransaction: p.preparedTransaction,
    partySignatures: {
      signatures: [
        {
          party: ext,
          signatures: [
            {
              format: 'SIGNATURE_FORMAT_RAW',
              signature: signBase64(key, p.preparedTransactionHash),
              signedBy: key.fingerprint,
              signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
            },
          ],
        },
      ],
    },
    submissionId,
    hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    ...extra,
  });
  const prepare = async (commandId: string, commands: unknown[]) => {
    const r = await call(sim.url, 'POST', '/v2/interactive-submission/prepare', { body: { commandId, actAs: [ext], commands } });
    expect(r.status, r.text).toBe(200);
    return r.json as { preparedTransaction: string; preparedTransactionHash: string };
  };

  it('keeps the prepared nodes, arguments, time and (suffixed) contract ids', async () => {
    const iou = (await submitTx(sim.url, [bank], [createIou(bank, ext, '50')])).created[0]?.contractId as string;
    const p = await prepare('split-1', [exercise(IOU, iou, 'Iou_Split', { splitAmount: '20' })]);
    const decoded = decodePreparedTransaction(p.preparedTransaction);
    const preparedCreates = (decoded.transaction?.nodes ?? []).flatMap((n) =>
      n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'create'
        ? [n.versionedNode.v1.nodeType.create.contractId]
        : [],
    );
    expect(preparedCreates).toHaveLength(2);
    for (const cid of preparedCreates) expect(cid).toMatch(/^00[0-9a-f]{64}$/); // relative: discriminator, no suffix yet

    await call(sim.url, 'POST', '/simulator/admin/time/advance', { body: { seconds: 10 }, validate: false });
    const done = await call(sim.url, 'POST', '/v2/interactive-submission/executeAndWaitForTransaction', {
      body: signed(p, 'exec-1', {
        transactionFormat: { transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS', eventFormat: wildcard(ext) },
      }),
    });
    expect(done.status, done.text).toBe(200);
    const tx = (
      done.json as {
        transaction: {
          effectiveAt: string;
          events: Record<
            string,
            { contractId: string; createdAt?: string; createArgument?: { amount: string }; exerciseResult?: unknown }
          >[];
        };
      }
    ).transaction;
    const created = tx.events.filter((e) => 'CreatedEvent' in e).map((e) => e.CreatedEvent);
    // final ids = the prepared discriminators with their suffix; the time is the preparation's, not the execution's
    expect(created.map((c) => c?.contractId.slice(0, 66))).toEqual(preparedCreates);
    for (const c of created) expect(c?.contractId).toMatch(/^00[0-9a-f]{64}ca111220[0-9a-f]{64}$/);
    const preparedAt = new Date(Number((decoded.metadata?.preparationTime ?? 0n) / 1000n)).toISOString().slice(0, 19);
    expect(tx.effectiveAt.slice(0, 19)).toBe(preparedAt);
    expect(created.map((c) => c?.createArgument?.amount)).toEqual(['20.0000000000', '30.0000000000']);
    // the exercise result references the final ids
    const result = tx.events.find((e) => 'ExercisedEvent' in e)?.ExercisedEvent?.exerciseResult as { splitCid: string; restCid: string };
    expect([result.splitCid, result.restCid]).toEqual(created.map((c) => c?.contractId));
  });

  it('fails with LOCAL_VERDICT_INACTIVE_CONTRACTS when an input was archived after prepare', async () => {
    const iou = (await submitTx(sim.url, [bank], [createIou(bank, ext, '5')])).created[0]?.contractId as string;
    const p = await prepare('transfer-archived', [exercise(IOU, iou, 'Iou_Transfer', { newOwner: bob })]);
    await submitTx(sim.url, [bank], [exercise(IOU, iou, 'Archive')]);
    const end = await ledgerEnd(sim.url);
    const r = await call(sim.url, 'POST', '/v2/interactive-submission/executeAndWait', { body: signed(p, 'exec-2') });
    expect(r.status).toBe(404);
    const err = cantonError(r);
    expect(err.code).toBe('LOCAL_VERDICT_INACTIVE_CONTRACTS');
    expect(err.cause).toContain(iou);
    expect(await ledgerEnd(sim.url)).toBe(end);
  });
});
