/** Decoding of the `Update` message (daml_lf2.proto), field numbers cited from there. */
import { ProtoReader, WireType } from '../protobuf-wire.js';
import type { Type } from '../types.js';
import type { Binding, Expr, QualifiedName, Update } from './ast.js';
import { fail, fields, i32, msg, req, type LfReader } from './reader.js';

/**
 * Update: pure = 1, block = 2, create = 3, exercise = 4, fetch = 5, get_time = 6, embed_expr = 7, lookup_by_key = 8,
 * fetch_by_key = 9, exercise_by_key = 10, try_catch = 11, create_interface = 12, exercise_interface = 13,
 * fetch_interface = 14, ledger_time_lt = 15, query_n_by_key = 16.
 */
export function decodeUpdate(c: LfReader, r: ProtoReader, depth: number): Update {
  let u: Update | undefined;
  fields(r, (f, wt) => {
    if (f < 1 || f > 16) return false;
    r.expect(f, wt, WireType.LEN);
    const m = r.message(`Update.${f}`);
    u = updateCase(c, f, m, depth);
  });
  return req(u, 'Update case');
}

function updateCase(c: LfReader, f: number, m: ProtoReader, d: number): Update {
  const e: Record<number, Expr> = {};
  const t: Record<number, Type> = {};
  const q: Record<number, QualifiedName> = {};
  const s: Record<number, number> = {};
  /** Field kinds of the case message: expression, type, qualified name or interned string. */
  const read = (kinds: Record<number, 'e' | 't' | 'q' | 's'>): void =>
    fields(m, (g, gw) => {
      const k = kinds[g];
      if (k === 'e') e[g] = c.expr(msg(m, g, gw, 'Expr'), d);
      else if (k === 't') t[g] = c.type(msg(m, g, gw, 'Type'), d);
      else if (k === 'q') q[g] = c.qualified(msg(m, g, gw, 'TypeConId'));
      else if (k === 's') s[g] = i32(m, g, gw);
      else return false;
    });
  const E = (g: number): Expr => req(e[g], `${m.what} field ${g}`);
  const T = (g: number): Type => req(t[g], `${m.what} field ${g}`);
  const Q = (g: number): QualifiedName => req(q[g], `${m.what} field ${g}`);
  const S = (g: number): string => c.str(s[g] ?? 0);
  switch (f) {
    case 1:
      read({ 1: 't', 2: 'e' });
      return { tag: 'pure', type: T(1), expr: E(2) };
    case 2: {
      const b = decodeBlock(c, m, d);
      return { tag: 'block', bindings: b.bindings, body: b.body };
    }
    case 3:
      read({ 1: 'q', 2: 'e' });
      return { tag: 'create', template: Q(1), expr: E(2) };
    case 12:
      read({ 1: 'q', 2: 'e' });
      return { tag: 'createInterface', iface: Q(1), expr: E(2) };
    case 4:
      read({ 1: 'q', 6: 's', 3: 'e', 5: 'e' });
      return { tag: 'exercise', template: Q(1), choice: S(6), cid: E(3), arg: E(5) };
    case 13: {
      read({ 1: 'q', 2: 's', 3: 'e', 4: 'e', 5: 'e' });
      const x: Update = { tag: 'exerciseInterface', iface: Q(1), choice: S(2), cid: E(3), arg: E(4) };
      if (e[5] !== undefined) x.guard = e[5];
      return x;
    }
    case 10:
      read({ 1: 'q', 2: 's', 3: 'e', 4: 'e' });
      return { tag: 'exerciseByKey', template: Q(1), choice: S(2), key: E(3), arg: E(4) };
    case 5:
      read({ 1: 'q', 2: 'e' });
      return { tag: 'fetch', template: Q(1), cid: E(2) };
    case 14:
      read({ 1: 'q', 2: 'e' });
      return { tag: 'fetchInterface', iface: Q(1), cid: E(2) };
    case 6:
      while (!m.done) m.skip(m.tag().wireType); // Unit
      return { tag: 'getTime' };
    case 7:
      read({ 1: 't', 2: 'e' });
      return { tag: 'embedExpr', type: T(1), body: E(2) };
    case 8:
    case 9:
    case 16:
      read({ 1: 'q' });
      return { tag: f === 8 ? 'lookupByKey' : f === 9 ? 'fetchByKey' : 'queryNByKey', template: Q(1) };
    case 11:
      read({ 1: 't', 2: 'e', 3: 's', 4: 'e' });
      return { tag: 'tryCatch', returnType: T(1), tryExpr: E(2), binder: S(3), catchExpr: E(4) };
    case 15:
      return { tag: 'ledgerTimeLt', expr: c.expr(m, d) };
    default:
      return fail(`unknown Update case ${f}`);
  }
}

/** Block: bindings = 1 (Binding: binder = 1, bound = 2), body = 2. */
export function decodeBlock(c: LfReader, r: ProtoReader, depth: number): { bindings: Binding[]; body: Expr } {
  const bindings: Binding[] = [];
  let body: Expr | undefined;
  fields(r, (f, wt) => {
    if (f === 1) {
      const m = msg(r, f, wt, 'Binding');
      let binder: { name: string; type: Type } | undefined;
      let bound: Expr | undefined;
      fields(m, (g, gw) => {
        if (g === 1) binder = c.varWithType(msg(m, g, gw, 'VarWithType'), depth);
        else if (g === 2) bound = c.expr(msg(m, g, gw, 'Expr'), depth);
        else return false;
      });
      const b = req(binder, 'Binding.binder');
      bindings.push({ name: b.name, type: b.type, bound: req(bound, 'Binding.bound') });
    } else if (f === 2) body = c.expr(msg(r, f, wt, 'Expr'), depth);
    else return false;
  });
  if (bindings.length === 0) fail('Block without bindings');
  return { bindings, body: req(body, 'Block.body') };
}
