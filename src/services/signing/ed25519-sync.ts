/**
 * Ed25519 for the signing path, in node:crypto (OpenSSL; BoringSSL under Electron): a signature and the public-key
 * check of a read seed, synchronous and on the calling thread.
 *
 * Why not @noble/ed25519 here (the rest of the console uses it for keys it creates and files it signs): its BigInt
 * arithmetic allocated ≈ 0.7 MB per signature and check, about 40 % of everything a signing round allocated, so
 * young-generation collections came every few rounds (BENCHMARKS.md, _Signing_). Secret material: neither library
 * can be wiped from JavaScript — noble's BigInt copies of the secret scalar stay in the heap until collected, OpenSSL
 * cleanses its copy when the key object is freed — and the seed bytes handed to OpenSSL are zeroed right after the
 * key object is built, as the caller zeroes the seed after signing. RFC 8032 signatures are deterministic, so both
 * give the same bytes (test/unit/signing/ed25519-sync.test.ts).
 */
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';

/** PKCS#8 (RFC 8410) wrapping of a 32-byte Ed25519 seed, up to the seed itself. */
const PKCS8_SEED_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** The SubjectPublicKeyInfo of an Ed25519 key is these 12 bytes, then the raw 32-byte key. */
const SPKI_PREFIX_LENGTH = 12;

function privateKey(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new RangeError(`An Ed25519 private key is a 32-byte seed, not ${String(seed.length)} bytes`);
  // Buffer.alloc is never taken from the shared pool, so zeroing it leaves no copy of the seed behind
  const der = Buffer.alloc(PKCS8_SEED_PREFIX.length + 32);
  PKCS8_SEED_PREFIX.copy(der);
  der.set(seed, PKCS8_SEED_PREFIX.length);
  try {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } finally {
    der.fill(0);
  }
}

export const signEd25519 = (message: Uint8Array, seed: Uint8Array): Uint8Array => new Uint8Array(sign(null, message, privateKey(seed)));

export const publicKeyEd25519 = (seed: Uint8Array): Uint8Array =>
  new Uint8Array(createPublicKey(privateKey(seed)).export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX_LENGTH));
