/**
 * k-of-n external parties: the participant's generate-topology takes one public key (the namespace key), so the
 * console adds the other signing keys and the threshold to the PartyToKeyMapping itself, re-encodes that transaction
 * (keeping Canton's UntypedVersionedMessage wrapper when present) and recomputes the multi-hash. The result is then
 * verified exactly like a participant's answer (verifyTopology) before anything is signed.
 */
import { TopologyTransaction } from '@canton-network/core-ledger-proto';
import { unwrapVersioned, wrapVersioned } from '../../common/versioned.js';
import { ConsoleError } from '../../ipc/errors.js';
import type { GenerateTopologyResponse } from '../signing/index.js';
import { topologyMultiHash } from '../signing/topology.js';

/** DER SubjectPublicKeyInfo prefix of an Ed25519 key (RFC 8410). */
const ED25519_SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

export interface ExtraKey {
  fingerprint: string;
  publicKey: Uint8Array;
}

export async function withSigningKeys(
  resp: GenerateTopologyResponse,
  extra: ExtraKey[],
  threshold: number,
): Promise<GenerateTopologyResponse> {
  if (threshold < 1 || threshold > extra.length + 1) {
    throw new ConsoleError('BAD_REQUEST', `The threshold must be between 1 and ${extra.length + 1}`, undefined, [
      { path: 'signingThreshold', message: `between 1 and ${extra.length + 1}` },
    ]);
  }
  let changed = 0;
  const raw: Uint8Array[] = [];
  for (const b64 of resp.topologyTransactions) {
    const bytes = Uint8Array.from(Buffer.from(b64, 'base64'));
    const envelope = unwrapVersioned(bytes);
    const wrapped = envelope.ok && decodes(envelope.data) ? envelope : null;
    const inner = wrapped ? wrapped.data : bytes;
    let tx: TopologyTransaction;
    try {
      tx = TopologyTransaction.fromBinary(inner);
    } catch {
      raw.push(bytes);
      continue;
    }
    const m = tx.mapping?.mapping;
    if (m?.oneofKind !== 'partyToKeyMapping') {
      raw.push(bytes);
      continue;
    }
    const base = m.partyToKeyMapping.signingKeys[0];
    if (!base) throw new ConsoleError('LEDGER_API_ERROR', 'The participant’s PartyToKeyMapping has no signing key');
    const spki = base.publicKey.length === 44;
    m.partyToKeyMapping.signingKeys = [
      base,
      ...extra.map((k) => ({ ...base, publicKey: spki ? concat(ED25519_SPKI_PREFIX, k.publicKey) : k.publicKey })),
    ];
    m.partyToKeyMapping.threshold = threshold;
    const encoded = TopologyTransaction.toBinary(tx);
    raw.push(wrapped ? wrapVersioned(encoded, wrapped.version) : encoded);
    changed++;
  }
  if (changed !== 1)
    throw new ConsoleError('LEDGER_API_ERROR', `Expected one PartyToKeyMapping in the onboarding topology, found ${changed}`);
  return {
    partyId: resp.partyId,
    publicKeyFingerprint: resp.publicKeyFingerprint,
    topologyTransactions: raw.map((r) => Buffer.from(r).toString('base64')),
    multiHash: Buffer.from(await topologyMultiHash(raw)).toString('base64'),
  };
}

function decodes(bytes: Uint8Array): boolean {
  try {
    return TopologyTransaction.fromBinary(bytes).mapping?.mapping.oneofKind !== undefined;
  } catch {
    return false;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
