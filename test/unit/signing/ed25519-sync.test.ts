/**
 * The signing path's Ed25519 (node:crypto) against RFC 8032's test vectors and against @noble/ed25519, an
 * independent implementation: same public keys, same (deterministic) signatures, and signatures the other verifies.
 * The public key a JWK carries is not trusted: the derived key is the seed's own.
 */
import { randomBytes } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { describe, expect, it } from 'vitest';
import { derivedPublicKey, signEd25519 } from '../../../src/services/signing/ed25519-sync.js';

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** RFC 8032, section 7.1, tests 1 and 2. */
const VECTORS = [
  {
    seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    publicKey: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    message: '',
    signature:
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    seed: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    publicKey: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    message: '72',
    signature:
      '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
];

describe('Ed25519 of the signing path', () => {
  it('gives the RFC 8032 public keys and signatures', () => {
    for (const v of VECTORS) {
      expect(hex(derivedPublicKey(bytes(v.seed), bytes(v.publicKey)))).toBe(v.publicKey);
      expect(hex(signEd25519(bytes(v.message), bytes(v.seed), bytes(v.publicKey)))).toBe(v.signature);
    }
  });

  it('derives the seed’s own public key whatever key it is claimed to belong to', () => {
    const keys = VECTORS.map((v) => v.publicKey);
    for (const v of VECTORS) {
      const other = keys.find((k) => k !== v.publicKey) ?? '';
      for (const claimed of [new Uint8Array(32), bytes(other)]) {
        expect(hex(derivedPublicKey(bytes(v.seed), claimed))).toBe(v.publicKey);
      }
    }
  });

  it('agrees with @noble/ed25519 on keys and signatures of hashes, and each verifies the other', async () => {
    for (let i = 0; i < 20; i++) {
      const seed = Uint8Array.from(randomBytes(32));
      const hash = Uint8Array.from(randomBytes(i % 2 === 0 ? 32 : 34));
      const publicKey = await ed.getPublicKeyAsync(seed);
      expect(hex(derivedPublicKey(seed, publicKey))).toBe(hex(publicKey));
      const signature = signEd25519(hash, seed, publicKey);
      expect(hex(signature)).toBe(hex(await ed.signAsync(hash, seed)));
      expect(await ed.verifyAsync(signature, hash, publicKey)).toBe(true);
      expect(await ed.verifyAsync(signature, Uint8Array.from(randomBytes(32)), publicKey)).toBe(false);
    }
  });

  it('leaves the caller’s seed as it was, and refuses a seed that is not 32 bytes', () => {
    const seed = Uint8Array.from(randomBytes(32));
    const copy = seed.slice();
    const publicKey = derivedPublicKey(seed, new Uint8Array(32));
    signEd25519(new Uint8Array(32), seed, publicKey);
    expect(hex(seed)).toBe(hex(copy));
    for (const length of [0, 31, 33, 64]) {
      expect(() => signEd25519(new Uint8Array(32), new Uint8Array(length), publicKey)).toThrow(/32-byte seed/);
      expect(() => derivedPublicKey(new Uint8Array(length), publicKey)).toThrow(/32-byte seed/);
    }
  });
});
