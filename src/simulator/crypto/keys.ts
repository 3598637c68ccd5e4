/**
 * Ed25519 public keys, Canton fingerprints and signature checks for external parties.
 * Fingerprint = hex(0x12 0x20 ‖ SHA-256(u32be(12) ‖ raw public key)) (Canton hash purpose 12).
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { CantonError } from '../errors.js';
import { loadProto } from '../proto.js';

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface Ed25519Key {
  raw: Buffer;
  fingerprint: string;
}

export async function fingerprintOf(raw: Uint8Array): Promise<string> {
  const { computeSha256CantonHash } = await loadProto();
  return Buffer.from(await computeSha256CantonHash(12, raw)).toString('hex');
}

/** Raw 32-byte key from RAW or DER (X.509 SubjectPublicKeyInfo) bytes. */
export function rawEd25519(bytes: Uint8Array, what: string): Buffer {
  const b = Buffer.from(bytes);
  if (b.length === 32) return b;
  if (b.length === 44 && b.subarray(0, 12).equals(ED25519_SPKI_PREFIX)) return b.subarray(12);
  throw new CantonError('INVALID_ARGUMENT', `${what}: expected an Ed25519 public key (32 raw bytes or DER SubjectPublicKeyInfo)`, {
    context: { field: what },
  });
}

export function spkiOf(raw: Buffer): Buffer {
  return Buffer.concat([ED25519_SPKI_PREFIX, raw]);
}

export async function parsePublicKey(input: { format: string; keyData: string; keySpec: string }): Promise<Ed25519Key> {
  if (!['SIGNING_KEY_SPEC_EC_CURVE25519', 'SIGNING_KEY_SPEC_UNSPECIFIED', ''].includes(input.keySpec))
    throw new CantonError(
      'INVALID_ARGUMENT',
      `Unsupported key spec ${input.keySpec}: the simulator supports SIGNING_KEY_SPEC_EC_CURVE25519`,
      {
        context: { field: 'publicKey.keySpec' },
      },
    );
  if (!['CRYPTO_KEY_FORMAT_RAW', 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO', 'CRYPTO_KEY_FORMAT_DER'].includes(input.format))
    throw new CantonError('INVALID_ARGUMENT', `Unsupported key format ${input.format}`, { context: { field: 'publicKey.format' } });
  const raw = rawEd25519(Buffer.from(input.keyData, 'base64'), 'publicKey.keyData');
  return { raw, fingerprint: await fingerprintOf(raw) };
}

/**
 * OpenSSL key objects of the external parties' public keys, by raw key: building one from DER cost as much as the
 * signature check itself, at every execute. Public keys only; the oldest entry goes past the bound.
 */
const keyObjects = new Map<string, KeyObject>();
const KEY_OBJECTS_MAX = 1024;

function publicKeyObject(raw: Buffer): KeyObject {
  const id = raw.toString('hex');
  let key = keyObjects.get(id);
  if (key === undefined) {
    key = createPublicKey({ key: spkiOf(raw), format: 'der', type: 'spki' });
    const oldest = keyObjects.keys().next();
    if (keyObjects.size >= KEY_OBJECTS_MAX && oldest.done !== true) keyObjects.delete(oldest.value);
    keyObjects.set(id, key);
  }
  return key;
}

/** Verifies an Ed25519 signature (RAW/CONCAT 64 bytes) over `message`. */
export function verifyEd25519(raw: Buffer, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    return verify(null, message, publicKeyObject(raw), signature);
  } catch {
    return false;
  }
}

export interface JsSignature {
  format: string;
  signature: string;
  signedBy: string;
  signingAlgorithmSpec: string;
}

/** True when `sig` is a valid Ed25519 signature over `message` by the key with `key.fingerprint`. */
export function signatureValid(sig: JsSignature, key: Ed25519Key, message: Uint8Array): boolean {
  if (sig.signedBy !== key.fingerprint) return false;
  if (!['SIGNING_ALGORITHM_SPEC_ED25519', 'SIGNING_ALGORITHM_SPEC_UNSPECIFIED', ''].includes(sig.signingAlgorithmSpec)) return false;
  if (!['SIGNATURE_FORMAT_RAW', 'SIGNATURE_FORMAT_CONCAT', 'SIGNATURE_FORMAT_UNSPECIFIED', ''].includes(sig.format)) return false;
  return verifyEd25519(key.raw, message, Buffer.from(sig.signature, 'base64'));
}
