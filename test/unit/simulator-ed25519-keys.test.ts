/**
 * The simulator's Ed25519 checks of external parties' signatures (src/simulator/crypto/keys.ts), with keys and
 * signatures made by node:crypto and @noble/ed25519: the remembered key objects must never make a wrong signature,
 * message or key pass, and a key that is not a curve point is refused rather than remembered.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { describe, expect, it } from 'vitest';
import { rawEd25519, verifyEd25519 } from '../../src/simulator/crypto/keys.js';

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = rawEd25519(publicKey.export({ format: 'der', type: 'spki' }), 'test key');
  return { raw, sign: (message: Uint8Array) => sign(null, message, privateKey) };
}

describe('simulator Ed25519 signature checks', () => {
  it('accepts the right signature again and again, and refuses a changed message, signature or key', () => {
    const a = keyPair();
    const b = keyPair();
    const message = new TextEncoder().encode('prepared transaction hash');
    const signature = a.sign(message);
    for (let i = 0; i < 3; i++) expect(verifyEd25519(a.raw, message, signature)).toBe(true);
    expect(verifyEd25519(b.raw, message, signature)).toBe(false);
    expect(verifyEd25519(a.raw, new TextEncoder().encode('another hash'), signature)).toBe(false);
    const flipped = Buffer.from(signature);
    flipped[10] = (flipped[10] ?? 0) ^ 1;
    expect(verifyEd25519(a.raw, message, flipped)).toBe(false);
    expect(verifyEd25519(a.raw, message, signature.subarray(0, 63))).toBe(false);
    expect(verifyEd25519(b.raw, message, b.sign(message))).toBe(true);
  });

  it('checks signatures made by @noble/ed25519 (what the console signs with)', async () => {
    const seed = ed.utils.randomSecretKey();
    const raw = Buffer.from(await ed.getPublicKeyAsync(seed));
    const message = new Uint8Array(32).fill(9);
    expect(verifyEd25519(raw, message, await ed.signAsync(message, seed))).toBe(true);
    expect(verifyEd25519(raw, message, await ed.signAsync(new Uint8Array(32).fill(8), seed))).toBe(false);
  });

  it('stays right past the bound of remembered keys', () => {
    const first = keyPair();
    const message = new TextEncoder().encode('m');
    const signature = first.sign(message);
    expect(verifyEd25519(first.raw, message, signature)).toBe(true);
    for (let i = 0; i < 1100; i++) {
      const raw = Buffer.alloc(32);
      raw.writeUInt32BE(i, 0);
      verifyEd25519(raw, message, signature);
    }
    expect(verifyEd25519(first.raw, message, signature)).toBe(true);
    expect(verifyEd25519(keyPair().raw, message, signature)).toBe(false);
  });
});
