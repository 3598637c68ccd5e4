/**
 * Decoding of `Expr`, `CaseAlt`, `Case` and `Block` (daml_lf2.proto). Updates are in decode-update.ts, literals in
 * decode-literal.ts.
 * Required fields that are messages must be present (spec "Required fields"); compressed forms must be non-empty.
 */
import { ProtoReader, WireType } from '../protobuf-wire.js';
import type { Type } from '../types.js';
import { type CaseAlt, type Expr, type FieldWithExpr, type Location, type Pattern, type QualifiedName } from './ast.js';
import { BUILTIN_FUNCTIONS } from './builtin-names.js';
import { decodeLiteral } from './decode-literal.js';
import { decodeBlock, decodeUpdate } from './decode-update.js';
import { fail, fields, i32, MAX_NESTING, msg, req, type LfReader } from './reader.js';

const BUILTIN_CONS = ['Unit', 'False', 'True'] as const;

function builtinCon(code: number): 'Unit' | 'False' | 'True' {
  return BUILTIN_CONS[code] ?? fail(`unknown BuiltinCon ${code}`);
}

/** An `Expr` message. */
export function decodeExpr(c: LfReader, r: ProtoReader, depth: number): Expr {
  if (depth > MAX_NESTING) fail(`expression nesting deeper than ${MAX_NESTING}`);
  const d = depth + 1;
  const sub = (m: ProtoReader, g: number, gw: number): Expr => decodeExpr(c, msg(m, g, gw, 'Expr'), d);
  const ty = (m: ProtoReader, g: number, gw: number): Type => c.type(msg(m, g, gw, 'Type'), d);
  const qn = (m: ProtoReader, g: number, gw: number): QualifiedName => c.qualified(msg(m, g, gw, 'TypeConId'));
  let e: Expr | undefined;
  let loc: Location | undefined;
  fields(r, (f, wt) => {
    switch (f) {
      case 1:
        loc = c.location(msg(r, f, wt, 'Location'));
        return;
      case 2:
        e = { tag: 'var', name: c.str(i32(r, f, wt)) };
        return;
      case 3:
        e = { tag: 'val', ref: c.qualified(msg(r, f, wt, 'ValueId')) };
        return;
      case 4: {
        const code = i32(r, f, wt);
        e = { tag: 'builtin', fn: BUILTIN_FUNCTIONS.get(code) ?? fail(`unknown BuiltinFunction ${code}`) };
        return;
      }
      case 5:
        e = { tag: 'builtinCon', con: builtinCon(i32(r, f, wt)) };
        return;
      case 6:
        e = { tag: 'lit', lit: decodeLiteral(c, msg(r, f, wt, 'BuiltinLit')) };
        return;
      case 44:
        e = c.internedExpr(i32(r, f, wt), d);
        return;
      case 29:
        e = { tag: 'typeRep', type: ty(r, f, wt) };
        return;
      default: {
        if (wt !== WireType.LEN) return false;
        const m = r.message(`Expr.${f}`);
        const x = compound(c, f, m, d, sub, ty, qn);
        if (x === undefined) return; // unknown case: skipped (its bytes are consumed)
        e = x;
        return;
      }
    }
  });
  if (e === undefined) fail(`${r.what} has no case set`);
  return loc ? { ...e, loc } : e;
}

type Sub<T> = (m: ProtoReader, g: number, gw: number) => T;

/** The message-valued cases of `Expr.Sum`. */
function compound(
  c: LfReader,
  f: number,
  m: ProtoReader,
  d: number,
  sub: Sub<Expr>,
  ty: Sub<Type>,
  qn: Sub<QualifiedName>,
): Expr | undefined {
  const o: Record<number, unknown> = {};
  const lists: Record<number, unknown[]> = {};
  /** Reads the message's fields: `kinds[g]` says how field g is decoded; repeated fields collect in `lists`. */
  const read = (kinds: Record<number, 'e' | 't' | 'q' | 's' | 'i' | 'es' | 'ts' | 'fe' | 'vt' | 'tv' | 'tc' | 'str'>): void =>
    fields(m, (g, gw) => {
      switch (kinds[g]) {
        case 'e':
          o[g] = sub(m, g, gw);
          return;
        case 't':
          o[g] = ty(m, g, gw);
          return;
        case 'q':
          o[g] = qn(m, g, gw);
          return;
        case 'tc':
          o[g] = c.typeConApp(msg(m, g, gw, 'Type.Con'), d);
          return;
        case 's':
          o[g] = c.str(i32(m, g, gw));
          return;
        case 'str':
          m.expect(g, gw, WireType.LEN);
          o[g] = m.string();
          return;
        case 'i':
          o[g] = i32(m, g, gw);
          return;
        case 'es':
          (lists[g] ??= []).push(sub(m, g, gw));
          return;
        case 'ts':
          (lists[g] ??= []).push(ty(m, g, gw));
          return;
        case 'fe':
          (lists[g] ??= []).push(fieldWithExpr(c, msg(m, g, gw, 'FieldWithExpr'), d));
          return;
        case 'vt':
          (lists[g] ??= []).push(c.varWithType(msg(m, g, gw, 'VarWithType'), d));
          return;
        case 'tv':
          (lists[g] ??= []).push(c.typeVarWithKind(msg(m, g, gw, 'TypeVarWithKind'), d));
          return;
        default:
          return false;
      }
    });
  const E = (g: number): Expr => req(o[g] as Expr | undefined, `${m.what} field ${g}`);
  const T = (g: number): Type => req(o[g] as Type | undefined, `${m.what} field ${g}`);
  const Q = (g: number): QualifiedName => req(o[g] as QualifiedName | undefined, `${m.what} field ${g}`);
  const S = (g: number): string => (o[g] as string | undefined) ?? c.str(0);
  const L = <T>(g: number, nonEmpty: boolean): T[] => {
    const l = (lists[g] ?? []) as T[];
    if (nonEmpty && l.length === 0) fail(`${m.what}: repeated field ${g} must be non-empty`);
    return l;
  };
  const TC = (g: number): { tycon: QualifiedName; args: Type[] } =>
    req(o[g] as { tycon: QualifiedName; args: Type[] } | undefined, `${m.what} type constructor`);
  switch (f) {
    case 7:
      read({ 1: 'tc', 2: 'fe' });
      return { tag: 'recCon', type: TC(1), fields: L<FieldWithExpr>(2, false) };
    case 8:
      read({ 1: 'tc', 4: 's', 3: 'e' });
      return { tag: 'recProj', type: TC(1), field: S(4), record: E(3) };
    case 9:
      read({ 1: 'tc', 2: 's', 3: 'e', 4: 'e' });
      return { tag: 'recUpd', type: TC(1), field: S(2), record: E(3), update: E(4) };
    case 10:
      read({ 1: 'tc', 2: 's', 3: 'e' });
      return { tag: 'variantCon', type: TC(1), variant: S(2), arg: E(3) };
    case 11:
      read({ 1: 'q', 2: 's' });
      return { tag: 'enumCon', tycon: Q(1), con: S(2) };
    case 12:
      read({ 1: 'fe' });
      return { tag: 'structCon', fields: L<FieldWithExpr>(1, false) };
    case 13:
      read({ 1: 's', 2: 'e' });
      return { tag: 'structProj', field: S(1), struct: E(2) };
    case 14:
      read({ 1: 's', 2: 'e', 3: 'e' });
      return { tag: 'structUpd', field: S(1), struct: E(2), update: E(3) };
    case 15:
      read({ 1: 'e', 2: 'es' });
      return { tag: 'app', fun: E(1), args: L<Expr>(2, true) };
    case 16:
      read({ 1: 'e', 2: 'ts' });
      return { tag: 'tyApp', expr: E(1), types: L<Type>(2, true) };
    case 17:
      read({ 1: 'vt', 2: 'e' });
      return { tag: 'abs', params: L(1, true), body: E(2) };
    case 18:
      read({ 1: 'tv', 2: 'e' });
      return { tag: 'tyAbs', params: L(1, true), body: E(2) };
    case 19:
      return decodeCase(c, m, d);
    case 20: {
      const b = decodeBlock(c, m, d);
      return { tag: 'let', bindings: b.bindings, body: b.body };
    }
    case 21:
      read({ 1: 't' });
      return { tag: 'nil', type: T(1) };
    case 22:
      read({ 1: 't', 2: 'es', 3: 'e' });
      return { tag: 'cons', type: T(1), front: L<Expr>(2, true), tail: E(3) };
    case 23:
      return { tag: 'update', update: decodeUpdate(c, m, d) };
    case 25:
      read({ 1: 't' });
      return { tag: 'none', type: T(1) };
    case 26:
      read({ 1: 't', 2: 'e' });
      return { tag: 'some', type: T(1), value: E(2) };
    case 27:
    case 28:
    case 30:
    case 31: {
      read({ 1: 't', 2: 'e' });
      const tag = f === 27 ? 'toAny' : f === 28 ? 'fromAny' : f === 30 ? 'toAnyException' : 'fromAnyException';
      return { tag, type: T(1), expr: E(2) };
    }
    case 32:
      read({ 1: 't', 2: 't', 3: 'e' });
      return { tag: 'throw', returnType: T(1), exceptionType: T(2), expr: E(3) };
    case 33:
    case 34:
      read({ 1: 'q', 2: 'q', 3: 'e' });
      return { tag: f === 33 ? 'toInterface' : 'fromInterface', iface: Q(1), template: Q(2), expr: E(3) };
    case 35:
      read({ 1: 'q', 2: 's', 3: 'e' });
      return { tag: 'callInterface', iface: Q(1), method: S(2), expr: E(3) };
    case 36:
    case 37:
    case 38:
    case 40: {
      read({ 1: 'q', 2: 'e' });
      const tag =
        f === 36 ? 'signatoryInterface' : f === 37 ? 'observerInterface' : f === 38 ? 'viewInterface' : 'interfaceTemplateTypeRep';
      return { tag, iface: Q(1), expr: E(2) };
    }
    case 39:
      read({ 1: 'q', 2: 'q', 3: 'e', 4: 'e' });
      return { tag: 'unsafeFromInterface', iface: Q(1), template: Q(2), cid: E(3), expr: E(4) };
    case 41:
    case 42:
      read({ 1: 'q', 2: 'q', 3: 'e' });
      return { tag: f === 41 ? 'toRequiredInterface' : 'fromRequiredInterface', required: Q(1), requiring: Q(2), expr: E(3) };
    case 43:
      read({ 1: 'q', 2: 'q', 3: 'e', 4: 'e' });
      return { tag: 'unsafeFromRequiredInterface', required: Q(1), requiring: Q(2), cid: E(3), expr: E(4) };
    case 1001:
    case 1002:
      read({ 1: 'q', 2: 's', 3: 'e', 4: 'e' });
      return { tag: f === 1001 ? 'choiceController' : 'choiceObserver', template: Q(1), choice: S(2), contract: E(3), arg: E(4) };
    case 9999:
      read({ 1: 'str', 2: 't' });
      return { tag: 'experimental', name: (o[1] as string | undefined) ?? '', type: T(2) };
    default:
      fail(`unknown Expr case ${f}`);
  }
}

function fieldWithExpr(c: LfReader, r: ProtoReader, depth: number): FieldWithExpr {
  let name = 0;
  let expr: Expr | undefined;
  fields(r, (f, wt) => {
    if (f === 3) name = i32(r, f, wt);
    else if (f === 2) expr = decodeExpr(c, msg(r, f, wt, 'Expr'), depth + 1);
    else return false;
  });
  return { name: c.str(name), expr: req(expr, `field ${c.str(name)}'s expression`) };
}

/** Case: scrut = 1, alts = 2. */
function decodeCase(c: LfReader, r: ProtoReader, depth: number): Expr {
  let scrut: Expr | undefined;
  const alts: CaseAlt[] = [];
  fields(r, (f, wt) => {
    if (f === 1) scrut = decodeExpr(c, msg(r, f, wt, 'Expr'), depth);
    else if (f === 2) alts.push(caseAlt(c, msg(r, f, wt, 'CaseAlt'), depth));
    else return false;
  });
  return { tag: 'case', scrut: req(scrut, 'Case.scrut'), alts };
}

/**
 * CaseAlt: body = 1; pattern oneof: default = 2, variant = 3, builtin_con = 4, nil = 5, cons = 6, optional_none = 7,
 * optional_some = 8, enum = 9.
 */
function caseAlt(c: LfReader, r: ProtoReader, depth: number): CaseAlt {
  let body: Expr | undefined;
  let pattern: Pattern | undefined;
  const unit = (f: number, wt: number): void => {
    r.expect(f, wt, WireType.LEN);
    r.skip(wt);
  };
  fields(r, (f, wt) => {
    switch (f) {
      case 1:
        body = decodeExpr(c, msg(r, f, wt, 'Expr'), depth);
        return;
      case 2:
        unit(f, wt);
        pattern = { pat: 'default' };
        return;
      case 5:
        unit(f, wt);
        pattern = { pat: 'nil' };
        return;
      case 7:
        unit(f, wt);
        pattern = { pat: 'none' };
        return;
      case 4:
        pattern = { pat: 'builtinCon', con: builtinCon(i32(r, f, wt)) };
        return;
      case 3: {
        const m = msg(r, f, wt, 'CaseAlt.Variant');
        let tycon: QualifiedName | undefined;
        let variant = 0;
        let binder = 0;
        fields(m, (g, gw) => {
          if (g === 1) tycon = c.qualified(msg(m, g, gw, 'TypeConId'));
          else if (g === 2) variant = i32(m, g, gw);
          else if (g === 3) binder = i32(m, g, gw);
          else return false;
        });
        pattern = { pat: 'variant', tycon: req(tycon, 'CaseAlt.Variant.con'), variant: c.str(variant), binder: c.str(binder) };
        return;
      }
      case 9: {
        const m = msg(r, f, wt, 'CaseAlt.Enum');
        let tycon: QualifiedName | undefined;
        let con = 0;
        fields(m, (g, gw) => {
          if (g === 1) tycon = c.qualified(msg(m, g, gw, 'TypeConId'));
          else if (g === 2) con = i32(m, g, gw);
          else return false;
        });
        pattern = { pat: 'enum', tycon: req(tycon, 'CaseAlt.Enum.con'), con: c.str(con) };
        return;
      }
      case 6: {
        const m = msg(r, f, wt, 'CaseAlt.Cons');
        let head = 0;
        let tail = 0;
        fields(m, (g, gw) => {
          if (g === 1) head = i32(m, g, gw);
          else if (g === 2) tail = i32(m, g, gw);
          else return false;
        });
        pattern = { pat: 'cons', head: c.str(head), tail: c.str(tail) };
        return;
      }
      case 8: {
        const m = msg(r, f, wt, 'CaseAlt.OptionalSome');
        let binder = 0;
        fields(m, (g, gw) => {
          if (g === 1) binder = i32(m, g, gw);
          else return false;
        });
        pattern = { pat: 'some', binder: c.str(binder) };
        return;
      }
      default:
        return false;
    }
  });
  return { pattern: req(pattern, 'CaseAlt pattern'), body: req(body, 'CaseAlt.body') };
}
