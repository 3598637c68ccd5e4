/**
 * Minimal protobuf wire-format reader and writer (proto3 subset): varint (wire type 0), fixed64 (1),
 * length-delimited (2), fixed32 (5). Groups (3/4) are obsolete and rejected. Unknown fields are skipped by callers via
 * `skip()`. All reads are bounds-checked and raise `DamlLfError` with the reader's error code, never a RangeError.
 */
import { DamlLfError, type DamlLfErrorCode } from './errors.js';

export const WireType = {
  VARINT: 0,
  FIXED64: 1,
  LEN: 2,
  START_GROUP: 3,
  END_GROUP: 4,
  FIXED32: 5,
} as const;
export type WireTypeValue = (typeof WireType)[keyof typeof WireType];

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

export class ProtoReader {
  private pos: number;
  private readonly end: number;

  /**
   * @param buf   the whole buffer
   * @param code  error code for malformed input (MALFORMED_ARCHIVE or MALFORMED_PACKAGE)
   * @param what  message name, for error messages
   */
  constructor(
    private readonly buf: Uint8Array,
    readonly code: DamlLfErrorCode,
    readonly what: string,
    start = 0,
    end = buf.length,
  ) {
    this.pos = start;
    this.end = end;
  }

  fail(message: string): never {
    throw new DamlLfError(this.code, `${this.what}: ${message}`);
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** Reads a tag; returns field number and wire type. */
  tag(): { field: number; wireType: number } {
    const t = this.varint32Unsigned();
    const field = t >>> 3;
    const wireType = t & 7;
    if (field === 0) this.fail(`invalid field number 0 at byte ${this.pos}`);
    if (wireType === 6 || wireType === 7) this.fail(`invalid wire type ${wireType} for field ${field}`);
    return { field, wireType };
  }

  /** Reads a varint, returning its low 32 bits as an unsigned number (consumes up to 10 bytes). */
  varint32Unsigned(): number {
    let result = 0;
    let shift = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) this.fail('truncated varint');
      const b = this.buf[this.pos++] as number;
      if (shift < 32) result |= (b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) === 0) return result >>> 0;
    }
    return this.fail('varint longer than 10 bytes');
  }

  /** `int32` / enum: low 32 bits as a signed number (negative int32 values are encoded as 10-byte varints). */
  int32(): number {
    return this.varint32Unsigned() | 0;
  }

  bool(): boolean {
    return this.varint64() !== 0n;
  }

  /** Full 64-bit unsigned varint as a bigint. */
  varint64(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) this.fail('truncated varint');
      const b = this.buf[this.pos++] as number;
      result |= BigInt(b & 0x7f) << shift;
      shift += 7n;
      if ((b & 0x80) === 0) return BigInt.asUintN(64, result);
    }
    return this.fail('varint longer than 10 bytes');
  }

  /** `sint64` (zigzag), as a bigint. */
  sint64(): bigint {
    const u = this.varint64();
    return (u >> 1n) ^ -(u & 1n);
  }

  fixed32(): number {
    if (this.end - this.pos < 4) this.fail('truncated fixed32');
    const b = this.buf;
    const p = this.pos;
    this.pos += 4;
    return ((b[p] as number) | ((b[p + 1] as number) << 8) | ((b[p + 2] as number) << 16) | ((b[p + 3] as number) << 24)) >>> 0;
  }

  /** `fixed64` / `sfixed64`, as a signed bigint. */
  sfixed64(): bigint {
    const lo = BigInt(this.fixed32());
    const hi = BigInt(this.fixed32());
    return BigInt.asIntN(64, (hi << 32n) | lo);
  }

  private lengthPrefix(): number {
    const len = this.varint32Unsigned();
    if (len > this.end - this.pos) this.fail(`length ${len} exceeds the ${this.end - this.pos} remaining bytes`);
    return len;
  }

  /** Length-delimited bytes, as a view (no copy). */
  bytes(): Uint8Array {
    const len = this.lengthPrefix();
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  string(): string {
    const raw = this.bytes();
    try {
      return utf8Decoder.decode(raw);
    } catch {
      return this.fail('string is not valid UTF-8');
    }
  }

  /** A reader over an embedded message (length-delimited). */
  message(what: string): ProtoReader {
    const len = this.lengthPrefix();
    const sub = new ProtoReader(this.buf, this.code, what, this.pos, this.pos + len);
    this.pos += len;
    return sub;
  }

  /** Repeated int32 that may be packed (wire type 2) or not (wire type 0); appends to `out`. */
  repeatedInt32(wireType: number, out: number[]): void {
    if (wireType === WireType.VARINT) {
      out.push(this.int32());
    } else if (wireType === WireType.LEN) {
      const sub = this.message(this.what);
      while (!sub.done) out.push(sub.int32());
    } else {
      this.fail(`unexpected wire type ${wireType} for a repeated int32`);
    }
  }

  /** Asserts the wire type of a known field. */
  expect(field: number, wireType: number, expected: WireTypeValue): void {
    if (wireType !== expected) this.fail(`field ${field} has wire type ${wireType}, expected ${expected}`);
  }

  /** Skips a field's value. */
  skip(wireType: number): void {
    switch (wireType) {
      case WireType.VARINT:
        this.varint32Unsigned();
        return;
      case WireType.FIXED64:
        if (this.end - this.pos < 8) this.fail('truncated fixed64');
        this.pos += 8;
        return;
      case WireType.LEN: {
        const len = this.lengthPrefix(); // advances past the prefix; must run before reading this.pos
        this.pos += len;
        return;
      }
      case WireType.FIXED32:
        if (this.end - this.pos < 4) this.fail('truncated fixed32');
        this.pos += 4;
        return;
      default:
        this.fail(`unsupported wire type ${wireType}`);
    }
  }
}

/** Protobuf writer producing canonical proto3 encodings (fields in the order written). */
export class ProtoWriter {
  private chunks: Uint8Array[] = [];
  private cur: number[] = [];

  private flush(): void {
    if (this.cur.length > 0) {
      this.chunks.push(Uint8Array.from(this.cur));
      this.cur = [];
    }
  }

  private rawVarint(v: bigint | number): void {
    if (typeof v === 'number' && v >= 0 && v <= 0x7fffffff && Number.isInteger(v)) {
      let x = v;
      while (x >= 0x80) {
        this.cur.push((x & 0x7f) | 0x80);
        x >>>= 7;
      }
      this.cur.push(x);
      return;
    }
    let n = typeof v === 'bigint' ? BigInt.asUintN(64, v) : BigInt.asUintN(64, BigInt(v));
    while (n >= 0x80n) {
      this.cur.push(Number(n & 0x7fn) | 0x80);
      n >>= 7n;
    }
    this.cur.push(Number(n));
  }

  private tag(field: number, wireType: WireTypeValue): void {
    this.rawVarint((field << 3) | wireType);
  }

  /** `int32` / `int64` / enum / `uint*` (negative values are sign-extended to 10 bytes, as protobuf does). */
  int(field: number, v: number | bigint): this {
    this.tag(field, WireType.VARINT);
    this.rawVarint(v);
    return this;
  }

  bool(field: number, v: boolean): this {
    return this.int(field, v ? 1 : 0);
  }

  /** `sint64` / `sint32` (zigzag). */
  sint(field: number, v: number | bigint): this {
    const b = BigInt(v);
    this.tag(field, WireType.VARINT);
    this.rawVarint(BigInt.asUintN(64, (b << 1n) ^ (b >> 63n)));
    return this;
  }

  fixed32(field: number, v: number): this {
    this.tag(field, WireType.FIXED32);
    this.cur.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
    return this;
  }

  sfixed64(field: number, v: bigint): this {
    const u = BigInt.asUintN(64, v);
    this.tag(field, WireType.FIXED64);
    for (let i = 0n; i < 8n; i++) this.cur.push(Number((u >> (8n * i)) & 0xffn));
    return this;
  }

  bytes(field: number, v: Uint8Array): this {
    this.tag(field, WireType.LEN);
    this.rawVarint(v.length);
    this.flush();
    this.chunks.push(v);
    return this;
  }

  string(field: number, v: string): this {
    return this.bytes(field, utf8Encoder.encode(v));
  }

  /** Embedded message built by `build`. */
  message(field: number, build: (w: ProtoWriter) => void): this {
    const sub = new ProtoWriter();
    build(sub);
    return this.bytes(field, sub.finish());
  }

  /** Packed repeated int32 (proto3 default); writes nothing for an empty list. */
  packedInt32(field: number, values: readonly number[]): this {
    if (values.length === 0) return this;
    const sub = new ProtoWriter();
    for (const v of values) sub.rawVarint(v);
    return this.bytes(field, sub.finish());
  }

  /** Appends raw bytes (e.g. for tests that build malformed input). */
  raw(bytes: Uint8Array | readonly number[]): this {
    this.flush();
    this.chunks.push(bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes));
    return this;
  }

  finish(): Uint8Array {
    this.flush();
    let total = 0;
    for (const c of this.chunks) total += c.length;
    const out = new Uint8Array(total);
    let off = 0;
    for (const c of this.chunks) {
      out.set(c, off);
      off += c.length;
    }
    return out;
  }
}
