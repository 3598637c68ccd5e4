/**
 * The type layer of the LF2 signature decoder: interned strings, dotted names and types (resolved once, each table
 * entry referring only backwards), package references, type constructor ids and `Type` messages, with limits on a
 * resolved type's size and depth. Field numbers are cited as `Message.field_name = N` from daml_lf2.proto.
 */
import { BUILTIN_TYPES } from './lf2-builtin-types.js';
import { fail, type RawPackage } from './lf2-raw-package.js';
import { ProtoReader, WireType } from './protobuf-wire.js';
import { applyType } from './type-subst.js';
import type { Field, Type, TypeConRef } from './types.js';

/** Maximum nesting of a `Type` message decoded inline (bounds the decoder's recursion). */
const MAX_TYPE_DEPTH = 256;
/**
 * Limits on a resolved type (interned types included): nodes when fully expanded and nesting depth. Interning lets a
 * small package describe exponentially large or very deep types; consumers (rendering, forms) walk them recursively.
 */
const MAX_TYPE_NODES = 100_000;
const MAX_RESOLVED_DEPTH = 1_000;

export class TypeDecoder {
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

  /** Decodes a `Type` message. */
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
}
