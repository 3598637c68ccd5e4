/**
 * Topology transactions travel in Canton's `UntypedVersionedMessage` envelope (src/common/versioned.ts):
 * `generate-topology` returns them wrapped, the topology transaction hash (purpose 11) is computed over the wrapped
 * bytes, and `allocate` expects them back — at the proto version this simulator speaks, as a CantonError otherwise.
 */
import { unwrapVersioned as unwrap, wrapVersioned as wrap } from '../../common/versioned.js';
import { CantonError } from '../errors.js';

/** The proto version of `TopologyTransaction` for the protocol versions the JSON API v2 simulator mimics. */
export const TOPOLOGY_TRANSACTION_PROTO_VERSION = 30;

export function wrapVersioned(data: Uint8Array, version = TOPOLOGY_TRANSACTION_PROTO_VERSION): Uint8Array {
  return wrap(data, version);
}

/** The data and version of an envelope; throws INVALID_ARGUMENT (naming `what`) when the bytes are not one. */
export function unwrapVersioned(bytes: Uint8Array, what: string): { data: Uint8Array; version: number } {
  const bad = (why: string) =>
    new CantonError('INVALID_ARGUMENT', `${what} is not a versioned message (UntypedVersionedMessage) as Canton serializes it: ${why}`, {
      context: { field: 'onboardingTransactions' },
    });
  const r = unwrap(bytes);
  if (!r.ok) throw bad(r.error);
  if (r.version !== TOPOLOGY_TRANSACTION_PROTO_VERSION)
    throw bad(`unsupported version ${r.version} (expected ${TOPOLOGY_TRANSACTION_PROTO_VERSION})`);
  return { data: r.data, version: r.version };
}
