/** Topology (external party onboarding) verification against real protobuf fixtures hashed by the official library. */
import { describe, expect, it } from 'vitest';
import * as ed from '@noble/ed25519';
import { Enums_ParticipantPermission } from '@canton-network/core-ledger-proto';
import { verifyTopology } from '../../../src/services/signing/topology.js';
import { cantonFingerprint } from '../../../src/services/signing/fingerprint.js';
import { multiHashOf, topologyTransactions } from './fixtures.js';
import { must } from '../../support/must.js';
import { stringContaining, stringMatching } from '../../support/matchers.js';

describe('topology (external party onboarding) verification', () => {
  async function setup(permission = Enums_ParticipantPermission.CONFIRMATION) {
    const sk = ed.utils.randomSecretKey();
    const pk = await ed.getPublicKeyAsync(sk);
    const fp = await cantonFingerprint(pk);
    const partyId = `carol::${fp}`;
    const txs = topologyTransactions({ partyId, publicKey: pk, permission });
    return { fp, partyId, pk, resp: { partyId, publicKeyFingerprint: fp, topologyTransactions: txs, multiHash: await multiHashOf(txs) } };
  }

  it('recomputes the multi-hash and summarises party, hosting and threshold', async () => {
    const { fp, partyId, resp } = await setup();
    const { summary, multiHash } = await verifyTopology(resp, fp);
    expect(Buffer.from(multiHash).toString('base64')).toBe(resp.multiHash);
    expect(multiHash).toHaveLength(34);
    expect(summary.partyId).toBe(partyId);
    expect(summary.confirmationThreshold).toBe(1);
    expect(summary.hostingParticipants).toEqual([{ participantUid: stringMatching(/^participant1::/), permission: 'CONFIRMATION' }]);
    expect(summary.transactions.map((t) => t.kind)).toEqual(['NamespaceDelegation', 'PartyToParticipant', 'PartyToKeyMapping']);
    expect(must(summary.transactions[2], 'summary.transactions[2]').keyFingerprints).toEqual([fp]);
    expect(summary.warnings).toEqual([]);
  });

  it('warns when a participant would get submission rights', async () => {
    const { fp, resp } = await setup(Enums_ParticipantPermission.SUBMISSION);
    expect((await verifyTopology(resp, fp)).summary.warnings.join(' ')).toMatch(/SUBMISSION rights/);
  });

  it('refuses a multi-hash that does not match, a swapped transaction, and a foreign party or key', async () => {
    const { fp, resp } = await setup();
    const other = await setup();
    await expect(verifyTopology({ ...resp, multiHash: other.resp.multiHash }, fp)).rejects.toMatchObject({
      reason: 'TOPOLOGY_HASH_MISMATCH',
    });
    await expect(
      verifyTopology(
        {
          ...resp,
          topologyTransactions: [
            must(resp.topologyTransactions[0], 'resp.topologyTransactions[0]'),
            must(other.resp.topologyTransactions[1], 'other.resp.topologyTransactions[1]'),
            must(resp.topologyTransactions[2], 'resp.topologyTransactions[2]'),
          ],
        },
        fp,
      ),
    ).rejects.toMatchObject({ reason: 'TOPOLOGY_HASH_MISMATCH' });
    await expect(verifyTopology(other.resp, fp)).rejects.toMatchObject({ reason: 'TOPOLOGY_MISMATCH' });
    // consistent hash but a PartyToParticipant for another party
    const mixed = [
      must(resp.topologyTransactions[0], 'resp.topologyTransactions[0]'),
      must(other.resp.topologyTransactions[1], 'other.resp.topologyTransactions[1]'),
    ];
    await expect(verifyTopology({ ...resp, topologyTransactions: mixed, multiHash: await multiHashOf(mixed) }, fp)).rejects.toMatchObject({
      reason: 'TOPOLOGY_MISMATCH',
      message: stringContaining(other.resp.partyId),
    });
    await expect(
      verifyTopology({ ...resp, topologyTransactions: ['AAAA'], multiHash: await multiHashOf(['AAAA']) }, fp),
    ).rejects.toMatchObject({
      reason: 'UNDECODABLE_TRANSACTION',
    });
  });
});
