/**
 * The protobuf message types and the Canton hashing of core-tx-visualizer, loaded on first use. Building the
 * message types when the module graph loads was a sixth of the simulator's start-up, while a start that serves no
 * prepared transaction, external party or key fingerprint never needs them. In the CLI bundles a dynamic import of
 * a bundled module becomes a deferred initialiser, so the code is in the bundle but runs only when first asked for.
 */
import { useSameThreadSha256 } from '../platform/same-thread-sha256.js';

export type Proto = typeof import('./proto-exports.js');

let loading: Promise<Proto> | undefined;

export function loadProto(): Promise<Proto> {
  if (loading === undefined) {
    // core-tx-visualizer's SHA-256 digests run on this thread (see there)
    useSameThreadSha256();
    loading = import('./proto-exports.js');
  }
  return loading;
}
