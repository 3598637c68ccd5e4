/**
 * Int64, Numeric and BigNumeric builtins with the results the Daml-LF 2 specification defines (daml-lf-2.rst, "Int64
 * functions", "Numeric functions", "BigNumeric functions", "About Exceptions"); failures are ArithmeticError
 * exceptions with the engine's message.
 */
import { describe, expect, it } from 'vitest';
import type { Expr } from '../../../src/daml-lf/ast/ast.js';
import { toScaledString } from '../../../src/simulator/engine/lf/numeric.js';
import { K, type V, type VNumeric } from '../../../src/simulator/engine/lf/value.js';
import { call, evalExpr, i64, num, text } from './lf-helpers.js';

const ev = (fn: string, ...args: Expr[]): V => evalExpr(call(fn, ...args));
const n = (fn: string, ...args: Expr[]): string => toScaledString(ev(fn, ...args) as VNumeric);
const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;
const arithError = (call_: string): RegExp =>
  new RegExp(
    `UNHANDLED_EXCEPTION/DA.Exception.ArithmeticError:ArithmeticError \\(error category 9\\): ` +
      `ArithmeticError while evaluating \\(${call_.replace(/[().+*]/g, '\\$&')}\\)\\.`,
  );

describe('Int64 builtins (spec "Int64 functions")', () => {
  it('ADD_INT64 / SUB_INT64 / MUL_INT64, ArithmeticError on overflow', () => {
    expect(ev('ADD_INT64', i64(2), i64(3))).toBe(5n);
    expect(ev('SUB_INT64', i64(2), i64(3))).toBe(-1n);
    expect(ev('MUL_INT64', i64(-4), i64(3))).toBe(-12n);
    expect(() => ev('ADD_INT64', i64(MAX), i64(1))).toThrow(arithError(`ADD_INT64 ${MAX} 1`));
    expect(() => ev('SUB_INT64', i64(MIN), i64(1))).toThrow(arithError(`SUB_INT64 ${MIN} 1`));
    expect(() => ev('MUL_INT64', i64(MAX), i64(2))).toThrow(arithError(`MUL_INT64 ${MAX} 2`));
  });

  it('DIV_INT64 rounds toward 0; ArithmeticError for 0 and for −2⁶³ / −1', () => {
    expect(ev('DIV_INT64', i64(-7), i64(2))).toBe(-3n);
    expect(ev('DIV_INT64', i64(7), i64(-2))).toBe(-3n);
    expect(() => ev('DIV_INT64', i64(1), i64(0))).toThrow(arithError('DIV_INT64 1 0'));
    expect(() => ev('DIV_INT64', i64(MIN), i64(-1))).toThrow(arithError(`DIV_INT64 ${MIN} -1`));
  });

  it('MOD_INT64: remainder with the sign of the dividend; ArithmeticError for 0', () => {
    expect(ev('MOD_INT64', i64(-7), i64(2))).toBe(-1n);
    expect(ev('MOD_INT64', i64(7), i64(-2))).toBe(1n);
    expect(() => ev('MOD_INT64', i64(7), i64(0))).toThrow(arithError('MOD_INT64 7 0'));
  });

  it('EXP_INT64: exponentiation; ArithmeticError on overflow and negative exponents', () => {
    expect(ev('EXP_INT64', i64(2), i64(62))).toBe(2n ** 62n);
    expect(ev('EXP_INT64', i64(-2), i64(63))).toBe(MIN);
    expect(ev('EXP_INT64', i64(0), i64(0))).toBe(1n);
    expect(() => ev('EXP_INT64', i64(2), i64(63))).toThrow(arithError('EXP_INT64 2 63'));
    expect(() => ev('EXP_INT64', i64(2), i64(-1))).toThrow(arithError('EXP_INT64 2 -1'));
  });

  it('INT64_TO_TEXT / TEXT_TO_INT64 ([+-]?\\d+, None on overflow or other input)', () => {
    expect(ev('INT64_TO_TEXT', i64(-42))).toBe('-42');
    expect(ev('TEXT_TO_INT64', text('+0042'))).toMatchObject({ k: K.Some, value: 42n });
    expect(ev('TEXT_TO_INT64', text('-9223372036854775808'))).toMatchObject({ k: K.Some, value: MIN });
    for (const bad of ['9223372036854775808', '1.0', '', ' 1', '0x10', '1e3'])
      expect(ev('TEXT_TO_INT64', text(bad))).toMatchObject({ k: K.None });
  });
});

describe('Numeric builtins (spec "Numeric functions"; scale from the value / witness, precision 38)', () => {
  it('ADD_NUMERIC / SUB_NUMERIC keep the scale; ArithmeticError beyond 38 digits', () => {
    expect(n('ADD_NUMERIC', num('1.25'), num('2.50'))).toBe('3.75');
    expect(n('SUB_NUMERIC', num('1.25'), num('2.50'))).toBe('-1.25');
    const big = `${'9'.repeat(28)}.${'9'.repeat(10)}`;
    expect(() => ev('ADD_NUMERIC', num(big), num('0.0000000001'))).toThrow(arithError(`ADD_NUMERIC ${big} 0.0000000001`));
  });

  it("MUL_NUMERIC rounds half to even at the witness's scale (banker's rounding)", () => {
    expect(n('MUL_NUMERIC', num('0.0'), num('0.25'), num('1.0'))).toBe('0.2');
    expect(n('MUL_NUMERIC', num('0.0'), num('0.35'), num('1.0'))).toBe('0.4');
    expect(n('MUL_NUMERIC', num('0.0'), num('-0.25'), num('1.0'))).toBe('-0.2');
    expect(n('MUL_NUMERIC', num('0.0000000000'), num('1.1000000000'), num('1.1000000000'))).toBe('1.2100000000');
    expect(() => ev('MUL_NUMERIC', num('0.'), num(`${'9'.repeat(20)}.`), num(`${'9'.repeat(20)}.`))).toThrow(
      /ArithmeticError while evaluating \(MUL_NUMERIC/,
    );
  });

  it('DIV_NUMERIC rounds half to even; ArithmeticError on division by zero', () => {
    expect(n('DIV_NUMERIC', num('0.0000000000'), num('1.0000000000'), num('3.0000000000'))).toBe('0.3333333333');
    expect(n('DIV_NUMERIC', num('0.0000000000'), num('2.0000000000'), num('3.0000000000'))).toBe('0.6666666667');
    expect(n('DIV_NUMERIC', num('0.0'), num('0.5'), num('2.0'))).toBe('0.2');
    expect(n('DIV_NUMERIC', num('0.0'), num('0.7'), num('2.0'))).toBe('0.4');
    expect(() => ev('DIV_NUMERIC', num('0.0'), num('1.0'), num('0.0'))).toThrow(arithError('DIV_NUMERIC 0.0 1.0 0.0'));
  });

  it('ROUND_NUMERIC rounds to n decimals (half even), keeps the scale, rejects a bad scale', () => {
    expect(n('ROUND_NUMERIC', i64(0), num('2.50'))).toBe('2.00');
    expect(n('ROUND_NUMERIC', i64(0), num('3.50'))).toBe('4.00');
    expect(n('ROUND_NUMERIC', i64(1), num('1.25'))).toBe('1.20');
    expect(n('ROUND_NUMERIC', i64(-1), num('15.00'))).toBe('20.00');
    expect(() => ev('ROUND_NUMERIC', i64(3), num('1.25'))).toThrow(arithError('ROUND_NUMERIC 3 1.25'));
  });

  it('CAST_NUMERIC converts exactly; ArithmeticError on precision loss or overflow', () => {
    expect(n('CAST_NUMERIC', num('0.0'), num('1.50'))).toBe('1.5');
    expect(n('CAST_NUMERIC', num('0.0000'), num('1.5'))).toBe('1.5000');
    expect(() => ev('CAST_NUMERIC', num('0.0'), num('1.55'))).toThrow(arithError('CAST_NUMERIC 0.0 1.55'));
    expect(() => ev('CAST_NUMERIC', num(`0.${'0'.repeat(37)}`), num('10.0'))).toThrow(/CAST_NUMERIC/);
  });

  it('SHIFT_NUMERIC moves the decimal point: output = input × 10^(s₁ − s₂)', () => {
    expect(n('SHIFT_NUMERIC', num('0.0000'), num('1.23'))).toBe('0.0123');
    expect(n('SHIFT_NUMERIC', num('0.'), num('1.23'))).toBe('123.');
  });

  it('INT64_TO_NUMERIC / NUMERIC_TO_INT64 (towards 0), ArithmeticError when out of range', () => {
    expect(n('INT64_TO_NUMERIC', num('0.0000000000'), i64(5))).toBe('5.0000000000');
    expect(() => ev('INT64_TO_NUMERIC', num(`0.${'0'.repeat(37)}`), i64(100))).toThrow(/INT64_TO_NUMERIC/);
    expect(ev('NUMERIC_TO_INT64', num('2.9'))).toBe(2n);
    expect(ev('NUMERIC_TO_INT64', num('-2.9'))).toBe(-2n);
    expect(() => ev('NUMERIC_TO_INT64', num(`${'9'.repeat(30)}.0`))).toThrow(/NUMERIC_TO_INT64/);
  });

  it('NUMERIC_TO_TEXT drops trailing zeros but keeps one decimal', () => {
    expect(ev('NUMERIC_TO_TEXT', num('1.5000000000'))).toBe('1.5');
    expect(ev('NUMERIC_TO_TEXT', num('100.0000'))).toBe('100.0');
    expect(ev('NUMERIC_TO_TEXT', num('0.0000000000'))).toBe('0.0');
    expect(ev('NUMERIC_TO_TEXT', num('-0.50'))).toBe('-0.5');
    expect(ev('NUMERIC_TO_TEXT', num('7.'))).toBe('7.0');
  });

  it('TEXT_TO_NUMERIC: [+-]?\\d+(\\.\\d+)?, leading/trailing zeros accepted, None on precision loss', () => {
    expect(toScaledString((ev('TEXT_TO_NUMERIC', num('0.0000000000'), text('00012.3400')) as { value: VNumeric }).value)).toBe(
      '12.3400000000',
    );
    expect(toScaledString((ev('TEXT_TO_NUMERIC', num('0.00'), text('+1')) as { value: VNumeric }).value)).toBe('1.00');
    expect(toScaledString((ev('TEXT_TO_NUMERIC', num('0.00'), text('-0.1')) as { value: VNumeric }).value)).toBe('-0.10');
    for (const bad of ['1.23', '1e5', '', '.5', '5.', 'abc', `1${'0'.repeat(37)}`])
      expect(ev('TEXT_TO_NUMERIC', num('0.0'), text(bad)), bad).toMatchObject({ k: K.None });
  });
});

describe('BigNumeric builtins (spec "BigNumeric functions")', () => {
  const big = (s: string): Expr => call('NUMERIC_TO_BIGNUMERIC', num(s));
  it('ADD / SUB / MUL are exact; SCALE / PRECISION / BIGNUMERIC_TO_TEXT', () => {
    expect(ev('BIGNUMERIC_TO_TEXT', call('ADD_BIGNUMERIC', big('1.25'), big('2.5')))).toBe('3.75');
    expect(ev('BIGNUMERIC_TO_TEXT', call('SUB_BIGNUMERIC', big('1.25'), big('2.5')))).toBe('-1.25');
    expect(ev('BIGNUMERIC_TO_TEXT', call('MUL_BIGNUMERIC', big('1.5'), big('1.5')))).toBe('2.25');
    expect(ev('SCALE_BIGNUMERIC', big('1.2500'))).toBe(2n);
    expect(ev('PRECISION_BIGNUMERIC', big('123.45'))).toBe(5n);
  });
  it('DIV_BIGNUMERIC scale mode x y with the rounding modes; UNNECESSARY fails when inexact', () => {
    const div = (mode: number, x: string, y: string, scale = 0): V =>
      ev('BIGNUMERIC_TO_TEXT', call('DIV_BIGNUMERIC', i64(scale), i64(mode), big(x), big(y)));
    expect(div(6, '5.0', '2.0')).toBe('2'); // HALF_EVEN
    expect(div(4, '5.0', '2.0')).toBe('3'); // HALF_UP
    expect(div(0, '1.0', '3.0')).toBe('1'); // UP
    expect(div(3, '-1.0', '3.0')).toBe('-1'); // FLOOR
    expect(div(6, '1.0', '3.0', 3)).toBe('0.333');
    expect(() => div(7, '1.0', '3.0')).toThrow(/DIV_BIGNUMERIC/);
  });
  it('BIGNUMERIC_TO_NUMERIC converts exactly at the witness scale', () => {
    expect(n('BIGNUMERIC_TO_NUMERIC', num('0.000'), big('1.5'))).toBe('1.500');
    expect(() => ev('BIGNUMERIC_TO_NUMERIC', num('0.0'), big('1.25'))).toThrow(/BIGNUMERIC_TO_NUMERIC/);
  });
});
