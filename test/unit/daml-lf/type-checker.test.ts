/**
 * The Daml-LF type checker (daml-lf-2.rst "Type system") on hand-built packages: well-typed definitions pass, and
 * each ill-typed one is rejected with the rule that failed (the spec's rule name) and a message naming the definition.
 */
import { describe, expect, it } from 'vitest';
import type { DefTemplate, Expr, ModuleAst, PackageAst, TemplateChoice, Type, Update } from '../../../src/daml-lf/ast/ast.js';
import { LfTypeChecker, LfTypeError, type CheckIssue } from '../../../src/daml-lf/check/index.js';

const PKG = 'c'.repeat(64);
const q = (name: string) => ({ packageId: PKG, module: 'M', name });
const prim = (p: Extract<Type, { kind: 'prim' }>['prim'], ...args: Type[]): Type => ({ kind: 'prim', prim: p, args });
const tv = (name: string): Type => ({ kind: 'var', name, args: [] });
const INT = prim('Int64');
const TEXT = prim('Text');
const PARTY = prim('Party');
const arrow = (a: Type, r: Type): Type => prim('Arrow', a, r);
const forall = (vars: string[], body: Type): Type => ({ kind: 'forall', vars, body });
const con = (name: string): Type => ({ kind: 'con', ...q(name), args: [] });

const v = (name: string): Expr => ({ tag: 'var', name });
const app = (fun: Expr, ...args: Expr[]): Expr => ({ tag: 'app', fun, args });
const b = (fn: string): Expr => ({ tag: 'builtin', fn });
const i64 = (n: number): Expr => ({ tag: 'lit', lit: { lit: 'int64', value: BigInt(n) } });
const text = (s: string): Expr => ({ tag: 'lit', lit: { lit: 'text', value: s } });
const lam = (params: [string, Type][], body: Expr): Expr => ({ tag: 'abs', params: params.map(([name, type]) => ({ name, type })), body });
const tyLam = (names: string[], body: Expr): Expr => ({ tag: 'tyAbs', params: names.map((name) => ({ name, kind: { k: 'star' } })), body });
const tyApp = (expr: Expr, ...types: Type[]): Expr => ({ tag: 'tyApp', expr, types });
const val = (name: string): Expr => ({ tag: 'val', ref: q(name) });
const upd = (update: Update): Expr => ({ tag: 'update', update });
const proj = (record: Expr, field: string): Expr => ({ tag: 'recProj', type: { tycon: q('T'), args: [] }, field, record });
const parties = (...xs: Expr[]): Expr => ({ tag: 'cons', type: PARTY, front: xs, tail: { tag: 'nil', type: PARTY } });

/** Record `T {owner: Party, n: Int64}` (a template), exception `Boom {msg: Text}`, interface `I` with method `m : Int64`. */
function pkg(extra: Partial<ModuleAst>): PackageAst {
  const module: ModuleAst = {
    name: 'M',
    flags: { forbidPartyLiterals: true, dontDivulgeContractIdsInCreateArguments: true, dontDiscloseNonConsumingChoicesToObservers: true },
    synonyms: [],
    dataTypes: [
      {
        name: 'T',
        params: [],
        serializable: true,
        cons: {
          kind: 'record',
          fields: [
            { name: 'owner', type: PARTY },
            { name: 'n', type: INT },
          ],
        },
      },
      { name: 'Boom', params: [], serializable: true, cons: { kind: 'record', fields: [{ name: 'msg', type: TEXT }] } },
      { name: 'I', params: [], serializable: false, cons: { kind: 'interface' } },
      { name: 'IView', params: [], serializable: true, cons: { kind: 'record', fields: [{ name: 'n', type: INT }] } },
    ],
    values: [],
    templates: [],
    exceptions: [
      {
        name: 'Boom',
        message: lam([['e', con('Boom')]], { tag: 'recProj', type: { tycon: q('Boom'), args: [] }, field: 'msg', record: v('e') }),
      },
    ],
    interfaces: [{ name: 'I', param: 'this', methods: [{ name: 'm', type: INT }], choices: [], view: con('IView'), requires: [] }],
    ...extra,
  };
  return {
    packageId: PKG,
    lfVersion: '2.1',
    name: 'checker-test',
    version: '1.0.0',
    modules: [module],
    interned: { strings: 0, dottedNames: 0, types: 0, kinds: 0, exprs: 0 },
  };
}

function issues(extra: Partial<ModuleAst>): CheckIssue[] {
  const p = pkg(extra);
  const r = new LfTypeChecker((id) => (id === PKG ? p : undefined)).checkPackage(p);
  return r.issues;
}
const value = (name: string, type: Type, expr: Expr) => ({ name, type, expr });

const bump = (body: Expr, argType: Type = INT): TemplateChoice => ({
  name: 'Bump',
  consuming: true,
  controllers: parties(proj(v('this'), 'owner')),
  argBinder: { name: 'arg', type: argType },
  returnType: prim('ContractId', con('T')),
  update: body,
  selfBinder: 'self',
});
const createBumped: Expr = upd({
  tag: 'create',
  template: q('T'),
  expr: { tag: 'recUpd', type: { tycon: q('T'), args: [] }, field: 'n', record: v('this'), update: v('arg') },
});
const template = (over: Partial<DefTemplate> = {}): DefTemplate => ({
  name: 'T',
  param: 'this',
  signatories: parties(proj(v('this'), 'owner')),
  observers: { tag: 'nil', type: PARTY },
  choices: [bump(createBumped)],
  implements: [
    {
      iface: q('I'),
      methods: [{ name: 'm', value: proj(v('this'), 'n') }],
      view: { tag: 'recCon', type: { tycon: q('IView'), args: [] }, fields: [{ name: 'n', expr: proj(v('this'), 'n') }] },
    },
  ],
  ...over,
});

describe('Daml-LF type checker (daml-lf-2.rst "Type system")', () => {
  it('accepts well-typed values, a template with a choice and an interface instance, and an exception', () => {
    const inc = value('inc', arrow(INT, INT), lam([['x', INT]], app(b('ADD_INT64'), v('x'), i64(1))));
    const k = value(
      'k',
      forall(['a', 'b'], arrow(tv('a'), arrow(tv('b'), tv('a')))),
      tyLam(
        ['a', 'b'],
        lam(
          [
            ['x', tv('a')],
            ['y', tv('b')],
          ],
          v('x'),
        ),
      ),
    );
    expect(issues({ values: [inc, k], templates: [template()] })).toEqual([]);
  });

  it('ExpTyApp substitutes without capture: (∀ a b. a → b → a) @b @a : b → a → b', () => {
    const k = value(
      'k',
      forall(['a', 'b'], arrow(tv('a'), arrow(tv('b'), tv('a')))),
      tyLam(
        ['a', 'b'],
        lam(
          [
            ['x', tv('a')],
            ['y', tv('b')],
          ],
          v('x'),
        ),
      ),
    );
    const useK = value(
      'useK',
      forall(['b', 'a'], arrow(tv('b'), arrow(tv('a'), tv('b')))),
      tyLam(['b', 'a'], tyApp(val('k'), tv('b'), tv('a'))),
    );
    expect(issues({ values: [k, useK] })).toEqual([]);
  });

  it('ExpApp: an argument of the wrong type is rejected, naming the definition and both types', () => {
    const bad = value('bad', INT, app(b('ADD_INT64'), i64(1), text('one')));
    expect(issues({ values: [bad] })).toEqual([
      { definition: 'M:bad', rule: 'ExpApp', message: 'ExpApp: the argument has type Text, expected Int64' },
    ]);
  });

  it('DefValue: the body must have the declared type', () => {
    const [i] = issues({ values: [value('answer', TEXT, i64(42))] });
    expect(i).toMatchObject({ definition: 'M:answer', rule: 'DefValue' });
    expect(i?.message).toContain('the value has type Int64, expected Text');
  });

  it('ExpDefVar / type variables: unbound term and type variables are rejected', () => {
    const found = issues({
      values: [value('free', INT, v('nowhere')), value('poly', arrow(tv('a'), tv('a')), lam([['x', tv('a')]], v('x')))],
    });
    expect(found.map((x) => [x.definition, x.rule])).toEqual([
      ['M:free', 'ExpDefVar'],
      ['M:poly', 'DefValue'],
    ]);
    expect(found[1]?.message).toContain('type variable a is not in scope');
  });

  it('ExpTyApp: a type argument for a monomorphic expression is rejected', () => {
    const [i] = issues({ values: [value('mono', INT, tyApp(i64(1), INT))] });
    expect(i).toMatchObject({ definition: 'M:mono', rule: 'ExpTyApp' });
  });

  it('ExpRecCon: fields must be given in the order of the definition', () => {
    const rec: Expr = {
      tag: 'recCon',
      type: { tycon: q('T'), args: [] },
      fields: [
        { name: 'n', expr: i64(1) },
        { name: 'owner', expr: text('x') },
      ],
    };
    const [i] = issues({ values: [value('rec', con('T'), rec)] });
    expect(i).toMatchObject({ definition: 'M:rec', rule: 'ExpRecCon' });
    expect(i?.message).toContain('has fields owner, n, given n, owner');
  });

  it('ExhaustBool: a case on Bool without False and without a default is rejected', () => {
    const c: Expr = {
      tag: 'case',
      scrut: { tag: 'builtinCon', con: 'True' },
      alts: [{ pattern: { pat: 'builtinCon', con: 'True' }, body: i64(1) }],
    };
    const [i] = issues({ values: [value('partial', INT, c)] });
    expect(i).toMatchObject({ definition: 'M:partial', rule: 'ExhaustBool' });
    expect(i?.message).toContain('False not matched');
  });

  it('ExpThrow: only exception types are thrown; UpdBlock: only updates are bound', () => {
    const thrown: Expr = { tag: 'throw', returnType: INT, exceptionType: con('T'), expr: v('x') };
    const block = upd({
      tag: 'block',
      bindings: [{ name: 'x', type: INT, bound: i64(1) }],
      body: upd({ tag: 'pure', type: INT, expr: v('x') }),
    });
    const found = issues({
      values: [value('throwT', arrow(con('T'), INT), lam([['x', con('T')]], thrown)), value('blk', prim('Update', INT), block)],
    });
    expect(found.map((x) => [x.definition, x.rule])).toEqual([
      ['M:throwT', 'ExpThrow'],
      ['M:blk', 'UpdBlock'],
    ]);
  });

  it('DefTemplate: signatories must be a List Party', () => {
    const [i] = issues({ templates: [template({ signatories: proj(v('this'), 'owner') })] });
    expect(i).toMatchObject({ definition: 'M:T', rule: 'DefTemplate' });
    expect(i?.message).toContain('the signatories has type Party, expected [Party]');
  });

  it('ChDef: a choice body that is not an Update is rejected, naming the choice', () => {
    const [i] = issues({ templates: [template({ choices: [bump(i64(1))] })] });
    expect(i).toMatchObject({ definition: 'M:T', rule: 'ChDef' });
    expect(i?.message).toContain('the body of M:T:Bump has type Int64');
  });

  it('ChDef: a choice argument that is not serializable is rejected', () => {
    const [i] = issues({ templates: [template({ choices: [bump(createBumped, arrow(INT, INT))] })] });
    expect(i).toMatchObject({ definition: 'M:T', rule: 'ChDef' });
    expect(i?.message).toContain('Int64 -> Int64 is not serializable');
  });

  it('ImplDef: an interface instance must implement every method with its type', () => {
    const [instance] = template().implements;
    if (!instance) throw new Error('the test template implements I');
    const missing = template({ implements: [{ ...instance, methods: [] }] });
    const wrong = template({ implements: [{ ...instance, methods: [{ name: 'm', value: text('no') }] }] });
    const brief = (xs: CheckIssue[]) => xs.map((x) => `${x.definition} ${x.message}`);
    expect(brief(issues({ templates: [missing] }))).toEqual([`M:T ImplDef: the instance of ${PKG.slice(0, 8)}:M:I lacks method m`]);
    expect(brief(issues({ templates: [wrong] }))).toEqual([`M:T ImplDef: method m has type Text, expected Int64`]);
  });

  it('KeyDefSome: a key of a serializable type with maintainers `τₖ → List Party`; wrong maintainers are rejected', () => {
    const key = (maintainers: Expr) => ({ type: PARTY, keyExpr: proj(v('this'), 'owner'), maintainers });
    const good = lam([['k', PARTY]], parties(v('k')));
    expect(issues({ templates: [template({ key: key(good) })] })).toEqual([]);
    const [i] = issues({ templates: [template({ key: key(lam([['k', PARTY]], v('k'))) })] });
    expect(i).toMatchObject({ definition: 'M:T', rule: 'KeyDefSome' });
    expect(i?.message).toContain('the maintainers has type Party -> Party, expected Party -> [Party]');
  });

  it('UpdExercise / UpdFetch / ExpToInterface: choice arguments, contract ids and interface instances are checked', () => {
    const cid = prim('ContractId', con('T'));
    const exercise = (arg: Expr) => upd({ tag: 'exercise', template: q('T'), choice: 'Bump', cid: v('c'), arg });
    const fetchI = upd({ tag: 'fetchInterface', iface: q('I'), cid: v('c') });
    const toI: Expr = { tag: 'toInterface', iface: q('I'), template: q('Boom'), expr: v('x') };
    const found = issues({
      templates: [template()],
      values: [
        value('ok', arrow(cid, prim('Update', cid)), lam([['c', cid]], exercise(i64(2)))),
        value('badArg', arrow(cid, prim('Update', cid)), lam([['c', cid]], exercise(text('2')))),
        value('badCid', arrow(cid, prim('Update', con('I'))), lam([['c', cid]], fetchI)),
        value('notImpl', arrow(con('Boom'), con('I')), lam([['x', con('Boom')]], toI)),
      ],
    });
    expect(found.map((x) => [x.definition, x.rule])).toEqual([
      ['M:badArg', 'UpdExercise'],
      ['M:badCid', 'UpdFetchInterface'],
      ['M:notImpl', 'ExpToInterface'],
    ]);
    expect(found[0]?.message).toContain('the choice argument has type Text, expected Int64');
  });

  it('one ill-typed definition does not stop the others from being checked; value() throws LfTypeError', () => {
    const good = value('good', INT, i64(1));
    const p = pkg({ values: [value('bad', INT, text('x')), good], templates: [template()] });
    const checker = new LfTypeChecker((id) => (id === PKG ? p : undefined));
    const r = checker.checkPackage(p);
    expect(r.issues.map((x) => x.definition)).toEqual(['M:bad']);
    expect(r.definitions).toBe(4 + 2 + 1 + 1 + 1); // data types, values, template, interface, exception
    expect(() => checker.value(q('bad'))).toThrow(LfTypeError);
    expect(() => checker.value(q('good'))).not.toThrow();
  });
});
