/**
 * Compiles the Daml-LF AST to the machine's nodes: type abstractions and applications are erased (numeric scales
 * travel with the values), lambdas become closures over their free variables, nested applications are flattened into
 * one call, record fields and variant constructors are resolved to indices, and updates become functions of a token
 * (see compile-update.ts).
 */
import type { Expr, Literal, Type } from '../../../daml-lf/ast/ast.js';
import { builtinValue } from './builtins/index.js';
import { compileUpdate, compileInterfaceExpr, type UpdateOps } from './compile-update.js';
import { equalTypes } from './compare.js';
import type { Defs, DefsCompiler, ValueRef } from './defs.js';
import { EngineError } from './errors.js';
import { Kont, Node, closureOf, type Machine } from './machine.js';
import { NIL_NODE, SApp, SBuiltinCall, SConst, SLet, SMakeClosure } from './nodes.js';
import {
  SCase,
  SCons,
  SPrim,
  SRecCon,
  SRecProj,
  SRecUpd,
  SSome,
  SStructCon,
  SStructProj,
  SStructUpd,
  SVariantCon,
  type Alt,
} from './nodes-data.js';
import { fromLiteral } from './numeric.js';
import { FnScope } from './scope.js';
import { compareText } from './text.js';
import { K, NONE, UNIT, VAny, VBuiltin, VEnum, VSome, VTimestamp, VTypeRep, type V, type VClosure } from './value.js';

/** A top-level value: memoised once evaluated. */
class SVal extends Node {
  constructor(
    readonly ref: ValueRef,
    readonly defs: Defs,
  ) {
    super();
  }
  override atom(): V | undefined {
    return this.ref.value;
  }
  override get inlinable(): boolean {
    return true;
  }
  exec(m: Machine): void {
    const cached = this.ref.value;
    if (cached !== undefined) {
      m.val = cached;
      return;
    }
    const code = this.defs.valueCode(this.ref);
    m.push(new KCacheVal(this.ref, m.regs, m.frame));
    m.regs = new Array<V>(this.ref.slots);
    m.frame = [];
    m.ctrl = code;
  }
}

class KCacheVal extends Kont {
  constructor(
    private readonly ref: ValueRef,
    private readonly regs: V[],
    private readonly frame: V[],
  ) {
    super();
  }
  resume(m: Machine, v: V): void {
    this.ref.value = v;
    m.regs = this.regs;
    m.frame = this.frame;
    m.val = v;
  }
}

const FAILURE_CATEGORY_IDS: Record<string, bigint> = {
  INVALID_INDEPENDENT_OF_SYSTEM_STATE: 8n,
  INVALID_GIVEN_CURRENT_SYSTEM_STATE_OTHER: 9n,
};
const ROUNDING: Record<string, bigint> = {
  UP: 0n,
  DOWN: 1n,
  CEILING: 2n,
  FLOOR: 3n,
  HALF_UP: 4n,
  HALF_DOWN: 5n,
  HALF_EVEN: 6n,
  UNNECESSARY: 7n,
};

function literal(l: Literal): V {
  switch (l.lit) {
    case 'int64':
      return l.value;
    case 'timestamp':
      return new VTimestamp(l.value);
    case 'numeric': {
      const n = fromLiteral(l.value);
      if (!n) throw new EngineError('Internal', `invalid numeric literal ${l.value}`);
      return n;
    }
    case 'text':
      return l.value;
    case 'date':
      return l.value;
    case 'failureCategory':
      return FAILURE_CATEGORY_IDS[l.value] as bigint;
    case 'roundingMode':
      return ROUNDING[l.value] as bigint;
  }
}

export class Compiler implements DefsCompiler {
  private readonly enums = new Map<string, VEnum[]>();

  constructor(
    readonly defs: Defs,
    readonly ops: UpdateOps,
  ) {}

  compileTop(e: Expr, _label: string): { code: Node; slots: number } {
    const scope = new FnScope(undefined, []);
    const code = this.expr(scope, e);
    return { code, slots: scope.maxSlots };
  }

  compileFunction(params: string[], body: Expr, label: string): VClosure {
    const scope = new FnScope(undefined, params);
    const code = this.expr(scope, body);
    return closureOf(params.length, scope.maxSlots, code, label);
  }

  /** `λ params. body` within `scope` (params already flattened). */
  lambda(scope: FnScope, params: string[], body: (inner: FnScope) => Node, label: string): Node {
    const inner = new FnScope(scope, params);
    const code = body(inner);
    return new SMakeClosure(params.length, inner.maxSlots, code, inner.captures, label);
  }

  expr(s: FnScope, e: Expr): Node {
    switch (e.tag) {
      case 'var':
        return s.lookup(e.name);
      case 'val': {
        const ref = this.defs.valueRef(e.ref);
        return new SVal(ref, this.defs);
      }
      case 'builtin': {
        const b = builtinValue(e.fn);
        if (b === undefined) throw new EngineError('UnknownDefinition', `Unsupported builtin ${e.fn}`);
        return new SConst(b);
      }
      case 'builtinCon':
        return new SConst(e.con === 'True' ? true : e.con === 'False' ? false : UNIT);
      case 'lit':
        return new SConst(literal(e.lit));
      case 'recCon': {
        const info = this.defs.dataInfo(e.type.tycon);
        const order = e.fields.map((f) => {
          const i = info.index.get(f.name);
          if (i === undefined) throw new EngineError('Internal', `record ${info.id} has no field ${f.name}`);
          return i;
        });
        return new SRecCon(
          info,
          order,
          e.fields.map((f) => this.expr(s, f.expr)),
        );
      }
      case 'recProj':
        return new SRecProj(this.fieldIndex(e.type.tycon, e.field), this.expr(s, e.record));
      case 'recUpd':
        return new SRecUpd(this.fieldIndex(e.type.tycon, e.field), this.expr(s, e.record), this.expr(s, e.update));
      case 'variantCon': {
        const info = this.defs.dataInfo(e.type.tycon);
        return new SVariantCon(info, this.rank(info.index, e.variant, info.id), this.expr(s, e.arg));
      }
      case 'enumCon':
        return new SConst(this.enumValue(e.tycon, e.con));
      case 'structCon': {
        const names = e.fields.map((f) => f.name);
        const sorted = [...names].sort(compareText);
        return new SStructCon(
          sorted,
          sorted.map((n) => names.indexOf(n)),
          e.fields.map((f) => this.expr(s, f.expr)),
        );
      }
      case 'structProj':
        return new SStructProj(e.field, this.expr(s, e.struct));
      case 'structUpd':
        return new SStructUpd(e.field, this.expr(s, e.struct), this.expr(s, e.update));
      case 'app':
      case 'tyApp':
        return this.app(s, e);
      case 'abs':
      case 'tyAbs':
        return this.abs(s, e);
      case 'case':
        return this.caseExpr(s, e);
      case 'let':
        return this.letExpr(s, e.bindings, 0, e.body);
      case 'nil':
        return NIL_NODE;
      case 'cons':
        return new SCons([...e.front.map((x) => this.expr(s, x)), this.expr(s, e.tail)]);
      case 'none':
        return new SConst(NONE);
      case 'some':
        return new SSome([this.expr(s, e.value)]);
      case 'update':
        return compileUpdate(this, s, e.update);
      case 'toAny':
      case 'toAnyException': {
        const t = e.type;
        return new SPrim((m, [x]) => (m.val = new VAny(t, x as V)), [this.expr(s, e.expr)]);
      }
      case 'fromAny':
      case 'fromAnyException': {
        const t = e.type;
        return new SPrim(
          (m, [x]) => {
            const a = x as VAny;
            m.val = equalTypes(a.type, t) ? new VSome(a.value) : NONE;
          },
          [this.expr(s, e.expr)],
        );
      }
      case 'typeRep':
        return new SConst(new VTypeRep(e.type));
      case 'throw': {
        const t: Type = e.exceptionType;
        return new SPrim((m, [x]) => m.throwDaml(new VAny(t, x as V)), [this.expr(s, e.expr)]);
      }
      case 'experimental':
        return e.name === 'ANSWER'
          ? new SConst(new VBuiltin('ANSWER', 1, () => 42n))
          : new SPrim(() => {
              throw new EngineError('UserError', `experimental ${e.name} not supported.`);
            }, []);
      default:
        return compileInterfaceExpr(this, s, e);
    }
    throw new EngineError('UnknownDefinition', `Unsupported expression ${e.tag}`);
  }

  private fieldIndex(tycon: Parameters<Defs['dataInfo']>[0], field: string): number {
    const info = this.defs.dataInfo(tycon);
    const i = info.index.get(field);
    if (i === undefined) throw new EngineError('Internal', `record ${info.id} has no field ${field}`);
    return i;
  }

  private rank(index: Map<string, number>, con: string, id: string): number {
    const r = index.get(con);
    if (r === undefined) throw new EngineError('Internal', `${id} has no constructor ${con}`);
    return r;
  }

  private enumValue(tycon: Parameters<Defs['dataInfo']>[0], con: string): VEnum {
    const info = this.defs.dataInfo(tycon);
    let vs = this.enums.get(info.id);
    if (!vs) {
      vs = info.names.map((_, i) => new VEnum(info, i));
      this.enums.set(info.id, vs);
    }
    return vs[this.rank(info.index, con, info.id)] as VEnum;
  }

  /** `f a₁ … aₙ` (type applications erased, nested applications flattened into one call). */
  private app(s: FnScope, e: Expr): Node {
    const args: Expr[][] = [];
    let f: Expr = e;
    for (;;) {
      if (f.tag === 'app') {
        args.push(f.args);
        f = f.fun;
      } else if (f.tag === 'tyApp') f = f.expr;
      else break;
    }
    if (args.length === 0) return this.expr(s, f);
    const fn = this.expr(s, f);
    const nodes: Node[] = [];
    for (let i = args.length - 1; i >= 0; i--) for (const a of args[i] as Expr[]) nodes.push(this.expr(s, a));
    if (
      fn instanceof SConst &&
      typeof fn.value === 'object' &&
      fn.value.k === K.Builtin &&
      fn.value.inline &&
      fn.value.arity === nodes.length
    )
      return new SBuiltinCall(fn.value, nodes);
    return new SApp(fn, nodes);
  }

  /** `λx₁ … xₙ. body` (type abstractions in between erased). */
  private abs(s: FnScope, e: Expr): Node {
    const params: string[] = [];
    let b: Expr = e;
    for (;;) {
      if (b.tag === 'abs') {
        for (const p of b.params) params.push(p.name);
        b = b.body;
      } else if (b.tag === 'tyAbs') b = b.body;
      else break;
    }
    if (params.length === 0) return this.expr(s, b);
    const body = b;
    return this.lambda(s, params, (inner) => this.expr(inner, body), 'lambda');
  }

  private letExpr(s: FnScope, bs: { name: string; bound: Expr }[], i: number, body: Expr): Node {
    if (i >= bs.length) return this.expr(s, body);
    const b = bs[i] as { name: string; bound: Expr };
    const bound = this.expr(s, b.bound);
    const slot = s.push(b.name);
    const rest = this.letExpr(s, bs, i + 1, body);
    s.pop(1);
    return new SLet(bound, slot, rest);
  }

  private caseExpr(s: FnScope, e: Extract<Expr, { tag: 'case' }>): Node {
    const scrut = this.expr(s, e.scrut);
    const alts: Alt[] = e.alts.map((a): Alt => {
      const p = a.pattern;
      const with_ = (names: string[], kind: Alt['kind'], rank = 0): Alt => {
        const slot = names.length > 0 ? s.push(names[0] as string) : -1;
        for (const n of names.slice(1)) s.push(n);
        const body = this.expr(s, a.body);
        s.pop(names.length);
        return { kind, rank, slot, body };
      };
      switch (p.pat) {
        case 'default':
          return with_([], 'default');
        case 'nil':
          return with_([], 'nil');
        case 'none':
          return with_([], 'none');
        case 'cons':
          return with_([p.head, p.tail], 'cons');
        case 'some':
          return with_([p.binder], 'some');
        case 'builtinCon':
          return with_([], p.con === 'True' ? 'true' : p.con === 'False' ? 'false' : 'unit');
        case 'variant': {
          const info = this.defs.dataInfo(p.tycon);
          return with_([p.binder], 'variant', this.rank(info.index, p.variant, info.id));
        }
        case 'enum': {
          const info = this.defs.dataInfo(p.tycon);
          return with_([], 'enum', this.rank(info.index, p.con, info.id));
        }
      }
    });
    return new SCase(scrut, alts);
  }
}
