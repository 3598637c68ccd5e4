/**
 * The typing context Γ and the checker interface the update and case rules use (kept apart from ./expr.ts so the
 * rule files do not import each other).
 */
import type { Expr, QualifiedName, Type } from '../ast/ast.js';
import type { Normalizer } from './types.js';
import type { World } from './world.js';

/** The typing context Γ: expression variables and type variables in scope (shadowing restored on exit). */
export class Ctx {
  readonly vars = new Map<string, Type>();
  readonly tyVars = new Map<string, number>();

  /** Runs `f` with `name : t` bound. */
  withVar<R>(name: string, t: Type, f: () => R): R {
    const prev = this.vars.get(name);
    this.vars.set(name, t);
    try {
      return f();
    } finally {
      if (prev === undefined) this.vars.delete(name);
      else this.vars.set(name, prev);
    }
  }
  withTyVars<R>(names: string[], f: () => R): R {
    for (const n of names) this.tyVars.set(n, (this.tyVars.get(n) ?? 0) + 1);
    try {
      return f();
    } finally {
      for (const n of names) {
        const c = (this.tyVars.get(n) ?? 1) - 1;
        if (c === 0) this.tyVars.delete(n);
        else this.tyVars.set(n, c);
      }
    }
  }
}

export interface CheckerApi {
  readonly world: World;
  readonly norm: Normalizer;
  synth(e: Expr, ctx: Ctx): Type;
  check(e: Expr, expected: Type, ctx: Ctx, rule: string, what: string): void;
  /** `τ ↠ τ'` with its free type variables in scope. */
  type(t: Type, ctx: Ctx, rule: string): Type;
  params(names: string[], args: Type[], q: QualifiedName, rule: string): Map<string, Type>;
  exceptionType(t: Type, rule: string): void;
}
