/**
 * Comparison, list, map and control builtins with the results the Daml-LF 2 specification defines (daml-lf-2.rst,
 * "Generic comparison functions" rules EvLessEq*, "List functions", "Text map functions", "Generic map functions",
 * "Error functions", "Debugging functions", "Type Representation function"), plus contract-id comparability
 * (contract-id.rst).
 */
import { describe, expect, it } from 'vitest';
import type { Expr } from '../../../src/daml-lf/ast/ast.js';
import { compareTypes, compareValues } from '../../../src/simulator/engine/lf/compare.js';
import { EngineError, FailureStatusError } from '../../../src/simulator/engine/lf/errors.js';
import { K, listToArray, VContractId, type V, type VList, type VStruct } from '../../../src/simulator/engine/lf/value.js';
import { INT_T, TEXT_T, app, b, call, con, evalExpr, evalTraced, i64, lam, list, nil, none, qn, some, text, v } from './lf-helpers.js';

const ev = (fn: string, ...args: Expr[]): V => evalExpr(call(fn, ...args));
const arr = (x: V): V[] => listToArray(x as VList);
const rec = (a: number, bb: string): Expr => ({
  tag: 'recCon',
  type: { tycon: qn('M', 'R'), args: [] },
  fields: [
    { name: 'a', expr: i64(a) },
    { name: 'b', expr: text(bb) },
  ],
});
const variant = (c: string, n: number): Expr => ({
  tag: 'variantCon',
  type: { tycon: qn('M', 'Shape'), args: [] },
  variant: c,
  arg: i64(n),
});
const color = (c: string): Expr => ({ tag: 'enumCon', tycon: qn('M', 'Color'), con: c });

describe('generic comparison (EvLessEq*, EQUAL, LESS, LESS_EQ, GREATER_EQ, GREATER)', () => {
  it('EvLessEqInt64 / EvLessEqText (code point order) / EvLessEqBool / EvLessEqUnit', () => {
    expect(ev('LESS', i64(-1), i64(0))).toBe(true);
    expect(ev('GREATER_EQ', i64(1), i64(1))).toBe(true);
    expect(ev('LESS_EQ', i64(1), i64(1))).toBe(true);
    expect(ev('LESS_EQ', i64(2), i64(1))).toBe(false);
    expect(ev('GREATER', i64(1), i64(1))).toBe(false);
    expect(ev('LESS', text('Z'), text('a'))).toBe(true);
    // U+FFFD (BMP) sorts before U+1F600 although its UTF-16 unit is larger than the surrogate's
    expect(ev('LESS', text('\uFFFD'), text('😀'))).toBe(true);
    expect(ev('LESS', { tag: 'builtinCon', con: 'False' }, { tag: 'builtinCon', con: 'True' })).toBe(true);
    expect(ev('EQUAL', { tag: 'builtinCon', con: 'Unit' }, { tag: 'builtinCon', con: 'Unit' })).toBe(true);
  });
  it('EvLessEqRecord: field by field in definition order', () => {
    expect(ev('LESS', rec(1, 'z'), rec(2, 'a'))).toBe(true);
    expect(ev('LESS', rec(1, 'a'), rec(1, 'b'))).toBe(true);
    expect(ev('EQUAL', rec(1, 'a'), rec(1, 'a'))).toBe(true);
  });
  it('EvLessEqVariantConstructor / EvLessEqVariantValue / EvLessEqEnum: constructor rank, then value', () => {
    expect(ev('LESS', variant('Square', 1), variant('Circle', 9))).toBe(false);
    expect(ev('LESS', variant('Circle', 9), variant('Square', 1))).toBe(true);
    expect(ev('LESS', variant('Circle', 1), variant('Circle', 2))).toBe(true);
    expect(ev('GREATER', color('Blue'), color('Red'))).toBe(true);
  });
  it('EvLessEqListNil / ListConsNil / ListConsCons and EvLessEqOption*', () => {
    expect(ev('LESS', nil, list(i64(0)))).toBe(true);
    expect(ev('LESS', list(i64(1), i64(2)), list(i64(1), i64(3)))).toBe(true);
    expect(ev('LESS', list(i64(1)), list(i64(1), i64(0)))).toBe(true);
    expect(ev('LESS', none, some(i64(0)))).toBe(true);
    expect(ev('LESS', some(i64(1)), some(i64(2)))).toBe(true);
  });
  it('EvLessEqStruct* and EvLessEqTypeRep / EvLessEqAny* (types ordered by TypeOrder*)', () => {
    const st = (x: number, y: number): Expr => ({
      tag: 'structCon',
      fields: [
        { name: 'y', expr: i64(y) },
        { name: 'x', expr: i64(x) },
      ],
    });
    expect(ev('LESS', st(1, 9), st(2, 0))).toBe(true);
    expect(ev('LESS', { tag: 'typeRep', type: INT_T }, { tag: 'typeRep', type: TEXT_T })).toBe(true);
    expect(ev('LESS', { tag: 'toAny', type: TEXT_T, expr: text('a') }, { tag: 'toAny', type: INT_T, expr: i64(1) })).toBe(false);
    expect(compareTypes(con('R'), { kind: 'nat', value: 1 })).toBe(-1);
    expect(compareTypes({ kind: 'prim', prim: 'List', args: [INT_T] }, { kind: 'prim', prim: 'List', args: [TEXT_T] })).toBe(-1);
  });
  it('EvLessEqAbs: comparing functions is an error', () => {
    expect(() => ev('EQUAL', lam(['x'], v('x')), lam(['x'], v('x')))).toThrow('Try to compare functions');
  });
  it('contract ids: lexicographic; a non-suffixed V1 id that prefixes another is not comparable (contract-id.rst)', () => {
    const local = `00${'ab'.repeat(32)}`;
    expect(compareValues(new VContractId(local), new VContractId(`00${'ac'.repeat(32)}`))).toBe(-1);
    expect(() => compareValues(new VContractId(local), new VContractId(`${local}ca1112`))).toThrow(EngineError);
    expect(compareValues(new VContractId(`${local}ca11`), new VContractId(`${local}ca12`))).toBe(-1);
  });
});

describe('list builtins', () => {
  it('FOLDL folds from the left: foldl (-) 0 [1,2,3] = -6', () => {
    expect(ev('FOLDL', b('SUB_INT64'), i64(0), list(i64(1), i64(2), i64(3)))).toBe(-6n);
  });
  it('FOLDR folds from the right: foldr (-) 0 [1,2,3] = 2, also with a one-argument-at-a-time function', () => {
    expect(ev('FOLDR', b('SUB_INT64'), i64(0), list(i64(1), i64(2), i64(3)))).toBe(2n);
    const curried = lam(['x'], lam(['acc'], call('SUB_INT64', v('x'), v('acc'))));
    expect(ev('FOLDR', curried, i64(0), list(i64(1), i64(2), i64(3)))).toBe(2n);
    expect(ev('FOLDR', curried, i64(7), nil)).toBe(7n);
  });
  it('EQUAL_LIST: pairwise with the given predicate, False on different lengths', () => {
    expect(ev('EQUAL_LIST', b('EQUAL'), list(i64(1), i64(2)), list(i64(1), i64(2)))).toBe(true);
    expect(ev('EQUAL_LIST', b('EQUAL'), list(i64(1), i64(2)), list(i64(1)))).toBe(false);
    expect(ev('EQUAL_LIST', b('LESS'), list(i64(2)), list(i64(1)))).toBe(true);
  });
});

describe('map builtins', () => {
  const tm = (...kv: [string, number][]): Expr =>
    kv.reduce<Expr>((m, [k, x]) => call('TEXTMAP_INSERT', text(k), i64(x), m), b('TEXTMAP_EMPTY'));
  it('TEXTMAP_INSERT keeps keys sorted and replaces; TEXTMAP_TO_LIST gives ⟨key, value⟩ structs in key order', () => {
    const entries = arr(ev('TEXTMAP_TO_LIST', tm(['b', 1], ['a', 2], ['b', 3]))) as VStruct[];
    expect(entries.map((e) => [e.names, e.values])).toEqual([
      [
        ['key', 'value'],
        ['a', 2n],
      ],
      [
        ['key', 'value'],
        ['b', 3n],
      ],
    ]);
    expect(ev('TEXTMAP_SIZE', tm(['x', 1], ['y', 2]))).toBe(2n);
    expect(ev('TEXTMAP_LOOKUP', text('y'), tm(['x', 1], ['y', 2]))).toMatchObject({ k: K.Some, value: 2n });
    expect(ev('TEXTMAP_LOOKUP', text('z'), tm(['x', 1]))).toMatchObject({ k: K.None });
    expect(ev('TEXTMAP_SIZE', call('TEXTMAP_DELETE', text('x'), tm(['x', 1], ['y', 2])))).toBe(1n);
    expect(ev('TEXTMAP_SIZE', call('TEXTMAP_DELETE', text('q'), tm(['x', 1])))).toBe(1n);
  });
  const gm = (...kv: [Expr, number][]): Expr => kv.reduce<Expr>((m, [k, x]) => call('GENMAP_INSERT', k, i64(x), m), b('GENMAP_EMPTY'));
  it('GENMAP_INSERT orders keys by LESS (EvGenMapInsertInsertFirst/Middle/Last) and replaces equal keys', () => {
    const m = gm([rec(2, 'b'), 1], [rec(1, 'z'), 2], [rec(3, 'a'), 3], [rec(2, 'b'), 4]);
    expect(arr(ev('GENMAP_VALUES', m))).toEqual([2n, 4n, 3n]);
    expect(arr(ev('GENMAP_KEYS', m)).map((k) => (k as { fields: V[] }).fields[0])).toEqual([1n, 2n, 3n]);
    expect(ev('GENMAP_SIZE', m)).toBe(3n);
    expect(ev('GENMAP_LOOKUP', rec(3, 'a'), m)).toMatchObject({ k: K.Some, value: 3n });
    expect(ev('GENMAP_SIZE', call('GENMAP_DELETE', rec(1, 'z'), m))).toBe(2n);
  });
  it('a GenMap key must be comparable: a function key is an error', () => {
    expect(() => ev('GENMAP_INSERT', lam(['x'], v('x')), i64(1), b('GENMAP_EMPTY'))).toThrow('Try to compare functions');
  });
});

describe('control builtins', () => {
  it('TRACE returns its second argument and logs the first', () => {
    const log: string[] = [];
    expect(evalTraced(call('TRACE', text('hello'), i64(5)), [], (m) => log.push(m))).toBe(5n);
    expect(log).toEqual(['hello']);
  });
  it('ERROR is a fatal UserError with the message', () => {
    expect(() => ev('ERROR', text('nope'))).toThrow(expect.objectContaining({ kind: 'UserError', message: 'nope' }));
  });
  it('FAIL_WITH_STATUS raises a FailureStatus (error id, category id, message, metadata)', () => {
    const meta = call('TEXTMAP_INSERT', text('k'), text('v'), b('TEXTMAP_EMPTY'));
    try {
      evalExpr(
        call(
          'FAIL_WITH_STATUS',
          text('splice/insufficient-funds'),
          { tag: 'lit', lit: { lit: 'failureCategory', value: 'INVALID_GIVEN_CURRENT_SYSTEM_STATE_OTHER' } },
          text('not enough'),
          meta,
        ),
      );
      expect.unreachable();
    } catch (e) {
      expect((e as FailureStatusError).status).toEqual({
        errorId: 'splice/insufficient-funds',
        category: 9,
        message: 'not enough',
        metadata: { k: 'v' },
      });
    }
  });
  it('TYPE_REP_TYCON_NAME: Some "pkg:Module:Name" for a type constructor, None otherwise', () => {
    expect(ev('TYPE_REP_TYCON_NAME', { tag: 'typeRep', type: con('R') })).toMatchObject({
      k: K.Some,
      value: `${qn('M', 'R').packageId}:M:R`,
    });
    expect(ev('TYPE_REP_TYCON_NAME', { tag: 'typeRep', type: INT_T })).toMatchObject({ k: K.None });
  });
  it('COERCE_CONTRACT_ID is the identity; partially applied builtins are values', () => {
    expect(ev('COERCE_CONTRACT_ID', i64(3))).toBe(3n);
    expect(evalExpr(app(call('APPEND_TEXT', text('a')), text('b')))).toBe('ab');
  });
});
