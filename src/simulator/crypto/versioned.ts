/**
 * Canton's `UntypedVersionedMessage { bytes data = 1; int32 version = 2; }` envelope. Canton serializes topology
 * transactions in it (`HasProtocolVersionedWrapper.toByteString`): `generate-topology` returns those bytes, the
 * topology transaction hash (purpose 11) is computed over them, and `allocate` expects them back.
 */
import { CantonError } from '../errors.js';

/** The proto version of `TopologyTransaction` for the protocol versions the JSON API v2 simulator mimics. */
export const TOPOLOGY_TRANSACTION_PROTO_VERSION = 30;

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

export function wrapVersioned(data: Uint8Array, version = TOPOLOGY_TRANSACTION_PROTO_VERSION): Uint8Array {
  return Uint8Array.from([0x0a, ...varint(data.length), ...data, 0x10, ...varint(version)]);
}

/** The data and version of an envelope; throws INVALID_ARGUMENT (naming `what`) when the bytes are not one. */
export function unwrapVersioned(bytes: Uint8Array, what: string): { data: Uint8Array; version: number } {
  const bad = (why: string) =>
    new CantonError('INVALID_ARGUMENT', `${what} is not a versioned message (UntypedVersionedMessage) as Canton serializes it: ${why}`, {
      context: { field: 'onboardingTransactions' },
    });
  let pos = 0;
  const read = (): number => {
    let r = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (pos >= bytes.length) throw bad('truncated varint');
      const b = bytes[pos++] as number;
      r += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return r;
    }
    throw bad('varint too long');
  };
  let data: Uint8Array | undefined;
  let version = 0;
  while (pos < bytes.length) {
    const tag = read();
    if (tag === ((1 << 3) | 2)) {
      const len = read();
      if (pos + len > bytes.length) throw bad('data longer than the message');
      data = bytes.subarray(pos, pos + len);
      pos += len;
    } else if (tag === ((2 << 3) | 0)) {
      version = read();
    } else {
      throw bad(`unexpected field ${tag >> 3} (wire type ${tag & 7})`);
    }
  }
  if (!data) throw bad('no data');
  if (version !== TOPOLOGY_TRANSACTION_PROTO_VERSION)
    throw bad(`unsupported version ${version} (expected ${TOPOLOGY_TRANSACTION_PROTO_VERSION})`);
  return { data, version };
}
