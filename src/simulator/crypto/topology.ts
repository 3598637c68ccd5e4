/**
 * External-party onboarding topology: NamespaceDelegation (root), PartyToKeyMapping and
 * PartyToParticipant transactions (protobuf `TopologyTransaction` in Canton's versioned envelope, see versioned.ts), and the multi-hash the
 * party signs: H55(multi(H11(tx)…)) with Canton's hash purposes, as `core-tx-visualizer` computes it.
 */
import type { Enums_ParticipantPermission, SigningPublicKey, TopologyTransaction } from '@canton-network/core-ledger-proto';
import { CantonError } from '../errors.js';
import { loadProto } from '../proto.js';
import type { Proto } from '../proto.js';
import type { Ed25519Key } from './keys.js';
import { fingerprintOf, rawEd25519, spkiOf } from './keys.js';
import { unwrapVersioned, wrapVersioned } from './versioned.js';

export const HASH_PURPOSE_TOPOLOGY_TX = 11;
export const HASH_PURPOSE_MULTI_TOPOLOGY = 55;

function signingKey(P: Proto, key: Ed25519Key): SigningPublicKey {
  const { CryptoKeyFormat, SigningKeySpec, SigningKeyUsage } = P;
  // `create` leaves the deprecated `scheme` at its default value, which protobuf does not write
  return P.SigningPublicKey.create({
    format: CryptoKeyFormat.DER_X509_SUBJECT_PUBLIC_KEY_INFO,
    publicKey: spkiOf(key.raw),
    usage: [SigningKeyUsage.NAMESPACE, SigningKeyUsage.PROTOCOL],
    keySpec: SigningKeySpec.EC_CURVE25519,
  });
}

export interface OnboardingPlan {
  partyId: string;
  key: Ed25519Key;
  participantUid: string;
  observationOnly: boolean;
}

export async function onboardingTransactions(plan: OnboardingPlan): Promise<Uint8Array[]> {
  const P = await loadProto();
  const { Enums_ParticipantPermission, Enums_TopologyChangeOp } = P;
  const k = signingKey(P, plan.key);
  const txs: TopologyTransaction[] = [
    {
      operation: Enums_TopologyChangeOp.ADD_REPLACE,
      serial: 1,
      mapping: {
        mapping: {
          oneofKind: 'namespaceDelegation',
          namespaceDelegation: {
            namespace: plan.key.fingerprint,
            targetKey: k,
            // deprecated in favour of `restriction` but still on the wire: the console's decoder shows it, and the signed bytes stay stable
            // eslint-disable-next-line @typescript-eslint/no-deprecated
            isRootDelegation: true,
            restriction: { oneofKind: 'canSignAllMappings', canSignAllMappings: {} },
          },
        },
      },
    },
    {
      operation: Enums_TopologyChangeOp.ADD_REPLACE,
      serial: 1,
      mapping: { mapping: { oneofKind: 'partyToKeyMapping', partyToKeyMapping: { party: plan.partyId, threshold: 1, signingKeys: [k] } } },
    },
    {
      operation: Enums_TopologyChangeOp.ADD_REPLACE,
      serial: 1,
      mapping: {
        mapping: {
          oneofKind: 'partyToParticipant',
          partyToParticipant: {
            party: plan.partyId,
            threshold: 1,
            participants: [
              {
                participantUid: plan.participantUid,
                permission: plan.observationOnly ? Enums_ParticipantPermission.OBSERVATION : Enums_ParticipantPermission.CONFIRMATION,
              },
            ],
          },
        },
      },
    },
  ];
  // as Canton returns them: each in its versioned envelope (the bytes that are hashed and signed)
  return txs.map((t) => wrapVersioned(P.TopologyTransaction.toBinary(t)));
}

export async function multiHashOf(transactions: Uint8Array[]): Promise<Uint8Array> {
  const { computeMultiHashForTopology, computeSha256CantonHash } = await loadProto();
  const hashes = await Promise.all(transactions.map((t) => computeSha256CantonHash(HASH_PURPOSE_TOPOLOGY_TX, t)));
  return computeSha256CantonHash(HASH_PURPOSE_MULTI_TOPOLOGY, await computeMultiHashForTopology(hashes));
}

export async function transactionHash(tx: Uint8Array): Promise<Uint8Array> {
  const { computeSha256CantonHash } = await loadProto();
  return computeSha256CantonHash(HASH_PURPOSE_TOPOLOGY_TX, tx);
}

export interface DecodedOnboarding {
  partyId: string;
  namespaceKey: Ed25519Key;
  /** Keys that sign the party's transactions (PartyToKeyMapping) and their threshold. */
  signingKeys: Ed25519Key[];
  threshold: number;
  /** Hosting participants (UIDs) with permission. */
  hosts: { participantUid: string; permission: Enums_ParticipantPermission; observationOnly: boolean }[];
}

/** Decodes and checks the onboarding transactions of an external party. */
export async function decodeOnboarding(transactions: Uint8Array[]): Promise<DecodedOnboarding> {
  const { Enums_ParticipantPermission, Enums_TopologyChangeOp, SigningKeySpec, TopologyTransaction } = await loadProto();
  let namespaceKey: Ed25519Key | undefined;
  let namespace: string | undefined;
  let p2k: { party: string; threshold: number; keys: Ed25519Key[] } | undefined;
  let p2p: { party: string; hosts: DecodedOnboarding['hosts'] } | undefined;
  const bad = (msg: string): CantonError =>
    new CantonError('INVALID_ARGUMENT', `Invalid onboarding transactions: ${msg}`, { context: { field: 'onboardingTransactions' } });
  const toKey = async (k: SigningPublicKey | undefined): Promise<Ed25519Key> => {
    if (!k) throw bad('missing key');
    if (k.keySpec !== SigningKeySpec.EC_CURVE25519 && k.keySpec !== SigningKeySpec.UNSPECIFIED)
      throw bad('only Ed25519 keys are supported');
    const raw = rawEd25519(k.publicKey, 'signing key');
    return { raw, fingerprint: await fingerprintOf(raw) };
  };
  for (const [i, bytes] of transactions.entries()) {
    let tx: TopologyTransaction;
    const { data } = unwrapVersioned(bytes, `onboardingTransactions[${i}]`);
    try {
      tx = TopologyTransaction.fromBinary(data);
    } catch (e) {
      throw bad(`undecodable topology transaction (${(e as Error).message})`);
    }
    if (tx.operation !== Enums_TopologyChangeOp.ADD_REPLACE) throw bad('only ADD_REPLACE is supported');
    const m = tx.mapping?.mapping;
    if (m?.oneofKind === 'namespaceDelegation') {
      namespaceKey = await toKey(m.namespaceDelegation.targetKey);
      namespace = m.namespaceDelegation.namespace;
      if (namespace !== namespaceKey.fingerprint) throw bad('the namespace must be the fingerprint of the root key');
    } else if (m?.oneofKind === 'partyToKeyMapping') {
      const keys = await Promise.all(m.partyToKeyMapping.signingKeys.map((k) => toKey(k)));
      p2k = { party: m.partyToKeyMapping.party, threshold: m.partyToKeyMapping.threshold, keys };
    } else if (m?.oneofKind === 'partyToParticipant') {
      p2p = {
        party: m.partyToParticipant.party,
        hosts: m.partyToParticipant.participants.map((h) => ({
          participantUid: h.participantUid,
          permission: h.permission,
          observationOnly: h.permission === Enums_ParticipantPermission.OBSERVATION,
        })),
      };
    } else throw bad(`unsupported mapping ${m?.oneofKind ?? 'none'}`);
  }
  if (!namespaceKey || !namespace || !p2k || !p2p) throw bad('expected NamespaceDelegation, PartyToKeyMapping and PartyToParticipant');
  if (p2k.party !== p2p.party) throw bad('PartyToKeyMapping and PartyToParticipant name different parties');
  if (!p2k.party.endsWith(`::${namespace}`)) throw bad(`party ${p2k.party} is not in namespace ${namespace}`);
  if (p2k.threshold < 1 || p2k.threshold > p2k.keys.length) throw bad('invalid PartyToKeyMapping threshold');
  return { partyId: p2k.party, namespaceKey, signingKeys: p2k.keys, threshold: p2k.threshold, hosts: p2p.hosts };
}
