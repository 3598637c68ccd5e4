/**
 * Well-formed definitions (daml-lf-2.rst "Well-formed-definitions"): DefRec / DefVariant / DefEnum, DefTypeSynonym,
 * DefValue, DefTemplate with its choices (ChDef), key (KeyDefSome) and interface instances (ImplDef), DefException,
 * DefInterface, and serializable types (⊢ₛ). Each definition is checked on its own; failures are collected.
 */
import type { DefInterface, DefTemplate, ModuleAst, PackageAst, QualifiedName, TemplateChoice, Type } from '../ast/ast.js';
import { Ctx } from './ctx.js';
import { LfTypeError, fail } from './error.js';
import { Checker } from './expr.js';
import { PARTIES, T, show, subst } from './types.js';
import { World, qnText, sameName } from './world.js';

export interface CheckIssue {
  /** `Module:name` of the definition (template choices as `Module:Template:Choice`). */
  definition: string;
  rule: string;
  message: string;
}

export interface PackageCheck {
  packageId: string;
  /** Definitions checked: data types, synonyms, values, templates, interfaces, exceptions. */
  definitions: number;
  issues: CheckIssue[];
}

export class LfTypeChecker {
  readonly world: World;
  readonly checker: Checker;
  private readonly serializableMemo = new Map<string, boolean>();

  constructor(packages: (packageId: string) => PackageAst | undefined) {
    this.world = new World(packages);
    this.checker = new Checker(this.world);
  }

  /** Type-checks every definition of a package. */
  checkPackage(pkg: PackageAst): PackageCheck {
    const issues: CheckIssue[] = [];
    let definitions = 0;
    const run = (definition: string, f: () => void): void => {
      definitions++;
      try {
        f();
      } catch (e) {
        if (!(e instanceof LfTypeError)) throw e;
        issues.push({ definition, rule: e.rule, message: e.message });
      }
    };
    for (const m of pkg.modules) {
      const q = (name: string): QualifiedName => ({ packageId: pkg.packageId, module: m.name, name });
      for (const d of m.dataTypes) run(`${m.name}:${d.name}`, () => this.dataType(q(d.name)));
      for (const s of m.synonyms)
        run(`${m.name}:${s.name}`, () => {
          const ctx = new Ctx();
          ctx.withTyVars(
            s.params.map((p) => p.name),
            () => this.wellFormed(this.checker.type(s.type, ctx, 'DefTypeSynonym'), 'DefTypeSynonym'),
          );
        });
      for (const v of m.values) run(`${m.name}:${v.name}`, () => this.value(q(v.name)));
      for (const t of m.templates) run(`${m.name}:${t.name}`, () => this.template(m, q(t.name), t));
      for (const i of m.interfaces) run(`${m.name}:${i.name}`, () => this.iface(q(i.name), i));
      for (const x of m.exceptions)
        run(`${m.name}:${x.name}`, () => {
          const self = this.closedRecord(q(x.name), 'DefException');
          this.checker.check(x.message, T.arrow(self, T.text), new Ctx(), 'DefException', 'the message function');
        });
    }
    return { packageId: pkg.packageId, definitions, issues };
  }

  /** DefValue: `τ ↠ τ'`, `ε ⊢ e : τ'`. */
  value(q: QualifiedName): void {
    const v = this.world.value(q);
    const t = this.checker.type(v.type, new Ctx(), 'DefValue');
    this.wellFormed(t, 'DefValue');
    this.checker.check(v.expr, t, new Ctx(), 'DefValue', 'the value');
  }

  private dataType(q: QualifiedName): void {
    const dt = this.world.dataType(q);
    const ctx = new Ctx();
    ctx.withTyVars(
      dt.params.map((p) => p.name),
      () => {
        const field = (t: Type): void => this.wellFormed(this.checker.type(t, ctx, 'DefRec'), 'DefRec');
        if (dt.cons.kind === 'record' || dt.cons.kind === 'variant') {
          const names = new Set<string>();
          for (const f of dt.cons.kind === 'record' ? dt.cons.fields : dt.cons.constructors) {
            if (names.has(f.name)) fail('DefRec', `${f.name} is defined twice`);
            names.add(f.name);
            field(f.type);
          }
        }
      },
    );
  }

  /** The record type of a template / exception: no parameters, defined in the same module, serializable. */
  private closedRecord(q: QualifiedName, rule: string): Type {
    const dt = this.world.dataType(q);
    if (dt.cons.kind !== 'record' || dt.params.length > 0) fail(rule, `${qnText(q)} is not a record without type parameters`);
    const t = T.con(q);
    this.serializable(t, rule);
    return t;
  }

  private template(m: ModuleAst, q: QualifiedName, t: DefTemplate): void {
    const self = this.closedRecord(q, 'DefTemplate');
    const ctx = new Ctx();
    ctx.withVar(t.param, self, () => {
      if (t.precond) this.checker.check(t.precond, T.bool, ctx, 'DefTemplate', 'the precondition');
      this.checker.check(t.signatories, PARTIES, ctx, 'DefTemplate', 'the signatories');
      this.checker.check(t.observers, PARTIES, ctx, 'DefTemplate', 'the observers');
      if (t.key) {
        const kt = this.checker.type(t.key.type, ctx, 'KeyDefSome');
        this.serializable(kt, 'KeyDefSome');
        this.checker.check(t.key.keyExpr, kt, ctx, 'KeyDefSome', 'the key');
        this.checker.check(t.key.maintainers, T.arrow(kt, PARTIES), new Ctx(), 'KeyDefSome', 'the maintainers');
      }
    });
    const names = new Set<string>();
    for (const ch of t.choices) {
      if (names.has(ch.name)) fail('DefTemplate', `choice ${ch.name} is defined twice`);
      names.add(ch.name);
      this.choice(`${m.name}:${t.name}:${ch.name}`, q, t.param, self, ch);
    }
    const implemented = t.implements.map((i) => i.iface);
    for (const impl of t.implements) {
      const i = this.world.iface(impl.iface, 'ImplDef');
      for (const r of i.requires)
        if (!implemented.some((x) => sameName(x, r)))
          fail('ImplDef', `${qnText(impl.iface)} requires ${qnText(r)}, which ${t.name} does not implement`);
      ctx.withVar(t.param, self, () => {
        this.checker.check(impl.view, this.checker.norm.norm(i.view), ctx, 'ImplDef', `the view of ${qnText(impl.iface)}`);
        for (const method of i.methods) {
          const body =
            impl.methods.find((x) => x.name === method.name) ??
            fail('ImplDef', `the instance of ${qnText(impl.iface)} lacks method ${method.name}`);
          this.checker.check(body.value, this.checker.norm.norm(method.type), ctx, 'ImplDef', `method ${method.name}`);
        }
        for (const x of impl.methods)
          if (!i.methods.some((y) => y.name === x.name)) fail('ImplDef', `${qnText(impl.iface)} has no method ${x.name}`);
      });
    }
  }

  /** ChDef: argument and result serializable, controllers / observers / authorizers `List Party`, body `Update σ`. */
  private choice(where: string, q: QualifiedName, param: string, self: Type, ch: TemplateChoice): void {
    const ctx = new Ctx();
    const arg = this.checker.type(ch.argBinder.type, ctx, 'ChDef');
    const ret = this.checker.type(ch.returnType, ctx, 'ChDef');
    this.serializable(arg, 'ChDef');
    this.serializable(ret, 'ChDef');
    ctx.withVar(param, self, () =>
      ctx.withVar(ch.argBinder.name, arg, () => {
        this.checker.check(ch.controllers, PARTIES, ctx, 'ChDef', `the controllers of ${where}`);
        if (ch.observers) this.checker.check(ch.observers, PARTIES, ctx, 'ChDef', `the observers of ${where}`);
        if (ch.authorizers) this.checker.check(ch.authorizers, PARTIES, ctx, 'ChDef', `the authorizers of ${where}`);
        ctx.withVar(ch.selfBinder, T.contractId(T.con(q)), () =>
          this.checker.check(ch.update, T.update(ret), ctx, 'ChDef', `the body of ${where}`),
        );
      }),
    );
  }

  private iface(q: QualifiedName, i: DefInterface): void {
    if (i.requires.some((r) => sameName(r, q))) fail('DefInterface', `${qnText(q)} requires itself`);
    for (const r of i.requires)
      for (const rr of this.world.iface(r, 'DefInterface').requires)
        if (!i.requires.some((x) => sameName(x, rr)))
          fail('DefInterface', `${qnText(q)} requires ${qnText(r)} but not ${qnText(rr)}, which it requires`);
    const ctx = new Ctx();
    this.wellFormed(this.checker.type(i.view, ctx, 'DefInterface'), 'DefInterface');
    for (const m of i.methods) this.wellFormed(this.checker.type(m.type, ctx, 'DefInterface'), 'DefInterface');
    for (const ch of i.choices) this.choice(`${q.module}:${q.name}:${ch.name}`, q, i.param, T.con(q), ch);
  }

  /** Type constructors exist and are not over-applied; nat only as a Numeric scale. */
  wellFormed(t: Type, rule: string): void {
    switch (t.kind) {
      case 'con': {
        const dt = this.world.dataType(t);
        if (t.args.length > dt.params.length) fail(rule, `${show(t)}: ${qnText(t)} takes ${dt.params.length} type arguments`);
        t.args.forEach((a) => this.wellFormed(a, rule));
        return;
      }
      case 'prim':
        if (t.prim === 'Numeric' && t.args[0] && t.args[0].kind !== 'nat' && t.args[0].kind !== 'var')
          fail(rule, `${show(t)}: the scale must be a nat`);
        t.args.forEach((a, i) => (t.prim === 'Numeric' && i === 0 ? undefined : this.wellFormed(a, rule)));
        return;
      case 'var':
        t.args.forEach((a) => this.wellFormed(a, rule));
        return;
      case 'forall':
        this.wellFormed(t.body, rule);
        return;
      case 'struct':
        t.fields.forEach((f) => this.wellFormed(f.type, rule));
        return;
      case 'nat':
        return fail(rule, `a nat (${t.value}) outside Numeric`);
      default:
        return fail(rule, `${show(t)} is not normal`);
    }
  }

  /** `⊢ₛ τ` (STyUnit … STyEnumCon). */
  serializable(t: Type, rule: string): void {
    if (!this.isSerializable(t, new Set())) fail(rule, `${show(t)} is not serializable`);
  }

  private isSerializable(t: Type, visiting: Set<string>): boolean {
    switch (t.kind) {
      case 'prim':
        switch (t.prim) {
          case 'Unit':
          case 'Bool':
          case 'Int64':
          case 'Text':
          case 'Date':
          case 'Timestamp':
          case 'Party':
            return true;
          case 'Numeric':
            return t.args[0]?.kind === 'nat';
          case 'ContractId':
            return t.args.length === 1;
          case 'List':
          case 'Optional':
          case 'TextMap':
          case 'GenMap':
            return t.args.length === (t.prim === 'GenMap' ? 2 : 1) && t.args.every((a) => this.isSerializable(a, visiting));
          default:
            return false;
        }
      case 'con': {
        const key = show(t);
        const memo = this.serializableMemo.get(key);
        if (memo !== undefined) return memo;
        if (visiting.has(key)) return true;
        const dt = this.world.dataType(t);
        if (dt.params.length !== t.args.length || !t.args.every((a) => this.isSerializable(a, visiting))) return false;
        visiting.add(key);
        const sub = new Map(dt.params.map((p, i) => [p.name, t.args[i] as Type]));
        const field = (ft: Type): boolean => this.isSerializable(subst(this.checker.norm.norm(ft), sub), visiting);
        let ok: boolean;
        switch (dt.cons.kind) {
          case 'record':
            ok = dt.cons.fields.every((f) => field(f.type));
            break;
          case 'variant':
            ok = dt.cons.constructors.length > 0 && dt.cons.constructors.every((f) => field(f.type));
            break;
          case 'enum':
            ok = dt.cons.constructors.length > 0;
            break;
          case 'interface':
            ok = false;
        }
        visiting.delete(key);
        this.serializableMemo.set(key, ok);
        return ok;
      }
      default:
        return false;
    }
  }
}
