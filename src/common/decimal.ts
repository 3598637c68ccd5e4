/**
 * Daml decimals (Numeric) as scaled bigints: the one exact implementation the console, the simulator and the
 * renderer share. A value `v` at scale `s` stands for `v / 10^s`; on the wire it is a decimal string.
 */

/** A decimal string as Daml and the JSON API write it: optional minus, digits, optional fraction. */
export const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

/** Daml's Numeric bounds: at most 38 significant digits, the fraction at most 37 of them. */
export const NUMERIC_PATTERN = /^-?\d{1,28}(\.\d{1,37})?$/;

export function isDecimal(s: string): boolean {
  return DECIMAL_PATTERN.test(s);
}

/**
 * `s` at `scale` fractional digits, or null when it is not a decimal. `exact` (the default) also refuses a value
 * that needs more than `scale` fractional digits or more than 38 digits (Daml Numeric); `truncate` (lenient: blanks
 * around, any length) drops the extra fractional digits, for sums over amounts already at that scale.
 */
export function parseDecimal(s: string, scale: number, mode: 'exact' | 'truncate' = 'exact'): bigint | null {
  const t = mode === 'truncate' ? s.trim() : s;
  if (!(mode === 'exact' ? NUMERIC_PATTERN : DECIMAL_PATTERN).test(t)) return null;
  const neg = t.startsWith('-');
  const [int = '0', frac = ''] = (neg ? t.slice(1) : t).split('.');
  if (mode === 'exact') {
    if (frac.length > scale && /[1-9]/.test(frac.slice(scale))) return null;
    if (int.replace(/^0+/, '').length > 38 - scale) return null;
  }
  const v = BigInt(int + frac.slice(0, scale).padEnd(scale, '0'));
  return neg ? -v : v;
}

/** The decimal string of `v` at `scale`, every fractional digit written (`42.5000000000` at scale 10). */
export function formatDecimal(v: bigint, scale: number): string {
  const neg = v < 0n;
  const s = (neg ? -v : v).toString().padStart(scale + 1, '0');
  const int = s.slice(0, s.length - scale);
  const frac = s.slice(s.length - scale);
  return `${neg ? '-' : ''}${int}${scale > 0 ? `.${frac}` : ''}`;
}

/** -1, 0 or 1 like a comparator, exactly at any scale; throws a TypeError naming a value that is not a decimal. */
export function compareDecimal(a: string, b: string): number {
  if (!DECIMAL_PATTERN.test(a)) throw new TypeError(`Not a decimal: ${a}`);
  if (!DECIMAL_PATTERN.test(b)) throw new TypeError(`Not a decimal: ${b}`);
  const scale = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const x = parseDecimal(a, scale, 'truncate') ?? 0n;
  const y = parseDecimal(b, scale, 'truncate') ?? 0n;
  return x < y ? -1 : x > y ? 1 : 0;
}
