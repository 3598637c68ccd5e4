/**
 * The type layer of the LF2 encoder: the interning tables (strings, dotted names, types) and `Type` messages, in the
 * LF 2.1 shape (flattened `args`) or the 2.dev flat-archive shape (`Type.TApp`). Field numbers are cited as
 * `Message.field = N` from daml_lf2.proto.
 */
import { BUILTIN_TYPES } from './lf2-builtin-types.js';
import { invalid } from './lf2-description.js';
import { ProtoWriter } from './protobuf-wire.js';
import type { PrimType, Type, TypeConRef } from './types.js';

const BUILTIN_CODES = new Map<PrimType, number>([...BUILTIN_TYPES].map(([code, name]) => [name, code]));

export class TypeEncoder {
  protected readonly strings: string[] = [];
  private readonly stringIdx = new Map<string, number>();
  protected readonly dnames: number[][] = [];
  private readonly dnameIdx = new Map<string, number>();
  protected readonly types: Uint8Array[] = [];
  private readonly typeIdx = new Map<string, number>();

  /**
   * @param intern encode types through the interning table
   * @param flat   LF 2.dev "flat archive" shape: type applications as `Type.TApp`, one binder per `Forall`
   *               (Canton rejects flattened `args` lists for 2.dev and requires them for 2.1)
   */
  constructor(
    private readonly intern: boolean,
    private readonly flat: boolean,
  ) {}

  str(s: string): number {
    let i = this.stringIdx.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(s);
      this.stringIdx.set(s, i);
    }
    return i;
  }

  dname(s: string): number {
    if (s === '' || s.split('.').some((seg) => seg === '')) invalid(`"${s}" is not a valid dotted name`);
    let i = this.dnameIdx.get(s);
    if (i === undefined) {
      i = this.dnames.length;
      this.dnames.push(s.split('.').map((seg) => this.str(seg)));
      this.dnameIdx.set(s, i);
    }
    return i;
  }

  /** ModuleId { package_id = 1 (SelfOrImportedPackageId), module_name_interned_dname = 2 } */
  moduleId(w: ProtoWriter, packageId: string, module: string): void {
    w.message(1, (p) => {
      if (packageId === 'self')
        p.message(1, () => {}); // self_package_id = 1 (Unit)
      else p.int(3, this.str(packageId)); // imported_package_id_interned_str = 3
    });
    w.int(2, this.dname(module));
  }

  /** TypeConId { module = 1, name_interned_dname = 2 } */
  typeConId(w: ProtoWriter, ref: TypeConRef): void {
    w.message(1, (m) => this.moduleId(m, ref.packageId, ref.module));
    w.int(2, this.dname(ref.name));
  }

  /** Writes the body of a `Type` message, its children written through `child`. */
  private typeBody(w: ProtoWriter, t: Type, child: (w: ProtoWriter, t: Type) => void): void {
    if (this.flat) {
      if ((t.kind === 'prim' || t.kind === 'con' || t.kind === 'var' || t.kind === 'app') && t.args.length > 0) {
        // Type.tapp = 9, one application per argument: ((f a1) a2) ...
        const init: Type = t.args.length === 1 ? (t.kind === 'app' ? t.fun : { ...t, args: [] }) : { ...t, args: t.args.slice(0, -1) };
        const last = t.args[t.args.length - 1] as Type;
        w.message(9, (m) => {
          m.message(1, (x) => child(x, init));
          m.message(2, (x) => child(x, last));
        });
        return;
      }
      if (t.kind === 'forall' && t.vars.length > 1) {
        const [v, ...rest] = t.vars as [string, ...string[]];
        this.typeBody(w, { kind: 'forall', vars: [v], body: { kind: 'forall', vars: rest, body: t.body } }, child);
        return;
      }
    }
    const args = (m: ProtoWriter, as: Type[], field = 2): void => {
      for (const a of as) m.message(field, (x) => child(x, a));
    };
    switch (t.kind) {
      case 'var': // Type.var = 1 { var_interned_str = 3, args = 2 }
        w.message(1, (m) => {
          m.int(3, this.str(t.name));
          args(m, t.args);
        });
        return;
      case 'con': // Type.con = 2 { tycon = 1, args = 2 }
        w.message(2, (m) => {
          m.message(1, (c) => this.typeConId(c, t));
          args(m, t.args);
        });
        return;
      case 'prim': {
        // Type.builtin = 3 { builtin = 1, args = 2 }
        const code = BUILTIN_CODES.get(t.prim);
        if (code === undefined) return invalid(`unknown builtin type ${t.prim}`);
        w.message(3, (m) => {
          if (code !== 0) m.int(1, code);
          args(m, t.args);
        });
        return;
      }
      case 'forall': // Type.forall = 4 { vars = 1 (TypeVarWithKind { var_interned_str = 3, kind = 2 }), body = 2 }
        w.message(4, (m) => {
          for (const v of t.vars) m.message(1, (tv) => tv.int(3, this.str(v)).message(2, (k) => k.message(1, () => {})));
          m.message(2, (b) => child(b, t.body));
        });
        return;
      case 'struct': // Type.struct = 5 { fields = 1 (FieldWithType) }
        w.message(5, (m) => {
          for (const f of t.fields) m.message(1, (fw) => fw.int(3, this.str(f.name)).message(2, (x) => child(x, f.type)));
        });
        return;
      case 'nat': // Type.nat = 6 (sint64)
        w.sint(6, t.value);
        return;
      case 'syn': // Type.syn = 7 { tysyn = 1, args = 2 }
        w.message(7, (m) => {
          m.message(1, (c) => this.typeConId(c, t.synonym));
          args(m, t.args);
        });
        return;
      case 'app': {
        // Type.tapp = 9 { lhs = 1, rhs = 2 }, one application per argument
        if (t.args.length === 0) {
          this.typeBody(w, t.fun, child);
          return;
        }
        const init: Type = t.args.length === 1 ? t.fun : { kind: 'app', fun: t.fun, args: t.args.slice(0, -1) };
        const last = t.args[t.args.length - 1] as Type;
        w.message(9, (m) => {
          m.message(1, (x) => child(x, init));
          m.message(2, (x) => child(x, last));
        });
        return;
      }
    }
  }

  /** Writes a `Type` message body for `t` (interned: `interned_type = 8` referring to the table). */
  type(w: ProtoWriter, t: Type): void {
    if (!this.intern) {
      this.typeBody(w, t, (x, c) => this.type(x, c));
      return;
    }
    w.int(8, this.internType(t));
  }

  private internType(t: Type): number {
    const body = new ProtoWriter();
    // Children are interned first, so the table only refers to smaller indices.
    this.typeBody(body, t, (x, c) => x.int(8, this.internType(c)));
    const bytes = body.finish();
    let key = '';
    for (const b of bytes) key += String.fromCharCode(b);
    let i = this.typeIdx.get(key);
    if (i === undefined) {
      i = this.types.length;
      this.types.push(bytes);
      this.typeIdx.set(key, i);
    }
    return i;
  }

  /** FieldWithType / VarWithType { *_interned_str = 3, type = 2 } */
  fieldWithType(w: ProtoWriter, name: string, type: Type): void {
    w.int(3, this.str(name));
    w.message(2, (x) => this.type(x, type));
  }
}
