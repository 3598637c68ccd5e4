/**
 * The same-thread SHA-256 behind WebCrypto's digest (src/platform/same-thread-sha256.ts), checked against the
 * platform's own WebCrypto digest (SubtleCrypto.prototype.digest, on the thread pool) and the FIPS 180-2 vectors,
 * and through the official Canton hashing: the V2 hash of prepared transactions and topology multi-hashes must be
 * byte-identical either way.
 */
import { computeMultiHashForTopology, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useSameThreadSha256 } from '../../src/platform/same-thread-sha256.js';
import { encode } from './signing/fixtures/encoding.js';
import { amuletTransfer, preapprovalSend, tokenTransfer } from './signing/fixtures/transfers.js';
import { VALIDATOR } from './signing/fixtures/values.js';

const subtle = globalThis.crypto.subtle;
const platformDigest: SubtleCrypto['digest'] = (algorithm, data) => SubtleCrypto.prototype.digest.call(subtle, algorithm, data);
const hex = (b: ArrayBuffer) => Buffer.from(b).toString('hex');

/** Runs `fn` with WebCrypto's own digest in place, then puts back whatever was installed. */
async function withPlatformDigest<T>(fn: () => Promise<T>): Promise<T> {
  const installed = Object.getOwnPropertyDescriptor(subtle, 'digest');
  Object.defineProperty(subtle, 'digest', { value: platformDigest, writable: true, configurable: true });
  try {
    return await fn();
  } finally {
    if (installed) Object.defineProperty(subtle, 'digest', installed);
  }
}

useSameThreadSha256();

describe('same-thread SHA-256', () => {
  it('is installed once: a second call keeps the same function', () => {
    const digestOf = (o: object): unknown => Reflect.get(o, 'digest');
    const first = digestOf(subtle);
    expect(Object.hasOwn(subtle, 'digest')).toBe(true);
    useSameThreadSha256();
    expect(digestOf(subtle)).toBe(first);
    expect(first).not.toBe(digestOf(SubtleCrypto.prototype));
  });

  it('gives the FIPS 180-2 answers', async () => {
    expect(hex(await subtle.digest('SHA-256', new TextEncoder().encode('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hex(await subtle.digest('SHA-256', new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('equals the platform digest for every kind of BufferSource, lengths across block boundaries', async () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 1000, 100_000]) {
      const bytes = new Uint8Array(randomBytes(length + 16)).subarray(7, 7 + length);
      const expected = hex(await platformDigest('SHA-256', bytes));
      const copy = bytes.slice();
      for (const source of [bytes, copy.buffer, new DataView(bytes.buffer, bytes.byteOffset, length), Buffer.from(copy)]) {
        const answer = await subtle.digest('SHA-256', source);
        expect(answer).toBeInstanceOf(ArrayBuffer);
        expect(hex(answer), `length ${String(length)}, ${source.constructor.name}`).toBe(expected);
      }
      for (const algorithm of ['sha-256', { name: 'SHA-256' }, { name: 'Sha-256' }]) {
        expect(hex(await subtle.digest(algorithm, bytes))).toBe(expected);
      }
    }
  });

  it('hashes the bytes as they were at the call, like WebCrypto', async () => {
    const bytes = new TextEncoder().encode('abc');
    const pending = subtle.digest('SHA-256', bytes);
    bytes.fill(0);
    expect(hex(await pending)).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('leaves other algorithms and bad input to WebCrypto, answers and errors alike', async () => {
    const bytes = new TextEncoder().encode('abc');
    for (const algorithm of ['SHA-1', 'SHA-384', 'SHA-512']) {
      expect(hex(await subtle.digest(algorithm, bytes))).toBe(hex(await platformDigest(algorithm, bytes)));
    }
    const errorOf = async (p: () => Promise<ArrayBuffer>) =>
      p().then(
        () => 'resolved',
        (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)),
      );
    const bad: [AlgorithmIdentifier, unknown][] = [
      ['MD5', bytes],
      [{ name: 'SHA-256' }, 'not bytes'],
      ['SHA-256', null],
      ['SHA-256', new SharedArrayBuffer(4)],
    ];
    for (const [algorithm, data] of bad) {
      const ours = await errorOf(() => subtle.digest(algorithm, data as BufferSource));
      expect(ours).toBe(await errorOf(() => platformDigest(algorithm, data as BufferSource)));
    }
    expect(await errorOf(() => subtle.digest('MD5', bytes))).toMatch(/NotSupportedError/);
  });

  it('gives the official V2 hash of prepared transactions the same bytes as the platform digest', async () => {
    const txs = [
      tokenTransfer({ sender: 'alice::1220' + 'aa'.repeat(32), receiver: 'bob::1220' + 'bb'.repeat(32), amount: '12.5' }),
      amuletTransfer({ sender: 'alice::1220' + 'aa'.repeat(32), receiver: 'bob::1220' + 'bb'.repeat(32), amount: '3' }),
      preapprovalSend({
        sender: 'alice::1220' + 'aa'.repeat(32),
        receiver: 'bob::1220' + 'bb'.repeat(32),
        amount: '1',
        provider: VALIDATOR,
      }),
    ].map(encode);
    for (const tx of txs) {
      const ours = await hashPreparedTransaction(tx, 'hex');
      expect(ours).toMatch(/^[0-9a-f]{64}$/);
      expect(ours).toBe(await withPlatformDigest(() => hashPreparedTransaction(tx, 'hex')));
    }
    const hashes = [new Uint8Array(34).fill(1), new Uint8Array(34).fill(2)];
    const multi = hex((await computeMultiHashForTopology(hashes)).buffer as ArrayBuffer);
    expect(multi).toBe(hex((await withPlatformDigest(() => computeMultiHashForTopology(hashes))).buffer as ArrayBuffer));
  });
});
