import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TopologyTransaction } from '@canton-network/core-ledger-proto';
import { computeMultiHashForTopology, computeSha256CantonHash } from '@canton-network/core-tx-visualizer';
import { call, cantonError, newExternalKey, onboardExternal, signBase64, startTestSim, updates } from './helpers.js';
import type { TestSim } from './helpers.js';

describe('external parties', () => {
  let sim: TestSim;
  let sync: string;
  beforeAll(async () => {
    sim = await startTestSim();
    sync = (
      (await call(sim.url, 'GET', '/v2/state/connected-synchronizers')).json as { connectedSynchronizers: { synchronizerId: string }[] }
    ).connectedSynchronizers[0]?.synchronizerId as string;
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('generates onboarding topology with the Canton fingerprint and decodable transactions', async () => {
    const key = newExternalKey();
    const r = await call(sim.url, 'POST', '/v2/parties/external/generate-topology', {
      body: {
        synchronizer: sync,
        partyHint: 'ext-alice',
        publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: key.raw.toString('base64'), keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' },
      },
    });
    expect(r.status).toBe(200);
    const g = r.json as { partyId: string; publicKeyFingerprint: string; topologyTransactions: string[]; multiHash: string };
    expect(g.publicKeyFingerprint).toBe(key.fingerprint);
    expect(g.partyId).toBe(`ext-alice::${key.fingerprint}`);
    // as Canton returns them: UntypedVersionedMessage { data = TopologyTransaction bytes, version = 30 }
    const kinds = g.topologyTransactions.map((t) => {
      const bytes = Buffer.from(t, 'base64');
      expect(bytes[0]).toBe(0x0a);
      let len = 0;
      let pos = 1;
      for (let shift = 0; ; shift += 7) {
        const b = bytes.readUInt8(pos++);
        len += (b & 0x7f) * 2 ** shift;
        if ((b & 0x80) === 0) break;
      }
      expect([...bytes.subarray(pos + len)]).toEqual([0x10, 30]);
      return TopologyTransaction.fromBinary(bytes.subarray(pos, pos + len)).mapping?.mapping.oneofKind;
    });
    expect(kinds).toEqual(['namespaceDelegation', 'partyToKeyMapping', 'partyToParticipant']);
    // the multi-hash is the official library's, over the versioned bytes
    const hashes = await Promise.all(g.topologyTransactions.map((t) => computeSha256CantonHash(11, Buffer.from(t, 'base64'))));
    expect(Buffer.from(await computeSha256CantonHash(55, await computeMultiHashForTopology(hashes))).toString('base64')).toBe(g.multiHash);
  });

  it('allocates only with a valid signature of the namespace key, then streams the topology event', async () => {
    const key = newExternalKey();
    const gen = await call(sim.url, 'POST', '/v2/parties/external/generate-topology', {
      body: {
        synchronizer: sync,
        partyHint: 'ext-bob',
        publicKey: {
          format: 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO',
          keyData: key.spkiBase64,
          keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
        },
      },
    });
    const g = gen.json as { partyId: string; topologyTransactions: string[]; multiHash: string };
    const other = newExternalKey();
    const bad = await call(sim.url, 'POST', '/v2/parties/external/allocate', {
      body: {
        synchronizer: sync,
        onboardingTransactions: g.topologyTransactions.map((transaction) => ({ transaction })),
        multiHashSignatures: [
          {
            format: 'SIGNATURE_FORMAT_RAW',
            signature: signBase64(other, g.multiHash),
            signedBy: key.fingerprint,
            signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
          },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(cantonError(bad).code).toBe('INVALID_ARGUMENT');
    const missingOne = await call(sim.url, 'POST', '/v2/parties/external/allocate', {
      body: {
        synchronizer: sync,
        onboardingTransactions: g.topologyTransactions.slice(1).map((transaction) => ({ transaction })),
        multiHashSignatures: [],
      },
    });
    expect(missingOne.status).toBe(400);

    const partyId = await onboardExternal(sim.url, sync, 'ext-carol', key).catch((e: unknown) => String(e));
    expect(partyId).toBe(`ext-carol::${key.fingerprint}`);
    const again = await onboardExternal(sim.url, sync, 'ext-carol', key).catch((e: unknown) => String(e));
    expect(again).toContain('PARTY_ALREADY_EXISTS');
    const parties = ((await call(sim.url, 'GET', '/v2/parties')).json as { partyDetails: { party: string }[] }).partyDetails.map(
      (p) => p.party,
    );
    expect(parties).toContain(partyId);
    const topo = await updates(sim.url, {
      beginExclusive: 0,
      updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [partyId] } } },
    });
    const ev = (
      topo.json as {
        update: {
          TopologyTransaction?: {
            value: { events: { event: { ParticipantAuthorizationAdded: { value: { participantPermission: string } } } }[] };
          };
        };
      }[]
    ).flatMap((u) => u.update.TopologyTransaction?.value.events ?? []);
    expect(ev.map((e) => e.event.ParticipantAuthorizationAdded.value.participantPermission)).toEqual([
      'PARTICIPANT_PERMISSION_CONFIRMATION',
    ]);
  });

  it('refuses bare TopologyTransaction bytes at allocate, as Canton does (the envelope is part of what is signed)', async () => {
    const key = newExternalKey();
    const gen = await call(sim.url, 'POST', '/v2/parties/external/generate-topology', {
      body: {
        synchronizer: sync,
        partyHint: 'ext-bare',
        publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: key.raw.toString('base64'), keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' },
      },
    });
    const g = gen.json as { topologyTransactions: string[] };
    const bare = g.topologyTransactions.map((t) => {
      const bytes = Buffer.from(t, 'base64');
      const b1 = bytes.readUInt8(1);
      const len = b1 & 0x80 ? (b1 & 0x7f) + bytes.readUInt8(2) * 128 : b1;
      const start = b1 & 0x80 ? 3 : 2;
      return bytes.subarray(start, start + len);
    });
    const hashes = await Promise.all(bare.map((b) => computeSha256CantonHash(11, b)));
    const multiHash = Buffer.from(await computeSha256CantonHash(55, await computeMultiHashForTopology(hashes))).toString('base64');
    const r = await call(sim.url, 'POST', '/v2/parties/external/allocate', {
      body: {
        synchronizer: sync,
        onboardingTransactions: bare.map((b) => ({ transaction: b.toString('base64') })),
        multiHashSignatures: [
          {
            format: 'SIGNATURE_FORMAT_RAW',
            signature: signBase64(key, multiHash),
            signedBy: key.fingerprint,
            signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
          },
        ],
      },
    });
    expect(r.status).toBe(400);
    expect(cantonError(r).cause).toMatch(/onboardingTransactions\[0\] is not a versioned message/);
  });
});
