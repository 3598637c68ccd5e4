/** Type application and substitution over the decoded `Type` (shared by the package decoder and the package index). */
import type { Type } from './types.js';

/** Applies `fun` to one more argument (Type.TApp). */
export function applyType(fun: Type, arg: Type): Type {
  switch (fun.kind) {
    case 'prim':
    case 'con':
    case 'syn':
    case 'var':
    case 'app':
      return { ...fun, args: [...fun.args, arg] };
    default:
      return { kind: 'app', fun, args: [arg] };
  }
}

/** Substitutes type variables (for record fields of a parameterised data type). */
export function substituteType(t: Type, env: ReadonlyMap<string, Type>): Type {
  if (env.size === 0) return t;
  switch (t.kind) {
    case 'var': {
      const v = env.get(t.name);
      const args = t.args.map((a) => substituteType(a, env));
      if (v === undefined) return { ...t, args };
      return args.reduce<Type>((acc, a) => applyType(acc, a), v);
    }
    case 'prim':
    case 'con':
    case 'syn':
      return { ...t, args: t.args.map((a) => substituteType(a, env)) };
    case 'app':
      return { kind: 'app', fun: substituteType(t.fun, env), args: t.args.map((a) => substituteType(a, env)) };
    case 'struct':
      return { kind: 'struct', fields: t.fields.map((f) => ({ name: f.name, type: substituteType(f.type, env) })) };
    case 'forall': {
      const inner = new Map(env);
      for (const v of t.vars) inner.delete(v);
      return { kind: 'forall', vars: t.vars, body: substituteType(t.body, inner) };
    }
    case 'nat':
      return t;
  }
}
