/**
 * Daml-LF Numeric arithmetic on scaled bigints (`value × 10^-scale`), with the engine's exact semantics: precision at
 * most 38 digits, scale 0…37, banker's rounding (HALF_EVEN) for multiplication and division, exact casts (no precision
 * loss), and the canonical text forms. Functions return `undefined` where the engine raises ArithmeticError.
 */
import { VBigNumeric, VNumeric } from './value.js';

export const MAX_PRECISION = 38;
export const MAX_SCALE = 37;
const LIMIT = 10n ** 38n;

export const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Within precision 38 (|unscaled| < 10^38). */
export const fits = (v: bigint): boolean => v < LIMIT && v > -LIMIT;

const checked = (v: bigint, scale: number): VNumeric | undefined => (fits(v) ? new VNumeric(v, scale) : undefined);

/** Integer division rounding half to even (the divisor is non-zero). */
export function divHalfEven(n: bigint, d: bigint): bigint {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  let q = n / d;
  const r = n - q * d;
  if (r === 0n) return q;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice > d || (twice === d && q % 2n !== 0n)) q += n < 0n ? -1n : 1n;
  return q;
}

/** `value × 10^-from` expressed at scale `to`, rounded half-even when `to < from`. */
export function rescaleHalfEven(v: bigint, from: number, to: number): bigint {
  return to >= from ? v * pow10(to - from) : divHalfEven(v, pow10(from - to));
}

export const add = (x: VNumeric, y: VNumeric): VNumeric | undefined => checked(x.value + y.value, x.scale);
export const sub = (x: VNumeric, y: VNumeric): VNumeric | undefined => checked(x.value - y.value, x.scale);

export function mul(scale: number, x: VNumeric, y: VNumeric): VNumeric | undefined {
  return checked(rescaleHalfEven(x.value * y.value, x.scale + y.scale, scale), scale);
}

export function div(scale: number, x: VNumeric, y: VNumeric): VNumeric | undefined {
  if (y.value === 0n) return undefined;
  // x / y at `scale` = x.value × 10^(scale - x.scale + y.scale) / y.value
  const e = scale - x.scale + y.scale;
  const q = e >= 0 ? divHalfEven(x.value * pow10(e), y.value) : divHalfEven(x.value, y.value * pow10(-e));
  return checked(q, scale);
}

/** ROUND_NUMERIC: rounds to `target` decimal places (half-even), keeping the scale; `target` in (scale-39, scale]. */
export function round(target: bigint, x: VNumeric): VNumeric | undefined {
  if (!(target <= BigInt(x.scale) && BigInt(x.scale - MAX_PRECISION) < target)) return undefined;
  const drop = x.scale - Number(target);
  if (drop === 0) return x;
  const p = pow10(drop);
  return checked(divHalfEven(x.value, p) * p, x.scale);
}

/** Exact conversion to another scale (CAST_NUMERIC, INT64_TO_NUMERIC, BIGNUMERIC_TO_NUMERIC): no precision loss. */
export function castExact(value: bigint, from: number, scale: number): VNumeric | undefined {
  if (scale >= from) return checked(value * pow10(scale - from), scale);
  const p = pow10(from - scale);
  if (value % p !== 0n) return undefined;
  return checked(value / p, scale);
}

/** SHIFT_NUMERIC: the same digits at another scale (multiplies by 10^(from - to)). */
export function shift(scale: number, x: VNumeric): VNumeric | undefined {
  return checked(x.value, scale);
}

/** NUMERIC_TO_INT64: integral part (towards zero); undefined outside Int64. */
export function toInt64(x: VNumeric): bigint | undefined {
  const i = x.value / pow10(x.scale);
  return i >= -(2n ** 63n) && i < 2n ** 63n ? i : undefined;
}

/** Plain digits of `value × 10^-scale` with exactly `scale` decimals (scale ≥ 0). */
export function plain(value: bigint, scale: number): string {
  const neg = value < 0n;
  const s = (neg ? -value : value).toString().padStart(scale + 1, '0');
  const int = s.slice(0, s.length - scale);
  return `${neg ? '-' : ''}${int}${scale > 0 ? `.${s.slice(s.length - scale)}` : ''}`;
}

/** The scaled form, e.g. `1.5000000000` (Ledger API / LF-JSON, `Numeric.toString`; `1.` for scale 0). */
export const toScaledString = (x: VNumeric): string => (x.scale === 0 ? `${x.value}.` : plain(x.value, x.scale));

/** NUMERIC_TO_TEXT / error messages: trailing zeros stripped, at least one decimal (`1.5`, `100.0`, `0.0`). */
export function toUnscaledString(value: bigint, scale: number): string {
  let v = value;
  let s = scale;
  while (s > 0 && v % 10n === 0n) {
    v /= 10n;
    s--;
  }
  if (s < 0) s = 0;
  const out = plain(v, s);
  return out.includes('.') ? out : `${out}.0`;
}

/** A numeric literal (`LitNumeric`): `-?([1-9]\d*|0)\.\d*`, its scale = number of decimals. */
export function fromLiteral(s: string): VNumeric | undefined {
  const m = /^(-?)([1-9]\d*|0)\.(\d*)$/.exec(s);
  if (!m) return undefined;
  const [, sign, int, dec] = m as unknown as [string, string, string, string];
  const scale = dec.length;
  if (scale > MAX_SCALE) return undefined;
  const v = BigInt(int + dec);
  return checked(sign === '-' ? -v : v, scale);
}

/**
 * TEXT_TO_NUMERIC: `[+-]?0*(\d+)(\.(\d*[1-9]|0)0*)?` converted to `scale` without loss of precision, else undefined
 * (leading and trailing zeros are accepted in any number).
 */
export function parseText(scale: number, s: string): VNumeric | undefined {
  const m = /^([+-]?)0*(\d+)(\.(\d*[1-9]|0)0*)?$/.exec(s);
  if (!m) return undefined;
  const sign = m[1] ?? '';
  const intPart = m[2] ?? '0';
  const decPart = m[4] === undefined || m[4] === '0' ? '' : m[4];
  const intDigits = intPart === '0' ? 0 : intPart.replace(/^0+/, '').length;
  if (intDigits > MAX_PRECISION - scale || decPart.length > scale) return undefined;
  const v = BigInt(intPart + decPart.padEnd(scale, '0'));
  return new VNumeric(sign === '-' ? -v : v, scale);
}

/** LF-JSON / API input: like TEXT_TO_NUMERIC but also without leading zeros rules; exact at `scale`. */
export function parseApi(scale: number, s: string): VNumeric | undefined {
  const m = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) return undefined;
  const sign = m[1] ?? '';
  const int = (m[2] ?? '0').replace(/^0+(?=\d)/, '');
  const frac = m[3] ?? '';
  if (frac.length > scale && /[1-9]/.test(frac.slice(scale))) return undefined;
  const v = BigInt(int + frac.slice(0, scale).padEnd(scale, '0'));
  return checked(sign === '-' ? -v : v, scale);
}

// --- BigNumeric (scale and integral digits at most 2^15) ------------------------------------------------------------

const BIG_MAX = 2 ** 15;

function digits(v: bigint): number {
  return (v < 0n ? -v : v).toString().length;
}

/** Normalises a BigNumeric; undefined when it is not a valid BigNumeric. */
export function bigNumeric(value: bigint, scale: number): VBigNumeric | undefined {
  if (value === 0n) return new VBigNumeric(0n, 0);
  let v = value;
  let s = scale;
  while (s > 0 && v % 10n === 0n) {
    v /= 10n;
    s--;
  }
  if (s > BIG_MAX || digits(v) - s > BIG_MAX) return undefined;
  return new VBigNumeric(v, s);
}

export function bigAlign(x: VBigNumeric, y: VBigNumeric): [bigint, bigint, number] {
  const s = Math.max(x.scale, y.scale);
  return [x.value * pow10(s - x.scale), y.value * pow10(s - y.scale), s];
}

export const bigPrecision = (x: VBigNumeric): number => (x.value === 0n ? 1 : Math.max(digits(x.value), x.scale));
