/**
 * SHA-256 for WebCrypto's `crypto.subtle.digest` computed on the calling thread.
 *
 * Why: the official Canton hashing (`@canton-network/core-tx-visualizer`: the prepared-transaction hash V2, key
 * fingerprints, topology hashes) calls `crypto.subtle.digest('SHA-256', …)` once per node, per input contract and
 * per envelope. Node runs every WebCrypto digest as a job on libuv's thread pool and resolves it on a later turn,
 * so one hash is several thread hand-offs; on a loaded machine each hand-off waits for a CPU twice (worker, then the
 * main thread), which made the signing round's prepare and verify stages several times slower than their work
 * (BENCHMARKS.md, _Signing_). The library has no hook for its digest, so this gives WebCrypto's SHA-256 a
 * same-thread path: node:crypto's one-shot hash (the same OpenSSL digest), answered with an already-settled
 * promise of an ArrayBuffer, as `digest` answers. Anything else — another algorithm, a malformed algorithm or input
 * — goes to the original `digest` unchanged, so its answers and errors stay WebCrypto's own.
 */
import { createHash } from 'node:crypto';

const INSTALLED = Symbol.for('canton-operator-console.same-thread-sha256');

type Digest = SubtleCrypto['digest'];

function isSha256(algorithm: unknown): boolean {
  if (typeof algorithm === 'string') return algorithm.toUpperCase() === 'SHA-256';
  if (typeof algorithm !== 'object' || algorithm === null || !('name' in algorithm)) return false;
  const { name } = algorithm;
  return typeof name === 'string' && name.toUpperCase() === 'SHA-256';
}

/** The bytes of a BufferSource on an ordinary ArrayBuffer, or null for anything WebCrypto should judge itself. */
function bytesOf(data: unknown): Uint8Array | null {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data) && data.buffer instanceof ArrayBuffer) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return null;
}

/** Installs the same-thread SHA-256 on `globalThis.crypto.subtle` once per process (later calls do nothing). */
export function useSameThreadSha256(): void {
  const subtle: SubtleCrypto & { [INSTALLED]?: true } = globalThis.crypto.subtle;
  if (subtle[INSTALLED]) return;
  const original: Digest = subtle.digest.bind(subtle);
  const digest: Digest = (algorithm, data) => {
    const bytes = isSha256(algorithm) ? bytesOf(data) : null;
    if (bytes === null) return original(algorithm, data);
    const hash = createHash('sha256').update(bytes).digest();
    const out = new ArrayBuffer(hash.length);
    new Uint8Array(out).set(hash);
    return Promise.resolve(out);
  };
  Object.defineProperty(subtle, 'digest', { value: digest, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(subtle, INSTALLED, { value: true });
}
