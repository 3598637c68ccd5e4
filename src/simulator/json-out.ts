/**
 * Output buffer for spliced and packed update answers (splice.ts, packed-plan.ts): small strings are encoded into
 * 64 KiB chunks, stored fragments are copied as bytes (never decoded to JS strings).
 */
export class JsonOut {
  static readonly CHUNK = 64 * 1024;
  private readonly chunks: Buffer[] = [];
  private buf = Buffer.allocUnsafe(JsonOut.CHUNK);
  private pos = 0;
  /** small strings are concatenated and encoded in one go (before the next bytes, or when long) */
  private pending = '';
  private total = 0;

  str(s: string): this {
    this.pending += s;
    if (this.pending.length > 4096) this.encodePending();
    return this;
  }
  private encodePending(): void {
    const s = this.pending;
    if (s.length === 0) return;
    this.pending = '';
    if (this.buf.length - this.pos < s.length * 3) {
      this.flush();
      if (s.length * 3 > JsonOut.CHUNK) {
        const b = Buffer.from(s, 'utf8');
        this.chunks.push(b);
        this.total += b.length;
        return;
      }
    }
    const n = this.buf.write(s, this.pos, 'utf8');
    this.pos += n;
    this.total += n;
  }
  bytes(b: Buffer): this {
    this.encodePending();
    if (b.length > this.buf.length - this.pos) {
      this.flush();
      if (b.length > JsonOut.CHUNK / 2) {
        this.chunks.push(b);
        this.total += b.length;
        return this;
      }
    }
    b.copy(this.buf, this.pos);
    this.pos += b.length;
    this.total += b.length;
    return this;
  }
  private flush(): void {
    if (this.pos > 0) this.chunks.push(this.buf.subarray(0, this.pos));
    this.buf = this.pos > 0 ? Buffer.allocUnsafe(JsonOut.CHUNK) : this.buf;
    this.pos = 0;
  }
  /** The chunks written so far (the output is reset). */
  take(): Buffer[] {
    this.encodePending();
    this.flush();
    const out = this.chunks.splice(0);
    this.total = 0;
    return out;
  }
  /** Everything written so far as one Buffer (the output is reset). */
  takeOne(): Buffer {
    this.encodePending();
    if (this.chunks.length === 0) {
      const b = Buffer.from(this.buf.subarray(0, this.pos));
      this.pos = 0;
      this.total = 0;
      return b;
    }
    return Buffer.concat(this.take());
  }
}
