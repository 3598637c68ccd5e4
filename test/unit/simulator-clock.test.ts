/**
 * The simulator's timestamp formatting (src/simulator/clock.ts) against the platform's own: microsecond ISO strings
 * must match `Date.prototype.toISOString` to the second and carry the six fraction digits, whatever order the values
 * come in (the formatter keeps the last second it formatted), and parse back to the same microseconds.
 */
import { describe, expect, it } from 'vitest';
import { isoToMicros, microsToIso } from '../../src/simulator/clock.js';

const viaDate = (micros: bigint): string => {
  const seconds = micros / 1_000_000n;
  const fraction = (micros % 1_000_000n).toString().padStart(6, '0');
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
};

describe('microsToIso', () => {
  it('formats like toISOString with six fraction digits, in any order, and round-trips', () => {
    const start = 1_795_939_000_000_000n; // 2026-11-29
    const values: bigint[] = [0n, 999_999n, 1_000_000n, 951_782_400_000_000n, 4_102_444_799_999_999n];
    // runs within a second, across seconds, and jumping back to earlier ones
    for (let i = 0; i < 2_000; i++) values.push(start + BigInt((i * 7_919 * 613) % 5_000_000));
    for (const v of values) {
      const iso = microsToIso(v);
      expect(iso).toBe(viaDate(v));
      expect(isoToMicros(iso)).toBe(v);
    }
  });

  it('formats the second boundaries exactly', () => {
    expect(microsToIso(1_000_000n - 1n)).toBe('1970-01-01T00:00:00.999999Z');
    expect(microsToIso(1_000_000n)).toBe('1970-01-01T00:00:01.000000Z');
    expect(microsToIso(1_795_939_199_999_999n)).toBe('2026-11-29T07:59:59.999999Z');
    expect(microsToIso(1_795_939_200_000_000n)).toBe('2026-11-29T08:00:00.000000Z');
  });
});
