/**
 * Encoder from a small in-memory package description to a Daml-LF 2 `Package` (daml_lf2.proto), with interned
 * strings, dotted names and (optionally) types, wrapped into `ArchivePayload` + `Archive`.
 *
 * Signatures (data types, templates, choices, keys, interfaces, implements) are encoded faithfully. Expressions that
 * the LF structure requires (signatories, observers, controllers, choice bodies, key expressions, interface views) are
 * type-correct stubs: `[]` for party lists and `ERROR @T "..."` elsewhere — unless the description names the Party /
 * [Party] fields for signatories, observers or choice controllers (then they are real projections of the template
 * argument), and `archive: true` adds the consuming `Archive` choice a Daml template has (controllers = signatories,
 * body `pure ()`). The archive is therefore well-formed and its package id verifies; only what the description spells
 * out is executable Daml.
 *
 * The description types are in `lf2-description.ts`, the interning tables and types in `lf2-type-encoder.ts`.
 */
import { wrapArchive, type EncodedArchive } from './archive.js';
import {
  invalid,
  parseTypeConRef,
  type ChoiceDescription,
  type DataTypeDescription,
  type InterfaceDescription,
  type ModuleDescription,
  type PackageDescription,
  type TemplateDescription,
} from './lf2-description.js';
import { TypeEncoder } from './lf2-type-encoder.js';
import { ProtoWriter } from './protobuf-wire.js';
import type { Field, PrimType, Type, TypeConRef } from './types.js';

const BUILTIN_FUNCTION_ERROR = 1; // BuiltinFunction.ERROR = 1

const PRIM = (prim: PrimType, ...args: Type[]): Type => ({ kind: 'prim', prim, args });
const UNIT = PRIM('Unit');
const PARTY = PRIM('Party');

/** Definitions and the expression stubs they need, over the type layer's interning tables. */
class PackageEncoder extends TypeEncoder {
  /** Expr { nil = 21 { type = 1 } } : List Party */
  emptyPartyList(w: ProtoWriter): void {
    w.message(21, (n) => n.message(1, (x) => this.type(x, PARTY)));
  }

  /** Expr { app = 15 { fun = 1: Expr { ty_app = 16 { expr = 1: ERROR, types = 2: [t] } }, args = 2: [text literal] } } */
  errorStub(w: ProtoWriter, t: Type, message: string): void {
    w.message(15, (app) => {
      app.message(1, (fun) =>
        fun.message(16, (ta) => {
          ta.message(1, (e) => e.int(4, BUILTIN_FUNCTION_ERROR)); // Expr.builtin = 4
          ta.message(2, (x) => this.type(x, t));
        }),
      );
      app.message(2, (arg) => arg.message(6, (lit) => lit.int(4, this.str(message)))); // Expr.builtin_lit = 6 { text_interned_str = 4 }
    });
  }

  /**
   * `[this.p₁, …, this.pₙ] ++ this.l` for Party fields pᵢ and at most one [Party] field l (last): Expr.cons = 22
   * { type = 1, front = 2, tail = 3 }, projections Expr.rec_proj = 8 { tycon = 1, field_interned_str = 4, record = 3 }.
   */
  partyList(w: ProtoWriter, tpl: TypeConRef, fields: Field[], names: string[]): void {
    const proj = (e: ProtoWriter, name: string): void => {
      e.message(8, (rp) => {
        rp.message(1, (tc) => tc.message(1, (id) => this.typeConId(id, tpl)));
        rp.int(4, this.str(name));
        rp.message(3, (r) => r.int(2, this.str('this')));
      });
    };
    const typeOf = (n: string): Type => fields.find((f) => f.name === n)?.type ?? invalid(`${tpl.name}: unknown field ${n}`);
    const isParty = (t: Type): boolean => t.kind === 'prim' && t.prim === 'Party';
    const isList = (t: Type): boolean => t.kind === 'prim' && t.prim === 'List' && t.args[0] !== undefined && isParty(t.args[0]);
    const singles = names.filter((n) => isParty(typeOf(n)));
    const lists = names.filter((n) => isList(typeOf(n)));
    if (singles.length + lists.length !== names.length || lists.length > 1 || (lists.length === 1 && names.at(-1) !== lists[0]))
      invalid(`${tpl.name}: party fields must be Party fields, optionally followed by one [Party] field`);
    const tail = (e: ProtoWriter): void => (lists[0] !== undefined ? proj(e, lists[0]) : this.emptyPartyList(e));
    if (singles.length === 0) {
      tail(w);
      return;
    }
    w.message(22, (c) => {
      c.message(1, (t) => this.type(t, PARTY));
      for (const n of singles) c.message(2, (e) => proj(e, n));
      c.message(3, (e) => tail(e));
    });
  }

  /** TemplateChoice */
  choice(w: ProtoWriter, c: ChoiceDescription, argType: Type, tpl?: { ref: TypeConRef; fields: Field[] }): void {
    const ret = c.returnType ?? UNIT;
    w.int(2, this.str(c.name)); // name_interned_str = 2
    if (c.consuming ?? true) w.bool(3, true); // consuming = 3
    if (tpl && c.controllers) w.message(4, (e) => this.partyList(e, tpl.ref, tpl.fields, c.controllers ?? []));
    else w.message(4, (e) => this.emptyPartyList(e)); // controllers = 4
    w.message(5, (e) => this.emptyPartyList(e)); // observers = 5 (Canton's decoder always reads it)
    w.message(6, (v) => this.fieldWithType(v, 'arg', argType)); // arg_binder = 6
    w.message(8, (x) => this.type(x, ret)); // ret_type = 8
    if (c.name === 'Archive' && tpl && c.controllers)
      // update = 9: Expr.update = 23 { pure = 1 { type = 1, expr = 2: () } }
      w.message(9, (e) =>
        e.message(23, (u) => u.message(1, (p) => p.message(1, (t) => this.type(t, UNIT)).message(2, (x) => x.int(5, 0)))),
      );
    else w.message(9, (e) => this.errorStub(e, PRIM('Update', ret), `choice ${c.name} is not executable`)); // update = 9
    w.int(10, this.str('self')); // self_binder_interned_str = 10
  }

  /** DefDataType { name_interned_dname = 2, params = 3, serializable = 4, record = 5 | variant = 6 | enum = 7 | interface = 8 } */
  dataType(w: ProtoWriter, d: DataTypeDescription | { kind: 'interface'; name: string }): void {
    w.int(2, this.dname(d.name));
    if (d.kind === 'interface') {
      w.message(8, () => {});
      return;
    }
    for (const p of d.params ?? []) w.message(3, (tv) => tv.int(3, this.str(p)).message(2, (k) => k.message(1, () => {})));
    if (d.serializable ?? true) w.bool(4, true);
    const fields = (m: ProtoWriter, fs: Field[]): void => {
      for (const f of fs) m.message(1, (fw) => this.fieldWithType(fw, f.name, f.type));
    };
    if (d.kind === 'record') w.message(5, (m) => fields(m, d.fields));
    else if (d.kind === 'variant') w.message(6, (m) => fields(m, d.constructors));
    else
      w.message(7, (m) =>
        m.packedInt32(
          2,
          d.constructors.map((c) => this.str(c)),
        ),
      );
  }

  module(m: ModuleDescription): Uint8Array {
    const w = new ProtoWriter();
    w.int(1, this.dname(m.name)); // Module.name_interned_dname = 1
    // Module.flags = 2: FeatureFlags as the Daml compiler sets them.
    w.message(2, (f) => f.bool(1, true).bool(2, true).bool(3, true));
    const dataTypes: (DataTypeDescription | { kind: 'interface'; name: string })[] = [...(m.dataTypes ?? [])];
    const names = new Set(dataTypes.map((d) => d.name));
    const addRecord = (name: string, fields: Field[]): void => {
      if (names.has(name)) invalid(`module ${m.name}: data type ${name} is defined twice`);
      names.add(name);
      dataTypes.push({ kind: 'record', name, fields });
    };
    const choiceArg = (c: ChoiceDescription, owner: string): Type => {
      if (c.argType !== undefined) {
        if (c.argFields !== undefined) invalid(`${owner}: choice ${c.name} has both argType and argFields`);
        return c.argType;
      }
      addRecord(c.name, c.argFields ?? []);
      return { kind: 'con', packageId: 'self', module: m.name, name: c.name, args: [] };
    };
    const templates: { t: TemplateDescription; args: Type[] }[] = [];
    for (const t0 of m.templates ?? []) {
      addRecord(t0.name, t0.fields);
      const archive: ChoiceDescription = { name: 'Archive', argFields: [], controllers: t0.signatories ?? [] };
      if (t0.archive && names.has('Archive'))
        archive.argType = { kind: 'con', packageId: 'self', module: m.name, name: 'Archive', args: [] };
      if (t0.archive && archive.argType) delete archive.argFields;
      const t = t0.archive ? { ...t0, choices: [...(t0.choices ?? []), archive] } : t0;
      templates.push({ t, args: (t.choices ?? []).map((c) => choiceArg(c, `template ${m.name}:${t.name}`)) });
    }
    const interfaces: { i: InterfaceDescription; view: Type; args: Type[] }[] = [];
    for (const i of m.interfaces ?? []) {
      if (names.has(i.name)) invalid(`module ${m.name}: ${i.name} is defined twice`);
      names.add(i.name);
      dataTypes.push({ kind: 'interface', name: i.name });
      let view = i.viewType ?? UNIT;
      if (i.viewFields !== undefined) {
        if (i.viewType !== undefined) invalid(`interface ${m.name}:${i.name} has both viewType and viewFields`);
        addRecord(`${i.name}View`, i.viewFields);
        view = { kind: 'con', packageId: 'self', module: m.name, name: `${i.name}View`, args: [] };
      }
      interfaces.push({ i, view, args: (i.choices ?? []).map((c) => choiceArg(c, `interface ${m.name}:${i.name}`)) });
    }
    for (const e of m.exceptions ?? []) {
      if (!names.has(e)) addRecord(e, [{ name: 'message', type: PRIM('Text') }]);
    }

    for (const d of dataTypes) w.message(4, (x) => this.dataType(x, d)); // Module.data_types = 4
    for (const { t, args } of templates) {
      // Module.templates = 6: DefTemplate
      w.message(6, (x) => {
        x.int(1, this.dname(t.name)); // tycon_interned_dname = 1
        x.int(2, this.str('this')); // param_interned_str = 2
        const self = { ref: { packageId: 'self', module: m.name, name: t.name }, fields: t.fields };
        if (t.signatories) x.message(4, (e) => this.partyList(e, self.ref, t.fields, t.signatories ?? []));
        else x.message(4, (e) => this.emptyPartyList(e)); // signatories = 4
        (t.choices ?? []).forEach((c, idx) => x.message(6, (cw) => this.choice(cw, c, args[idx] as Type, self))); // choices = 6
        if (t.observers) x.message(7, (e) => this.partyList(e, self.ref, t.fields, t.observers ?? []));
        else x.message(7, (e) => this.emptyPartyList(e)); // observers = 7
        if (t.key !== undefined) {
          const key = t.key;
          // key = 9: DefKey { type = 1, maintainers = 3, key_expr = 4 }
          x.message(9, (k) => {
            k.message(1, (ty) => this.type(ty, key));
            k.message(3, (e) => this.errorStub(e, PRIM('Arrow', key, PRIM('List', PARTY)), 'maintainers stub'));
            k.message(4, (e) => this.errorStub(e, key, 'key stub'));
          });
        }
        for (const iface of t.implements ?? []) {
          const ref = parseTypeConRef(iface);
          // implements = 10: Implements { interface = 1, body = 2 (InterfaceInstanceBody { view = 2 }) }
          x.message(10, (im) => {
            im.message(1, (c) => this.typeConId(c, ref));
            im.message(2, (b) => b.message(2, (e) => this.errorStub(e, UNIT, 'view stub')));
          });
        }
      });
    }
    for (const e of m.exceptions ?? []) {
      // Module.exceptions = 7: DefException { name_interned_dname = 1, message = 3 }
      w.message(7, (x) => {
        x.int(1, this.dname(e));
        x.message(3, (ex) =>
          this.errorStub(
            ex,
            PRIM('Arrow', { kind: 'con', packageId: 'self', module: m.name, name: e, args: [] }, PRIM('Text')),
            'message stub',
          ),
        );
      });
    }
    for (const { i, view, args } of interfaces) {
      // Module.interfaces = 8: DefInterface { tycon_interned_dname = 2, methods = 3, param_interned_str = 4, choices = 5,
      // view = 6, requires = 7 }
      w.message(8, (x) => {
        x.int(2, this.dname(i.name));
        for (const meth of i.methods ?? [])
          x.message(3, (mw) => mw.int(2, this.str(meth.name)).message(3, (ty) => this.type(ty, meth.type)));
        x.int(4, this.str('this'));
        (i.choices ?? []).forEach((c, idx) => x.message(5, (cw) => this.choice(cw, c, args[idx] as Type)));
        x.message(6, (ty) => this.type(ty, view));
        for (const req of i.requires ?? []) x.message(7, (c) => this.typeConId(c, parseTypeConRef(req)));
      });
    }
    return w.finish();
  }

  /** Package { modules = 1, interned_strings = 2, interned_dotted_names = 3, metadata = 4, interned_types = 5 } */
  pkg(desc: PackageDescription): Uint8Array {
    const seen = new Set<string>();
    for (const m of desc.modules) {
      if (seen.has(m.name)) invalid(`module ${m.name} is defined twice`);
      seen.add(m.name);
    }
    // Canton's decoder validates these as Ref.PackageName / Ref.PackageVersion.
    if (!/^[A-Za-z0-9_-]+$/.test(desc.name)) invalid(`package name "${desc.name}" must be non-empty and use only letters, digits, - and _`);
    if (!/^(?:0|[1-9][0-9]*)(?:\.(?:0|[1-9][0-9]*))*$/.test(desc.version))
      invalid(`package version "${desc.version}" must be dot-separated numbers`);
    const modules = desc.modules.map((m) => this.module(m));
    const nameIdx = this.str(desc.name);
    const versionIdx = this.str(desc.version);
    const upgraded = desc.upgradedPackageId === undefined ? undefined : this.str(desc.upgradedPackageId);
    const w = new ProtoWriter();
    for (const m of modules) w.bytes(1, m);
    for (const s of this.strings) w.string(2, s);
    for (const d of this.dnames) w.message(3, (x) => x.packedInt32(1, d)); // InternedDottedName.segments_interned_str = 1
    // PackageMetadata { name_interned_str = 1, version_interned_str = 2, upgraded_package_id = 3 { upgraded_package_id_interned_str = 1 } }
    w.message(4, (md) => {
      if (nameIdx !== 0) md.int(1, nameIdx);
      if (versionIdx !== 0) md.int(2, versionIdx);
      if (upgraded !== undefined) md.message(3, (u) => (upgraded !== 0 ? u.int(1, upgraded) : u));
    });
    for (const t of this.types) w.bytes(5, t);
    return w.finish();
  }
}

/** Encodes a package description as LF2 `Package` bytes (the `ArchivePayload.daml_lf_2` field). */
export function encodePackage(desc: PackageDescription): Uint8Array {
  return new PackageEncoder(desc.internTypes ?? true, desc.lfMinor === 'dev').pkg(desc);
}

/** Encodes a package description as a complete `Archive` (.dalf) whose package id verifies. */
export function encodeArchive(desc: PackageDescription): EncodedArchive {
  return wrapArchive(encodePackage(desc), { lfMinor: desc.lfMinor ?? '1' });
}
