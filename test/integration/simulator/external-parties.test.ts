import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTopologyTransaction } from '@canton-network/core-tx-visualizer';
import { call, cantonError, newExternalKey, onboardExternal, signBase64, startTestSim, updates } from './helpers.js';
import type { TestSim } from './helpers.js';

describe('external parties', () => {
  let sim: TestSim;
  let sync: string;
  beforeAll(async () => {
    sim = await startTestSim();
    sync = ((await call(sim.url, 'GET', '/v2/state/connected-synchronizers')).json as { connectedSynchronizers: { synchronizerId: string }[] }).connectedSynchronizers[0]?.synchronizerId as string;
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('generates onboarding topology with the Canton fingerprint and decodable transactions', async () => {
    const key = newExternalKey();
    const r = await call(sim.url, 'POST', '/v2/parties/external/generate-topology', {
      body: { synchronizer: sync, partyHint: 'ext-alice', publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: key.raw.toString('base64'), keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' } },
    });
    expect(r.status).toBe(200);
    const g = r.json as { partyId: string; publicKeyFingerprint: string; topologyTransactions: string[]; multiHash: string };
    expect(g.publicKeyFingerprint).toBe(key.fingerprint);
    expect(g.partyId).toBe(`ext-alice::${key.fingerprint}`);
    const kinds = g.topologyTransactions.map((t) => decodeTopologyTransaction(t).mapping?.mapping.oneofKind);
    expect(kinds).toEqual(['namespaceDelegation', 'partyToKeyMapping', 'partyToParticipant']);
    expect(Buffer.from(g.multiHash, 'base64').subarray(0, 2).toString('hex')).toBe('1220');
  });

  it('allocates only with a valid signature of the namespace key, then streams the topology event', async () => {
    const key = newExternalKey();
    const gen = await call(sim.url, 'POST', '/v2/parties/external/generate-topology', {
      body: { synchronizer: sync, partyHint: 'ext-bob', publicKey: { format: 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO', keyData: key.spkiBase64, keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' } },
    });
    const g = gen.json as { partyId: string; topologyTransactions: string[]; multiHash: string };
    const other = newExternalKey();
    const bad = await call(sim.url, 'POST', '/v2/parties/external/allocate', {
      body: {
        synchronizer: sync,
        onboardingTransactions: g.topologyTransactions.map((transaction) => ({ transaction })),
        multiHashSignatures: [{ format: 'SIGNATURE_FORMAT_RAW', signature: signBase64(other, g.multiHash), signedBy: key.fingerprint, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }],
      },
    });
    expect(bad.status).toBe(400);
    expect(cantonError(bad).code).toBe('INVALID_ARGUMENT');
    const missingOne = await call(sim.url, 'POST', '/v2/parties/external/allocate', {
      body: { synchronizer: sync, onboardingTransactions: g.topologyTransactions.slice(1).map((transaction) => ({ transaction })), multiHashSignatures: [] },
    });
    expect(missingOne.status).toBe(400);

    const partyId = await onboardExternal(sim.url, sync, 'ext-carol', key).catch((e: unknown) => String(e));
    expect(partyId).toBe(`ext-carol::${key.fingerprint}`);
    const again = await onboardExternal(sim.url, sync, 'ext-carol', key).catch((e: unknown) => String(e));
    expect(again).toContain('PARTY_ALREADY_EXISTS');
    const parties = ((await call(sim.url, 'GET', '/v2/parties')).json as { partyDetails: { party: string }[] }).partyDetails.map((p) => p.party);
    expect(parties).toContain(partyId);
    const topo = await updates(sim.url, { beginExclusive: 0, updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [partyId] } } } });
    const ev = (topo.json as { update: { TopologyTransaction?: { value: { events: { event: { ParticipantAuthorizationAdded: { value: { participantPermission: string } } } }[] } } } }[])
      .flatMap((u) => u.update.TopologyTransaction?.value.events ?? []);
    expect(ev.map((e) => e.event.ParticipantAuthorizationAdded.value.participantPermission)).toEqual(['PARTICIPANT_PERMISSION_CONFIRMATION']);
  });
});
