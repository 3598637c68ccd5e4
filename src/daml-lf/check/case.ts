/**
 * Case expressions (ExpCase): well-formed alternatives `Γ ⊢ τ // alt : σ` (AltVariant … AltDefault) and pattern
 * match exhaustiveness `τ ⊲ alt₁, …, altₙ` (ExhaustVariant … ExhaustDefault).
 */
import type { CaseAlt, Expr, Pattern, Type } from '../ast/ast.js';
import type { CheckerApi, Ctx } from './ctx.js';
import { fail } from './error.js';
import { T, expectType, show, subst } from './types.js';
import { qnText, sameName } from './world.js';

export function checkCase(c: CheckerApi, scrut: Expr, alts: CaseAlt[], ctx: Ctx): Type {
  if (alts.length === 0) return fail('ExpCase', 'a case needs at least one alternative');
  const st = c.synth(scrut, ctx);
  let result: Type | undefined;
  for (const alt of alts) {
    const t = alternative(c, st, alt.pattern, alt.body, ctx);
    if (result === undefined) result = t;
    else expectType('ExpCase', t, result, 'an alternative');
  }
  exhaustive(
    c,
    st,
    alts.map((a) => a.pattern),
  );
  return result as Type;
}

function alternative(c: CheckerApi, st: Type, p: Pattern, body: Expr, ctx: Ctx): Type {
  switch (p.pat) {
    case 'default':
      return c.synth(body, ctx);
    case 'variant': {
      if (st.kind !== 'con' || !sameName(st, p.tycon)) return fail('AltVariant', `pattern ${qnText(p.tycon)}:${p.variant} on ${show(st)}`);
      const dt = c.world.dataType(p.tycon);
      if (dt.cons.kind !== 'variant') return fail('AltVariant', `${qnText(p.tycon)} is not a variant`);
      const ctor =
        dt.cons.constructors.find((x) => x.name === p.variant) ?? fail('AltVariant', `${qnText(p.tycon)} has no constructor ${p.variant}`);
      const sub = c.params(
        dt.params.map((x) => x.name),
        st.args,
        p.tycon,
        'AltVariant',
      );
      return ctx.withVar(p.binder, subst(c.norm.norm(ctor.type), sub), () => c.synth(body, ctx));
    }
    case 'enum': {
      const dt = c.world.dataType(p.tycon);
      if (st.kind !== 'con' || !sameName(st, p.tycon) || dt.cons.kind !== 'enum' || !dt.cons.constructors.includes(p.con))
        return fail('AltEnum', `pattern ${qnText(p.tycon)}:${p.con} on ${show(st)}`);
      return c.synth(body, ctx);
    }
    case 'builtinCon':
      expectType(
        p.con === 'Unit' ? 'AltUnit' : p.con === 'True' ? 'AltTrue' : 'AltFalse',
        st,
        p.con === 'Unit' ? T.unit : T.bool,
        'the scrutinee',
      );
      return c.synth(body, ctx);
    case 'nil':
    case 'cons': {
      const rule = p.pat === 'nil' ? 'AltNil' : 'AltCons';
      if (st.kind !== 'prim' || st.prim !== 'List') return fail(rule, `list pattern on ${show(st)}`);
      if (p.pat === 'nil') return c.synth(body, ctx);
      if (p.head === p.tail) return fail('AltCons', `head and tail are both named ${p.head}`);
      const { head, tail } = p;
      return ctx.withVar(head, st.args[0] as Type, () => ctx.withVar(tail, st, () => c.synth(body, ctx)));
    }
    case 'none':
    case 'some': {
      const rule = p.pat === 'none' ? 'AltNone' : 'AltSome';
      if (st.kind !== 'prim' || st.prim !== 'Optional') return fail(rule, `optional pattern on ${show(st)}`);
      if (p.pat === 'none') return c.synth(body, ctx);
      return ctx.withVar(p.binder, st.args[0] as Type, () => c.synth(body, ctx));
    }
  }
}

function exhaustive(c: CheckerApi, st: Type, pats: Pattern[]): void {
  if (pats.some((p) => p.pat === 'default')) return;
  const has = (pred: (p: Pattern) => boolean): boolean => pats.some(pred);
  const missing = (rule: string, what: string): never => fail(rule, `non-exhaustive patterns on ${show(st)}: ${what} not matched`);
  if (st.kind === 'con') {
    const dt = c.world.dataType(st);
    if (dt.cons.kind === 'variant')
      for (const k of dt.cons.constructors) if (!has((p) => p.pat === 'variant' && p.variant === k.name)) missing('ExhaustVariant', k.name);
    if (dt.cons.kind === 'enum')
      for (const k of dt.cons.constructors) if (!has((p) => p.pat === 'enum' && p.con === k)) missing('ExhaustEnum', k);
    return;
  }
  if (st.kind === 'prim') {
    switch (st.prim) {
      case 'List':
        if (!has((p) => p.pat === 'nil')) missing('ExhaustList', 'Nil');
        if (!has((p) => p.pat === 'cons')) missing('ExhaustList', 'Cons');
        return;
      case 'Optional':
        if (!has((p) => p.pat === 'none')) missing('ExhaustOptional', 'None');
        if (!has((p) => p.pat === 'some')) missing('ExhaustOptional', 'Some');
        return;
      case 'Bool':
        for (const k of ['True', 'False'] as const) if (!has((p) => p.pat === 'builtinCon' && p.con === k)) missing('ExhaustBool', k);
        return;
      case 'Unit':
        if (!has((p) => p.pat === 'builtinCon' && p.con === 'Unit')) missing('ExhaustUnit', '()');
        return;
      default:
    }
  }
  missing('ExhaustDefault', 'a default alternative');
}
