/** Builders for Daml-LF 2 ASTs and a small hand-written package, for the engine's unit tests. */
import type { CaseAlt, Expr, PackageAst, Pattern, QualifiedName, Type, Update } from '../../../src/daml-lf/ast/ast.js';
import { LfEngine } from '../../../src/simulator/engine/lf/engine.js';
import type { UpdateOps } from '../../../src/simulator/engine/lf/compile-update.js';
import { EngineError } from '../../../src/simulator/engine/lf/errors.js';
import { TOKEN, type V } from '../../../src/simulator/engine/lf/value.js';

export const PKG = 'testpkg0000000000000000000000000000000000000000000000000000000000';
export const qn = (module: string, name: string): QualifiedName => ({ packageId: PKG, module, name });
export const UNIT_T: Type = { kind: 'prim', prim: 'Unit', args: [] };
export const INT_T: Type = { kind: 'prim', prim: 'Int64', args: [] };
export const TEXT_T: Type = { kind: 'prim', prim: 'Text', args: [] };
export const con = (name: string, module = 'M'): Type => ({ kind: 'con', packageId: PKG, module, name, args: [] });

export const v = (name: string): Expr => ({ tag: 'var', name });
export const b = (fn: string): Expr => ({ tag: 'builtin', fn });
export const app = (fun: Expr, ...args: Expr[]): Expr => ({ tag: 'app', fun, args });
export const call = (fn: string, ...args: Expr[]): Expr => app(b(fn), ...args);
export const lam = (params: string[], body: Expr): Expr => ({ tag: 'abs', params: params.map((name) => ({ name, type: UNIT_T })), body });
export const tyLam = (params: string[], body: Expr): Expr => ({
  tag: 'tyAbs',
  params: params.map((name) => ({ name, kind: { k: 'star' } })),
  body,
});
export const tyApp = (expr: Expr, ...types: Type[]): Expr => ({ tag: 'tyApp', expr, types });
export const i64 = (n: bigint | number): Expr => ({ tag: 'lit', lit: { lit: 'int64', value: BigInt(n) } });
export const num = (s: string): Expr => ({ tag: 'lit', lit: { lit: 'numeric', value: s } });
export const text = (s: string): Expr => ({ tag: 'lit', lit: { lit: 'text', value: s } });
export const date = (days: number): Expr => ({ tag: 'lit', lit: { lit: 'date', value: days } });
export const ts = (micros: bigint): Expr => ({ tag: 'lit', lit: { lit: 'timestamp', value: micros } });
export const TRUE: Expr = { tag: 'builtinCon', con: 'True' };
export const FALSE: Expr = { tag: 'builtinCon', con: 'False' };
export const UNIT: Expr = { tag: 'builtinCon', con: 'Unit' };
export const nil: Expr = { tag: 'nil', type: INT_T };
export const list = (...xs: Expr[]): Expr => (xs.length === 0 ? nil : { tag: 'cons', type: INT_T, front: xs, tail: nil });
export const some = (value: Expr): Expr => ({ tag: 'some', type: INT_T, value });
export const none: Expr = { tag: 'none', type: INT_T };
export const let_ = (name: string, bound: Expr, body: Expr): Expr => ({ tag: 'let', bindings: [{ name, type: UNIT_T, bound }], body });
export const caseOf = (scrut: Expr, ...alts: [Pattern, Expr][]): Expr => ({
  tag: 'case',
  scrut,
  alts: alts.map(([pattern, body]): CaseAlt => ({ pattern, body })),
});
export const ifThen = (c: Expr, t: Expr, e: Expr): Expr => caseOf(c, [{ pat: 'builtinCon', con: 'True' }, t], [{ pat: 'default' }, e]);
export const val = (name: string, module = 'M'): Expr => ({ tag: 'val', ref: qn(module, name) });
export const upd = (update: Update): Expr => ({ tag: 'update', update });

/**
 * Test package M: record `R {a: Int64, b: Text}`, variant `Shape = Circle Int64 | Square Int64`, enum `Color = Red |
 * Green | Blue`, exception `E {msg: Text}` (message = msg), values `count` (a recursive countdown) and `answer`.
 */
export function testPackage(values: { name: string; expr: Expr }[] = []): PackageAst {
  const field = (name: string, type: Type) => ({ name, type });
  return {
    packageId: PKG,
    lfVersion: '2.1',
    name: 'engine-test',
    version: '1.0.0',
    interned: { strings: 0, dottedNames: 0, types: 0, kinds: 0, exprs: 0 },
    modules: [
      {
        name: 'M',
        flags: {
          forbidPartyLiterals: true,
          dontDivulgeContractIdsInCreateArguments: true,
          dontDiscloseNonConsumingChoicesToObservers: true,
        },
        synonyms: [],
        dataTypes: [
          { name: 'R', params: [], serializable: true, cons: { kind: 'record', fields: [field('a', INT_T), field('b', TEXT_T)] } },
          {
            name: 'Shape',
            params: [],
            serializable: true,
            cons: { kind: 'variant', constructors: [field('Circle', INT_T), field('Square', INT_T)] },
          },
          { name: 'Color', params: [], serializable: true, cons: { kind: 'enum', constructors: ['Red', 'Green', 'Blue'] } },
          { name: 'E', params: [], serializable: true, cons: { kind: 'record', fields: [field('msg', TEXT_T)] } },
        ],
        values: values.map((x) => ({ name: x.name, type: UNIT_T, expr: x.expr })),
        templates: [],
        exceptions: [
          { name: 'E', message: lam(['e'], { tag: 'recProj', type: { tycon: qn('M', 'E'), args: [] }, field: 'msg', record: v('e') }) },
        ],
        interfaces: [],
      },
    ],
  };
}

const noLedger = (): never => {
  throw new EngineError('Internal', 'no ledger in this test');
};
export const NO_LEDGER = new Proxy({}, { get: () => noLedger }) as UpdateOps;

/** Evaluates `e` against the test package (plus `values`). */
export function evalExpr(e: Expr, values: { name: string; expr: Expr }[] = []): V {
  const pkg = testPackage(values);
  const engine = new LfEngine({ get: (id) => (id === PKG ? pkg : undefined) }, NO_LEDGER);
  return engine.evaluate(e);
}

/** Evaluates update expression `e` and runs it (applies it to the token), without a ledger. */
export function runUpdate(e: Expr, values: { name: string; expr: Expr }[] = [], trace?: (msg: string) => void): V {
  const pkg = testPackage(values);
  const engine = new LfEngine({ get: (id) => (id === PKG ? pkg : undefined) }, NO_LEDGER);
  const m = engine.machine(trace ? { trace } : {});
  const u = engine.evaluate(e, m);
  return engine.run(m, () => m.call(u, [TOKEN]));
}

/** Like evalExpr, with a TRACE sink. */
export function evalTraced(e: Expr, values: { name: string; expr: Expr }[], trace: (msg: string) => void): V {
  const pkg = testPackage(values);
  const engine = new LfEngine({ get: (id) => (id === PKG ? pkg : undefined) }, NO_LEDGER);
  return engine.evaluate(e, engine.machine({ trace }));
}
