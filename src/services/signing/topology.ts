/**
 * Verification of external-party onboarding (`generate-topology` response) before signing its multi-hash:
 * each serialized transaction hashed with purpose 11, combined with `computeMultiHashForTopology`, hashed with
 * purpose 55 — refuse on mismatch. The transactions are decoded (`decodeTopologyTransaction`, after unwrapping
 * Canton's UntypedVersionedMessage) and summarised: party, hosting participants, thresholds, keys.
 */
import { computeMultiHashForTopology, computeSha256CantonHash, decodeTopologyTransaction } from '@canton-network/core-tx-visualizer';
import { useSameThreadSha256 } from '../../platform/same-thread-sha256.js';
import { Enums_ParticipantPermission, Enums_TopologyChangeOp, type TopologyTransaction } from '@canton-network/core-ledger-proto';
import { z } from 'zod';
import { unwrapVersioned } from '../../common/versioned.js';
import { equalBytes, fromBase64, toBase64, toHex } from './bytes.js';
import { SigningRefusal } from './errors.js';
import { cantonFingerprint, partyNamespace } from './fingerprint.js';

// the official hashing's SHA-256 digests run on this thread (see there)
useSameThreadSha256();

export const TOPOLOGY_TRANSACTION_PURPOSE = 11;
export const MULTI_TOPOLOGY_PURPOSE = 55;

/** The JSON API `GenerateExternalPartyTopologyResponse`. */
export const GenerateTopologyResponseSchema = z.object({
  partyId: z.string().min(1),
  publicKeyFingerprint: z.string().min(1),
  topologyTransactions: z.array(z.string().min(1)).min(1),
  multiHash: z.string().min(1),
});
export type GenerateTopologyResponse = z.infer<typeof GenerateTopologyResponseSchema>;

export interface TopologyMappingSummary {
  operation: 'ADD_REPLACE' | 'REMOVE' | 'UNSPECIFIED';
  serial: number;
  kind: string;
  party?: string;
  threshold?: number;
  participants?: Array<{ participantUid: string; permission: string }>;
  keyFingerprints?: string[];
  namespace?: string;
  description: string;
}
export interface TopologySummary {
  partyId: string;
  publicKeyFingerprint: string;
  multiHashBase64: string;
  transactions: TopologyMappingSummary[];
  hostingParticipants: Array<{ participantUid: string; permission: string }>;
  confirmationThreshold: number | null;
  headline: string;
  warnings: string[];
}
export interface VerifiedTopology {
  summary: TopologySummary;
  multiHash: Uint8Array;
}

export async function topologyMultiHash(transactions: Uint8Array[]): Promise<Uint8Array> {
  const hashes = await Promise.all(transactions.map((t) => computeSha256CantonHash(TOPOLOGY_TRANSACTION_PURPOSE, t)));
  return computeSha256CantonHash(MULTI_TOPOLOGY_PURPOSE, await computeMultiHashForTopology(hashes));
}

/**
 * @param expectedFingerprint the key that will sign: the party's namespace and the response's key fingerprint must be it.
 */
export async function verifyTopology(input: GenerateTopologyResponse, expectedFingerprint: string): Promise<VerifiedTopology> {
  const parsed = GenerateTopologyResponseSchema.safeParse(input);
  if (!parsed.success) {
    throw new SigningRefusal(
      'BAD_REQUEST',
      'UNDECODABLE_TRANSACTION',
      `Not a generate-topology response: ${parsed.error.issues[0]?.message}`,
    );
  }
  const resp = parsed.data;
  const raw = resp.topologyTransactions.map((t, i) => fromBase64(t, `topology transaction ${i + 1}`));
  const recomputed = await topologyMultiHash(raw);
  let claimed: Uint8Array;
  try {
    claimed = fromBase64(resp.multiHash, 'multiHash');
  } catch {
    throw new SigningRefusal('BAD_REQUEST', 'TOPOLOGY_HASH_MISMATCH', 'The multiHash is not valid base64');
  }
  if (!equalBytes(claimed, recomputed)) {
    throw new SigningRefusal(
      'FORBIDDEN',
      'TOPOLOGY_HASH_MISMATCH',
      `The multi-hash to sign (${toHex(claimed)}) is not the hash of the topology transactions (${toHex(recomputed)}); refusing to sign`,
    );
  }
  if (resp.publicKeyFingerprint !== expectedFingerprint) {
    throw new SigningRefusal(
      'FORBIDDEN',
      'TOPOLOGY_MISMATCH',
      `The topology is for key ${resp.publicKeyFingerprint}, not ${expectedFingerprint}`,
    );
  }
  if (partyNamespace(resp.partyId) !== expectedFingerprint) {
    throw new SigningRefusal(
      'FORBIDDEN',
      'TOPOLOGY_MISMATCH',
      `The party ${resp.partyId} is not in the namespace of key ${expectedFingerprint}`,
    );
  }
  const warnings: string[] = [];
  const transactions: TopologyMappingSummary[] = [];
  for (const [i, bytes] of raw.entries()) {
    const tx = decodeTopology(bytes);
    if (!tx) {
      throw new SigningRefusal(
        'BAD_REQUEST',
        'UNDECODABLE_TRANSACTION',
        `Topology transaction ${i + 1} cannot be decoded (expected a TopologyTransaction in Canton’s versioned envelope)`,
      );
    }
    const s = await summariseMapping(tx);
    if (s.party !== undefined && s.party !== resp.partyId) {
      throw new SigningRefusal('FORBIDDEN', 'TOPOLOGY_MISMATCH', `Topology transaction ${i + 1} concerns ${s.party}, not ${resp.partyId}`);
    }
    if (s.namespace !== undefined && s.namespace !== expectedFingerprint) {
      throw new SigningRefusal(
        'FORBIDDEN',
        'TOPOLOGY_MISMATCH',
        `Topology transaction ${i + 1} delegates namespace ${s.namespace}, not ${expectedFingerprint}`,
      );
    }
    if (s.operation !== 'ADD_REPLACE') warnings.push(`Topology transaction ${i + 1} is a ${s.operation}`);
    transactions.push(s);
  }
  const p2p = transactions.find((t) => t.kind === 'PartyToParticipant');
  if (!p2p) warnings.push('No PartyToParticipant mapping: the party will not be hosted by any participant');
  const hosting = p2p?.participants ?? [];
  const submitters = hosting.filter((h) => h.permission === 'SUBMISSION');
  if (submitters.length > 0) {
    warnings.push(
      `Participant(s) ${submitters.map((s) => s.participantUid).join(', ')} would get SUBMISSION rights: ` +
        'they could act for the party without your key',
    );
  }
  const hostedBy = hosting.map((h) => `${h.participantUid} (${h.permission.toLowerCase()})`).join(', ') || 'no participant';
  return {
    multiHash: recomputed,
    summary: {
      partyId: resp.partyId,
      publicKeyFingerprint: resp.publicKeyFingerprint,
      multiHashBase64: toBase64(recomputed),
      transactions,
      hostingParticipants: hosting,
      confirmationThreshold: p2p?.threshold ?? null,
      headline: `Onboard external party ${resp.partyId}, hosted by ${hostedBy}`,
      warnings,
    },
  };
}

/**
 * Canton sends (and hashes) each topology transaction inside its versioned envelope; bare TopologyTransaction bytes
 * are not what a participant produces, so they are not accepted either (no second interpretation of the same bytes).
 */
/** A decoded topology transaction that carries a mapping (the only kind this console summarises). */
type MappedTopologyTransaction = TopologyTransaction & { mapping: NonNullable<TopologyTransaction['mapping']> };
type NamespaceDelegation = Extract<
  MappedTopologyTransaction['mapping']['mapping'],
  { oneofKind: 'namespaceDelegation' }
>['namespaceDelegation'];

function decodeTopology(bytes: Uint8Array): MappedTopologyTransaction | null {
  const envelope = unwrapVersioned(bytes);
  if (!envelope.ok) return null;
  const inner = envelope.data;
  try {
    const tx = decodeTopologyTransaction(toBase64(inner));
    const { mapping } = tx;
    return mapping && mapping.mapping.oneofKind !== undefined ? { ...tx, mapping } : null;
  } catch {
    return null;
  }
}

async function keyFingerprint(publicKey: Uint8Array): Promise<string> {
  // Raw Ed25519 keys are 32 bytes; X.509 SubjectPublicKeyInfo adds a 12-byte prefix.
  const raw = publicKey.length === 44 ? publicKey.slice(12) : publicKey;
  return raw.length === 32 ? cantonFingerprint(raw) : `(${publicKey.length}-byte key)`;
}

/** Partial: a value the decoder passed through unknown (a newer Canton) is in none of the entries. */
const OPERATIONS: Partial<Record<Enums_TopologyChangeOp, TopologyMappingSummary['operation']>> = {
  [Enums_TopologyChangeOp.UNSPECIFIED]: 'UNSPECIFIED',
  [Enums_TopologyChangeOp.ADD_REPLACE]: 'ADD_REPLACE',
  [Enums_TopologyChangeOp.REMOVE]: 'REMOVE',
};

/** A value the decoder passed through unknown (a newer Canton) has no name in the generated enum. */
function enumName(names: Record<number, string | undefined>, value: number): string {
  return names[value] ?? String(value);
}

/**
 * Whether a namespace delegation lets its key sign everything, further delegations included. Current Canton says so
 * with the `canSignAllMappings` restriction; older encodings leave the restriction empty and set the flag instead.
 */
function isRootDelegation(n: NamespaceDelegation): boolean {
  if (n.restriction.oneofKind !== undefined) return n.restriction.oneofKind === 'canSignAllMappings';
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the legacy encoding has nothing else to say it with
  return n.isRootDelegation;
}

async function summariseMapping(tx: MappedTopologyTransaction): Promise<TopologyMappingSummary> {
  const operation = OPERATIONS[tx.operation] ?? 'UNSPECIFIED';
  const base = { operation, serial: tx.serial };
  const m = tx.mapping.mapping;
  switch (m.oneofKind) {
    case 'partyToParticipant': {
      const p = m.partyToParticipant;
      const participants = p.participants.map((h) => ({
        participantUid: h.participantUid,
        permission: enumName(Enums_ParticipantPermission, h.permission),
      }));
      return {
        ...base,
        kind: 'PartyToParticipant',
        party: p.party,
        threshold: p.threshold,
        participants,
        description:
          `Host ${p.party} on ${participants.map((x) => `${x.participantUid} (${x.permission})`).join(', ')}, ` +
          `confirmation threshold ${p.threshold}`,
      };
    }
    case 'partyToKeyMapping': {
      const p = m.partyToKeyMapping;
      const keyFingerprints = await Promise.all(p.signingKeys.map((k) => keyFingerprint(k.publicKey)));
      return {
        ...base,
        kind: 'PartyToKeyMapping',
        party: p.party,
        threshold: p.threshold,
        keyFingerprints,
        description: `${p.party} signs with ${p.threshold} of ${keyFingerprints.length} key(s): ${keyFingerprints.join(', ')}`,
      };
    }
    case 'namespaceDelegation': {
      const n = m.namespaceDelegation;
      const target = n.targetKey ? await keyFingerprint(n.targetKey.publicKey) : '(none)';
      return {
        ...base,
        kind: 'NamespaceDelegation',
        namespace: n.namespace,
        keyFingerprints: [target],
        description: `Namespace ${n.namespace} delegated to key ${target}${isRootDelegation(n) ? ' (root)' : ''}`,
      };
    }
    default:
      return { ...base, kind: m.oneofKind ?? 'unknown', description: `Topology mapping ${m.oneofKind ?? 'unknown'}` };
  }
}
