/**
 * Expression forms of the engine, with expected results from the Daml-LF 2 specification's operational semantics
 * (daml-lf-2.rst, "Expression evaluation" and "Pattern matching"); each test names the rule it checks.
 */
import { describe, expect, it } from 'vitest';
import { EngineError, FailureStatusError } from '../../../src/simulator/engine/lf/errors.js';
import { K, listToArray, type V, type VList, type VRecord, type VStruct, type VVariant } from '../../../src/simulator/engine/lf/value.js';
import {
  FALSE,
  INT_T,
  TRUE,
  UNIT,
  app,
  b,
  call,
  caseOf,
  con,
  evalExpr,
  evalTraced,
  i64,
  ifThen,
  lam,
  let_,
  list,
  nil,
  none,
  qn,
  runUpdate,
  some,
  text,
  tyApp,
  tyLam,
  upd,
  v,
  val,
} from './lf-helpers.js';
import type { Expr } from '../../../src/daml-lf/ast/ast.js';

const R = { tycon: qn('M', 'R'), args: [] };
const SHAPE = { tycon: qn('M', 'Shape'), args: [] };
const plus = (x: Expr, y: Expr): Expr => call('ADD_INT64', x, y);

describe('Daml-LF engine: expressions', () => {
  it('EvExpAppLambda: (λx. x + 1) 41 = 42', () => {
    expect(evalExpr(app(lam(['x'], plus(v('x'), i64(1))), i64(41)))).toBe(42n);
  });

  it('EvExpTyAppErasable / EvExpTyAppNat: type abstractions and applications are erased', () => {
    expect(evalExpr(app(tyApp(tyLam(['a'], lam(['x'], v('x'))), INT_T), i64(5)))).toBe(5n);
  });

  it('ValExpBuiltin₂ / partial application: a function applied to fewer arguments is a value, applied later', () => {
    const add = lam(['x', 'y'], call('SUB_INT64', v('x'), v('y')));
    expect(evalExpr(let_('f', app(add, i64(10)), app(v('f'), i64(3))))).toBe(7n);
    expect(evalExpr(let_('g', call('SUB_INT64', i64(10)), app(v('g'), i64(4))))).toBe(6n);
  });

  it('EvExpAppLambda with over-application: (λx. λy. x - y) 10 3', () => {
    expect(evalExpr(app(lam(['x'], lam(['y'], call('SUB_INT64', v('x'), v('y')))), i64(10), i64(3)))).toBe(7n);
  });

  it('closures capture their free variables at creation (lexical scope, shadowing)', () => {
    const e = let_('x', i64(1), let_('f', lam(['y'], plus(v('x'), v('y'))), let_('x', i64(100), app(v('f'), v('x')))));
    expect(evalExpr(e)).toBe(101n);
  });

  it('EvExpLet: let x = v in e; later bindings see earlier ones', () => {
    const e: Expr = {
      tag: 'let',
      bindings: [
        { name: 'a', type: INT_T, bound: i64(2) },
        { name: 'b', type: INT_T, bound: call('MUL_INT64', v('a'), i64(3)) },
      ],
      body: plus(v('a'), v('b')),
    };
    expect(evalExpr(e)).toBe(8n);
  });

  it('MatchVariant / MatchEnum / MatchDefault: the first matching alternative wins (EvExpCaseFail tries the next)', () => {
    const circle: Expr = { tag: 'variantCon', type: SHAPE, variant: 'Circle', arg: i64(3) };
    const square: Expr = { tag: 'variantCon', type: SHAPE, variant: 'Square', arg: i64(4) };
    const area = (s: Expr): Expr =>
      caseOf(
        s,
        [{ pat: 'variant', tycon: qn('M', 'Shape'), variant: 'Square', binder: 'n' }, call('MUL_INT64', v('n'), v('n'))],
        [
          { pat: 'variant', tycon: qn('M', 'Shape'), variant: 'Circle', binder: 'r' },
          call('MUL_INT64', i64(3), call('MUL_INT64', v('r'), v('r'))),
        ],
      );
    expect(evalExpr(area(circle))).toBe(27n);
    expect(evalExpr(area(square))).toBe(16n);
    const green: Expr = { tag: 'enumCon', tycon: qn('M', 'Color'), con: 'Green' };
    const name = (c: Expr): Expr =>
      caseOf(
        c,
        [{ pat: 'enum', tycon: qn('M', 'Color'), con: 'Red' }, text('red')],
        [{ pat: 'default' }, text('other')],
        [{ pat: 'enum', tycon: qn('M', 'Color'), con: 'Green' }, text('green')],
      );
    expect(evalExpr(name(green))).toBe('other');
  });

  it('MatchNil / MatchCons / MatchNone / MatchSome / MatchTrue / MatchFalse / MatchUnit', () => {
    const head = (l: Expr): Expr => caseOf(l, [{ pat: 'nil' }, i64(-1)], [{ pat: 'cons', head: 'h', tail: 't' }, v('h')]);
    expect(evalExpr(head(list(i64(7), i64(8))))).toBe(7n);
    expect(evalExpr(head(nil))).toBe(-1n);
    const tailLen = caseOf(list(i64(1), i64(2), i64(3)), [{ pat: 'cons', head: 'h', tail: 't' }, v('t')]);
    expect(listToArray(evalExpr(tailLen) as VList)).toEqual([2n, 3n]);
    const opt = (o: Expr): Expr => caseOf(o, [{ pat: 'none' }, i64(0)], [{ pat: 'some', binder: 'x' }, v('x')]);
    expect(evalExpr(opt(some(i64(9))))).toBe(9n);
    expect(evalExpr(opt(none))).toBe(0n);
    expect(evalExpr(caseOf(FALSE, [{ pat: 'builtinCon', con: 'True' }, i64(1)], [{ pat: 'builtinCon', con: 'False' }, i64(0)]))).toBe(0n);
    expect(evalExpr(caseOf(UNIT, [{ pat: 'builtinCon', con: 'Unit' }, text('unit')]))).toBe('unit');
  });

  it('EvExpCaseEmpty: no alternative matches → Fatal "match error"', () => {
    expect(() => evalExpr(caseOf(TRUE, [{ pat: 'builtinCon', con: 'False' }, i64(0)]))).toThrow(/match error/);
  });

  it('ExpRecCon / EvExpRecProj / EvExpRecUpd', () => {
    const r: Expr = {
      tag: 'recCon',
      type: R,
      fields: [
        { name: 'a', expr: i64(1) },
        { name: 'b', expr: text('x') },
      ],
    };
    const rec = evalExpr(r) as VRecord;
    expect(rec.k).toBe(K.Record);
    expect(rec.fields).toEqual([1n, 'x']);
    expect(evalExpr({ tag: 'recProj', type: R, field: 'b', record: r })).toBe('x');
    const upd2 = evalExpr({ tag: 'recUpd', type: R, field: 'a', record: r, update: i64(5) }) as VRecord;
    expect(upd2.fields).toEqual([5n, 'x']);
  });

  it('EvExpStructCon sorts fields by name; EvExpStructProj / EvExpStructUpd', () => {
    const s: Expr = {
      tag: 'structCon',
      fields: [
        { name: 'z', expr: i64(1) },
        { name: 'a', expr: i64(2) },
      ],
    };
    const sv = evalExpr(s) as VStruct;
    expect(sv.names).toEqual(['a', 'z']);
    expect(sv.values).toEqual([2n, 1n]);
    expect(evalExpr({ tag: 'structProj', field: 'z', struct: s })).toBe(1n);
    expect((evalExpr({ tag: 'structUpd', field: 'a', struct: s, update: i64(7) }) as VStruct).values).toEqual([7n, 1n]);
  });

  it('ExpVariantCon / ExpEnumCon / ExpListCons / ExpOptionalSome values', () => {
    const vv = evalExpr({ tag: 'variantCon', type: SHAPE, variant: 'Square', arg: i64(2) }) as VVariant;
    expect([vv.con, vv.rank, vv.value]).toEqual(['Square', 1, 2n]);
    expect(listToArray(evalExpr({ tag: 'cons', type: INT_T, front: [i64(1), i64(2)], tail: list(i64(3)) }) as VList)).toEqual([1n, 2n, 3n]);
  });

  it('EvExpFromAnySome / EvExpFromAnyNone: from_any @τ (to_any @τ v) = Some v, other types give None', () => {
    const any = { tag: 'toAny' as const, type: INT_T, expr: i64(3) };
    expect(evalExpr({ tag: 'fromAny', type: INT_T, expr: any })).toMatchObject({ k: K.Some, value: 3n });
    expect(evalExpr({ tag: 'fromAny', type: con('R'), expr: any })).toMatchObject({ k: K.None });
  });

  it('EvExpVal: top-level values are evaluated lazily, once (memoised)', () => {
    const traces: string[] = [];
    const values = [{ name: 'expensive', expr: call('TRACE', text('evaluated'), i64(42)) }];
    expect(evalTraced(plus(val('expensive'), val('expensive')), values, (m) => traces.push(m))).toBe(84n);
    expect(traces).toEqual(['evaluated']);
    // never referenced → never evaluated (an erroring value is harmless)
    expect(evalExpr(i64(1), [{ name: 'boom', expr: call('ERROR', text('boom')) }])).toBe(1n);
  });

  it('deep recursion without JS stack overflow: sum 1..1,000,000 by non-tail recursion through a top-level value', () => {
    const sum = lam(['n'], ifThen(call('EQUAL', v('n'), i64(0)), i64(0), plus(v('n'), app(val('sum'), call('SUB_INT64', v('n'), i64(1))))));
    expect(evalExpr(app(val('sum'), i64(1_000_000)), [{ name: 'sum', expr: sum }])).toBe(500000500000n);
  });

  it('deep data: a 200,000-element list built by non-tail recursion and folded with FOLDR and FOLDL', () => {
    const range = lam(
      ['n'],
      ifThen(call('EQUAL', v('n'), i64(0)), nil, {
        tag: 'cons',
        type: INT_T,
        front: [v('n')],
        tail: app(val('range'), call('SUB_INT64', v('n'), i64(1))),
      }),
    );
    const values = [{ name: 'range', expr: range }];
    expect(evalExpr(call('FOLDR', b('ADD_INT64'), i64(0), app(val('range'), i64(200_000))), values)).toBe(20000100000n);
    expect(evalExpr(call('FOLDL', b('ADD_INT64'), i64(0), app(val('range'), i64(200_000))), values)).toBe(20000100000n);
  });

  it('EvExpThrow: an uncaught exception is reported as Canton does (UNHANDLED_EXCEPTION/Module:Name with its message)', () => {
    const exc: Expr = { tag: 'recCon', type: { tycon: qn('M', 'E'), args: [] }, fields: [{ name: 'msg', expr: text('boom') }] };
    try {
      evalExpr({ tag: 'throw', returnType: INT_T, exceptionType: con('E'), expr: exc });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FailureStatusError);
      expect((e as FailureStatusError).status).toEqual({ errorId: 'UNHANDLED_EXCEPTION/M:E', category: 9, message: 'boom', metadata: {} });
    }
  });

  it('EvUpdTryCatchThrow1_OkHandle_Ok / _NoHandle: try-catch handles (Some) or rethrows (None) exceptions', () => {
    const exc: Expr = { tag: 'recCon', type: { tycon: qn('M', 'E'), args: [] }, fields: [{ name: 'msg', expr: text('oops') }] };
    const throwing = upd({ tag: 'embedExpr', type: INT_T, body: { tag: 'throw', returnType: INT_T, exceptionType: con('E'), expr: exc } });
    const pure = (e: Expr): Expr => upd({ tag: 'pure', type: INT_T, expr: e });
    const handled = upd({
      tag: 'tryCatch',
      returnType: INT_T,
      tryExpr: throwing,
      binder: 'x',
      catchExpr: some(pure(call('ANY_EXCEPTION_MESSAGE', v('x')))),
    });
    expect(runUpdate(handled)).toBe('oops');
    const declined = upd({ tag: 'tryCatch', returnType: INT_T, tryExpr: throwing, binder: 'x', catchExpr: none });
    expect(() => runUpdate(declined)).toThrow(/UNHANDLED_EXCEPTION\/M:E .*oops/);
  });

  it('ArithmeticError is a catchable exception with the engine message "ArithmeticError while evaluating (DIV_INT64 1 0)."', () => {
    const div = upd({ tag: 'embedExpr', type: INT_T, body: upd({ tag: 'pure', type: INT_T, expr: call('DIV_INT64', i64(1), i64(0)) }) });
    const caught = upd({
      tag: 'tryCatch',
      returnType: INT_T,
      tryExpr: div,
      binder: 'x',
      catchExpr: some(upd({ tag: 'pure', type: INT_T, expr: call('ANY_EXCEPTION_MESSAGE', v('x')) })),
    });
    expect(runUpdate(caught)).toBe('ArithmeticError while evaluating (DIV_INT64 1 0).');
    expect(() => evalExpr(call('DIV_INT64', i64(1), i64(0)))).toThrow(
      'UNHANDLED_EXCEPTION/DA.Exception.ArithmeticError:ArithmeticError (error category 9): ' +
        'ArithmeticError while evaluating (DIV_INT64 1 0).',
    );
  });

  it('EvUpdBind: bind runs the updates in order; only the first bound update is evaluated when the update is built', () => {
    const traces: string[] = [];
    const pure = (e: Expr): Expr => upd({ tag: 'pure', type: INT_T, expr: e });
    const block = upd({
      tag: 'block',
      bindings: [
        { name: 'x', type: INT_T, bound: pure(call('TRACE', text('first'), i64(20))) },
        { name: 'y', type: INT_T, bound: pure(call('TRACE', text('second'), plus(v('x'), i64(1)))) },
      ],
      body: pure(plus(v('x'), v('y'))),
    });
    expect(runUpdate(block, [], (m) => traces.push(m))).toBe(41n);
    expect(traces).toEqual(['first', 'second']);
  });

  it('ERROR is a fatal user error (not catchable)', () => {
    const err = upd({ tag: 'embedExpr', type: INT_T, body: call('ERROR', text('fatal')) });
    const tried = upd({
      tag: 'tryCatch',
      returnType: INT_T,
      tryExpr: err,
      binder: 'x',
      catchExpr: some(upd({ tag: 'pure', type: INT_T, expr: i64(0) })),
    });
    expect(() => runUpdate(tried)).toThrow(EngineError);
    expect(() => runUpdate(tried)).toThrow('fatal');
  });

  it('unknown definitions fail with a clear error', () => {
    expect(() => evalExpr(val('nope'))).toThrow(/Unknown value .*:M:nope/);
  });

  it('a value of every kind is produced by its form', () => {
    const kinds = (e: Expr): number | string => {
      const x: V = evalExpr(e);
      return typeof x === 'object' ? x.k : typeof x;
    };
    expect(kinds(UNIT)).toBe(K.Unit);
    expect(kinds(TRUE)).toBe('boolean');
    expect(kinds(i64(1))).toBe('bigint');
    expect(kinds(text('t'))).toBe('string');
    expect(kinds(lam(['x'], v('x')))).toBe(K.Closure);
    expect(kinds(b('ADD_INT64'))).toBe(K.Builtin);
    expect(kinds(call('ADD_INT64', i64(1)))).toBe(K.Pap);
    expect(kinds({ tag: 'typeRep', type: INT_T })).toBe(K.TypeRep);
  });
});
