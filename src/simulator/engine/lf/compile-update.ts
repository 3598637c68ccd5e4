/**
 * Updates and interface expressions. An update value is a function of a token: running an update applies it to the
 * token. `pure e` = PURE e (e evaluated now); `bind x₁ ← e₁; …; body` = `let f = e₁ in λtok. let x₁ = f tok; … in body tok`
 * (only the first bound expression is evaluated when the update value is built, as the spec's evaluation contexts
 * say); `create`, `exercise`, `fetch`, … are ledger builtins applied to their arguments and then to the token;
 * `embed_expr e` = `λtok. e tok`; `try e₁ catch x. e₂` = `λtok. TRY (e₁ tok) (x. e₂) tok` with a rollback point.
 */
import type { Expr, Update } from '../../../daml-lf/ast/ast.js';
import type { Defs, InstanceRt, TemplateRt } from './defs.js';
import { qnText } from './defs.js';
import { EngineError } from './errors.js';
import { CatchKont, Kont, Node, type Machine } from './machine.js';
import { SApp, SConst, SLet } from './nodes.js';
import { SPrim } from './nodes-data.js';
import type { FnScope } from './scope.js';
import { K, NIL, NONE, TOKEN, VAny, VBuiltin, VSome, VTypeRep, type V } from './value.js';

/** Ledger builtins (implemented by the update host in ../lf-ledger/). Each takes its arguments and then the token. */
export interface UpdateOps {
  create(template: { packageId: string; module: string; name: string }): V;
  createInterface(iface: { packageId: string; module: string; name: string }): V;
  exercise(template: { packageId: string; module: string; name: string }, choice: string): V;
  exerciseInterface(iface: { packageId: string; module: string; name: string }, choice: string, withGuard: boolean): V;
  exerciseByKey(template: { packageId: string; module: string; name: string }, choice: string): V;
  fetch(template: { packageId: string; module: string; name: string }): V;
  fetchInterface(iface: { packageId: string; module: string; name: string }): V;
  byKey(kind: 'lookupByKey' | 'fetchByKey' | 'queryNByKey', template: { packageId: string; module: string; name: string }): V;
  getTime(): V;
  ledgerTimeLt(): V;
}

/** Ledger state that a try-catch rolls back. */
export interface Rollbackable {
  checkpoint(): unknown;
  rollback(point: unknown): void;
}

/** What compiling updates needs from the expression compiler (compile.ts implements it). */
export interface ExprCompiler {
  readonly defs: Defs;
  readonly ops: UpdateOps;
  expr(s: FnScope, e: Expr): Node;
  lambda(s: FnScope, params: string[], body: (inner: FnScope) => Node, label: string): Node;
}

const PURE = new VBuiltin('%pure', 2, ((_m: Machine, a: V[]) => a[0]) as never);

const TOK = '%tok';

export function compileUpdate(c: ExprCompiler, s: FnScope, u: Update): Node {
  const ops = c.ops;
  const call = (fn: V, args: Expr[]): Node =>
    new SApp(
      new SConst(fn),
      args.map((a) => c.expr(s, a)),
    );
  switch (u.tag) {
    case 'pure':
      return call(PURE, [u.expr]);
    case 'block':
      return block(c, s, u.bindings, u.body);
    case 'create':
      return call(ops.create(u.template), [u.expr]);
    case 'createInterface':
      return call(ops.createInterface(u.iface), [u.expr]);
    case 'exercise':
      return call(ops.exercise(u.template, u.choice), [u.cid, u.arg]);
    case 'exerciseInterface':
      return call(ops.exerciseInterface(u.iface, u.choice, u.guard !== undefined), u.guard ? [u.cid, u.arg, u.guard] : [u.cid, u.arg]);
    case 'exerciseByKey':
      return call(ops.exerciseByKey(u.template, u.choice), [u.key, u.arg]);
    case 'fetch':
      return call(ops.fetch(u.template), [u.cid]);
    case 'fetchInterface':
      return call(ops.fetchInterface(u.iface), [u.cid]);
    case 'getTime':
      return new SConst(ops.getTime());
    case 'lookupByKey':
    case 'fetchByKey':
    case 'queryNByKey':
      return new SConst(ops.byKey(u.tag, u.template));
    case 'ledgerTimeLt':
      return call(ops.ledgerTimeLt(), [u.expr]);
    case 'embedExpr': {
      const body = u.body;
      return c.lambda(s, [TOK], (inner) => new SApp(c.expr(inner, body), [inner.lookup(TOK)]), 'embed');
    }
    case 'tryCatch': {
      const { tryExpr, binder, catchExpr } = u;
      return c.lambda(
        s,
        [TOK],
        (inner) => {
          const tok = inner.lookup(TOK);
          const body = new SApp(c.expr(inner, tryExpr), [tok]);
          const slot = inner.push(binder);
          const handler = c.expr(inner, catchExpr);
          inner.pop(1);
          return new STryCatch(body, slot, handler);
        },
        'try',
      );
    }
  }
}

function block(c: ExprCompiler, s: FnScope, bindings: { name: string; bound: Expr }[], body: Expr): Node {
  const first = c.expr(s, (bindings[0] as { bound: Expr }).bound);
  const fSlot = s.push('%f');
  const lam = c.lambda(
    s,
    [TOK],
    (inner) => {
      const tok = inner.lookup(TOK);
      const step = (i: number): Node => {
        if (i >= bindings.length) return new SApp(c.expr(inner, body), [tok]);
        const b = bindings[i] as { name: string; bound: Expr };
        const bound = new SApp(i === 0 ? inner.lookup('%f') : c.expr(inner, b.bound), [tok]);
        const slot = inner.push(b.name);
        const rest = step(i + 1);
        inner.pop(1);
        return new SLet(bound, slot, rest);
      };
      return step(0);
    },
    'block',
  );
  s.pop(1);
  return new SLet(first, fSlot, lam);
}

/** `try body catch x. handler`: on a Daml exception the ledger effects of `body` are rolled back. */
class STryCatch extends Node {
  constructor(
    readonly body: Node,
    readonly slot: number,
    readonly handler: Node,
  ) {
    super();
  }
  exec(m: Machine): void {
    const host = m.host as Rollbackable | undefined;
    m.push(new KTry(this, m.regs, m.frame, host?.checkpoint()));
    m.ctrl = this.body;
  }
}

class KTry extends CatchKont {
  constructor(
    private readonly node: STryCatch,
    private readonly regs: V[],
    private readonly frame: V[],
    private readonly point: unknown,
  ) {
    super();
  }
  resume(m: Machine, v: V): void {
    m.val = v;
  }
  handle(m: Machine, exception: VAny): void {
    (m.host as Rollbackable | undefined)?.rollback(this.point);
    m.regs = this.regs;
    m.frame = this.frame;
    this.regs[this.node.slot] = exception;
    m.push(new KHandler(exception));
    m.ctrl = this.node.handler;
  }
}

/** The handler returned `None` (rethrow) or `Some u` (run u). */
class KHandler extends Kont {
  constructor(private readonly exception: VAny) {
    super();
  }
  resume(m: Machine, v: V): void {
    if (typeof v === 'object' && v.k === K.Some) m.apply(v.value, [TOKEN]);
    else m.throwDaml(this.exception);
  }
}

// --- interface expressions ---------------------------------------------------------------------------------------

type IfaceExpr = Extract<
  Expr,
  {
    tag:
      | 'toInterface'
      | 'fromInterface'
      | 'unsafeFromInterface'
      | 'callInterface'
      | 'viewInterface'
      | 'signatoryInterface'
      | 'observerInterface'
      | 'interfaceTemplateTypeRep'
      | 'toRequiredInterface'
      | 'fromRequiredInterface'
      | 'unsafeFromRequiredInterface'
      | 'choiceController'
      | 'choiceObserver';
  }
>;

/** The template of an interface value (`to_interface @I @T v` is represented as `Any(T, v)`). */
export function templateOfAny(a: VAny): { packageId: string; module: string; name: string } {
  if (a.type.kind !== 'con') throw new EngineError('Internal', 'not an interface value');
  return a.type;
}

export function compileInterfaceExpr(c: ExprCompiler, s: FnScope, e: Expr): Node {
  const x = e as IfaceExpr;
  const defs = c.defs;
  const tpl = (a: VAny): TemplateRt => defs.template(templateOfAny(a));
  const inst = (a: VAny, iface: { packageId: string; module: string; name: string }): InstanceRt => {
    const i = tpl(a).instance(iface);
    if (!i)
      throw new EngineError(
        'ContractDoesNotImplementInterface',
        `Template ${qnText(templateOfAny(a))} does not implement interface ${qnText(iface)}`,
      );
    return i;
  };
  const prim = (f: (m: Machine, v: V[]) => void, args: Expr[]): Node =>
    new SPrim(
      f,
      args.map((a) => c.expr(s, a)),
    );
  switch (x.tag) {
    case 'toInterface': {
      const t = { kind: 'con' as const, ...x.template, args: [] };
      return prim((m, [v]) => (m.val = new VAny(t, v as V)), [x.expr]);
    }
    case 'fromInterface':
      return prim((m, [v]) => (m.val = sameTemplate(v as VAny, x.template) ? new VSome((v as VAny).value) : NONE), [x.expr]);
    case 'unsafeFromInterface':
      return prim(
        (m, [cid, v]) => {
          if (!sameTemplate(v as VAny, x.template))
            throw new EngineError('WronglyTypedContract', `Contract ${cidText(cid)} is not of template ${qnText(x.template)}`);
          m.val = (v as VAny).value;
        },
        [x.cid, x.expr],
      );
    case 'callInterface':
      return prim(
        (m, [v]) => {
          const f = inst(v as VAny, x.iface).methods.get(x.method);
          if (!f) throw new EngineError('Internal', `interface ${qnText(x.iface)} has no method ${x.method}`);
          m.apply(f, [(v as VAny).value]);
        },
        [x.expr],
      );
    case 'viewInterface':
      return prim((m, [v]) => m.apply(inst(v as VAny, x.iface).view, [(v as VAny).value]), [x.expr]);
    case 'signatoryInterface':
      return prim((m, [v]) => m.apply(tpl(v as VAny).signatories, [(v as VAny).value]), [x.expr]);
    case 'observerInterface':
      return prim((m, [v]) => m.apply(tpl(v as VAny).observers, [(v as VAny).value]), [x.expr]);
    case 'interfaceTemplateTypeRep':
      return prim((m, [v]) => (m.val = new VTypeRep({ kind: 'con', ...templateOfAny(v as VAny), args: [] })), [x.expr]);
    case 'toRequiredInterface':
      return c.expr(s, x.expr);
    case 'fromRequiredInterface':
      return prim((m, [v]) => (m.val = tpl(v as VAny).instance(x.requiring) ? new VSome(v as V) : NONE), [x.expr]);
    case 'unsafeFromRequiredInterface':
      return prim(
        (m, [cid, v]) => {
          if (!tpl(v as VAny).instance(x.requiring))
            throw new EngineError(
              'ContractDoesNotImplementRequiringInterface',
              `Contract ${cidText(cid)} (template ${qnText(templateOfAny(v as VAny))}) does not implement interface ${qnText(x.requiring)}`,
            );
          m.val = v as V;
        },
        [x.cid, x.expr],
      );
    case 'choiceController':
    case 'choiceObserver':
      return prim(
        (m, [contract, arg]) => {
          const ch = defs.template(x.template).choice(x.choice);
          if (!ch) throw new EngineError('Internal', `template ${qnText(x.template)} has no choice ${x.choice}`);
          const f = x.tag === 'choiceController' ? ch.controllers : ch.observers;
          if (!f) m.val = emptyList();
          else m.apply(f, [contract as V, arg as V]);
        },
        [x.contract, x.arg],
      );
  }
  throw new EngineError('UnknownDefinition', `Unsupported expression ${e.tag}`);
}

const sameTemplate = (a: VAny, t: { packageId: string; module: string; name: string }): boolean =>
  a.type.kind === 'con' && a.type.packageId === t.packageId && a.type.module === t.module && a.type.name === t.name;

const cidText = (v: V | undefined): string => (typeof v === 'object' && v.k === K.ContractId ? v.cid : '(not a contract id)');

const emptyList = (): V => NIL;
