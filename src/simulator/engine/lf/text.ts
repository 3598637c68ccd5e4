/**
 * Text, Date and Timestamp helpers with the engine's semantics: text is a sequence of Unicode code points ordered
 * code point by code point (= UTF-8 byte order, not JS's UTF-16 order); dates are days since the epoch in
 * 0001-01-01…9999-12-31; timestamps are microseconds in 0001-01-01T00:00:00Z…9999-12-31T23:59:59.999999Z.
 */

/** Compares two strings by Unicode code points (UTF-8 byte order). */
export function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // a surrogate (pair) encodes a code point above U+FFFF: it sorts after every BMP character
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs === ys) return x < y ? -1 : 1;
    return xs ? 1 : -1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** The code points of a string. */
export function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0) as number);
  return out;
}

/** EXPLODE_TEXT: one string per code point. */
export function explode(s: string): string[] {
  return Array.from(s);
}

/** A valid code point of Daml text: 0…0x10FFFF minus the surrogate range. */
export const validCodePoint = (cp: bigint): boolean => (cp >= 0n && cp < 0xd800n) || (cp > 0xdfffn && cp <= 0x10ffffn);

export const MIN_DATE = -719162; // 0001-01-01
export const MAX_DATE = 2932896; // 9999-12-31
export const MIN_TIMESTAMP = -62135596800000000n; // 0001-01-01T00:00:00Z
export const MAX_TIMESTAMP = 253402300799999999n; // 9999-12-31T23:59:59.999999Z

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** DATE_TO_TEXT: `YYYY-MM-DD` (proleptic Gregorian, UTC). */
export function dateToText(days: number): string {
  const d = new Date(days * 86_400_000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}

export function dateFromText(s: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(2000, mo - 1, d);
  const dt = new Date(t);
  dt.setUTCFullYear(y);
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) return undefined;
  const days = Math.round(dt.getTime() / 86_400_000);
  return days >= MIN_DATE && days <= MAX_DATE ? days : undefined;
}

/**
 * TIMESTAMP_TO_TEXT: ISO-8601 instant as Java's `ISO_INSTANT` prints it — seconds always, a fraction only when non-zero,
 * in groups of three digits (`.123Z`, `.123456Z`).
 */
export function timestampToText(micros: bigint): string {
  let secs = micros / 1_000_000n;
  let frac = micros % 1_000_000n;
  if (frac < 0n) {
    frac += 1_000_000n;
    secs -= 1n;
  }
  const d = new Date(Number(secs) * 1000);
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(
    d.getUTCMinutes(),
    2,
  )}:${pad(d.getUTCSeconds(), 2)}`;
  if (frac === 0n) return `${base}Z`;
  const f = frac.toString().padStart(6, '0');
  return `${base}.${f.endsWith('000') ? f.slice(0, 3) : f}Z`;
}

/** RFC 3339 UTC with up to 6 (more are refused unless zero) fractional digits → microseconds, within range. */
export function timestampFromText(s: string): bigint | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/.exec(s);
  if (!m) return undefined;
  const days = dateFromText(`${m[1]}-${m[2]}-${m[3]}`);
  const [h, mi, se] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (days === undefined || h > 23 || mi > 59 || se > 59) return undefined;
  const fracText = m[7] ?? '';
  if (fracText.length > 6 && /[1-9]/.test(fracText.slice(6))) return undefined;
  const micros =
    BigInt(days) * 86_400_000_000n + BigInt(h * 3600 + mi * 60 + se) * 1_000_000n + BigInt(fracText.slice(0, 6).padEnd(6, '0'));
  return micros >= MIN_TIMESTAMP && micros <= MAX_TIMESTAMP ? micros : undefined;
}

/** The PartyId string of the spec: `[a-zA-Z0-9:\-_ ]{1,255}`. */
export const isPartyString = (s: string): boolean => /^[a-zA-Z0-9:\-_ ]{1,255}$/.test(s);

/** Lower-case hex of UTF-8 bytes (TEXT_TO_HEX). */
export function utf8ToHex(s: string): string {
  let out = '';
  for (const b of new TextEncoder().encode(s)) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Valid hex strings of the engine (`HexString`): an even number of lower-case hex digits. */
export const isHexString = (s: string): boolean => /^(?:[0-9a-f]{2})*$/.test(s);

export function hexToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}
