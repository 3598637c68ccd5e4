/**
 * Decoder for the Daml-LF 2 `Package` message (daml_lf2.proto), reduced to signatures: modules, data types,
 * templates, choices, interfaces, keys, interned strings / dotted names / types. Expressions are skipped unread.
 * Field numbers below are cited as `Message.field_name = N` from daml_lf2.proto.
 */
import { DamlLfError } from './errors.js';
import { ProtoReader, WireType } from './protobuf-wire.js';
import type {
  Choice,
  DataType,
  Field,
  Interface,
  InterfaceMethod,
  Module,
  PackageSummary,
  PrimType,
  Template,
  Type,
  TypeConRef,
} from './types.js';

/** daml_lf2.proto `BuiltinType` enum values → names. */
export const BUILTIN_TYPES: ReadonlyMap<number, PrimType> = new Map<number, PrimType>([
  [0, 'Unit'], // UNIT
  [1, 'Bool'], // BOOL
  [2, 'Int64'], // INT64
  [3, 'Date'], // DATE
  [4, 'Timestamp'], // TIMESTAMP
  [5, 'Numeric'], // NUMERIC
  [6, 'Party'], // PARTY
  [7, 'Text'], // TEXT
  [8, 'ContractId'], // CONTRACT_ID
  [9, 'Optional'], // OPTIONAL
  [10, 'List'], // LIST
  [11, 'GenMap'], // GENMAP
  [13, 'Any'], // ANY
  [14, 'AnyException'], // ANY_EXCEPTION
  [15, 'TypeRep'], // TYPE_REP
  [16, 'Arrow'], // ARROW
  [17, 'Update'], // UPDATE
  [18, 'FailureCategory'], // FAILURE_CATEGORY
  [19, 'TextMap'], // TEXTMAP
  [1002, 'BigNumeric'], // BIGNUMERIC
  [1003, 'RoundingMode'], // ROUNDING_MODE
]);

/** Maximum nesting of a `Type` message decoded inline (bounds the decoder's recursion). */
const MAX_TYPE_DEPTH = 256;
/**
 * Limits on a resolved type (interned types included): nodes when fully expanded and nesting depth. Interning lets a
 * small package describe exponentially large or very deep types; consumers (rendering, forms) walk them recursively.
 */
const MAX_TYPE_NODES = 100_000;
const MAX_RESOLVED_DEPTH = 1_000;

interface RawPackage {
  modules: Uint8Array[];
  strings: string[];
  dottedNames: number[][];
  internedTypes: Uint8Array[];
  metadata?: { name: number; version: number; upgradedPackageId?: number };
  imports?: string[];
}

function fail(message: string): never {
  throw new DamlLfError('MALFORMED_PACKAGE', `Package: ${message}`);
}

/** First pass over `Package`: tables and raw module bytes. */
function readRawPackage(bytes: Uint8Array): RawPackage {
  const r = new ProtoReader(bytes, 'MALFORMED_PACKAGE', 'Package');
  const raw: RawPackage = { modules: [], strings: [], dottedNames: [], internedTypes: [] };
  while (!r.done) {
    const { field, wireType } = r.tag();
    switch (field) {
      case 1: // Package.modules = 1
        r.expect(field, wireType, WireType.LEN);
        raw.modules.push(r.bytes());
        break;
      case 2: // Package.interned_strings = 2
        r.expect(field, wireType, WireType.LEN);
        raw.strings.push(r.string());
        break;
      case 3: {
        // Package.interned_dotted_names = 3; InternedDottedName.segments_interned_str = 1
        r.expect(field, wireType, WireType.LEN);
        const m = r.message('InternedDottedName');
        const segments: number[] = [];
        while (!m.done) {
          const t = m.tag();
          if (t.field === 1) m.repeatedInt32(t.wireType, segments);
          else m.skip(t.wireType);
        }
        raw.dottedNames.push(segments);
        break;
      }
      case 4: {
        // Package.metadata = 4; PackageMetadata.name_interned_str = 1, version_interned_str = 2, upgraded_package_id = 3
        r.expect(field, wireType, WireType.LEN);
        const m = r.message('PackageMetadata');
        const md: { name: number; version: number; upgradedPackageId?: number } = { name: 0, version: 0 };
        while (!m.done) {
          const t = m.tag();
          if (t.field === 1) {
            m.expect(t.field, t.wireType, WireType.VARINT);
            md.name = m.int32();
          } else if (t.field === 2) {
            m.expect(t.field, t.wireType, WireType.VARINT);
            md.version = m.int32();
          } else if (t.field === 3) {
            // UpgradedPackageId.upgraded_package_id_interned_str = 1
            m.expect(t.field, t.wireType, WireType.LEN);
            const u = m.message('UpgradedPackageId');
            md.upgradedPackageId = 0;
            while (!u.done) {
              const ut = u.tag();
              if (ut.field === 1) {
                u.expect(ut.field, ut.wireType, WireType.VARINT);
                md.upgradedPackageId = u.int32();
              } else u.skip(ut.wireType);
            }
          } else m.skip(t.wireType);
        }
        raw.metadata = md;
        break;
      }
      case 5: // Package.interned_types = 5
        r.expect(field, wireType, WireType.LEN);
        raw.internedTypes.push(r.bytes());
        break;
      case 9: {
        // Package.package_imports = 9; PackageImports.imported_packages = 1
        r.expect(field, wireType, WireType.LEN);
        const m = r.message('PackageImports');
        const imports: string[] = [];
        while (!m.done) {
          const t = m.tag();
          if (t.field === 1) {
            m.expect(t.field, t.wireType, WireType.LEN);
            imports.push(m.string());
          } else m.skip(t.wireType);
        }
        raw.imports = imports;
        break;
      }
      default: // interned_kinds = 6, interned_exprs = 7, no_imported_packages_reason = 8: not needed
        r.skip(wireType);
    }
  }
  return raw;
}

class Decoder {
  readonly deps = new Set<string>();
  private readonly dnameCache: (string | undefined)[] = [];
  private readonly types: Type[] = [];
  /** While resolving interned type i, only indices < i may be referenced. */
  private internLimit = Number.POSITIVE_INFINITY;

  constructor(
    readonly raw: RawPackage,
    readonly selfId: string,
  ) {
    for (let i = 0; i < raw.internedTypes.length; i++) {
      this.internLimit = i;
      const r = new ProtoReader(raw.internedTypes[i] as Uint8Array, 'MALFORMED_PACKAGE', `Package.interned_types[${i}]`);
      this.types.push(this.type(r, 0));
    }
    this.internLimit = Number.POSITIVE_INFINITY;
  }

  str(i: number): string {
    const s = this.raw.strings[i];
    if (s === undefined) fail(`interned string ${i} out of range (${this.raw.strings.length} strings)`);
    return s;
  }

  dname(i: number): string {
    const cached = this.dnameCache[i];
    if (cached !== undefined) return cached;
    const segs = this.raw.dottedNames[i];
    if (segs === undefined) fail(`interned dotted name ${i} out of range (${this.raw.dottedNames.length} names)`);
    const s = segs.map((j) => this.str(j)).join('.');
    this.dnameCache[i] = s;
    return s;
  }

  /** SelfOrImportedPackageId → 'self' or a package id. */
  packageRef(r: ProtoReader): string {
    let ref: string | undefined;
    while (!r.done) {
      const { field, wireType } = r.tag();
      if (field === 1) {
        // SelfOrImportedPackageId.self_package_id = 1
        r.expect(field, wireType, WireType.LEN);
        r.skip(wireType);
        ref = 'self';
      } else if (field === 3) {
        // SelfOrImportedPackageId.imported_package_id_interned_str = 3
        r.expect(field, wireType, WireType.VARINT);
        ref = this.str(r.int32());
      } else if (field === 4) {
        // SelfOrImportedPackageId.package_import_id = 4 (index into Package.package_imports)
        r.expect(field, wireType, WireType.VARINT);
        const idx = r.int32();
        const id = this.raw.imports?.[idx];
        if (id === undefined) fail(`package_import_id ${idx} out of range`);
        ref = id;
      } else r.skip(wireType);
    }
    if (ref === undefined) fail('SelfOrImportedPackageId has no case set');
    if (ref !== 'self') this.deps.add(ref);
    return ref;
  }

  /** TypeConId / TypeSynId: module = 1 (ModuleId: package_id = 1, module_name_interned_dname = 2), name_interned_dname = 2. */
  typeConId(r: ProtoReader): TypeConRef {
    // proto3: an interned index of 0 is absent on the wire, so module and name default to dotted name #0.
    let packageId: string | undefined;
    let moduleIdx = 0;
    let nameIdx = 0;
    while (!r.done) {
      const { field, wireType } = r.tag();
      if (field === 1) {
        r.expect(field, wireType, WireType.LEN);
        const m = r.message('ModuleId');
        while (!m.done) {
          const t = m.tag();
          if (t.field === 1) {
            m.expect(t.field, t.wireType, WireType.LEN);
            packageId = this.packageRef(m.message('SelfOrImportedPackageId'));
          } else if (t.field === 2) {
            m.expect(t.field, t.wireType, WireType.VARINT);
            moduleIdx = m.int32();
          } else m.skip(t.wireType);
        }
      } else if (field === 2) {
        r.expect(field, wireType, WireType.VARINT);
        nameIdx = r.int32();
      } else r.skip(wireType);
    }
    if (packageId === undefined) fail(`${r.what} has no package reference`);
    return { packageId, module: this.dname(moduleIdx), name: this.dname(nameIdx) };
  }

  /** Decodes a `Type` message. */
  /** Type.Con and Type.Syn share one layout: a reference (field 1) applied to type arguments (field 2). */
  private appliedReference(m: ProtoReader, idMessage: string, depth: number): { ref: TypeConRef | undefined; args: Type[] } {
    let ref: TypeConRef | undefined;
    const args: Type[] = [];
    while (!m.done) {
      const t = m.tag();
      if (t.field === 1) {
        m.expect(t.field, t.wireType, WireType.LEN);
        ref = this.typeConId(m.message(idMessage));
      } else if (t.field === 2) {
        m.expect(t.field, t.wireType, WireType.LEN);
        args.push(this.type(m.message('Type'), depth + 1));
      } else m.skip(t.wireType);
    }
    return { ref, args };
  }

  type(r: ProtoReader, depth: number): Type {
    if (depth > MAX_TYPE_DEPTH) fail(`type nesting deeper than ${MAX_TYPE_DEPTH}`);
    let result: Type | undefined;
    while (!r.done) {
      const { field, wireType } = r.tag();
      switch (field) {
        case 1: {
          // Type.var = 1; Type.Var.var_interned_str = 3, args = 2
          r.expect(field, wireType, WireType.LEN);
          const m = r.message('Type.Var');
          let name: string | undefined;
          const args: Type[] = [];
          while (!m.done) {
            const t = m.tag();
            if (t.field === 3) {
              m.expect(t.field, t.wireType, WireType.VARINT);
              name = this.str(m.int32());
            } else if (t.field === 2) {
              m.expect(t.field, t.wireType, WireType.LEN);
              args.push(this.type(m.message('Type'), depth + 1));
            } else m.skip(t.wireType);
          }
          name ??= this.str(0); // proto3: interned string #0 is absent on the wire
          result = { kind: 'var', name, args };
          break;
        }
        case 2: {
          // Type.con = 2; Type.Con.tycon = 1, args = 2
          r.expect(field, wireType, WireType.LEN);
          const { ref, args } = this.appliedReference(r.message('Type.Con'), 'TypeConId', depth);
          if (ref === undefined) fail('Type.Con without tycon');
          result = { kind: 'con', packageId: ref.packageId, module: ref.module, name: ref.name, args };
          break;
        }
        case 3: {
          // Type.builtin = 3; Type.Builtin.builtin = 1, args = 2
          r.expect(field, wireType, WireType.LEN);
          const m = r.message('Type.Builtin');
          let code = 0;
          const args: Type[] = [];
          while (!m.done) {
            const t = m.tag();
            if (t.field === 1) {
              m.expect(t.field, t.wireType, WireType.VARINT);
              code = m.int32();
            } else if (t.field === 2) {
              m.expect(t.field, t.wireType, WireType.LEN);
              args.push(this.type(m.message('Type'), depth + 1));
            } else m.skip(t.wireType);
          }
          const prim = BUILTIN_TYPES.get(code);
          if (prim === undefined) fail(`unknown BuiltinType ${code}`);
          result = { kind: 'prim', prim, args };
          break;
        }
        case 4: {
          // Type.forall = 4; Type.Forall.vars = 1 (TypeVarWithKind.var_interned_str = 3), body = 2
          r.expect(field, wireType, WireType.LEN);
          const m = r.message('Type.Forall');
          const vars: string[] = [];
          let body: Type | undefined;
          while (!m.done) {
            const t = m.tag();
            if (t.field === 1) {
              m.expect(t.field, t.wireType, WireType.LEN);
              vars.push(this.typeVarName(m.message('TypeVarWithKind')));
            } else if (t.field === 2) {
              m.expect(t.field, t.wireType, WireType.LEN);
              body = this.type(m.message('Type'), depth + 1);
            } else m.skip(t.wireType);
          }
          if (body === undefined) fail('Type.Forall without body');
          result = { kind: 'forall', vars, body };
          break;
        }
        case 5: {
          // Type.struct = 5; Type.Struct.fields = 1
          r.expect(field, wireType, WireType.LEN);
          const m = r.message('Type.Struct');
          const fields: Field[] = [];
          while (!m.done) {
            const t = m.tag();
            if (t.field === 1) {
              m.expect(t.field, t.wireType, WireType.LEN);
              fields.push(this.fieldWithType(m.message('FieldWithType'), depth + 1));
            } else m.skip(t.wireType);
          }
          result = { kind: 'struct', fields };
          break;
        }
        case 6: {
          // Type.nat = 6 (sint64)
          r.expect(field, wireType, WireType.VARINT);
          const n = r.sint64();
          if (n < 0n || n > 1000n) fail(`Type.nat ${n} out of range`);
          result = { kind: 'nat', value: Number(n) };
          break;
        }
        case 7: {
          // Type.syn = 7; Type.Syn.tysyn = 1, args = 2
          r.expect(field, wireType, WireType.LEN);
          const { ref, args } = this.appliedReference(r.message('Type.Syn'), 'TypeSynId', depth);
          if (ref === undefined) fail('Type.Syn without tysyn');
          result = { kind: 'syn', synonym: ref, args };
          break;
        }
        case 8: {
          // Type.interned_type = 8
          r.expect(field, wireType, WireType.VARINT);
          const i = r.int32();
          if (i < 0 || i >= this.internLimit) fail(`interned type ${i} referenced from interned type ${this.internLimit}`);
          const t = this.types[i];
          if (t === undefined) fail(`interned type ${i} out of range (${this.types.length} types)`);
          result = t;
          break;
        }
        case 9: {
          // Type.tapp = 9; Type.TApp.lhs = 1, rhs = 2
          r.expect(field, wireType, WireType.LEN);
          const m = r.message('Type.TApp');
          let lhs: Type | undefined;
          let rhs: Type | undefined;
          while (!m.done) {
            const t = m.tag();
            if (t.field === 1) {
              m.expect(t.field, t.wireType, WireType.LEN);
              lhs = this.type(m.message('Type'), depth + 1);
            } else if (t.field === 2) {
              m.expect(t.field, t.wireType, WireType.LEN);
              rhs = this.type(m.message('Type'), depth + 1);
            } else m.skip(t.wireType);
          }
          if (lhs === undefined || rhs === undefined) fail('Type.TApp without lhs/rhs');
          result = applyType(lhs, rhs);
          break;
        }
        default:
          r.skip(wireType);
      }
    }
    if (result === undefined) fail(`${r.what} has no case set`);
    this.measure(result);
    return result;
  }

  /** Expanded size and depth of each resolved type, computed from its (already measured) children. */
  private readonly measures = new WeakMap<Type, { nodes: number; depth: number }>();

  private measure(t: Type): { nodes: number; depth: number } {
    const known = this.measures.get(t);
    if (known !== undefined) return known;
    const children: Type[] =
      t.kind === 'forall'
        ? [t.body]
        : t.kind === 'struct'
          ? t.fields.map((f) => f.type)
          : t.kind === 'nat'
            ? []
            : t.kind === 'app'
              ? [t.fun, ...t.args]
              : t.args;
    let nodes = 1;
    let depth = 0;
    for (const c of children) {
      const m = this.measures.get(c) ?? this.measure(c);
      nodes += m.nodes;
      depth = Math.max(depth, m.depth);
    }
    const m = { nodes, depth: depth + 1 };
    if (m.nodes > MAX_TYPE_NODES) fail(`a type expands to more than ${MAX_TYPE_NODES} nodes`);
    if (m.depth > MAX_RESOLVED_DEPTH) fail(`a type is nested deeper than ${MAX_RESOLVED_DEPTH}`);
    this.measures.set(t, m);
    return m;
  }

  typeVarName(r: ProtoReader): string {
    // TypeVarWithKind.var_interned_str = 3 (kind = 2 is skipped)
    let name: string | undefined;
    while (!r.done) {
      const t = r.tag();
      if (t.field === 3) {
        r.expect(t.field, t.wireType, WireType.VARINT);
        name = this.str(r.int32());
      } else r.skip(t.wireType);
    }
    name ??= this.str(0); // proto3 default
    return name;
  }

  /** FieldWithType (field_interned_str = 3, type = 2) and VarWithType (var_interned_str = 3, type = 2) share a layout. */
  fieldWithType(r: ProtoReader, depth = 0): Field {
    let name: string | undefined;
    let type: Type | undefined;
    while (!r.done) {
      const t = r.tag();
      if (t.field === 3) {
        r.expect(t.field, t.wireType, WireType.VARINT);
        name = this.str(r.int32());
      } else if (t.field === 2) {
        r.expect(t.field, t.wireType, WireType.LEN);
        type = this.type(r.message('Type'), depth + 1);
      } else r.skip(t.wireType);
    }
    name ??= this.str(0); // proto3 default
    if (type === undefined) fail(`${r.what} without a type`);
    return { name, type };
  }

  /** DefDataType; returns undefined for interface marker types (DataCons.interface = 8). */
  dataType(r: ProtoReader): DataType | undefined {
    let name: string | undefined;
    const params: string[] = [];
    let serializable = false;
    let cons: DataType | undefined;
    let isInterface = false;
    const fieldsOf = (m: ProtoReader): Field[] => {
      // DefDataType.Fields.fields = 1
      const out: Field[] = [];
      while (!m.done) {
        const t = m.tag();
        if (t.field === 1) {
          m.expect(t.field, t.wireType, WireType.LEN);
          out.push(this.fieldWithType(m.message('FieldWithType')));
        } else m.skip(t.wireType);
      }
      return out;
    };
    while (!r.done) {
      const { field, wireType } = r.tag();
      switch (field) {
        case 2: // DefDataType.name_interned_dname = 2
          r.expect(field, wireType, WireType.VARINT);
          name = this.dname(r.int32());
          break;
        case 3: // DefDataType.params = 3
          r.expect(field, wireType, WireType.LEN);
          params.push(this.typeVarName(r.message('TypeVarWithKind')));
          break;
        case 4: // DefDataType.serializable = 4
          r.expect(field, wireType, WireType.VARINT);
          serializable = r.bool();
          break;
        case 5: // DefDataType.record = 5
          r.expect(field, wireType, WireType.LEN);
          cons = { kind: 'record', name: '', params, serializable, fields: fieldsOf(r.message('DefDataType.Fields')) };
          break;
        case 6: // DefDataType.variant = 6
          r.expect(field, wireType, WireType.LEN);
          cons = { kind: 'variant', name: '', params, serializable, constructors: fieldsOf(r.message('DefDataType.Fields')) };
          break;
        case 7: {
          // DefDataType.enum = 7; EnumConstructors.constructors_interned_str = 2
          r.expect(field, wireType, WireType.LEN);
          const m = r.message('DefDataType.EnumConstructors');
          const idx: number[] = [];
          while (!m.done) {
            const t = m.tag();
            if (t.field === 2) m.repeatedInt32(t.wireType, idx);
            else m.skip(t.wireType);
          }
          cons = { kind: 'enum', name: '', params, serializable, constructors: idx.map((i) => this.str(i)) };
          break;
        }
        case 8: // DefDataType.interface = 8
          r.skip(wireType);
          isInterface = true;
          break;
        default: // location = 1
          r.skip(wireType);
      }
    }
    name ??= this.dname(0); // proto3 default
    // Interface marker types are listed as interfaces; a DataCons case this decoder does not know is left out.
    if (isInterface || cons === undefined) return undefined;
    cons.name = name;
    cons.serializable = serializable;
    return cons;
  }

  /** TemplateChoice: name_interned_str = 2, consuming = 3, arg_binder = 6, ret_type = 8. */
  choice(r: ProtoReader): Choice {
    let name: string | undefined;
    let consuming = false;
    let arg: Field | undefined;
    let ret: Type | undefined;
    while (!r.done) {
      const { field, wireType } = r.tag();
      if (field === 2) {
        r.expect(field, wireType, WireType.VARINT);
        name = this.str(r.int32());
      } else if (field === 3) {
        r.expect(field, wireType, WireType.VARINT);
        consuming = r.bool();
      } else if (field === 6) {
        r.expect(field, wireType, WireType.LEN);
        arg = this.fieldWithType(r.message('VarWithType'));
      } else if (field === 8) {
        r.expect(field, wireType, WireType.LEN);
        ret = this.type(r.message('Type'), 0);
      } else r.skip(wireType); // location, controllers, observers, update, self_binder, authorizers
    }
    name ??= this.str(0); // proto3 default
    if (arg === undefined || ret === undefined) fail(`TemplateChoice ${name} is incomplete`);
    return { name, consuming, argType: arg.type, returnType: ret };
  }

  qualifiedRef(ref: TypeConRef): string {
    return `${ref.packageId === 'self' ? this.selfId : ref.packageId}:${ref.module}:${ref.name}`;
  }

  template(r: ProtoReader, moduleName: string): Template {
    let name: string | undefined;
    const choices: Choice[] = [];
    let key: Type | undefined;
    const impls: string[] = [];
    while (!r.done) {
      const { field, wireType } = r.tag();
      switch (field) {
        case 1: // DefTemplate.tycon_interned_dname = 1
          r.expect(field, wireType, WireType.VARINT);
          name = this.dname(r.int32());
          break;
        case 6: // DefTemplate.choices = 6
          r.expect(field, wireType, WireType.LEN);
          choices.push(this.choice(r.message('TemplateChoice')));
          break;
        case 9: {
          // DefTemplate.key = 9; DefKey.type = 1
          r.expect(field, wireType, WireType.LEN);
          const m = r.message('DefTemplate.DefKey');
          while (!m.done) {
            const t = m.tag();
            if (t.field === 1) {
              m.expect(t.field, t.wireType, WireType.LEN);
              key = this.type(m.message('Type'), 0);
            } else m.skip(t.wireType);
          }
          if (key === undefined) fail('DefKey without type');
          break;
        }
        case 10: {
          // DefTemplate.implements = 10; Implements.interface = 1
          r.expect(field, wireType, WireType.LEN);
          const m = r.message('DefTemplate.Implements');
          let ref: TypeConRef | undefined;
          while (!m.done) {
            const t = m.tag();
            if (t.field === 1) {
              m.expect(t.field, t.wireType, WireType.LEN);
              ref = this.typeConId(m.message('TypeConId'));
            } else m.skip(t.wireType);
          }
          if (ref === undefined) fail('DefTemplate.Implements without interface');
          impls.push(this.qualifiedRef(ref));
          break;
        }
        default: // param, precond, signatories, observers, location
          r.skip(wireType);
      }
    }
    name ??= this.dname(0); // proto3 default
    const t: Template = { name, qualifiedName: `${moduleName}:${name}`, fields: [], choices, implements: impls };
    if (key !== undefined) t.key = key;
    return t;
  }

  /** DefInterface: tycon_interned_dname = 2, methods = 3, choices = 5, view = 6, requires = 7. */
  iface(r: ProtoReader, moduleName: string): Interface {
    let name: string | undefined;
    const methods: InterfaceMethod[] = [];
    const choices: Choice[] = [];
    let view: Type | undefined;
    const requires: string[] = [];
    while (!r.done) {
      const { field, wireType } = r.tag();
      switch (field) {
        case 2:
          r.expect(field, wireType, WireType.VARINT);
          name = this.dname(r.int32());
          break;
        case 3: {
          // InterfaceMethod.method_interned_name = 2, type = 3
          r.expect(field, wireType, WireType.LEN);
          const m = r.message('InterfaceMethod');
          let mname: string | undefined;
          let mtype: Type | undefined;
          while (!m.done) {
            const t = m.tag();
            if (t.field === 2) {
              m.expect(t.field, t.wireType, WireType.VARINT);
              mname = this.str(m.int32());
            } else if (t.field === 3) {
              m.expect(t.field, t.wireType, WireType.LEN);
              mtype = this.type(m.message('Type'), 0);
            } else m.skip(t.wireType);
          }
          mname ??= this.str(0); // proto3 default
          if (mtype === undefined) fail(`InterfaceMethod ${mname} without a type`);
          methods.push({ name: mname, type: mtype });
          break;
        }
        case 5:
          r.expect(field, wireType, WireType.LEN);
          choices.push(this.choice(r.message('TemplateChoice')));
          break;
        case 6:
          r.expect(field, wireType, WireType.LEN);
          view = this.type(r.message('Type'), 0);
          break;
        case 7:
          r.expect(field, wireType, WireType.LEN);
          requires.push(this.qualifiedRef(this.typeConId(r.message('TypeConId'))));
          break;
        default: // location = 1, param_interned_str = 4
          r.skip(wireType);
      }
    }
    name ??= this.dname(0); // proto3 default
    if (view === undefined) fail(`DefInterface ${name} without a view type`);
    return { name, qualifiedName: `${moduleName}:${name}`, viewType: view, choices, methods, requires };
  }

  /** Module: name_interned_dname = 1, data_types = 4, templates = 6, exceptions = 7, interfaces = 8. */
  module(bytes: Uint8Array): Module {
    const r = new ProtoReader(bytes, 'MALFORMED_PACKAGE', 'Module');
    let name: string | undefined;
    const dataTypes: Uint8Array[] = [];
    const templates: Uint8Array[] = [];
    const interfaces: Uint8Array[] = [];
    const exceptions: string[] = [];
    while (!r.done) {
      const { field, wireType } = r.tag();
      switch (field) {
        case 1:
          r.expect(field, wireType, WireType.VARINT);
          name = this.dname(r.int32());
          break;
        case 4:
          r.expect(field, wireType, WireType.LEN);
          dataTypes.push(r.bytes());
          break;
        case 6:
          r.expect(field, wireType, WireType.LEN);
          templates.push(r.bytes());
          break;
        case 7: {
          // DefException.name_interned_dname = 1
          r.expect(field, wireType, WireType.LEN);
          const m = r.message('DefException');
          let ename: string | undefined;
          while (!m.done) {
            const t = m.tag();
            if (t.field === 1) {
              m.expect(t.field, t.wireType, WireType.VARINT);
              ename = this.dname(m.int32());
            } else m.skip(t.wireType);
          }
          ename ??= this.dname(0); // proto3 default
          exceptions.push(ename);
          break;
        }
        case 8:
          r.expect(field, wireType, WireType.LEN);
          interfaces.push(r.bytes());
          break;
        default: // flags = 2, synonyms = 3, values = 5
          r.skip(wireType);
      }
    }
    name ??= this.dname(0); // proto3 default
    const modName = name;
    const dts: DataType[] = [];
    for (const b of dataTypes) {
      const dt = this.dataType(new ProtoReader(b, 'MALFORMED_PACKAGE', `Module ${modName}: DefDataType`));
      if (dt !== undefined) dts.push(dt);
    }
    return {
      name: modName,
      templates: templates.map((b) => this.template(new ProtoReader(b, 'MALFORMED_PACKAGE', `Module ${modName}: DefTemplate`), modName)),
      interfaces: interfaces.map((b) => this.iface(new ProtoReader(b, 'MALFORMED_PACKAGE', `Module ${modName}: DefInterface`), modName)),
      dataTypes: dts,
      exceptions,
    };
  }
}

/** Applies `fun` to one more argument (Type.TApp). */
function applyType(fun: Type, arg: Type): Type {
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

/** Fields of `t` when it is (an application of) a record defined in this package. */
function recordFieldsOf(t: Type, records: ReadonlyMap<string, DataType>): Field[] | undefined {
  if (t.kind !== 'con' || t.packageId !== 'self') return undefined;
  const dt = records.get(`${t.module}:${t.name}`);
  if (dt === undefined || dt.kind !== 'record' || dt.params.length !== t.args.length) return undefined;
  const env = new Map<string, Type>();
  dt.params.forEach((p, i) => env.set(p, t.args[i] as Type));
  return dt.fields.map((f) => ({ name: f.name, type: substituteType(f.type, env) }));
}

export interface DecodePackageOptions {
  /** `2.1` etc., recorded in the summary. */
  lfVersion: string;
}

/**
 * Decodes encoded LF2 `Package` bytes (the `ArchivePayload.daml_lf_2` field) into a summary.
 * @param packageId the package's own id (used to qualify self references in `implements` / `requires`).
 */
export function decodeLf2Package(packageBytes: Uint8Array, packageId: string, opts: DecodePackageOptions): PackageSummary {
  const raw = readRawPackage(packageBytes);
  const d = new Decoder(raw, packageId);
  const modules = raw.modules.map((b) => d.module(b));
  const records = new Map<string, DataType>();
  for (const m of modules) for (const dt of m.dataTypes) records.set(`${m.name}:${dt.name}`, dt);
  const withArgFields = (c: Choice): Choice => {
    const argFields = recordFieldsOf(c.argType, records);
    return argFields === undefined ? c : { ...c, argFields };
  };
  for (const m of modules) {
    for (const t of m.templates) {
      // The template's argument is the record of the same name (LF guarantees it; tolerate its absence).
      const rec = records.get(`${m.name}:${t.name}`);
      t.fields = rec?.kind === 'record' ? rec.fields : [];
      t.choices = t.choices.map(withArgFields);
    }
    for (const i of m.interfaces) {
      i.choices = i.choices.map(withArgFields);
      const viewFields = recordFieldsOf(i.viewType, records);
      if (viewFields !== undefined) i.viewFields = viewFields;
    }
  }
  for (const id of raw.imports ?? []) d.deps.add(id);
  d.deps.delete(packageId);
  const summary: PackageSummary = {
    packageId,
    name: raw.metadata ? d.str(raw.metadata.name) : '',
    version: raw.metadata ? d.str(raw.metadata.version) : '',
    lfVersion: opts.lfVersion,
    modules,
    dependencies: [...d.deps].sort(),
  };
  if (raw.metadata?.upgradedPackageId !== undefined) summary.upgradedPackageId = d.str(raw.metadata.upgradedPackageId);
  return summary;
}
