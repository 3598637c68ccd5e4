/**
 * Visits every expression of a package AST (definitions, choices, keys, interface instances, nested updates and case
 * alternatives), iteratively (no recursion on the JS stack). Shared (interned) expressions are visited at every use.
 */
import type { Expr, ModuleAst, PackageAst, Update } from './ast.js';

/** Direct sub-expressions of an update. */
export function updateChildren(u: Update): Expr[] {
  switch (u.tag) {
    case 'pure':
      return [u.expr];
    case 'block':
      return [...u.bindings.map((b) => b.bound), u.body];
    case 'create':
    case 'createInterface':
      return [u.expr];
    case 'exercise':
    case 'exerciseInterface':
      return u.tag === 'exerciseInterface' && u.guard ? [u.cid, u.arg, u.guard] : [u.cid, u.arg];
    case 'exerciseByKey':
      return [u.key, u.arg];
    case 'fetch':
    case 'fetchInterface':
      return [u.cid];
    case 'embedExpr':
      return [u.body];
    case 'tryCatch':
      return [u.tryExpr, u.catchExpr];
    case 'ledgerTimeLt':
      return [u.expr];
    case 'getTime':
    case 'lookupByKey':
    case 'fetchByKey':
    case 'queryNByKey':
      return [];
  }
}

/** Direct sub-expressions of an expression (those of an `update` expression included). */
export function exprChildren(e: Expr): Expr[] {
  switch (e.tag) {
    case 'var':
    case 'val':
    case 'builtin':
    case 'builtinCon':
    case 'lit':
    case 'enumCon':
    case 'nil':
    case 'none':
    case 'typeRep':
    case 'experimental':
      return [];
    case 'recCon':
    case 'structCon':
      return e.fields.map((f) => f.expr);
    case 'recProj':
      return [e.record];
    case 'recUpd':
      return [e.record, e.update];
    case 'variantCon':
      return [e.arg];
    case 'structProj':
      return [e.struct];
    case 'structUpd':
      return [e.struct, e.update];
    case 'app':
      return [e.fun, ...e.args];
    case 'tyApp':
    case 'toAny':
    case 'fromAny':
    case 'toAnyException':
    case 'fromAnyException':
    case 'throw':
    case 'toInterface':
    case 'fromInterface':
    case 'callInterface':
    case 'viewInterface':
    case 'signatoryInterface':
    case 'observerInterface':
    case 'interfaceTemplateTypeRep':
    case 'toRequiredInterface':
    case 'fromRequiredInterface':
      return [e.expr];
    case 'unsafeFromInterface':
    case 'unsafeFromRequiredInterface':
      return [e.cid, e.expr];
    case 'abs':
    case 'tyAbs':
      return [e.body];
    case 'case':
      return [e.scrut, ...e.alts.map((a) => a.body)];
    case 'let':
      return [...e.bindings.map((b) => b.bound), e.body];
    case 'cons':
      return [...e.front, e.tail];
    case 'some':
      return [e.value];
    case 'update':
      return updateChildren(e.update);
    case 'choiceController':
    case 'choiceObserver':
      return [e.contract, e.arg];
  }
}

/** The root expressions of a module's definitions. */
export function moduleRoots(m: ModuleAst): Expr[] {
  const roots: Expr[] = [];
  for (const v of m.values) roots.push(v.expr);
  for (const x of m.exceptions) roots.push(x.message);
  for (const t of m.templates) {
    if (t.precond) roots.push(t.precond);
    roots.push(t.signatories, t.observers);
    if (t.key) roots.push(t.key.keyExpr, t.key.maintainers);
    for (const c of t.choices) {
      roots.push(c.controllers, c.update);
      if (c.observers) roots.push(c.observers);
      if (c.authorizers) roots.push(c.authorizers);
    }
    for (const i of t.implements) {
      roots.push(i.view);
      for (const mm of i.methods) roots.push(mm.value);
    }
  }
  for (const i of m.interfaces)
    for (const c of i.choices) {
      roots.push(c.controllers, c.update);
      if (c.observers) roots.push(c.observers);
      if (c.authorizers) roots.push(c.authorizers);
    }
  return roots;
}

/** Calls `visit` for every expression of the package; `visitUpdate` for every update. */
export function walkPackage(pkg: PackageAst, visit: (e: Expr) => void, visitUpdate?: (u: Update) => void): void {
  const stack: Expr[] = [];
  for (const m of pkg.modules) stack.push(...moduleRoots(m));
  while (stack.length > 0) {
    const e = stack.pop() as Expr;
    visit(e);
    if (e.tag === 'update') visitUpdate?.(e.update);
    const kids = exprChildren(e);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as Expr);
  }
}
