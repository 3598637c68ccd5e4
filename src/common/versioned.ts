/**
 * Canton's `UntypedVersionedMessage { bytes data = 1; int32 version = 2; }` envelope. Canton serializes topology
 * transactions in it (`HasProtocolVersionedWrapper.toByteString`): the participant returns those bytes from
 * `generate-topology`, hashes them, and expects them back on `allocate`. The console reads and rewraps them, the
 * simulator writes and checks them; both use this one codec.
 */

export type Unwrapped = { ok: true; data: Uint8Array; version: number } | { ok: false; error: string };

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** The envelope around `data`; version 0 is proto3's default and is therefore not written. */
export function wrapVersioned(data: Uint8Array, version: number): Uint8Array {
  return Uint8Array.from([0x0a, ...varint(data.length), ...data, ...(version ? [0x10, ...varint(version)] : [])]);
}

/** The data and version of an envelope, or why the bytes are not one (no other field is allowed). */
export function unwrapVersioned(bytes: Uint8Array): Unwrapped {
  let pos = 0;
  const read = (): number | string => {
    let r = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (pos >= bytes.length) return 'truncated varint';
      const b = bytes[pos++] ?? 0;
      r += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return r;
    }
    return 'varint too long';
  };
  let data: Uint8Array | undefined;
  let version = 0;
  while (pos < bytes.length) {
    const tag = read();
    if (typeof tag === 'string') return { ok: false, error: tag };
    if (tag === ((1 << 3) | 2)) {
      const len = read();
      if (typeof len === 'string') return { ok: false, error: len };
      if (pos + len > bytes.length) return { ok: false, error: 'data longer than the message' };
      data = bytes.subarray(pos, pos + len);
      pos += len;
    } else if (tag === ((2 << 3) | 0)) {
      const v = read();
      if (typeof v === 'string') return { ok: false, error: v };
      version = v;
    } else {
      return { ok: false, error: `unexpected field ${tag >> 3} (wire type ${tag & 7})` };
    }
  }
  return data ? { ok: true, data, version } : { ok: false, error: 'no data' };
}
