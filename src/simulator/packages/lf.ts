/**
 * Built-in packages as real Daml-LF 2 archives. The TypeScript definitions (`PackageDef`) are the single source of
 * truth: this module derives the LF description from them (templates, their fields, keys, choices with argument and
 * return types, implemented interfaces, interface views and choices, named records and variants), and
 * `encodeArchive` turns that into an `Archive` whose package id is the SHA-256 of its payload.
 * `GET /v2/packages/{id}` serves those bytes, so a client reading the archive (`readDalf`) sees exactly the signatures
 * the simulator enforces.
 *
 * Types and interfaces of other built-in packages (`package` on a record or variant, `#name:M:E` in an implementation
 * or a contract id type) become references to those packages' ids; the implicit `Archive` choice of templates and
 * interfaces takes `DA.Internal.Template:Archive` of the built-in `ghc-stdlib-DA-Internal-Template` when it is
 * defined before the package, as the Daml compiler's archives do.
 *
 * Signatories, observers, controllers, ensure clauses and choice bodies are behaviour (TypeScript); the archive carries
 * type-correct stub expressions for them (see `src/daml-lf/lf2-encode.ts`).
 */
import { encodeArchive, type DataTypeDescription, type ModuleDescription, type PackageDescription } from '../../daml-lf/index.js';
import type { Field, Type } from '../../daml-lf/index.js';
import type { ChoiceDef, FieldDef, FieldType, InterfaceDef, PackageDef } from './types.js';

/** Interface choices (optional in `InterfaceDef`). */
const interfaceChoices = (i: InterfaceDef): ChoiceDef[] => i.choices ?? [];

const prim = (p: Extract<Type, { kind: 'prim' }>['prim'], ...args: Type[]): Type => ({ kind: 'prim', prim: p, args });

/** The stable package holding `DA.Internal.Template:Archive`, the argument of every implicit Archive choice. */
export const TEMPLATE_STDLIB = 'ghc-stdlib-DA-Internal-Template';

/** `Module:Entity` → (module, entity). */
function splitQn(qn: string): { module: string; name: string } {
  const i = qn.lastIndexOf(':');
  if (i <= 0 || i === qn.length - 1) throw new Error(`built-in package: '${qn}' is not Module:Entity`);
  return { module: qn.slice(0, i), name: qn.slice(i + 1) };
}

/** Package id of an earlier built-in package, by name (throws when there is none). */
export type PackageIdResolver = (packageName: string) => string;

const selfOnly: PackageIdResolver = (name) => {
  throw new Error(`built-in package: cannot refer to package ${name} without the registry`);
};

class Describer {
  private readonly modules = new Map<string, ModuleDescription>();
  /** Named types of this package being described or done (recursive types refer to themselves). */
  private readonly named = new Map<string, FieldType>();

  constructor(
    private readonly pkgName: string,
    private readonly packageIdOf: PackageIdResolver,
    private readonly archiveArg: Type | undefined,
  ) {}

  module(name: string): ModuleDescription {
    let m = this.modules.get(name);
    if (!m) {
      m = { name, dataTypes: [], templates: [], interfaces: [] };
      this.modules.set(name, m);
    }
    return m;
  }

  /** `#package:M:E` or `M:E` (this package) → a type constructor reference. */
  private con(ref: string): Type {
    if (!ref.startsWith('#')) return { kind: 'con', packageId: 'self', ...splitQn(ref), args: [] };
    const i = ref.indexOf(':');
    const name = ref.slice(1, i);
    const packageId = name === this.pkgName ? 'self' : this.packageIdOf(name);
    return { kind: 'con', packageId, ...splitQn(ref.slice(i + 1)), args: [] };
  }

  /** An interface reference (`M:E` or `#package:M:E`) as the encoder takes it (`M:E` or `packageId:M:E`). */
  interfaceRef(ref: string): string {
    const c = this.con(ref) as Extract<Type, { kind: 'con' }>;
    return c.packageId === 'self' ? `${c.module}:${c.name}` : `${c.packageId}:${c.module}:${c.name}`;
  }

  /** Registers a named data type of this package once (a second definition must be the same object). */
  private define(t: Extract<FieldType, { kind: 'Record' | 'Variant' }>): Type {
    const ref = this.con(t.name);
    const seen = this.named.get(t.name);
    if (seen !== undefined) {
      if (seen !== t && JSON.stringify(this.shape(seen)) !== JSON.stringify(this.shape(t)))
        throw new Error(`built-in package ${this.pkgName}: type ${t.name} is defined twice differently`);
      return ref;
    }
    this.named.set(t.name, t);
    const { module, name } = splitQn(t.name);
    const dt: DataTypeDescription =
      t.kind === 'Record'
        ? { kind: 'record', name, fields: this.fields(t.fields) }
        : { kind: 'variant', name, constructors: this.fields(t.constructors) };
    this.module(module).dataTypes?.push(dt);
    return ref;
  }

  /** A type's field names (for the double-definition check; nested types by name only). */
  private shape(t: FieldType): unknown {
    if (t.kind === 'Record')
      return t.fields.map((f) => [f.name, f.type.kind === 'Record' || f.type.kind === 'Variant' ? f.type.name : f.type]);
    if (t.kind === 'Variant') return t.constructors.map((f) => f.name);
    return t;
  }

  type(t: FieldType): Type {
    switch (t.kind) {
      case 'Party':
      case 'Text':
      case 'Int64':
      case 'Bool':
      case 'Date':
      case 'Unit':
        return prim(t.kind);
      case 'Time':
        return prim('Timestamp');
      case 'Numeric':
        return prim('Numeric', { kind: 'nat', value: t.scale });
      case 'ContractId':
        return prim('ContractId', t.template === undefined ? prim('Any') : this.con(t.template));
      case 'List':
        return prim('List', this.type(t.elem));
      case 'Optional':
        return prim('Optional', this.type(t.elem));
      case 'TextMap':
        return prim('TextMap', this.type(t.elem));
      case 'GenMap':
        return prim('GenMap', this.type(t.key), this.type(t.value));
      case 'Record':
      case 'Variant':
        if (t.package !== undefined && t.package !== this.pkgName) return this.con(`#${t.package}:${t.name}`);
        return this.define(t);
    }
  }

  fields(fs: FieldDef[]): Field[] {
    return fs.map((f) => ({ name: f.name, type: this.type(f.type) }));
  }

  choice(c: ChoiceDef): { name: string; consuming: boolean; argFields: Field[]; returnType: Type } {
    return { name: c.name, consuming: c.consuming, argFields: this.fields(c.argument), returnType: this.type(c.returnType) };
  }

  /** The implicit Archive choice; its argument is the stdlib's `Archive` record, or a local one. */
  archiveChoice(module: string): { name: string; consuming: boolean; argType: Type; returnType: Type } {
    const argType = this.archiveArg ?? this.define({ kind: 'Record', name: `${module}:Archive`, fields: [] });
    return { name: 'Archive', consuming: true, argType, returnType: prim('Unit') };
  }

  describe(def: PackageDef): PackageDescription {
    for (const t of def.types ?? []) this.type(t);
    for (const i of def.interfaces) {
      const view = this.type({ kind: 'Record', name: i.view.name, fields: i.view.fields });
      this.module(i.module).interfaces?.push({
        name: i.entity,
        viewType: view,
        choices: [this.archiveChoice(i.module), ...interfaceChoices(i).map((c) => this.choice(c))],
      });
    }
    for (const t of def.templates) {
      const m = this.module(t.module);
      let key: Type | undefined;
      if (t.key) {
        const keyFields = t.key.fields.map((name) => {
          const f = t.fields.find((x) => x.name === name);
          if (!f) throw new Error(`built-in package: key field ${name} is not a field of ${t.module}:${t.entity}`);
          return { name, type: f.type };
        });
        key = this.type({ kind: 'Record', name: `${t.module}:${t.entity}Key`, fields: keyFields });
      }
      m.templates?.push({
        name: t.entity,
        fields: this.fields(t.fields),
        ...(key ? { key } : {}),
        choices: [this.archiveChoice(t.module), ...t.choices.map((c) => this.choice(c))],
        implements: t.implements.map((i) => this.interfaceRef(i.interface)),
      });
    }
    return { name: def.name, version: def.version, modules: [...this.modules.values()].sort((a, b) => (a.name < b.name ? -1 : 1)) };
  }
}

/** The Daml-LF 2 description of a built-in package. */
export function describePackage(def: PackageDef, packageIdOf: PackageIdResolver = selfOnly): PackageDescription {
  let archiveArg: Type | undefined;
  if (def.name !== TEMPLATE_STDLIB) {
    try {
      archiveArg = { kind: 'con', packageId: packageIdOf(TEMPLATE_STDLIB), module: 'DA.Internal.Template', name: 'Archive', args: [] };
    } catch {
      archiveArg = undefined;
    }
  }
  return new Describer(def.name, packageIdOf, archiveArg).describe(def);
}

/** The built-in package as an LF archive: `{ packageId, bytes }` (bytes = the `.dalf`). */
export function archiveOf(def: PackageDef, packageIdOf: PackageIdResolver = selfOnly): { packageId: string; bytes: Uint8Array } {
  const a = encodeArchive(describePackage(def, packageIdOf));
  return { packageId: a.packageId, bytes: a.bytes };
}
