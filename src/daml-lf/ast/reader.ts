/**
 * Shared state of one package's AST decoding: the interning tables (strings, dotted names, kinds, types, expressions),
 * package references, qualified names, types, kinds and locations. Field numbers are cited as `Message.field = N` from
 * daml_lf2.proto. proto3: a scalar that is absent on the wire is 0 / false / empty (an interned index 0 is absent).
 */
import { DamlLfError } from '../errors.js';
import { ProtoReader, WireType } from '../protobuf-wire.js';
import { BUILTIN_TYPES } from '../lf2-builtin-types.js';
import { applyType } from '../type-subst.js';
import type { Field, Type } from '../types.js';
import type { Expr, Kind, Location, QualifiedName, TypeVarWithKind, VarWithType } from './ast.js';

/** Deepest inline nesting of types / kinds / expressions accepted (bounds the decoder's recursion). */
export const MAX_NESTING = 2_000;

export function fail(message: string): never {
  throw new DamlLfError('MALFORMED_PACKAGE', `Package: ${message}`);
}

export function req<T>(v: T | undefined, what: string): T {
  if (v === undefined) fail(`${what} is missing`);
  return v;
}

/** An embedded message of field `f` (checks the wire type). */
export function msg(r: ProtoReader, f: number, wt: number, what: string): ProtoReader {
  r.expect(f, wt, WireType.LEN);
  return r.message(what);
}

/** An `int32` / enum of field `f` (checks the wire type). */
export function i32(r: ProtoReader, f: number, wt: number): number {
  r.expect(f, wt, WireType.VARINT);
  return r.int32();
}

/** Iterates over the fields of a message; `on` returns false for fields it does not handle (they are skipped). */
export function fields(r: ProtoReader, on: (f: number, wt: number) => boolean | undefined): void {
  while (!r.done) {
    const { field, wireType } = r.tag();
    if (on(field, wireType) === false) r.skip(wireType);
  }
}

export interface RawTables {
  strings: string[];
  dottedNames: number[][];
  kinds: Uint8Array[];
  types: Uint8Array[];
  exprs: Uint8Array[];
  imports?: string[];
}

export class LfReader {
  private readonly dnames: (string | undefined)[] = [];
  readonly kinds: Kind[] = [];
  readonly types: Type[] = [];
  private readonly exprs: (Expr | null | undefined)[] = [];
  /** While decoding interned table entry i, only entries < i may be referenced. */
  private kindLimit = Infinity;
  private typeLimit = Infinity;
  /** Decodes an expression (set by the expression decoder, which lives in its own module). */
  exprDecoder: ((r: ProtoReader, depth: number) => Expr) | undefined;

  constructor(
    readonly raw: RawTables,
    readonly selfId: string,
  ) {
    for (let i = 0; i < raw.kinds.length; i++) {
      this.kindLimit = i;
      this.kinds.push(this.kind(new ProtoReader(raw.kinds[i] as Uint8Array, 'MALFORMED_PACKAGE', `interned_kinds[${i}]`), 0));
    }
    this.kindLimit = Infinity;
    for (let i = 0; i < raw.types.length; i++) {
      this.typeLimit = i;
      this.types.push(this.type(new ProtoReader(raw.types[i] as Uint8Array, 'MALFORMED_PACKAGE', `interned_types[${i}]`), 0));
    }
    this.typeLimit = Infinity;
  }

  str(i: number): string {
    const s = this.raw.strings[i];
    if (s === undefined) fail(`interned string ${i} out of range (${this.raw.strings.length} strings)`);
    return s;
  }

  dname(i: number): string {
    const cached = this.dnames[i];
    if (cached !== undefined) return cached;
    const segs = this.raw.dottedNames[i];
    if (segs === undefined) fail(`interned dotted name ${i} out of range (${this.raw.dottedNames.length} names)`);
    if (segs.length === 0) fail(`interned dotted name ${i} is empty`);
    const s = segs.map((j) => this.str(j)).join('.');
    this.dnames[i] = s;
    return s;
  }

  /** An `Expr` message (through the expression decoder, which lives in its own module). */
  expr(r: ProtoReader, depth: number): Expr {
    if (!this.exprDecoder) fail('no expression decoder');
    return this.exprDecoder(r, depth);
  }

  /** Interned expression `i` (LF ≥ 2.dev); decoded on first use, cycles rejected. */
  internedExpr(i: number, depth: number): Expr {
    const known = this.exprs[i];
    if (known) return known;
    if (known === null) fail(`interned expression ${i} refers to itself`);
    const bytes = this.raw.exprs[i];
    if (bytes === undefined || !this.exprDecoder) fail(`interned expression ${i} out of range (${this.raw.exprs.length} expressions)`);
    this.exprs[i] = null;
    const e = this.exprDecoder(new ProtoReader(bytes, 'MALFORMED_PACKAGE', `interned_exprs[${i}]`), depth);
    this.exprs[i] = e;
    return e;
  }

  /** SelfOrImportedPackageId: self_package_id = 1, imported_package_id_interned_str = 3, package_import_id = 4. */
  packageRef(r: ProtoReader): string {
    let ref: string | undefined;
    fields(r, (f, wt) => {
      if (f === 1) {
        r.expect(f, wt, WireType.LEN);
        r.skip(wt);
        ref = this.selfId;
      } else if (f === 3) ref = this.str(i32(r, f, wt));
      else if (f === 4) {
        const idx = i32(r, f, wt);
        const id = this.raw.imports?.[idx];
        if (id === undefined) fail(`package_import_id ${idx} out of range`);
        ref = id;
      } else return false;
    });
    if (ref === undefined) fail('SelfOrImportedPackageId has no case set');
    return ref;
  }

  /** ModuleId: package_id = 1, module_name_interned_dname = 2. */
  moduleRef(r: ProtoReader): { packageId: string; module: string } {
    let packageId: string | undefined;
    let mod = 0;
    fields(r, (f, wt) => {
      if (f === 1) packageId = this.packageRef(msg(r, f, wt, 'SelfOrImportedPackageId'));
      else if (f === 2) mod = i32(r, f, wt);
      else return false;
    });
    if (packageId === undefined) fail(`${r.what} has no package reference`);
    return { packageId, module: this.dname(mod) };
  }

  /** TypeConId / TypeSynId / ValueId: module = 1, name_interned_dname = 2. */
  qualified(r: ProtoReader): QualifiedName {
    let m: { packageId: string; module: string } | undefined;
    let name = 0;
    fields(r, (f, wt) => {
      if (f === 1) m = this.moduleRef(msg(r, f, wt, 'ModuleId'));
      else if (f === 2) name = i32(r, f, wt);
      else return false;
    });
    if (m === undefined) fail(`${r.what} has no module`);
    return { packageId: m.packageId, module: m.module, name: this.dname(name) };
  }

  /** Kind: star = 1, arrow = 2 (Arrow.params = 1, result = 2), nat = 3, interned_kind = 4. */
  kind(r: ProtoReader, depth: number): Kind {
    if (depth > MAX_NESTING) fail(`kind nesting deeper than ${MAX_NESTING}`);
    let k: Kind | undefined;
    fields(r, (f, wt) => {
      if (f === 1) {
        r.expect(f, wt, WireType.LEN);
        r.skip(wt);
        k = STAR;
      } else if (f === 3) {
        r.expect(f, wt, WireType.LEN);
        r.skip(wt);
        k = NAT;
      } else if (f === 2) {
        const m = msg(r, f, wt, 'Kind.Arrow');
        const params: Kind[] = [];
        let result: Kind | undefined;
        fields(m, (g, gw) => {
          if (g === 1) params.push(this.kind(msg(m, g, gw, 'Kind'), depth + 1));
          else if (g === 2) result = this.kind(msg(m, g, gw, 'Kind'), depth + 1);
          else return false;
        });
        if (params.length === 0) fail('Kind.Arrow without params');
        if (result === undefined) fail('Kind.Arrow without result');
        k = { k: 'arrow', params, result };
      } else if (f === 4) {
        const i = i32(r, f, wt);
        if (i < 0 || i >= this.kindLimit) fail(`interned kind ${i} referenced from interned kind ${this.kindLimit}`);
        k = this.kinds[i] ?? fail(`interned kind ${i} out of range (${this.kinds.length} kinds)`);
      } else return false;
    });
    if (k === undefined) fail(`${r.what} has no case set`);
    return k;
  }

  /** TypeVarWithKind: var_interned_str = 3, kind = 2. */
  typeVarWithKind(r: ProtoReader, depth: number): TypeVarWithKind {
    let name = 0;
    let kind: Kind | undefined;
    fields(r, (f, wt) => {
      if (f === 3) name = i32(r, f, wt);
      else if (f === 2) kind = this.kind(msg(r, f, wt, 'Kind'), depth + 1);
      else return false;
    });
    if (kind === undefined) fail(`type variable ${this.str(name)} without a kind`);
    return { name: this.str(name), kind };
  }

  /** FieldWithType / VarWithType / DefValue.NameWithType share the layout: name = 3 (or 1), type = 2. */
  varWithType(r: ProtoReader, depth: number, nameField = 3): VarWithType {
    let name = 0;
    let type: Type | undefined;
    fields(r, (f, wt) => {
      if (f === nameField) name = i32(r, f, wt);
      else if (f === 2) type = this.type(msg(r, f, wt, 'Type'), depth + 1);
      else return false;
    });
    if (type === undefined) fail(`${r.what} ${this.str(name)} without a type`);
    return { name: this.str(name), type };
  }

  /** Type.Con / Type.Syn: reference = 1, args = 2. */
  private applied(r: ProtoReader, depth: number): { ref: QualifiedName; args: Type[] } {
    let ref: QualifiedName | undefined;
    const args: Type[] = [];
    fields(r, (f, wt) => {
      if (f === 1) ref = this.qualified(msg(r, f, wt, 'TypeConId'));
      else if (f === 2) args.push(this.type(msg(r, f, wt, 'Type'), depth + 1));
      else return false;
    });
    if (ref === undefined) fail(`${r.what} without a type constructor`);
    return { ref, args };
  }

  /** Type.Con as a record/variant expression's type (`Expr.RecCon.tycon` etc.). */
  typeConApp(r: ProtoReader, depth: number): { tycon: QualifiedName; args: Type[] } {
    const { ref, args } = this.applied(r, depth);
    return { tycon: ref, args };
  }

  /** Type: var = 1, con = 2, builtin = 3, forall = 4, struct = 5, nat = 6, syn = 7, interned_type = 8, tapp = 9. */
  type(r: ProtoReader, depth: number): Type {
    if (depth > MAX_NESTING) fail(`type nesting deeper than ${MAX_NESTING}`);
    let t: Type | undefined;
    fields(r, (f, wt) => {
      switch (f) {
        case 1: {
          const m = msg(r, f, wt, 'Type.Var');
          let name = 0;
          const args: Type[] = [];
          fields(m, (g, gw) => {
            if (g === 3) name = i32(m, g, gw);
            else if (g === 2) args.push(this.type(msg(m, g, gw, 'Type'), depth + 1));
            else return false;
          });
          t = { kind: 'var', name: this.str(name), args };
          return;
        }
        case 2: {
          const { ref, args } = this.applied(msg(r, f, wt, 'Type.Con'), depth);
          t = { kind: 'con', packageId: ref.packageId, module: ref.module, name: ref.name, args };
          return;
        }
        case 3: {
          const m = msg(r, f, wt, 'Type.Builtin');
          let code = 0;
          const args: Type[] = [];
          fields(m, (g, gw) => {
            if (g === 1) code = i32(m, g, gw);
            else if (g === 2) args.push(this.type(msg(m, g, gw, 'Type'), depth + 1));
            else return false;
          });
          const prim = BUILTIN_TYPES.get(code) ?? fail(`unknown BuiltinType ${code}`);
          t = { kind: 'prim', prim, args };
          return;
        }
        case 4: {
          const m = msg(r, f, wt, 'Type.Forall');
          const vars: string[] = [];
          let body: Type | undefined;
          fields(m, (g, gw) => {
            if (g === 1) vars.push(this.typeVarWithKind(msg(m, g, gw, 'TypeVarWithKind'), depth + 1).name);
            else if (g === 2) body = this.type(msg(m, g, gw, 'Type'), depth + 1);
            else return false;
          });
          if (vars.length === 0) fail('Type.Forall without variables');
          if (body === undefined) fail('Type.Forall without body');
          t = { kind: 'forall', vars, body };
          return;
        }
        case 5: {
          const m = msg(r, f, wt, 'Type.Struct');
          const fs: Field[] = [];
          fields(m, (g, gw) => {
            if (g === 1) fs.push(this.varWithType(msg(m, g, gw, 'FieldWithType'), depth + 1));
            else return false;
          });
          t = { kind: 'struct', fields: fs };
          return;
        }
        case 6: {
          r.expect(f, wt, WireType.VARINT);
          const n = r.sint64();
          if (n < 0n || n > 37n) fail(`Type.nat ${n} is not between 0 and 37`);
          t = { kind: 'nat', value: Number(n) };
          return;
        }
        case 7: {
          const { ref, args } = this.applied(msg(r, f, wt, 'Type.Syn'), depth);
          t = { kind: 'syn', synonym: ref, args };
          return;
        }
        case 8: {
          const i = i32(r, f, wt);
          if (i < 0 || i >= this.typeLimit) fail(`interned type ${i} referenced from interned type ${this.typeLimit}`);
          t = this.types[i] ?? fail(`interned type ${i} out of range (${this.types.length} types)`);
          return;
        }
        case 9: {
          const m = msg(r, f, wt, 'Type.TApp');
          let lhs: Type | undefined;
          let rhs: Type | undefined;
          fields(m, (g, gw) => {
            if (g === 1) lhs = this.type(msg(m, g, gw, 'Type'), depth + 1);
            else if (g === 2) rhs = this.type(msg(m, g, gw, 'Type'), depth + 1);
            else return false;
          });
          if (lhs === undefined || rhs === undefined) fail('Type.TApp without lhs/rhs');
          t = applyType(lhs, rhs);
          return;
        }
        default:
          return false;
      }
    });
    if (t === undefined) fail(`${r.what} has no case set`);
    return t;
  }

  /** Location: module = 1 (optional), range = 2 (start_line = 1, start_col = 2, end_line = 3, end_col = 4). */
  location(r: ProtoReader): Location {
    const loc: Location = { startLine: 0, startCol: 0, endLine: 0, endCol: 0 };
    fields(r, (f, wt) => {
      if (f === 1) loc.module = this.moduleRef(msg(r, f, wt, 'ModuleId'));
      else if (f === 2) {
        const m = msg(r, f, wt, 'Location.Range');
        fields(m, (g, gw) => {
          if (g === 1) loc.startLine = i32(m, g, gw);
          else if (g === 2) loc.startCol = i32(m, g, gw);
          else if (g === 3) loc.endLine = i32(m, g, gw);
          else if (g === 4) loc.endCol = i32(m, g, gw);
          else return false;
        });
      } else return false;
    });
    return loc;
  }
}

const STAR: Kind = { k: 'star' };
const NAT: Kind = { k: 'nat' };
