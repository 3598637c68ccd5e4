/**
 * Expression typing `Γ ⊢ e : τ` (daml-lf-2.rst "Well-formed expression", rule names in the errors). Types are
 * synthesised bottom-up and compared by α-equivalence after normalization; updates and case alternatives are in
 * ./update.ts and ./case.ts.
 */
import type { Expr, FieldWithExpr, Literal, QualifiedName, Type, TypeConApp } from '../ast/ast.js';
import { builtinType } from './builtins.js';
import { checkCase } from './case.js';
import { fail } from './error.js';
import { PARTIES, Normalizer, T, arrowParts, expectType, freeVars, show, subst } from './types.js';
import { checkUpdate } from './update.js';
import { Ctx, type CheckerApi } from './ctx.js';
import { World, qnText, sameName } from './world.js';

export { Ctx };

export class Checker implements CheckerApi {
  readonly norm: Normalizer;
  private readonly valueTypes = new Map<string, Type>();

  constructor(readonly world: World) {
    this.norm = new Normalizer(world);
  }

  /** `τ ↠ τ'` and `Γ ⊢ τ' : k` (free type variables must be in scope). */
  type(t: Type, ctx: Ctx, rule: string): Type {
    const n = this.norm.norm(t);
    for (const v of freeVars(n)) if (!ctx.tyVars.has(v)) fail(rule, `type variable ${v} is not in scope in ${show(n)}`);
    return n;
  }

  /** The fields of record `tc` with its type arguments substituted (ExpRecCon / ExpRecProj). */
  recordFields(tc: TypeConApp, ctx: Ctx, rule: string): { fields: { name: string; type: Type }[]; self: Type } {
    const dt = this.world.dataType(tc.tycon);
    if (dt.cons.kind !== 'record') return fail(rule, `${qnText(tc.tycon)} is not a record`);
    const args = tc.args.map((a) => this.type(a, ctx, rule));
    const sub = this.params(
      dt.params.map((p) => p.name),
      args,
      tc.tycon,
      rule,
    );
    return {
      fields: dt.cons.fields.map((f) => ({ name: f.name, type: subst(this.norm.norm(f.type), sub) })),
      self: T.con(tc.tycon, args),
    };
  }

  params(names: string[], args: Type[], q: QualifiedName, rule: string): Map<string, Type> {
    if (names.length !== args.length) fail(rule, `${qnText(q)} takes ${names.length} type arguments, got ${args.length}`);
    return new Map(names.map((n, i) => [n, args[i] as Type]));
  }

  valueType(q: QualifiedName): Type {
    const k = `${q.packageId}:${q.module}:${q.name}`;
    let t = this.valueTypes.get(k);
    if (!t) {
      t = this.norm.norm(this.world.value(q).type);
      this.valueTypes.set(k, t);
    }
    return t;
  }

  /** `⊢ₑ τ`: an exception type. */
  exceptionType(t: Type, rule: string): void {
    if (t.kind !== 'con' || t.args.length > 0 || !this.world.exception(t)) fail(rule, `${show(t)} is not an exception type`);
  }

  /** The template `t` implements interface `i` (ExpToInterface, ExpFromInterface, …). */
  implementsIface(tpl: QualifiedName, iface: QualifiedName, rule: string): void {
    this.world.iface(iface, rule);
    if (!this.world.template(tpl, rule).implements.some((x) => sameName(x.iface, iface)))
      fail(rule, `template ${qnText(tpl)} does not implement ${qnText(iface)}`);
  }

  requires(required: QualifiedName, requiring: QualifiedName, rule: string): void {
    this.world.iface(required, rule);
    if (!this.world.iface(requiring, rule).requires.some((x) => sameName(x, required)))
      fail(rule, `interface ${qnText(requiring)} does not require ${qnText(required)}`);
  }

  check(e: Expr, expected: Type, ctx: Ctx, rule: string, what: string): void {
    expectType(rule, this.synth(e, ctx), expected, what);
  }

  synth(e: Expr, ctx: Ctx): Type {
    switch (e.tag) {
      case 'var':
        return ctx.vars.get(e.name) ?? fail('ExpDefVar', `variable ${e.name} is not in scope`);
      case 'val':
        return this.valueType(e.ref);
      case 'builtin':
        return builtinType(e.fn);
      case 'builtinCon':
        return e.con === 'Unit' ? T.unit : T.bool;
      case 'lit':
        return literalType(e.lit);
      case 'recCon': {
        const { fields, self } = this.recordFields(e.type, ctx, 'ExpRecCon');
        fieldsInOrder('ExpRecCon', fields, e.fields, e.type.tycon);
        e.fields.forEach((f, i) => this.check(f.expr, fields[i]?.type as Type, ctx, 'ExpRecCon', `field ${f.name}`));
        return self;
      }
      case 'recProj':
      case 'recUpd': {
        const rule = e.tag === 'recProj' ? 'ExpRecProj' : 'ExpRecUpdate';
        const { fields, self } = this.recordFields(e.type, ctx, rule);
        const f = fields.find((x) => x.name === e.field) ?? fail(rule, `${qnText(e.type.tycon)} has no field ${e.field}`);
        this.check(e.record, self, ctx, rule, 'the record');
        if (e.tag === 'recProj') return f.type;
        this.check(e.update, f.type, ctx, rule, `field ${e.field}`);
        return self;
      }
      case 'variantCon': {
        const dt = this.world.dataType(e.type.tycon);
        if (dt.cons.kind !== 'variant') return fail('ExpVarCon', `${qnText(e.type.tycon)} is not a variant`);
        const args = e.type.args.map((a) => this.type(a, ctx, 'ExpVarCon'));
        const sub = this.params(
          dt.params.map((p) => p.name),
          args,
          e.type.tycon,
          'ExpVarCon',
        );
        const c =
          dt.cons.constructors.find((x) => x.name === e.variant) ??
          fail('ExpVarCon', `${qnText(e.type.tycon)} has no constructor ${e.variant}`);
        this.check(e.arg, subst(this.norm.norm(c.type), sub), ctx, 'ExpVarCon', `the argument of ${e.variant}`);
        return T.con(e.type.tycon, args);
      }
      case 'enumCon': {
        const dt = this.world.dataType(e.tycon);
        if (dt.cons.kind !== 'enum' || !dt.cons.constructors.includes(e.con))
          fail('ExpEnumCon', `${qnText(e.tycon)} is not an enum with constructor ${e.con}`);
        return T.con(e.tycon);
      }
      case 'structCon':
        return this.norm.norm({ kind: 'struct', fields: e.fields.map((f) => ({ name: f.name, type: this.synth(f.expr, ctx) })) });
      case 'structProj':
      case 'structUpd': {
        const rule = e.tag === 'structProj' ? 'ExpStructProj' : 'ExpStructUpdate';
        const st = this.synth(e.struct, ctx);
        if (st.kind !== 'struct') return fail(rule, `${show(st)} is not a struct`);
        const f = st.fields.find((x) => x.name === e.field) ?? fail(rule, `${show(st)} has no field ${e.field}`);
        if (e.tag === 'structProj') return f.type;
        this.check(e.update, f.type, ctx, rule, `field ${e.field}`);
        return st;
      }
      case 'app': {
        let ft = this.synth(e.fun, ctx);
        for (const a of e.args) {
          const [param, result] = arrowParts('ExpApp', ft);
          this.check(a, param, ctx, 'ExpApp', 'the argument');
          ft = result;
        }
        return ft;
      }
      case 'tyApp': {
        let ft = this.synth(e.expr, ctx);
        for (const a of e.types) {
          if (ft.kind !== 'forall') return fail('ExpTyApp', `${show(ft)} is not a polymorphic type`);
          const [v, ...rest] = ft.vars;
          const sub = new Map([[v as string, this.type(a, ctx, 'ExpTyApp')]]);
          // the remaining binders are substituted under (capture-avoiding: `∀ a b. τ` applied to `b` renames b)
          ft = subst(rest.length > 0 ? { kind: 'forall', vars: rest, body: ft.body } : ft.body, sub);
        }
        return ft;
      }
      case 'abs': {
        const params = e.params.map((p) => ({ name: p.name, type: this.type(p.type, ctx, 'ExpAbs') }));
        const bindAll = (i: number): Type => {
          const p = params[i];
          if (!p) return this.synth(e.body, ctx);
          return T.arrow(
            p.type,
            ctx.withVar(p.name, p.type, () => bindAll(i + 1)),
          );
        };
        return bindAll(0);
      }
      case 'tyAbs': {
        const names = e.params.map((p) => p.name);
        const body = ctx.withTyVars(names, () => this.synth(e.body, ctx));
        return body.kind === 'forall'
          ? { kind: 'forall', vars: [...names, ...body.vars], body: body.body }
          : { kind: 'forall', vars: names, body };
      }
      case 'let': {
        const go = (i: number): Type => {
          const b = e.bindings[i];
          if (!b) return this.synth(e.body, ctx);
          const t = this.type(b.type, ctx, 'ExpLet');
          this.check(b.bound, t, ctx, 'ExpLet', `the binding of ${b.name}`);
          return ctx.withVar(b.name, t, () => go(i + 1));
        };
        return go(0);
      }
      case 'case':
        return checkCase(this, e.scrut, e.alts, ctx);
      case 'nil':
        return T.list(this.type(e.type, ctx, 'ExpListNil'));
      case 'cons': {
        const t = this.type(e.type, ctx, 'ExpListCons');
        for (const x of e.front) this.check(x, t, ctx, 'ExpListCons', 'a list element');
        this.check(e.tail, T.list(t), ctx, 'ExpListCons', 'the tail');
        return T.list(t);
      }
      case 'none':
        return T.optional(this.type(e.type, ctx, 'ExpOptionalNone'));
      case 'some': {
        const t = this.type(e.type, ctx, 'ExpOptionalSome');
        this.check(e.value, t, ctx, 'ExpOptionalSome', 'the value');
        return T.optional(t);
      }
      case 'update':
        return checkUpdate(this, e.update, ctx);
      default:
        return this.synthSpecial(e, ctx);
    }
  }

  /** Any, TypeRep, exceptions, interfaces, choice controllers / observers. */
  private synthSpecial(e: Expr, ctx: Ctx): Type {
    switch (e.tag) {
      case 'toAny':
      case 'fromAny':
      case 'typeRep': {
        const rule = e.tag === 'toAny' ? 'ExpToAny' : e.tag === 'fromAny' ? 'ExpFromAny' : 'ExpTypeRep';
        const t = this.type(e.type, new Ctx(), rule);
        if (containsForall(t)) fail(rule, `${show(t)} contains quantifiers`);
        if (e.tag === 'typeRep') return T.typeRep;
        this.check(e.expr, e.tag === 'toAny' ? t : T.any, ctx, rule, 'the argument');
        return e.tag === 'toAny' ? T.any : T.optional(t);
      }
      case 'toAnyException':
      case 'fromAnyException':
      case 'throw': {
        const rule = e.tag === 'toAnyException' ? 'ExpToAnyException' : e.tag === 'fromAnyException' ? 'ExpFromAnyException' : 'ExpThrow';
        const t = this.type(e.tag === 'throw' ? e.exceptionType : e.type, ctx, rule);
        this.exceptionType(t, rule);
        this.check(e.expr, e.tag === 'fromAnyException' ? T.anyException : t, ctx, rule, 'the argument');
        if (e.tag === 'throw') return this.type(e.returnType, ctx, rule);
        return e.tag === 'toAnyException' ? T.anyException : T.optional(t);
      }
      case 'toInterface':
        this.implementsIface(e.template, e.iface, 'ExpToInterface');
        this.check(e.expr, T.con(e.template), ctx, 'ExpToInterface', 'the template value');
        return T.con(e.iface);
      case 'fromInterface':
        this.implementsIface(e.template, e.iface, 'ExpFromInterface');
        this.check(e.expr, T.con(e.iface), ctx, 'ExpFromInterface', 'the interface value');
        return T.optional(T.con(e.template));
      case 'unsafeFromInterface':
        this.implementsIface(e.template, e.iface, 'ExpUnsafeFromInterface');
        this.check(e.cid, T.contractId(T.con(e.iface)), ctx, 'ExpUnsafeFromInterface', 'the contract id');
        this.check(e.expr, T.con(e.iface), ctx, 'ExpUnsafeFromInterface', 'the interface value');
        return T.con(e.template);
      case 'callInterface': {
        const m =
          this.world.iface(e.iface, 'ExpCallInterface').methods.find((x) => x.name === e.method) ??
          fail('ExpCallInterface', `interface ${qnText(e.iface)} has no method ${e.method}`);
        this.check(e.expr, T.con(e.iface), ctx, 'ExpCallInterface', 'the interface value');
        return this.norm.norm(m.type);
      }
      case 'viewInterface':
        this.check(e.expr, T.con(e.iface), ctx, 'ExpViewInterface', 'the interface value');
        return this.norm.norm(this.world.iface(e.iface, 'ExpViewInterface').view);
      case 'signatoryInterface':
      case 'observerInterface':
      case 'interfaceTemplateTypeRep': {
        const rule =
          e.tag === 'signatoryInterface'
            ? 'ExpInterfaceSignatory'
            : e.tag === 'observerInterface'
              ? 'ExpInterfaceObserver'
              : 'ExpInterfaceTypeRep';
        this.world.iface(e.iface, rule);
        this.check(e.expr, T.con(e.iface), ctx, rule, 'the interface value');
        return e.tag === 'interfaceTemplateTypeRep' ? T.typeRep : PARTIES;
      }
      case 'toRequiredInterface':
        this.requires(e.required, e.requiring, 'ExpToRequiredInterface');
        this.check(e.expr, T.con(e.requiring), ctx, 'ExpToRequiredInterface', 'the interface value');
        return T.con(e.required);
      case 'fromRequiredInterface':
        this.requires(e.required, e.requiring, 'ExpFromRequiredInterface');
        this.check(e.expr, T.con(e.required), ctx, 'ExpFromRequiredInterface', 'the interface value');
        return T.optional(T.con(e.requiring));
      case 'unsafeFromRequiredInterface':
        this.requires(e.required, e.requiring, 'ExpUnsafeFromRequiredInterface');
        this.check(e.cid, T.contractId(T.con(e.required)), ctx, 'ExpUnsafeFromRequiredInterface', 'the contract id');
        this.check(e.expr, T.con(e.required), ctx, 'ExpUnsafeFromRequiredInterface', 'the interface value');
        return T.con(e.requiring);
      case 'choiceController':
      case 'choiceObserver': {
        const rule = e.tag === 'choiceController' ? 'ExpChoiceController' : 'ExpChoiceObserver';
        const ch = this.world.templateChoice(e.template, e.choice, rule);
        this.check(e.contract, T.con(e.template), ctx, rule, 'the contract');
        this.check(e.arg, this.norm.norm(ch.argBinder.type), ctx, rule, 'the choice argument');
        return PARTIES;
      }
      case 'experimental':
        return this.type(e.type, ctx, 'ExpExperimental');
      default:
        return fail('Internal', `unexpected expression ${e.tag}`);
    }
  }
}

function fieldsInOrder(rule: string, def: { name: string }[], given: FieldWithExpr[], q: QualifiedName): void {
  if (def.length !== given.length || def.some((f, i) => f.name !== given[i]?.name))
    fail(rule, `${qnText(q)} has fields ${def.map((f) => f.name).join(', ')}, given ${given.map((f) => f.name).join(', ')}`);
}

function containsForall(t: Type): boolean {
  switch (t.kind) {
    case 'forall':
      return true;
    case 'var':
    case 'prim':
    case 'con':
      return t.args.some(containsForall);
    case 'struct':
      return t.fields.some((f) => containsForall(f.type));
    default:
      return false;
  }
}

/** ExpLitInt64, ExpLitNumeric (scale = digits after the point), ExpLitText, … */
export function literalType(l: Literal): Type {
  switch (l.lit) {
    case 'int64':
      return T.int64;
    case 'timestamp':
      return T.timestamp;
    case 'date':
      return T.date;
    case 'text':
      return T.text;
    case 'numeric': {
      const dot = l.value.indexOf('.');
      return T.numeric(dot < 0 ? 0 : l.value.length - dot - 1);
    }
    case 'failureCategory':
      return T.failureCategory;
    case 'roundingMode':
      return T.roundingMode;
  }
}
