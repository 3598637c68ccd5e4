/** Exact comparison of Daml Numeric strings (no floating point). */
const DECIMAL = /^-?\d+(\.\d+)?$/;
export const DECIMAL_PATTERN = DECIMAL;

export function isDecimal(s: string): boolean {
  return DECIMAL.test(s);
}

/** -1, 0, 1 like a comparator; throws on non-decimals. */
export function compareDecimal(a: string, b: string): number {
  if (!DECIMAL.test(a) || !DECIMAL.test(b)) throw new TypeError(`Not a decimal: ${DECIMAL.test(a) ? b : a}`);
  const [ai, af = ''] = a.split('.') as [string, string?];
  const [bi, bf = ''] = b.split('.') as [string, string?];
  const scale = Math.max(af.length, bf.length);
  // The sign stays in front of the concatenated digits, so "-1.25" at scale 2 is -125.
  const x = BigInt(ai + af.padEnd(scale, '0'));
  const y = BigInt(bi + bf.padEnd(scale, '0'));
  return x < y ? -1 : x > y ? 1 : 0;
}
