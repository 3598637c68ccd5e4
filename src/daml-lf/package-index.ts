/**
 * Cross-package lookups over a set of package summaries (e.g. all packages of a DAR, or all packages a participant
 * knows): resolve type constructors to their data types with type arguments substituted, find templates/interfaces by
 * id, and build an example JSON value (Ledger API JSON encoding of Daml-LF values) for a type, as a starting point for
 * create/exercise forms.
 */
import { substituteType } from './type-subst.js';
import type { DataType, Field, Interface, PackageSummary, Template, Type, TypeConRef } from './types.js';

export interface ResolvedDataType {
  packageId: string;
  module: string;
  name: string;
  /** The data type with the constructor's type arguments substituted and self references made absolute. */
  dataType: DataType;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Replaces `'self'` package references by `packageId`, so the type can be used outside its package. */
export function absolutizeType(t: Type, packageId: string): Type {
  const ref = (r: TypeConRef): TypeConRef => (r.packageId === 'self' ? { ...r, packageId } : r);
  switch (t.kind) {
    case 'con':
      return { ...t, packageId: t.packageId === 'self' ? packageId : t.packageId, args: t.args.map((a) => absolutizeType(a, packageId)) };
    case 'syn':
      return { kind: 'syn', synonym: ref(t.synonym), args: t.args.map((a) => absolutizeType(a, packageId)) };
    case 'prim':
    case 'var':
      return { ...t, args: t.args.map((a) => absolutizeType(a, packageId)) };
    case 'app':
      return { kind: 'app', fun: absolutizeType(t.fun, packageId), args: t.args.map((a) => absolutizeType(a, packageId)) };
    case 'struct':
      return { kind: 'struct', fields: t.fields.map((f) => ({ name: f.name, type: absolutizeType(f.type, packageId) })) };
    case 'forall':
      return { kind: 'forall', vars: t.vars, body: absolutizeType(t.body, packageId) };
    case 'nat':
      return t;
  }
}

function parseId(id: string): TypeConRef | undefined {
  const parts = id.split(':');
  if (parts.length !== 3 || !parts[0] || !parts[1] || !parts[2]) return undefined;
  return { packageId: parts[0], module: parts[1], name: parts[2] };
}

export class PackageIndex {
  private readonly byId = new Map<string, PackageSummary>();
  /** Packages added by `addLazy`, decoded on first use (insertion order is kept with `order`). */
  private readonly loaders = new Map<string, () => PackageSummary>();
  private readonly order: string[] = [];

  constructor(packages: Iterable<PackageSummary> = []) {
    for (const p of packages) this.add(p);
  }

  add(pkg: PackageSummary): void {
    if (!this.byId.has(pkg.packageId) && !this.loaders.delete(pkg.packageId)) this.order.push(pkg.packageId);
    this.byId.set(pkg.packageId, pkg);
  }

  /** Adds a package whose summary `load` gives when it is first needed (decoding a package is not free). */
  addLazy(packageId: string, load: () => PackageSummary): void {
    if (!this.byId.delete(packageId) && !this.loaders.has(packageId)) this.order.push(packageId);
    this.loaders.set(packageId, load);
  }

  get(packageId: string): PackageSummary | undefined {
    const loaded = this.byId.get(packageId);
    if (loaded !== undefined) return loaded;
    const load = this.loaders.get(packageId);
    if (load === undefined) return undefined;
    const pkg = load();
    this.loaders.delete(packageId);
    this.byId.set(packageId, pkg);
    return pkg;
  }

  get packages(): PackageSummary[] {
    return this.order.map((id) => this.get(id) as PackageSummary);
  }

  /** Package ids referenced by `packageId` (transitively) that are not in the index. */
  missingDependencies(packageId: string): string[] {
    const missing = new Set<string>();
    const seen = new Set<string>();
    const visit = (id: string): void => {
      if (seen.has(id)) return;
      seen.add(id);
      const p = this.get(id);
      if (p === undefined) {
        missing.add(id);
        return;
      }
      p.dependencies.forEach(visit);
    };
    visit(packageId);
    return [...missing].sort();
  }

  /** A template by `packageId:Module:Entity`. */
  template(templateId: string): { pkg: PackageSummary; template: Template } | undefined {
    const ref = parseId(templateId);
    const pkg = ref && this.get(ref.packageId);
    const template = pkg?.modules.find((m) => m.name === ref?.module)?.templates.find((t) => t.name === ref?.name);
    return pkg && template ? { pkg, template } : undefined;
  }

  /** An interface by `packageId:Module:Entity`. */
  interface(interfaceId: string): { pkg: PackageSummary; iface: Interface } | undefined {
    const ref = parseId(interfaceId);
    const pkg = ref && this.get(ref.packageId);
    const iface = pkg?.modules.find((m) => m.name === ref?.module)?.interfaces.find((i) => i.name === ref?.name);
    return pkg && iface ? { pkg, iface } : undefined;
  }

  /** Templates implementing an interface (`packageId:Module:Entity`), as template ids. */
  implementationsOf(interfaceId: string): string[] {
    const out: string[] = [];
    for (const p of this.packages) {
      for (const m of p.modules)
        for (const t of m.templates) if (t.implements.includes(interfaceId)) out.push(`${p.packageId}:${m.name}:${t.name}`);
    }
    return out;
  }

  /**
   * Resolves a `con` type seen from package `from` (whose `'self'` it means) to its data type, with type arguments
   * substituted and all references made absolute. Undefined if the package or type is unknown, or arity differs.
   */
  resolve(from: string, t: Extract<Type, { kind: 'con' }>): ResolvedDataType | undefined {
    const packageId = t.packageId === 'self' ? from : t.packageId;
    const dt = this.get(packageId)
      ?.modules.find((m) => m.name === t.module)
      ?.dataTypes.find((d) => d.name === t.name);
    if (dt === undefined || dt.params.length !== t.args.length) return undefined;
    const env = new Map<string, Type>();
    dt.params.forEach((p, i) => env.set(p, absolutizeType(t.args[i] as Type, from)));
    const fix = (fs: Field[]): Field[] => fs.map((f) => ({ name: f.name, type: substituteType(absolutizeType(f.type, packageId), env) }));
    const dataType: DataType =
      dt.kind === 'record'
        ? { ...dt, fields: fix(dt.fields) }
        : dt.kind === 'variant'
          ? { ...dt, constructors: fix(dt.constructors) }
          : { ...dt, constructors: [...dt.constructors] };
    return { packageId, module: t.module, name: t.name, dataType };
  }

  /**
   * An example value of type `t` in the Ledger API JSON encoding (records as objects, Optional as null, List as [],
   * Int64/Numeric as strings, variants as `{tag, value}`, enums as their first constructor, TextMap as {},
   * GenMap as []). Types that cannot be resolved, and recursion beyond `maxDepth`, yield null.
   */
  exampleValue(from: string, t: Type, maxDepth = 8): JsonValue {
    if (maxDepth < 0) return null;
    switch (t.kind) {
      case 'prim':
        switch (t.prim) {
          case 'Unit':
            return {};
          case 'Bool':
            return false;
          case 'Int64':
            return '0';
          case 'Numeric': {
            const scale = t.args[0]?.kind === 'nat' ? t.args[0].value : 10;
            return scale > 0 ? `0.${'0'.repeat(scale)}` : '0';
          }
          case 'Text':
          case 'Party':
          case 'ContractId':
            return '';
          case 'Date':
            return '1970-01-01';
          case 'Timestamp':
            return '1970-01-01T00:00:00Z';
          case 'Optional':
            return null;
          case 'List':
          case 'GenMap':
            return [];
          case 'TextMap':
            return {};
          default:
            return null;
        }
      case 'con': {
        const r = this.resolve(from, t);
        if (r === undefined) return null;
        const d = r.dataType;
        if (d.kind === 'record') {
          const o: { [key: string]: JsonValue } = {};
          for (const f of d.fields) o[f.name] = this.exampleValue(r.packageId, f.type, maxDepth - 1);
          return o;
        }
        if (d.kind === 'enum') return d.constructors[0] ?? null;
        const first = d.constructors[0];
        return first === undefined ? null : { tag: first.name, value: this.exampleValue(r.packageId, first.type, maxDepth - 1) };
      }
      default:
        return null;
    }
  }
}
