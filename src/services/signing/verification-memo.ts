/**
 * A small memo of successful verifications. Verification is a pure function of (prepare response, signing party),
 * and a signature is verified twice in a row — once for the confirmation screen, once again inside
 * `SigningService.sign` right before signing — so the second run can reuse the first when the input is
 * byte-identical. The key is a SHA-256 over every input byte (length-prefixed), so a single changed byte (or another
 * party) misses the memo and is verified from scratch; refusals are never memoised.
 */
import { createHash } from 'node:crypto';

const MAX_ENTRIES = 32;

export class VerificationMemo<T> {
  private readonly entries = new Map<string, T>();

  static key(parts: string[]): string {
    const h = createHash('sha256');
    for (const p of parts) {
      const bytes = Buffer.from(p, 'utf8');
      const len = Buffer.alloc(4);
      len.writeUInt32BE(bytes.length);
      h.update(len).update(bytes);
    }
    return h.digest('base64');
  }

  get(key: string): T | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) {
      // most recently used last
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  set(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }
}
