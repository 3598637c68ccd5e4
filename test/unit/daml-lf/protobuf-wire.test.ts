import { describe, expect, it } from 'vitest';
import { DamlLfError, ProtoReader, ProtoWriter, WireType } from '../../../src/daml-lf/index.js';

const reader = (bytes: number[] | Uint8Array): ProtoReader =>
  new ProtoReader(bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes), 'MALFORMED_ARCHIVE', 'Test');

function errorOf(f: () => unknown): DamlLfError {
  try {
    f();
  } catch (e) {
    if (e instanceof DamlLfError) return e;
    throw e;
  }
  throw new Error('expected a DamlLfError');
}

describe('protobuf wire reader', () => {
  it('decodes the encodings given in the protobuf documentation', () => {
    // field 1 varint 150 = 08 96 01; field 2 string "testing" = 12 07 74 65 73 74 69 6e 67
    const r = reader([0x08, 0x96, 0x01, 0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6e, 0x67]);
    expect(r.tag()).toEqual({ field: 1, wireType: WireType.VARINT });
    expect(r.int32()).toBe(150);
    expect(r.tag()).toEqual({ field: 2, wireType: WireType.LEN });
    expect(r.string()).toBe('testing');
    expect(r.done).toBe(true);
  });

  it('reads negative int32 as 10-byte varints, sint64 zigzag, fixed32 and sfixed64', () => {
    expect(reader([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]).int32()).toBe(-1);
    expect(reader([0x03]).sint64()).toBe(-2n);
    expect(reader([0x04]).sint64()).toBe(2n);
    expect(reader([0x78, 0x56, 0x34, 0x12]).fixed32()).toBe(0x12345678);
    expect(reader([0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]).sfixed64()).toBe(-2n);
  });

  it('round-trips every writer method through the reader', () => {
    const bytes = new ProtoWriter()
      .int(1, -5)
      .sint(2, -1234567890123n)
      .fixed32(3, 0xdeadbeef)
      .sfixed64(4, -42n)
      .string(5, 'héllo ✓')
      .packedInt32(6, [1, 300, 70000])
      .message(7, (m) => m.int(1, 7).bool(2, true))
      .finish();
    const r = reader(bytes);
    const seen: unknown[] = [];
    while (!r.done) {
      const { field, wireType } = r.tag();
      if (field === 1) seen.push(r.int32());
      else if (field === 2) seen.push(r.sint64());
      else if (field === 3) seen.push(r.fixed32());
      else if (field === 4) seen.push(r.sfixed64());
      else if (field === 5) seen.push(r.string());
      else if (field === 6) {
        const out: number[] = [];
        r.repeatedInt32(wireType, out);
        seen.push(out);
      } else if (field === 7) {
        const m = r.message('Inner');
        const inner: unknown[] = [];
        while (!m.done) {
          const t = m.tag();
          inner.push(t.field === 1 ? m.int32() : m.bool());
        }
        seen.push(inner);
      }
    }
    expect(seen).toEqual([-5, -1234567890123n, 0xdeadbeef, -42n, 'héllo ✓', [1, 300, 70000], [7, true]]);
  });

  it('accepts repeated int32 both packed and unpacked', () => {
    const out: number[] = [];
    const r = reader([0x08, 0x05, 0x08, 0x06, 0x0a, 0x02, 0x07, 0x08]);
    while (!r.done) {
      const t = r.tag();
      r.repeatedInt32(t.wireType, out);
    }
    expect(out).toEqual([5, 6, 7, 8]);
  });

  it('skips unknown fields of every wire type', () => {
    const bytes = new ProtoWriter().int(9, 1).fixed32(10, 1).sfixed64(11, 1n).string(12, 'x').int(1, 42).finish();
    const r = reader(bytes);
    let found: number | undefined;
    while (!r.done) {
      const t = r.tag();
      if (t.field === 1) found = r.int32();
      else r.skip(t.wireType);
    }
    expect(found).toBe(42);
  });

  it('reports truncation, bad lengths, groups, field 0 and invalid UTF-8 as DamlLfError with the reader code', () => {
    const cases: [number[], (r: ProtoReader) => unknown, RegExp][] = [
      [[0x96], (r) => r.int32(), /truncated varint/],
      [[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], (r) => r.int32(), /longer than 10 bytes/],
      [[0x05, 0x61], (r) => r.bytes(), /exceeds/],
      [[0x12, 0x34], (r) => r.fixed32(), /truncated fixed32/],
      [[0x0b], (r) => r.skip(r.tag().wireType), /wire type 3/],
      [[0x00], (r) => r.tag(), /field number 0/],
      [[0x0e], (r) => r.tag(), /invalid wire type 6/],
      [[0x02, 0xc3, 0x28], (r) => r.string(), /UTF-8/],
    ];
    for (const [bytes, f, msg] of cases) {
      const e = errorOf(() => f(reader(bytes)));
      expect(e.code).toBe('MALFORMED_ARCHIVE');
      expect(e.message).toMatch(msg);
    }
  });

  it('rejects a known field with the wrong wire type', () => {
    const r = reader([0x08, 0x01]);
    const t = r.tag();
    expect(errorOf(() => r.expect(t.field, t.wireType, WireType.LEN)).message).toMatch(/field 1 has wire type 0, expected 2/);
  });
});
