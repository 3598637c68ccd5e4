/**
 * The definition layer of the LF2 signature decoder: modules, data types, templates (choices, key, interface
 * instances), interfaces and exceptions; expressions are skipped unread. Field numbers are cited as
 * `Message.field_name = N` from daml_lf2.proto.
 */
import { fail } from './lf2-raw-package.js';
import { TypeDecoder } from './lf2-type-decoder.js';
import { ProtoReader, WireType } from './protobuf-wire.js';
import type { Choice, DataType, Field, Interface, InterfaceMethod, Module, Template, Type, TypeConRef } from './types.js';

export class PackageDecoder extends TypeDecoder {
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
