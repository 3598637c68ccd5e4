/** Daml Numeric arithmetic on scaled bigints (decimal strings on the wire). */
export const NUMERIC_RE = /^-?\d{1,28}(\.\d{1,37})?$/;

export function parseNumeric(s: string, scale: number): bigint | undefined {
  if (!NUMERIC_RE.test(s)) return undefined;
  const neg = s.startsWith('-');
  const [int = '0', frac = ''] = (neg ? s.slice(1) : s).split('.');
  if (frac.length > scale && /[1-9]/.test(frac.slice(scale))) return undefined; // would lose precision
  const digits = int + frac.slice(0, scale).padEnd(scale, '0');
  if (int.replace(/^0+/, '').length > 38 - scale) return undefined;
  const v = BigInt(digits);
  return neg ? -v : v;
}

export function formatNumeric(v: bigint, scale: number): string {
  const neg = v < 0n;
  const s = (neg ? -v : v).toString().padStart(scale + 1, '0');
  const int = s.slice(0, s.length - scale);
  const frac = s.slice(s.length - scale);
  return `${neg ? '-' : ''}${int}${scale > 0 ? `.${frac}` : ''}`;
}
