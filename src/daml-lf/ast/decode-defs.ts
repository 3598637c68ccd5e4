/** Decoding of `Module` and its definitions (daml_lf2.proto), field numbers cited from there. */
import { ProtoReader, WireType } from '../protobuf-wire.js';
import type { Type } from '../types.js';
import type {
  DataCons,
  DefDataType,
  DefException,
  DefInterface,
  DefTemplate,
  DefTypeSyn,
  DefValue,
  Expr,
  FeatureFlags,
  InterfaceInstance,
  InterfaceMethod,
  Location,
  ModuleAst,
  QualifiedName,
  TemplateChoice,
  TemplateKey,
  TypeVarWithKind,
  VarWithType,
} from './ast.js';
import { fields, i32, msg, req, type LfReader } from './reader.js';

const expr = (c: LfReader, r: ProtoReader, f: number, wt: number): Expr => c.expr(msg(r, f, wt, 'Expr'), 0);
const type = (c: LfReader, r: ProtoReader, f: number, wt: number): Type => c.type(msg(r, f, wt, 'Type'), 0);
const loc = (c: LfReader, r: ProtoReader, f: number, wt: number): Location => c.location(msg(r, f, wt, 'Location'));

function bool(r: ProtoReader, f: number, wt: number): boolean {
  r.expect(f, wt, WireType.VARINT);
  return r.bool();
}

/** Module: name_interned_dname = 1, flags = 2, synonyms = 3, data_types = 4, values = 5, templates = 6, exceptions = 7, interfaces = 8. */
export function decodeModule(c: LfReader, bytes: Uint8Array): ModuleAst {
  const r = new ProtoReader(bytes, 'MALFORMED_PACKAGE', 'Module');
  let name = 0;
  const flags: FeatureFlags = {
    forbidPartyLiterals: false,
    dontDivulgeContractIdsInCreateArguments: false,
    dontDiscloseNonConsumingChoicesToObservers: false,
  };
  const raw: Record<number, Uint8Array[]> = { 3: [], 4: [], 5: [], 6: [], 7: [], 8: [] };
  fields(r, (f, wt) => {
    if (f === 1) name = i32(r, f, wt);
    else if (f === 2) {
      const m = msg(r, f, wt, 'FeatureFlags');
      fields(m, (g, gw) => {
        if (g === 1) flags.forbidPartyLiterals = bool(m, g, gw);
        else if (g === 2) flags.dontDivulgeContractIdsInCreateArguments = bool(m, g, gw);
        else if (g === 3) flags.dontDiscloseNonConsumingChoicesToObservers = bool(m, g, gw);
        else return false;
      });
    } else if (raw[f] !== undefined) {
      r.expect(f, wt, WireType.LEN);
      raw[f].push(r.bytes());
    } else return false;
  });
  const modName = c.dname(name);
  const each = <T>(f: number, what: string, dec: (r: ProtoReader) => T): T[] =>
    (raw[f] as Uint8Array[]).map((b) => dec(new ProtoReader(b, 'MALFORMED_PACKAGE', `Module ${modName}: ${what}`)));
  return {
    name: modName,
    flags,
    synonyms: each(3, 'DefTypeSyn', (m) => typeSyn(c, m)),
    dataTypes: each(4, 'DefDataType', (m) => dataType(c, m)),
    values: each(5, 'DefValue', (m) => value(c, m)),
    templates: each(6, 'DefTemplate', (m) => template(c, m)),
    exceptions: each(7, 'DefException', (m) => exception(c, m)),
    interfaces: each(8, 'DefInterface', (m) => iface(c, m)),
  };
}

/** DefTypeSyn: location = 1, name_interned_dname = 2, params = 3, type = 4. */
function typeSyn(c: LfReader, r: ProtoReader): DefTypeSyn {
  let name = 0;
  const params: TypeVarWithKind[] = [];
  let t: Type | undefined;
  let l: Location | undefined;
  fields(r, (f, wt) => {
    if (f === 1) l = loc(c, r, f, wt);
    else if (f === 2) name = i32(r, f, wt);
    else if (f === 3) params.push(c.typeVarWithKind(msg(r, f, wt, 'TypeVarWithKind'), 0));
    else if (f === 4) t = type(c, r, f, wt);
    else return false;
  });
  const d: DefTypeSyn = { name: c.dname(name), params, type: req(t, `DefTypeSyn ${c.dname(name)}: type`) };
  if (l) d.loc = l;
  return d;
}

/** DefDataType: location = 1, name_interned_dname = 2, params = 3, serializable = 4, record = 5, variant = 6, enum = 7, interface = 8. */
function dataType(c: LfReader, r: ProtoReader): DefDataType {
  let name = 0;
  const params: TypeVarWithKind[] = [];
  let serializable = false;
  let cons: DataCons | undefined;
  let l: Location | undefined;
  const fieldList = (m: ProtoReader): VarWithType[] => {
    const out: VarWithType[] = [];
    fields(m, (g, gw) => {
      if (g === 1) out.push(c.varWithType(msg(m, g, gw, 'FieldWithType'), 0));
      else return false;
    });
    return out;
  };
  fields(r, (f, wt) => {
    switch (f) {
      case 1:
        l = loc(c, r, f, wt);
        return;
      case 2:
        name = i32(r, f, wt);
        return;
      case 3:
        params.push(c.typeVarWithKind(msg(r, f, wt, 'TypeVarWithKind'), 0));
        return;
      case 4:
        serializable = bool(r, f, wt);
        return;
      case 5:
        cons = { kind: 'record', fields: fieldList(msg(r, f, wt, 'DefDataType.Fields')) };
        return;
      case 6:
        cons = { kind: 'variant', constructors: fieldList(msg(r, f, wt, 'DefDataType.Fields')) };
        return;
      case 7: {
        const m = msg(r, f, wt, 'DefDataType.EnumConstructors');
        const idx: number[] = [];
        fields(m, (g, gw) => {
          if (g === 2) m.repeatedInt32(gw, idx);
          else return false;
        });
        cons = { kind: 'enum', constructors: idx.map((i) => c.str(i)) };
        return;
      }
      case 8:
        r.expect(f, wt, WireType.LEN);
        r.skip(wt);
        cons = { kind: 'interface' };
        return;
      default:
        return false;
    }
  });
  const d: DefDataType = { name: c.dname(name), params, serializable, cons: req(cons, `DefDataType ${c.dname(name)}: constructors`) };
  if (l) d.loc = l;
  return d;
}

/** DefValue: location = 1, name_with_type = 2 (name_interned_dname = 1, type = 2), expr = 3. */
function value(c: LfReader, r: ProtoReader): DefValue {
  let name: number | undefined;
  let t: Type | undefined;
  let e: Expr | undefined;
  let l: Location | undefined;
  fields(r, (f, wt) => {
    if (f === 1) l = loc(c, r, f, wt);
    else if (f === 2) {
      const m = msg(r, f, wt, 'DefValue.NameWithType');
      name = 0;
      fields(m, (g, gw) => {
        if (g === 1) name = i32(m, g, gw);
        else if (g === 2) t = type(c, m, g, gw);
        else return false;
      });
    } else if (f === 3) e = expr(c, r, f, wt);
    else return false;
  });
  const n = c.dname(req(name, 'DefValue.name_with_type'));
  const d: DefValue = { name: n, type: req(t, `DefValue ${n}: type`), expr: req(e, `DefValue ${n}: expr`) };
  if (l) d.loc = l;
  return d;
}

/**
 * TemplateChoice: location = 1, name_interned_str = 2, consuming = 3, controllers = 4, observers = 5, arg_binder = 6,
 * ret_type = 8, update = 9, self_binder_interned_str = 10, authorizers = 1001.
 */
function choice(c: LfReader, r: ProtoReader): TemplateChoice {
  let name = 0;
  let selfBinder = 0;
  let consuming = false;
  const e: Record<number, Expr> = {};
  let arg: VarWithType | undefined;
  let ret: Type | undefined;
  let l: Location | undefined;
  fields(r, (f, wt) => {
    if (f === 1) l = loc(c, r, f, wt);
    else if (f === 2) name = i32(r, f, wt);
    else if (f === 3) consuming = bool(r, f, wt);
    else if (f === 4 || f === 5 || f === 9 || f === 1001) e[f] = expr(c, r, f, wt);
    else if (f === 6) arg = c.varWithType(msg(r, f, wt, 'VarWithType'), 0);
    else if (f === 8) ret = type(c, r, f, wt);
    else if (f === 10) selfBinder = i32(r, f, wt);
    else return false;
  });
  const n = c.str(name);
  const ch: TemplateChoice = {
    name: n,
    consuming,
    controllers: req(e[4], `choice ${n}: controllers`),
    argBinder: req(arg, `choice ${n}: arg_binder`),
    returnType: req(ret, `choice ${n}: ret_type`),
    update: req(e[9], `choice ${n}: update`),
    selfBinder: c.str(selfBinder),
  };
  if (e[5]) ch.observers = e[5];
  if (e[1001]) ch.authorizers = e[1001];
  if (l) ch.loc = l;
  return ch;
}

/** DefTemplate.DefKey: type = 1, key_expr = 4, maintainers = 3. */
function templateKey(c: LfReader, r: ProtoReader): TemplateKey {
  let t: Type | undefined;
  let k: Expr | undefined;
  let m: Expr | undefined;
  fields(r, (f, wt) => {
    if (f === 1) t = type(c, r, f, wt);
    else if (f === 4) k = expr(c, r, f, wt);
    else if (f === 3) m = expr(c, r, f, wt);
    else return false;
  });
  return { type: req(t, 'DefKey.type'), keyExpr: req(k, 'DefKey.key_expr'), maintainers: req(m, 'DefKey.maintainers') };
}

/** DefTemplate.Implements: interface = 1, body = 2 (methods = 1 {method_interned_name = 1, value = 2}, view = 2), location = 3. */
function implementsDef(c: LfReader, r: ProtoReader): InterfaceInstance {
  let ifc: QualifiedName | undefined;
  const methods: { name: string; value: Expr }[] = [];
  let view: Expr | undefined;
  let l: Location | undefined;
  fields(r, (f, wt) => {
    if (f === 1) ifc = c.qualified(msg(r, f, wt, 'TypeConId'));
    else if (f === 3) l = loc(c, r, f, wt);
    else if (f === 2) {
      const b = msg(r, f, wt, 'InterfaceInstanceBody');
      fields(b, (g, gw) => {
        if (g === 2) view = expr(c, b, g, gw);
        else if (g === 1) {
          const m = msg(b, g, gw, 'InterfaceInstanceMethod');
          let mname = 0;
          let v: Expr | undefined;
          fields(m, (h, hw) => {
            if (h === 1) mname = i32(m, h, hw);
            else if (h === 2) v = expr(c, m, h, hw);
            else return false;
          });
          methods.push({ name: c.str(mname), value: req(v, `method ${c.str(mname)}: value`) });
        } else return false;
      });
    } else return false;
  });
  const i: InterfaceInstance = { iface: req(ifc, 'Implements.interface'), methods, view: req(view, 'InterfaceInstanceBody.view') };
  if (l) i.loc = l;
  return i;
}

/**
 * DefTemplate: tycon_interned_dname = 1, param_interned_str = 2, precond = 3, signatories = 4, choices = 6,
 * observers = 7, location = 8, key = 9, implements = 10.
 */
function template(c: LfReader, r: ProtoReader): DefTemplate {
  let name = 0;
  let param = 0;
  const e: Record<number, Expr> = {};
  const choices: TemplateChoice[] = [];
  const impls: InterfaceInstance[] = [];
  let key: TemplateKey | undefined;
  let l: Location | undefined;
  fields(r, (f, wt) => {
    if (f === 1) name = i32(r, f, wt);
    else if (f === 2) param = i32(r, f, wt);
    else if (f === 3 || f === 4 || f === 7) e[f] = expr(c, r, f, wt);
    else if (f === 6) choices.push(choice(c, msg(r, f, wt, 'TemplateChoice')));
    else if (f === 8) l = loc(c, r, f, wt);
    else if (f === 9) key = templateKey(c, msg(r, f, wt, 'DefTemplate.DefKey'));
    else if (f === 10) impls.push(implementsDef(c, msg(r, f, wt, 'DefTemplate.Implements')));
    else return false;
  });
  const n = c.dname(name);
  const t: DefTemplate = {
    name: n,
    param: c.str(param),
    signatories: req(e[4], `template ${n}: signatories`),
    observers: req(e[7], `template ${n}: observers`),
    choices,
    implements: impls,
  };
  if (e[3]) t.precond = e[3];
  if (key) t.key = key;
  if (l) t.loc = l;
  return t;
}

/** DefInterface: location = 1, tycon_interned_dname = 2, methods = 3, param_interned_str = 4, choices = 5, view = 6, requires = 7. */
function iface(c: LfReader, r: ProtoReader): DefInterface {
  let name = 0;
  let param = 0;
  const methods: InterfaceMethod[] = [];
  const choices: TemplateChoice[] = [];
  const requires: QualifiedName[] = [];
  let view: Type | undefined;
  let l: Location | undefined;
  fields(r, (f, wt) => {
    if (f === 1) l = loc(c, r, f, wt);
    else if (f === 2) name = i32(r, f, wt);
    else if (f === 4) param = i32(r, f, wt);
    else if (f === 5) choices.push(choice(c, msg(r, f, wt, 'TemplateChoice')));
    else if (f === 6) view = type(c, r, f, wt);
    else if (f === 7) requires.push(c.qualified(msg(r, f, wt, 'TypeConId')));
    else if (f === 3) {
      const m = msg(r, f, wt, 'InterfaceMethod');
      let mname = 0;
      let mtype: Type | undefined;
      let ml: Location | undefined;
      fields(m, (g, gw) => {
        if (g === 1) ml = loc(c, m, g, gw);
        else if (g === 2) mname = i32(m, g, gw);
        else if (g === 3) mtype = type(c, m, g, gw);
        else return false;
      });
      const im: InterfaceMethod = { name: c.str(mname), type: req(mtype, `interface method ${c.str(mname)}: type`) };
      if (ml) im.loc = ml;
      methods.push(im);
    } else return false;
  });
  const n = c.dname(name);
  const d: DefInterface = { name: n, param: c.str(param), methods, choices, view: req(view, `interface ${n}: view`), requires };
  if (l) d.loc = l;
  return d;
}

/** DefException: name_interned_dname = 1, location = 2, message = 3. */
function exception(c: LfReader, r: ProtoReader): DefException {
  let name = 0;
  let message: Expr | undefined;
  let l: Location | undefined;
  fields(r, (f, wt) => {
    if (f === 1) name = i32(r, f, wt);
    else if (f === 2) l = loc(c, r, f, wt);
    else if (f === 3) message = expr(c, r, f, wt);
    else return false;
  });
  const d: DefException = { name: c.dname(name), message: req(message, `exception ${c.dname(name)}: message`) };
  if (l) d.loc = l;
  return d;
}
