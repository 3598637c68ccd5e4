/**
 * Ed25519 for the signing path, in node:crypto (OpenSSL; BoringSSL under Electron): a signature and the public-key
 * check of a read seed, synchronous and on the calling thread.
 *
 * Why not @noble/ed25519 here (the rest of the console uses it for keys it creates and files it signs): its BigInt
 * arithmetic took 0.4 ms and allocated ≈ 0.7 MB per signature and check — about 40 % of everything a signing round
 * allocated, so young-generation collections came every few rounds (BENCHMARKS.md, _Signing_). Here a key object
 * is built from the seed as a JWK (PKCS#8 goes through OpenSSL 3's decoder framework, ten times slower), signed with
 * and dropped: ≈ 0.1 ms for both. Secret material: neither library can wipe its copies — noble's BigInts of the secret
 * scalar, the JWK's text and OpenSSL's key until it is freed (OpenSSL cleanses it then) — no more than the keychain's
 * answer, which arrives as a string; the caller zeroes the seed bytes it holds.
 */
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';

const base64url = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');

/**
 * OpenSSL's private key for `seed`. A JWK must also carry the public key (`x`): `claimedPublicKey`, the key the seed
 * is said to belong to. OpenSSL does not take it on trust: it derives the public key from the seed
 * (`derivedPublicKey`).
 */
function privateKey(seed: Uint8Array, claimedPublicKey: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new RangeError(`An Ed25519 private key is a 32-byte seed, not ${String(seed.length)} bytes`);
  return createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: base64url(seed), x: base64url(claimedPublicKey) }, format: 'jwk' });
}

/** The RFC 8032 signature of `message` by `seed`, whose public key is `publicKey`. */
export const signEd25519 = (message: Uint8Array, seed: Uint8Array, publicKey: Uint8Array): Uint8Array =>
  new Uint8Array(sign(null, message, privateKey(seed, publicKey)));

/** The public key of `seed` as OpenSSL derives it (compare it with `claimedPublicKey` to check the seed's owner). */
export function derivedPublicKey(seed: Uint8Array, claimedPublicKey: Uint8Array): Uint8Array {
  const { x } = createPublicKey(privateKey(seed, claimedPublicKey)).export({ format: 'jwk' });
  if (typeof x !== 'string') throw new Error('OpenSSL gave no public key for an Ed25519 private key');
  return Uint8Array.from(Buffer.from(x, 'base64url'));
}
