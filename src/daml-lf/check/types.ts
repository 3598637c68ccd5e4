/**
 * Types for the Daml-LF type checker (daml-lf-2.rst "Type system"): normalization `τ ↠ σ` (synonyms inlined, struct
 * fields sorted, type applications flattened, nested ∀ merged), capture-avoiding substitution and α-equivalence.
 * Normal types use the decoded `Type` shape without `syn`; an application is `var` / `con` / `prim` with arguments.
 */
import type { Type } from '../ast/ast.js';
import { typeToString } from '../type-format.js';
import { fail } from './error.js';
import type { World } from './world.js';

export { LfTypeError, fail } from './error.js';

export const show = (t: Type): string => typeToString(t);

const prim = (p: Extract<Type, { kind: 'prim' }>['prim'], ...args: Type[]): Type => ({ kind: 'prim', prim: p, args });
export const T = {
  unit: prim('Unit'),
  bool: prim('Bool'),
  int64: prim('Int64'),
  text: prim('Text'),
  party: prim('Party'),
  date: prim('Date'),
  timestamp: prim('Timestamp'),
  typeRep: prim('TypeRep'),
  any: prim('Any'),
  anyException: prim('AnyException'),
  bigNumeric: prim('BigNumeric'),
  roundingMode: prim('RoundingMode'),
  failureCategory: prim('FailureCategory'),
  numeric: (scale: number): Type => prim('Numeric', { kind: 'nat', value: scale }),
  list: (t: Type): Type => prim('List', t),
  optional: (t: Type): Type => prim('Optional', t),
  update: (t: Type): Type => prim('Update', t),
  contractId: (t: Type): Type => prim('ContractId', t),
  arrow: (a: Type, b: Type): Type => prim('Arrow', a, b),
  con: (q: { packageId: string; module: string; name: string }, args: Type[] = []): Type => ({ kind: 'con', ...q, args }),
};
export const PARTIES = T.list(T.party);

/** `τ ↠ σ` (RewriteVar … RewriteForall); memoised per type object (interned types are shared). */
export class Normalizer {
  private readonly memo = new WeakMap<Type, Type>();
  constructor(private readonly world: World) {}

  norm(t: Type): Type {
    const hit = this.memo.get(t);
    if (hit) return hit;
    const r = this.compute(t);
    this.memo.set(t, r);
    return r;
  }

  private compute(t: Type): Type {
    switch (t.kind) {
      case 'nat':
        return t;
      case 'var':
        return t.args.length === 0 ? t : { kind: 'var', name: t.name, args: t.args.map((a) => this.norm(a)) };
      case 'prim':
        return t.args.length === 0 ? t : { kind: 'prim', prim: t.prim, args: t.args.map((a) => this.norm(a)) };
      case 'con':
        return { kind: 'con', packageId: t.packageId, module: t.module, name: t.name, args: t.args.map((a) => this.norm(a)) };
      case 'syn': {
        const s = this.world.synonym(t.synonym);
        if (s.params.length !== t.args.length)
          fail(
            'RewriteSynonym',
            `synonym ${t.synonym.module}:${t.synonym.name} expects ${s.params.length} arguments, got ${t.args.length}`,
          );
        const sub = new Map<string, Type>();
        s.params.forEach((p, i) => sub.set(p.name, this.norm(t.args[i] as Type)));
        return subst(this.norm(s.type), sub);
      }
      case 'app':
        return applyNormal(
          this.norm(t.fun),
          t.args.map((a) => this.norm(a)),
        );
      case 'forall': {
        const body = this.norm(t.body);
        return body.kind === 'forall' ? { kind: 'forall', vars: [...t.vars, ...body.vars], body: body.body } : { ...t, body };
      }
      case 'struct': {
        const fields = t.fields.map((f) => ({ name: f.name, type: this.norm(f.type) })).sort((a, b) => cmp(a.name, b.name));
        for (let i = 1; i < fields.length; i++)
          if (fields[i]?.name === fields[i - 1]?.name) fail('TyStruct', `duplicate struct field ${fields[i]?.name ?? ''}`);
        return { kind: 'struct', fields };
      }
    }
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** RewriteApp on normal types: the arguments join the head's. */
export function applyNormal(fun: Type, args: Type[]): Type {
  if (args.length === 0) return fun;
  switch (fun.kind) {
    case 'var':
    case 'con':
    case 'prim':
      return { ...fun, args: [...fun.args, ...args] };
    default:
      return fail('TyApp', `${show(fun)} cannot be applied to type arguments`);
  }
}

/** Free type variables of a normal type. */
export function freeVars(t: Type, out = new Set<string>(), bound: ReadonlySet<string> = new Set()): Set<string> {
  switch (t.kind) {
    case 'var':
      if (!bound.has(t.name)) out.add(t.name);
      for (const a of t.args) freeVars(a, out, bound);
      break;
    case 'prim':
    case 'con':
    case 'syn':
      for (const a of t.args) freeVars(a, out, bound);
      break;
    case 'app':
      freeVars(t.fun, out, bound);
      for (const a of t.args) freeVars(a, out, bound);
      break;
    case 'forall':
      freeVars(t.body, out, new Set([...bound, ...t.vars]));
      break;
    case 'struct':
      for (const f of t.fields) freeVars(f.type, out, bound);
      break;
    case 'nat':
      break;
  }
  return out;
}

let fresh = 0;

/** Capture-avoiding substitution `τ[α ↦ σ]` on normal types. */
export function subst(t: Type, sub: ReadonlyMap<string, Type>): Type {
  if (sub.size === 0) return t;
  let rangeFree: Set<string> | undefined;
  const go = (x: Type, s: ReadonlyMap<string, Type>): Type => {
    switch (x.kind) {
      case 'nat':
        return x;
      case 'var': {
        const r = s.get(x.name);
        const args = x.args.map((a) => go(a, s));
        return r ? applyNormal(r, args) : x.args.length === 0 ? x : { kind: 'var', name: x.name, args };
      }
      case 'prim':
        return x.args.length === 0 ? x : { kind: 'prim', prim: x.prim, args: x.args.map((a) => go(a, s)) };
      case 'con':
        return x.args.length === 0 ? x : { ...x, args: x.args.map((a) => go(a, s)) };
      case 'struct':
        return { kind: 'struct', fields: x.fields.map((f) => ({ name: f.name, type: go(f.type, s) })) };
      case 'forall': {
        const inner = new Map(s);
        for (const v of x.vars) inner.delete(v);
        if (inner.size === 0) return x;
        rangeFree ??= new Set([...sub.values()].flatMap((r) => [...freeVars(r)]));
        const vars = x.vars.map((v) => {
          if (!rangeFree?.has(v)) return v;
          const nv = `${v}$${++fresh}`;
          inner.set(v, { kind: 'var', name: nv, args: [] });
          return nv;
        });
        return { kind: 'forall', vars, body: go(x.body, inner) };
      }
      case 'syn':
      case 'app':
        return fail('Internal', `substitution on a type that is not normal: ${show(x)}`);
    }
  };
  return go(t, sub);
}

/** α-equivalence of normal types. */
export function typeEq(a: Type, b: Type, ea: Map<string, number> = new Map(), eb: Map<string, number> = new Map(), depth = 0): boolean {
  if (a === b && ea.size === 0 && eb.size === 0) return true;
  switch (a.kind) {
    case 'nat':
      return b.kind === 'nat' && a.value === b.value;
    case 'var': {
      if (b.kind !== 'var' || a.args.length !== b.args.length) return false;
      const la = ea.get(a.name);
      const lb = eb.get(b.name);
      if (la !== lb || (la === undefined && a.name !== b.name)) return false;
      return a.args.every((x, i) => typeEq(x, b.args[i] as Type, ea, eb, depth));
    }
    case 'prim':
      return (
        b.kind === 'prim' &&
        a.prim === b.prim &&
        a.args.length === b.args.length &&
        a.args.every((x, i) => typeEq(x, b.args[i] as Type, ea, eb, depth))
      );
    case 'con':
      return (
        b.kind === 'con' &&
        a.name === b.name &&
        a.module === b.module &&
        a.packageId === b.packageId &&
        a.args.length === b.args.length &&
        a.args.every((x, i) => typeEq(x, b.args[i] as Type, ea, eb, depth))
      );
    case 'struct':
      return (
        b.kind === 'struct' &&
        a.fields.length === b.fields.length &&
        a.fields.every((f, i) => {
          const g = b.fields[i];
          return g !== undefined && f.name === g.name && typeEq(f.type, g.type, ea, eb, depth);
        })
      );
    case 'forall': {
      if (b.kind !== 'forall' || a.vars.length !== b.vars.length) return false;
      const na = new Map(ea);
      const nb = new Map(eb);
      a.vars.forEach((v, i) => {
        na.set(v, depth + i);
        nb.set(b.vars[i] as string, depth + i);
      });
      return typeEq(a.body, b.body, na, nb, depth + a.vars.length);
    }
    case 'syn':
    case 'app':
      return false;
  }
}

/** Asserts `actual ≡ expected` (α-equivalence of normal types) for `rule`. */
export function expectType(rule: string, actual: Type, expected: Type, what: string): void {
  if (!typeEq(actual, expected)) fail(rule, `${what} has type ${show(actual)}, expected ${show(expected)}`);
}

/** `τ₁ → τ₂` split, or a failure for `rule`. */
export function arrowParts(rule: string, t: Type): [Type, Type] {
  if (t.kind === 'prim' && t.prim === 'Arrow' && t.args.length === 2) return [t.args[0] as Type, t.args[1] as Type];
  return fail(rule, `${show(t)} is not a function type`);
}

/** The argument of `'Update' τ` / `'Optional' τ` / …, or a failure. */
export function primArg(rule: string, t: Type, p: string): Type {
  if (t.kind === 'prim' && t.prim === p && t.args.length === 1) return t.args[0] as Type;
  return fail(rule, `${show(t)} is not ${p} τ`);
}
