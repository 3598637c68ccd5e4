/** Int64, Numeric and BigNumeric builtins (spec "Int64 functions", "Numeric functions", "BigNumeric functions"). */
import * as N from '../numeric.js';
import { NONE, VBigNumeric, VNumeric, VSome, type V } from '../value.js';
import { arith, pure, register } from './registry.js';

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;
const int64 = (v: bigint): bigint | undefined => (v < MIN || v > MAX ? undefined : v);
const i = (v: V): bigint => v as bigint;
const num = (v: V): VNumeric => v as VNumeric;
const big = (v: V): VBigNumeric => v as VBigNumeric;

/** EXP_INT64 by squaring, failing on a negative exponent or any intermediate overflow (as the engine does). */
function expInt64(base: bigint, exponent: bigint): bigint | undefined {
  if (exponent < 0n) return undefined;
  if (exponent === 0n) return 1n;
  let x = base;
  let y = 1n;
  let n = exponent;
  while (n > 1n) {
    if (n % 2n === 1n) {
      const yy = int64(y * x);
      if (yy === undefined) return undefined;
      y = yy;
    }
    const xx = int64(x * x);
    if (xx === undefined) return undefined;
    x = xx;
    n >>= 1n;
  }
  return int64(x * y);
}

register({
  ADD_INT64: arith('ADD_INT64', 2, (a) => int64(i(a[0] as V) + i(a[1] as V))),
  SUB_INT64: arith('SUB_INT64', 2, (a) => int64(i(a[0] as V) - i(a[1] as V))),
  MUL_INT64: arith('MUL_INT64', 2, (a) => int64(i(a[0] as V) * i(a[1] as V))),
  DIV_INT64: arith('DIV_INT64', 2, (a) => {
    const x = i(a[0] as V);
    const y = i(a[1] as V);
    return y === 0n || (x === MIN && y === -1n) ? undefined : x / y;
  }),
  MOD_INT64: arith('MOD_INT64', 2, (a) => {
    const y = i(a[1] as V);
    return y === 0n ? undefined : i(a[0] as V) % y;
  }),
  EXP_INT64: arith('EXP_INT64', 2, (a) => expInt64(i(a[0] as V), i(a[1] as V))),

  ADD_NUMERIC: arith('ADD_NUMERIC', 2, (a) => N.add(num(a[0] as V), num(a[1] as V))),
  SUB_NUMERIC: arith('SUB_NUMERIC', 2, (a) => N.sub(num(a[0] as V), num(a[1] as V))),
  MUL_NUMERIC: arith('MUL_NUMERIC', 3, (a) => N.mul(num(a[0] as V).scale, num(a[1] as V), num(a[2] as V))),
  DIV_NUMERIC: arith('DIV_NUMERIC', 3, (a) => N.div(num(a[0] as V).scale, num(a[1] as V), num(a[2] as V))),
  ROUND_NUMERIC: arith('ROUND_NUMERIC', 2, (a) => N.round(i(a[0] as V), num(a[1] as V))),
  CAST_NUMERIC: arith('CAST_NUMERIC', 2, (a) => {
    const x = num(a[1] as V);
    return N.castExact(x.value, x.scale, num(a[0] as V).scale);
  }),
  SHIFT_NUMERIC: pure(2, (a) => N.shift(num(a[0] as V).scale, num(a[1] as V)) as VNumeric),
  INT64_TO_NUMERIC: arith('INT64_TO_NUMERIC', 2, (a) => N.castExact(i(a[1] as V), 0, num(a[0] as V).scale)),
  NUMERIC_TO_INT64: arith('NUMERIC_TO_INT64', 1, (a) => N.toInt64(num(a[0] as V))),
  NUMERIC_TO_TEXT: pure(1, (a) => {
    const x = num(a[0] as V);
    return N.toUnscaledString(x.value, x.scale);
  }),
  TEXT_TO_NUMERIC: pure(2, (a) => {
    const r = N.parseText(num(a[0] as V).scale, a[1] as string);
    return r === undefined ? NONE : new VSome(r);
  }),

  ADD_BIGNUMERIC: arith('ADD_BIGNUMERIC', 2, (a) => {
    const [x, y, s] = N.bigAlign(big(a[0] as V), big(a[1] as V));
    return N.bigNumeric(x + y, s);
  }),
  SUB_BIGNUMERIC: arith('SUB_BIGNUMERIC', 2, (a) => {
    const [x, y, s] = N.bigAlign(big(a[0] as V), big(a[1] as V));
    return N.bigNumeric(x - y, s);
  }),
  MUL_BIGNUMERIC: arith('MUL_BIGNUMERIC', 2, (a) => {
    const x = big(a[0] as V);
    const y = big(a[1] as V);
    return N.bigNumeric(x.value * y.value, x.scale + y.scale);
  }),
  DIV_BIGNUMERIC: arith('DIV_BIGNUMERIC', 4, (a) => divBig(i(a[0] as V), i(a[1] as V), big(a[2] as V), big(a[3] as V))),
  SCALE_BIGNUMERIC: pure(1, (a) => BigInt(big(a[0] as V).scale)),
  PRECISION_BIGNUMERIC: pure(1, (a) => BigInt(N.bigPrecision(big(a[0] as V)))),
  SHIFT_RIGHT_BIGNUMERIC: arith('SHIFT_RIGHT_BIGNUMERIC', 2, (a) => {
    const shifting = i(a[0] as V);
    const x = big(a[1] as V);
    if (x.value === 0n) return new VBigNumeric(0n, 0);
    if ((shifting < 0n ? -shifting : shifting) > BigInt(2 ** 15)) return undefined;
    const s = x.scale + Number(shifting);
    return s >= 0 ? N.bigNumeric(x.value, s) : N.bigNumeric(x.value * N.pow10(-s), 0);
  }),
  BIGNUMERIC_TO_NUMERIC: arith('BIGNUMERIC_TO_NUMERIC', 2, (a) => {
    const x = big(a[1] as V);
    return N.castExact(x.value, x.scale, num(a[0] as V).scale);
  }),
  NUMERIC_TO_BIGNUMERIC: pure(1, (a) => {
    const x = num(a[0] as V);
    return N.bigNumeric(x.value, x.scale) as VBigNumeric;
  }),
  BIGNUMERIC_TO_TEXT: pure(1, (a) => {
    const x = big(a[0] as V);
    return N.toUnscaledString(x.value, x.scale).replace(/\.0$/, '');
  }),
});

/** DIV_BIGNUMERIC scale roundingMode x y (rounding modes in `java.math.RoundingMode` order). */
function divBig(scale: bigint, mode: bigint, x: VBigNumeric, y: VBigNumeric): VBigNumeric | undefined {
  if (y.value === 0n || scale < -(2n ** 15n) || scale > 2n ** 15n || mode < 0n || mode > 7n) return undefined;
  const s = Number(scale);
  // q = x / y at scale s: x.value × 10^(s - x.scale + y.scale) / y.value
  const e = s - x.scale + y.scale;
  const n = e >= 0 ? x.value * N.pow10(e) : x.value;
  const d = e >= 0 ? y.value : y.value * N.pow10(-e);
  const q = roundDiv(n, d, Number(mode));
  return q === undefined ? undefined : N.bigNumeric(s >= 0 ? q : q * N.pow10(-s), Math.max(s, 0));
}

function roundDiv(n: bigint, d: bigint, mode: number): bigint | undefined {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d;
  const r = n - q * d;
  if (r === 0n) return q;
  const sign = n < 0n ? -1n : 1n;
  const away = q + sign;
  const twice = (r < 0n ? -r : r) * 2n;
  switch (mode) {
    case 0: // UP
      return away;
    case 1: // DOWN
      return q;
    case 2: // CEILING
      return sign > 0n ? away : q;
    case 3: // FLOOR
      return sign < 0n ? away : q;
    case 4: // HALF_UP
      return twice >= d ? away : q;
    case 5: // HALF_DOWN
      return twice > d ? away : q;
    case 6: // HALF_EVEN
      return twice > d || (twice === d && q % 2n !== 0n) ? away : q;
    default: // UNNECESSARY
      return undefined;
  }
}
