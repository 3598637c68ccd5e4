/** Exact arithmetic on Daml decimals (10 fractional digits) as bigint, for balance reconstruction and sums. */
const SCALE = 10;
const FACTOR = 10n ** BigInt(SCALE);

export function parseDecimal(s: string): bigint | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s.trim());
  if (!m) return null;
  const frac = (m[3] ?? '').slice(0, SCALE).padEnd(SCALE, '0');
  const v = BigInt(m[2]!) * FACTOR + BigInt(frac);
  return m[1] === '-' ? -v : v;
}

export function formatDecimal(v: bigint): string {
  const neg = v < 0n;
  const a = neg ? -v : v;
  return `${neg ? '-' : ''}${a / FACTOR}.${(a % FACTOR).toString().padStart(SCALE, '0')}`;
}

export const decimalToNumber = (s: string): number => Number(s);
