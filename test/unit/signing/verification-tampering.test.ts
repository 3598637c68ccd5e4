/** Prepared-transaction verification refuses what a malicious participant could send: tampered bytes, foreign submitters. */
import { describe, expect, it } from 'vitest';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { verifyPreparedTransaction } from '../../../src/services/signing/prepared-transaction.js';
import { encode, iouSplit, party, prepareResponse, tampered, tokenTransfer, numeric } from './fixtures.js';
import { must } from '../../support/must.js';
import { stringContaining, stringMatching } from '../../support/matchers.js';
import { ALICE, BOB, MALLORY, createOf, exerciseOf, setField, useReferenceTypes } from './verification-support.js';

const types = useReferenceTypes();

describe('prepared transaction verification', () => {
  describe('refuses every tampered variant', () => {
    const base = () => tokenTransfer({ sender: ALICE, receiver: BOB, amount: '25.5' });

    it('changed amount', async () => {
      const prep = await tampered(base(), (tx) => setField(exerciseOf(tx, '0').chosenValue, ['transfer', 'amount'], numeric('2550.0')));
      await expect(verifyPreparedTransaction(prep, ALICE, types)).rejects.toMatchObject({ reason: 'HASH_MISMATCH', code: 'FORBIDDEN' });
    });
    it('changed receiver party', async () => {
      const prep = await tampered(base(), (tx) => setField(exerciseOf(tx, '0').chosenValue, ['transfer', 'receiver'], party(MALLORY)));
      await expect(verifyPreparedTransaction(prep, ALICE, types)).rejects.toMatchObject({ reason: 'HASH_MISMATCH' });
    });
    it('changed owner of a created contract deep in the tree', async () => {
      const prep = await tampered(base(), (tx) => setField(createOf(tx, '2').argument, ['owner'], party(MALLORY)));
      await expect(verifyPreparedTransaction(prep, ALICE, types)).rejects.toMatchObject({ reason: 'HASH_MISMATCH' });
    });
    it('changed submitter (metadata)', async () => {
      const prep = await tampered(base(), (tx) => {
        must(must(tx.metadata, 'tx.metadata').submitterInfo, 'submitter info').actAs = [ALICE, MALLORY];
      });
      await expect(verifyPreparedTransaction(prep, ALICE, types)).rejects.toMatchObject({ reason: 'HASH_MISMATCH' });
    });
    it('changed input contract', async () => {
      const prep = await tampered(base(), (tx) => {
        must(must(tx.metadata, 'tx.metadata').inputContracts[0], 'the first input contract').createdAt += 1n;
      });
      await expect(verifyPreparedTransaction(prep, ALICE, types)).rejects.toMatchObject({ reason: 'HASH_MISMATCH' });
    });
    it('swapped hash (the hash of another transaction)', async () => {
      const honest = await prepareResponse(base());
      const other = await prepareResponse(tokenTransfer({ sender: ALICE, receiver: MALLORY, amount: '25.5' }));
      await expect(
        verifyPreparedTransaction({ ...honest, preparedTransactionHash: other.preparedTransactionHash }, ALICE, types),
      ).rejects.toMatchObject({ reason: 'HASH_MISMATCH', message: stringMatching(/refusing to sign/) });
      await expect(
        verifyPreparedTransaction({ ...other, preparedTransaction: honest.preparedTransaction }, ALICE, types),
      ).rejects.toMatchObject({
        reason: 'HASH_MISMATCH',
      });
    });
    it('flipped bytes in the protobuf', async () => {
      const prep = await prepareResponse(base());
      const bytes = Buffer.from(prep.preparedTransaction, 'base64');
      for (const pos of [40, 200, bytes.length - 20]) {
        const b = Buffer.from(bytes);
        b[pos] = must(b[pos], 'b[pos]') ^ 0x01;
        await expect(verifyPreparedTransaction({ ...prep, preparedTransaction: b.toString('base64') }, ALICE, types)).rejects.toMatchObject(
          {
            reason: stringMatching(/HASH_MISMATCH|UNDECODABLE_TRANSACTION/),
          },
        );
      }
    });
    it('garbage, truncated hash, unsupported hashing scheme, missing fields', async () => {
      const prep = await prepareResponse(base());
      await expect(verifyPreparedTransaction({ ...prep, preparedTransaction: '!!!' }, ALICE, types)).rejects.toMatchObject({
        reason: 'UNDECODABLE_TRANSACTION',
      });
      await expect(verifyPreparedTransaction({ ...prep, preparedTransaction: 'AAAA' }, ALICE, types)).rejects.toMatchObject({
        reason: 'UNDECODABLE_TRANSACTION',
      });
      await expect(
        verifyPreparedTransaction({ ...prep, preparedTransactionHash: prep.preparedTransactionHash.slice(0, 20) }, ALICE, types),
      ).rejects.toMatchObject({ reason: 'HASH_MISMATCH' });
      await expect(
        verifyPreparedTransaction({ ...prep, hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3' }, ALICE, types),
      ).rejects.toMatchObject({
        reason: 'UNSUPPORTED_HASHING_SCHEME',
      });
      await expect(
        verifyPreparedTransaction({ preparedTransaction: prep.preparedTransaction } as never, ALICE, types),
      ).rejects.toMatchObject({
        reason: 'UNDECODABLE_TRANSACTION',
      });
    });
  });

  it('refuses when the signing party is not a submitter', async () => {
    const prep = await prepareResponse(tokenTransfer({ sender: BOB, receiver: ALICE, amount: '1.0' }));
    await expect(verifyPreparedTransaction(prep, ALICE, types)).rejects.toMatchObject({
      reason: 'PARTY_NOT_SUBMITTER',
      message: stringContaining(`acts as ${BOB}`),
    });
  });

  it('ignores (and warns about) nodes that are not covered by the hash', async () => {
    const tx = tokenTransfer({ sender: ALICE, receiver: BOB, amount: '25.5' });
    const honest = await prepareResponse(tx);
    const copy = PreparedTransaction.fromBinary(PreparedTransaction.toBinary(tx));
    const fake = PreparedTransaction.fromBinary(
      PreparedTransaction.toBinary(iouSplit({ owner: ALICE, amount: '999.0', counterparty: MALLORY })),
    );
    must(copy.transaction, 'copy.transaction').nodes.push({
      ...must(must(fake.transaction, 'fake.transaction').nodes[1], 'fake.transaction.nodes[1]'),
      nodeId: '99',
    });
    const prep = { ...honest, preparedTransaction: encode(copy) };
    // the library hashes only what is reachable from the roots, so the hash still matches ...
    expect(await hashPreparedTransaction(prep.preparedTransaction, 'base64')).toBe(honest.preparedTransactionHash);
    const { summary } = await verifyPreparedTransaction(prep, ALICE, types);
    // ... and the summary never shows the stray node as an effect
    expect(summary.created.map((c) => c.templateQualified)).not.toContain('MyApp.Iou:Iou');
    expect(summary.amounts.map((a) => a.value)).not.toContain('999.0');
    expect(summary.warnings.join(' ')).toMatch(/1 node\(s\) .* not reachable/);
  });
});
