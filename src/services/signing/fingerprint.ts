/**
 * Canton key fingerprints and external party ids.
 * Fingerprint = hex(0x12 0x20 ‖ SHA-256(u32be(12) ‖ raw Ed25519 public key)), computed with the official
 * `computeSha256CantonHash` (hash purpose 12 = public key fingerprint).
 */
import { computeSha256CantonHash } from '@canton-network/core-tx-visualizer';
import { useSameThreadSha256 } from '../../platform/same-thread-sha256.js';
import { ConsoleError } from '../../ipc/errors.js';
import { toHex } from './bytes.js';

// the official hashing's SHA-256 digests run on this thread (see there)
useSameThreadSha256();

export const PUBLIC_KEY_FINGERPRINT_PURPOSE = 12;
export const FINGERPRINT_PATTERN = /^1220[0-9a-f]{64}$/;

export async function cantonFingerprint(publicKey: Uint8Array): Promise<string> {
  if (publicKey.length !== 32) throw new ConsoleError('BAD_REQUEST', 'An Ed25519 public key has exactly 32 bytes');
  return toHex(await computeSha256CantonHash(PUBLIC_KEY_FINGERPRINT_PURPOSE, publicKey));
}

/** Daml party-id hints: Canton's LedgerString subset, ≤ 185 chars, no "::". */
const HINT_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9:_-]{0,184}$/;

export function externalPartyId(hint: string, fingerprint: string): string {
  if (!HINT_PATTERN.test(hint) || hint.includes('::')) {
    throw new ConsoleError('BAD_REQUEST', `"${hint}" is not a valid party hint (letters, digits, "-", "_", ":", no "::")`);
  }
  if (!FINGERPRINT_PATTERN.test(fingerprint)) throw new ConsoleError('BAD_REQUEST', 'Not a Canton key fingerprint');
  return `${hint}::${fingerprint}`;
}

/** The namespace (fingerprint) part of a party id, or null when it has none. */
export function partyNamespace(partyId: string): string | null {
  const i = partyId.lastIndexOf('::');
  return i < 0 ? null : partyId.slice(i + 2);
}
