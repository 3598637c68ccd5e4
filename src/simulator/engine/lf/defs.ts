/**
 * The loaded packages and their compiled definitions: data types (runtime `DataInfo`), top-level values (compiled on
 * first use, evaluated lazily once and memoised), templates, choices, interfaces and interface instances (each
 * compiled to closures over the template parameter on first use), exception messages. Package ASTs are decoded by the
 * caller (once per package) and handed in through `PackageSource`.
 */
import type {
  DefDataType,
  DefException,
  DefInterface,
  DefTemplate,
  DefValue,
  Expr,
  InterfaceInstance,
  ModuleAst,
  PackageAst,
  QualifiedName,
  TemplateChoice,
} from '../../../daml-lf/ast/ast.js';
import { EngineError } from './errors.js';
import type { Node } from './machine.js';
import { VAny, VRecord, type DataInfo, type V, type VClosure } from './value.js';

export interface PackageSource {
  get(packageId: string): PackageAst | undefined;
}

/** Compiles expressions for the definitions (implemented by compile.ts; injected to keep imports acyclic). */
export interface DefsCompiler {
  /** A closed expression → code and register count. */
  compileTop(e: Expr, label: string): { code: Node; slots: number };
  /** `λ params. body` as a closure with no free variables. */
  compileFunction(params: string[], body: Expr, label: string): VClosure;
}

export const qnKey = (q: QualifiedName): string => `${q.packageId}:${q.module}:${q.name}`;
export const qnText = (q: QualifiedName): string => `${q.packageId}:${q.module}:${q.name}`;

export interface ValueRef {
  readonly qn: QualifiedName;
  readonly def: DefValue;
  code?: Node;
  slots: number;
  value?: V;
}

export interface ChoiceRt {
  def: TemplateChoice;
  /** (this, arg) → List Party. */
  controllers: VClosure;
  observers?: VClosure;
  authorizers?: VClosure;
  /** (self, this, arg) → Update result. */
  body: VClosure;
}

export interface InstanceRt {
  def: InterfaceInstance;
  /** this → view. */
  view: VClosure;
  methods: Map<string, VClosure>;
}

export interface TemplateRt {
  qn: QualifiedName;
  id: string;
  pkg: PackageAst;
  def: DefTemplate;
  /** this → Bool (absent precondition = True). */
  precond?: VClosure;
  signatories: VClosure;
  observers: VClosure;
  key?: { keyFn: VClosure; maintainers: VClosure };
  choice(name: string): ChoiceRt | undefined;
  instance(iface: QualifiedName): InstanceRt | undefined;
}

export interface InterfaceRt {
  qn: QualifiedName;
  id: string;
  pkg: PackageAst;
  def: DefInterface;
  choice(name: string): ChoiceRt | undefined;
}

interface ModIndex {
  mod: ModuleAst;
  values: Map<string, DefValue>;
  templates: Map<string, DefTemplate>;
  interfaces: Map<string, DefInterface>;
  dataTypes: Map<string, DefDataType>;
  exceptions: Map<string, DefException>;
}

const byName = <T extends { name: string }>(xs: T[]): Map<string, T> => new Map(xs.map((x) => [x.name, x]));
const v = (name: string): Expr => ({ tag: 'var', name });

/** The stable ArithmeticError exception of Daml-LF 2 (daml-prim, `DA.Exception.ArithmeticError`). */
export const ARITHMETIC_ERROR: QualifiedName = {
  packageId: 'ee33fb70918e7aaa3d3fc44d64a399fb2bf5bcefc54201b1690ecd448551ba88',
  module: 'DA.Exception.ArithmeticError',
  name: 'ArithmeticError',
};

export class Defs {
  private readonly modules = new Map<string, ModIndex>();
  private readonly infos = new Map<string, DataInfo>();
  private readonly values = new Map<string, ValueRef>();
  private readonly templates = new Map<string, TemplateRt>();
  private readonly interfaces = new Map<string, InterfaceRt>();
  private readonly messages = new Map<string, VClosure>();
  compiler!: DefsCompiler;

  constructor(readonly source: PackageSource) {}

  pkg(id: string): PackageAst {
    const p = this.source.get(id);
    if (!p) throw new EngineError('UnknownDefinition', `Package ${id} is not loaded`, { packageId: id });
    return p;
  }

  private module(packageId: string, module: string): ModIndex {
    const key = `${packageId}:${module}`;
    let m = this.modules.get(key);
    if (!m) {
      const mod = this.pkg(packageId).modules.find((x) => x.name === module);
      if (!mod) throw new EngineError('UnknownDefinition', `Module ${module} not found in package ${packageId}`);
      m = {
        mod,
        values: byName(mod.values),
        templates: byName(mod.templates),
        interfaces: byName(mod.interfaces),
        dataTypes: byName(mod.dataTypes),
        exceptions: byName(mod.exceptions),
      };
      this.modules.set(key, m);
    }
    return m;
  }

  private lookup<T>(q: QualifiedName, pick: (m: ModIndex) => Map<string, T>, what: string): T {
    const d = pick(this.module(q.packageId, q.module)).get(q.name);
    if (d === undefined) throw new EngineError('UnknownDefinition', `Unknown ${what} ${qnText(q)}`, { id: qnText(q) });
    return d;
  }

  dataType(q: QualifiedName): DefDataType {
    return this.lookup(q, (m) => m.dataTypes, 'data type');
  }

  hasTemplate(q: QualifiedName): boolean {
    try {
      return this.module(q.packageId, q.module).templates.has(q.name);
    } catch {
      return false;
    }
  }

  dataInfo(q: QualifiedName): DataInfo {
    const key = qnKey(q);
    let info = this.infos.get(key);
    if (!info) {
      let names: string[];
      if (key === qnKey(ARITHMETIC_ERROR) && !this.source.get(q.packageId)) names = ['message'];
      else {
        const c = this.dataType(q).cons;
        names =
          c.kind === 'record'
            ? c.fields.map((f) => f.name)
            : c.kind === 'variant'
              ? c.constructors.map((f) => f.name)
              : c.kind === 'enum'
                ? c.constructors
                : [];
      }
      info = { id: key, tycon: q, names, index: new Map(names.map((n, i) => [n, i])) };
      this.infos.set(key, info);
    }
    return info;
  }

  valueRef(q: QualifiedName): ValueRef {
    const key = qnKey(q);
    let r = this.values.get(key);
    if (!r) {
      r = { qn: q, def: this.lookup(q, (m) => m.values, 'value'), slots: 0 };
      this.values.set(key, r);
    }
    return r;
  }

  /** Compiles a value's body on first use. */
  valueCode(r: ValueRef): Node {
    if (!r.code) {
      const c = this.compiler.compileTop(r.def.expr, qnText(r.qn));
      r.code = c.code;
      r.slots = c.slots;
    }
    return r.code;
  }

  private fn(params: string[], body: Expr, label: string): VClosure {
    return this.compiler.compileFunction(params, body, label);
  }

  private choiceRt(c: TemplateChoice, self: string, param: string, label: string): ChoiceRt {
    const args = [param, c.argBinder.name];
    const rt: ChoiceRt = {
      def: c,
      controllers: this.fn(args, c.controllers, `${label}:${c.name}:controllers`),
      body: this.fn([self, ...args], c.update, `${label}:${c.name}`),
    };
    if (c.observers) rt.observers = this.fn(args, c.observers, `${label}:${c.name}:observers`);
    if (c.authorizers) rt.authorizers = this.fn(args, c.authorizers, `${label}:${c.name}:authorizers`);
    return rt;
  }

  template(q: QualifiedName): TemplateRt {
    const key = qnKey(q);
    const known = this.templates.get(key);
    if (known) return known;
    const def = this.lookup(q, (m) => m.templates, 'template');
    const label = qnText(q);
    const p = def.param;
    const choices = new Map<string, ChoiceRt>();
    const instances = new Map<string, InstanceRt>();
    const lazy = <T>(f: () => T): (() => T) => {
      let x: T | undefined;
      return () => (x ??= f());
    };
    const sig = lazy(() => this.fn([p], def.signatories, `${label}:signatories`));
    const obs = lazy(() => this.fn([p], def.observers, `${label}:observers`));
    const pre = lazy(() => (def.precond ? this.fn([p], def.precond, `${label}:ensure`) : undefined));
    const key_ = lazy(() =>
      def.key
        ? {
            keyFn: this.fn([p], def.key.keyExpr, `${label}:key`),
            maintainers: this.fn(['%key'], { tag: 'app', fun: def.key.maintainers, args: [v('%key')] }, `${label}:maintainers`),
          }
        : undefined,
    );
    const rt: TemplateRt = {
      qn: q,
      id: label,
      pkg: this.pkg(q.packageId),
      def,
      get precond() {
        return pre();
      },
      get signatories() {
        return sig();
      },
      get observers() {
        return obs();
      },
      get key() {
        return key_();
      },
      choice: (name) => {
        let c = choices.get(name);
        if (!c) {
          const cd = def.choices.find((x) => x.name === name);
          if (!cd) return undefined;
          c = this.choiceRt(cd, cd.selfBinder, p, label);
          choices.set(name, c);
        }
        return c;
      },
      instance: (iface) => {
        const ik = qnKey(iface);
        let i = instances.get(ik);
        if (!i) {
          const d = def.implements.find((x) => qnKey(x.iface) === ik);
          if (!d) return undefined;
          i = {
            def: d,
            view: this.fn([p], d.view, `${label}:view:${ik}`),
            methods: new Map(d.methods.map((mm) => [mm.name, this.fn([p], mm.value, `${label}:${ik}:${mm.name}`)])),
          };
          instances.set(ik, i);
        }
        return i;
      },
    };
    this.templates.set(key, rt);
    return rt;
  }

  iface(q: QualifiedName): InterfaceRt {
    const key = qnKey(q);
    const known = this.interfaces.get(key);
    if (known) return known;
    const def = this.lookup(q, (m) => m.interfaces, 'interface');
    const choices = new Map<string, ChoiceRt>();
    const rt: InterfaceRt = {
      qn: q,
      id: qnText(q),
      pkg: this.pkg(q.packageId),
      def,
      choice: (name) => {
        let c = choices.get(name);
        if (!c) {
          const cd = def.choices.find((x) => x.name === name);
          if (!cd) return undefined;
          c = this.choiceRt(cd, cd.selfBinder, def.param, qnText(q));
          choices.set(name, c);
        }
        return c;
      },
    };
    this.interfaces.set(key, rt);
    return rt;
  }

  /** The message function of an exception type. */
  exceptionMessage(q: QualifiedName): VClosure {
    const key = qnKey(q);
    let f = this.messages.get(key);
    if (!f) {
      if (key === qnKey(ARITHMETIC_ERROR) && !this.source.get(q.packageId))
        f = this.fn(['%x'], { tag: 'recProj', type: { tycon: q, args: [] }, field: 'message', record: v('%x') }, 'ArithmeticError:message');
      else {
        const d = this.lookup(q, (m) => m.exceptions, 'exception');
        f = this.fn(['%x'], { tag: 'app', fun: d.message, args: [v('%x')] }, `${qnText(q)}:message`);
      }
      this.messages.set(key, f);
    }
    return f;
  }

  arithmeticError(message: string): VAny {
    const info = this.dataInfo(ARITHMETIC_ERROR);
    return new VAny({ kind: 'con', ...ARITHMETIC_ERROR, args: [] }, new VRecord(info, [message]));
  }
}
