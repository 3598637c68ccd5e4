/**
 * Built-in packages as real Daml-LF 2 archives. The TypeScript definitions (`PackageDef`) are the single source of
 * truth: this module derives the LF description from them (templates, their fields, keys, choices with argument and
 * return types, implemented interfaces, interface views and choices, named records), and `encodeArchive` turns that
 * into an `Archive` whose package id is the SHA-256 of its payload. `GET /v2/packages/{id}` serves those bytes, so a
 * client reading the archive (`readDalf`) sees exactly the signatures the simulator enforces.
 *
 * Signatories, observers, controllers, ensure clauses and choice bodies are behaviour (TypeScript); the archive carries
 * type-correct stub expressions for them (see `src/daml-lf/lf2-encode.ts`).
 */
import { encodeArchive, type DataTypeDescription, type ModuleDescription, type PackageDescription } from '../../daml-lf/index.js';
import type { Field, Type } from '../../daml-lf/index.js';
import type { ChoiceDef, FieldDef, FieldType, InterfaceDef, PackageDef } from './types.js';

/** Interface choices (optional in `InterfaceDef`). */
const interfaceChoices = (i: InterfaceDef): ChoiceDef[] => (i as { choices?: ChoiceDef[] }).choices ?? [];

const prim = (p: Extract<Type, { kind: 'prim' }>['prim'], ...args: Type[]): Type => ({ kind: 'prim', prim: p, args });

/** `Module:Entity` → (module, entity). */
function splitQn(qn: string): { module: string; name: string } {
  const i = qn.lastIndexOf(':');
  if (i <= 0 || i === qn.length - 1) throw new Error(`built-in package: '${qn}' is not Module:Entity`);
  return { module: qn.slice(0, i), name: qn.slice(i + 1) };
}

/** Resolves an `InterfaceImpl.interface` reference (`Module:Entity` or `#package-name:Module:Entity`) for the archive. */
export type InterfaceRefResolver = (ref: string) => string;

const selfOnly: InterfaceRefResolver = (ref) => {
  if (ref.startsWith('#')) throw new Error(`built-in package: cannot resolve interface ${ref} without the registry`);
  return ref;
};

class Describer {
  private readonly modules = new Map<string, ModuleDescription>();

  constructor(private readonly resolveInterface: InterfaceRefResolver) {}

  module(name: string): ModuleDescription {
    let m = this.modules.get(name);
    if (!m) {
      m = { name, dataTypes: [], templates: [], interfaces: [] };
      this.modules.set(name, m);
    }
    return m;
  }

  /** Registers a named record (once; a second definition must be identical) and returns a reference to it. */
  record(qn: string, fields: Field[]): Type {
    const { module, name } = splitQn(qn);
    const m = this.module(module);
    const existing = m.dataTypes?.find((d) => d.name === name);
    if (existing) {
      if (JSON.stringify(existing) !== JSON.stringify({ kind: 'record', name, fields }))
        throw new Error(`built-in package: record ${qn} is defined twice with different fields`);
    } else m.dataTypes?.push({ kind: 'record', name, fields } satisfies DataTypeDescription);
    return { kind: 'con', packageId: 'self', module, name, args: [] };
  }

  /** Registers a named variant (once, like `record`) and returns a reference to it. */
  variant(qn: string, constructors: Field[]): Type {
    const { module, name } = splitQn(qn);
    const m = this.module(module);
    const existing = m.dataTypes?.find((d) => d.name === name);
    if (existing) {
      if (JSON.stringify(existing) !== JSON.stringify({ kind: 'variant', name, constructors }))
        throw new Error(`built-in package: variant ${qn} is defined twice with different constructors`);
    } else m.dataTypes?.push({ kind: 'variant', name, constructors } satisfies DataTypeDescription);
    return { kind: 'con', packageId: 'self', module, name, args: [] };
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
      case 'ContractId': {
        if (t.template === undefined) return prim('ContractId', prim('Any'));
        const { module, name } = splitQn(t.template);
        return prim('ContractId', { kind: 'con', packageId: 'self', module, name, args: [] });
      }
      case 'List':
        return prim('List', this.type(t.elem));
      case 'Optional':
        return prim('Optional', this.type(t.elem));
      case 'TextMap':
        return prim('TextMap', this.type(t.elem));
      case 'Record':
        return this.record(t.name, this.fields(t.fields));
      case 'Variant':
        return this.variant(t.name, this.fields(t.constructors));
    }
  }

  fields(fs: FieldDef[]): Field[] {
    return fs.map((f) => ({ name: f.name, type: this.type(f.type) }));
  }

  choice(c: ChoiceDef): { name: string; consuming: boolean; argFields: Field[]; returnType: Type } {
    return { name: c.name, consuming: c.consuming, argFields: this.fields(c.argument), returnType: this.type(c.returnType) };
  }

  describe(def: PackageDef): PackageDescription {
    for (const i of def.interfaces) {
      const view = this.record(i.view.name, this.fields(i.view.fields));
      this.module(i.module).interfaces?.push({ name: i.entity, viewType: view, choices: interfaceChoices(i).map((c) => this.choice(c)) });
    }
    for (const t of def.templates) {
      const m = this.module(t.module);
      // The implicit Archive choice, as the Daml compiler writes it (argument: an empty record `Archive`).
      const archiveArg = this.record(`${t.module}:Archive`, []);
      let key: Type | undefined;
      if (t.key) {
        const keyFields = t.key.fields.map((name) => {
          const f = t.fields.find((x) => x.name === name);
          if (!f) throw new Error(`built-in package: key field ${name} is not a field of ${t.module}:${t.entity}`);
          return { name, type: this.type(f.type) };
        });
        key = this.record(`${t.module}:${t.entity}Key`, keyFields);
      }
      m.templates?.push({
        name: t.entity,
        fields: this.fields(t.fields),
        ...(key ? { key } : {}),
        choices: [
          { name: 'Archive', consuming: true, argType: archiveArg, returnType: prim('Unit') },
          ...t.choices.map((c) => this.choice(c)),
        ],
        implements: t.implements.map((i) => this.resolveInterface(i.interface)),
      });
    }
    return { name: def.name, version: def.version, modules: [...this.modules.values()].sort((a, b) => (a.name < b.name ? -1 : 1)) };
  }
}

/** The Daml-LF 2 description of a built-in package. */
export function describePackage(def: PackageDef, resolveInterface: InterfaceRefResolver = selfOnly): PackageDescription {
  return new Describer(resolveInterface).describe(def);
}

/** The built-in package as an LF archive: `{ packageId, bytes }` (bytes = the `.dalf`). */
export function archiveOf(def: PackageDef, resolveInterface: InterfaceRefResolver = selfOnly): { packageId: string; bytes: Uint8Array } {
  const a = encodeArchive(describePackage(def, resolveInterface));
  return { packageId: a.packageId, bytes: a.bytes };
}
