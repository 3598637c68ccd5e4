/** Rendering and comparison helpers for `Type`. */
import type { Type } from './types.js';

function needsParens(t: Type): boolean {
  switch (t.kind) {
    case 'prim':
    case 'con':
    case 'var':
    case 'syn':
      return t.args.length > 0;
    case 'app':
    case 'forall':
      return true;
    default:
      return false;
  }
}

function arg(t: Type): string {
  const s = typeToString(t);
  return needsParens(t) ? `(${s})` : s;
}

/**
 * Daml-like rendering: `Numeric 10`, `Optional (ContractId Main:Iou)`, `[Party]`, `Map.Map Text Int64` as
 * `GenMap Text Int64`. Types of other packages are shown as `Module:Name` (package id omitted).
 */
export function typeToString(t: Type): string {
  const withArgs = (head: string, args: Type[]): string => [head, ...args.map(arg)].join(' ');
  switch (t.kind) {
    case 'prim':
      if (t.prim === 'List' && t.args.length === 1) return `[${typeToString(t.args[0] as Type)}]`;
      if (t.prim === 'Arrow' && t.args.length === 2) return `${arg(t.args[0] as Type)} -> ${typeToString(t.args[1] as Type)}`;
      return withArgs(t.prim, t.args);
    case 'con':
      return withArgs(`${t.module}:${t.name}`, t.args);
    case 'syn':
      return withArgs(`${t.synonym.module}:${t.synonym.name}`, t.args);
    case 'var':
      return withArgs(t.name, t.args);
    case 'nat':
      return String(t.value);
    case 'forall':
      return `forall ${t.vars.join(' ')}. ${typeToString(t.body)}`;
    case 'struct':
      return `<${t.fields.map((f) => `${f.name}: ${typeToString(f.type)}`).join(', ')}>`;
    case 'app':
      return withArgs(arg(t.fun), t.args);
  }
}

export interface TypeEqualsOptions {
  /** Compare type constructors by module and name only, ignoring package ids (default false). */
  ignorePackageIds?: boolean;
}

/** Structural equality. */
export function typeEquals(a: Type, b: Type, opts: TypeEqualsOptions = {}): boolean {
  const eqArgs = (x: Type[], y: Type[]): boolean => x.length === y.length && x.every((t, i) => typeEquals(t, y[i] as Type, opts));
  switch (a.kind) {
    case 'prim':
      return b.kind === 'prim' && a.prim === b.prim && eqArgs(a.args, b.args);
    case 'con':
      return (
        b.kind === 'con' &&
        a.module === b.module &&
        a.name === b.name &&
        (opts.ignorePackageIds === true || a.packageId === b.packageId) &&
        eqArgs(a.args, b.args)
      );
    case 'syn':
      return (
        b.kind === 'syn' &&
        a.synonym.module === b.synonym.module &&
        a.synonym.name === b.synonym.name &&
        (opts.ignorePackageIds === true || a.synonym.packageId === b.synonym.packageId) &&
        eqArgs(a.args, b.args)
      );
    case 'var':
      return b.kind === 'var' && a.name === b.name && eqArgs(a.args, b.args);
    case 'nat':
      return b.kind === 'nat' && a.value === b.value;
    case 'forall':
      return (
        b.kind === 'forall' &&
        a.vars.length === b.vars.length &&
        a.vars.every((v, i) => v === b.vars[i]) &&
        typeEquals(a.body, b.body, opts)
      );
    case 'struct':
      return (
        b.kind === 'struct' &&
        a.fields.length === b.fields.length &&
        a.fields.every((f, i) => f.name === b.fields[i]?.name && typeEquals(f.type, (b.fields[i] as { type: Type }).type, opts))
      );
    case 'app':
      return b.kind === 'app' && typeEquals(a.fun, b.fun, opts) && eqArgs(a.args, b.args);
  }
}
