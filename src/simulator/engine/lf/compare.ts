/**
 * Generic equality and ordering of comparable values (spec "Generic comparison functions", rules EvLessEq*) and the
 * order on types (spec "Type ordering", rules TypeOrder*), used by EQUAL / LESS… , GenMap keys, `Any` and `TypeRep`.
 * Comparing functions or updates, or two contract ids that are not comparable (a non-suffixed V1 id that is a strict
 * prefix of the other), is an error.
 */
import type { Type } from '../../../daml-lf/ast/ast.js';
import { EngineError } from './errors.js';
import { compareText } from './text.js';
import { K, type V, type VList } from './value.js';

const cmpNum = (a: bigint | number, b: bigint | number): number => (a < b ? -1 : a > b ? 1 : 0);

/** Contract ids are comparable unless one is a non-suffixed V1 id and a strict prefix of the other (contract-id.rst). */
export function checkComparableCids(a: string, b: string): void {
  if (a === b || !a.startsWith('00') || !b.startsWith('00')) return;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (short.length === 66 && long.startsWith(short))
    throw new EngineError('ContractIdComparability', `Contract IDs ${short} and ${long} are not comparable`, { contractId: short });
}

export function compareValues(a: V, b: V): number {
  switch (typeof a) {
    case 'boolean':
      return a === b ? 0 : a ? 1 : -1;
    case 'bigint':
    case 'number':
      return cmpNum(a, b as bigint | number);
    case 'string':
      return compareText(a, b as string);
  }
  const y = b as typeof a;
  switch (a.k) {
    case K.Unit:
    case K.Token:
      return 0;
    case K.Numeric: {
      const o = y as typeof a;
      if (a.scale === o.scale) return cmpNum(a.value, o.value);
      const s = Math.max(a.scale, o.scale);
      return cmpNum(a.value * 10n ** BigInt(s - a.scale), o.value * 10n ** BigInt(s - o.scale));
    }
    case K.BigNumeric: {
      const o = y as typeof a;
      const s = Math.max(a.scale, o.scale);
      return cmpNum(a.value * 10n ** BigInt(s - a.scale), o.value * 10n ** BigInt(s - o.scale));
    }
    case K.Timestamp:
      return cmpNum(a.micros, (y as typeof a).micros);
    case K.ContractId: {
      const o = (y as typeof a).cid;
      checkComparableCids(a.cid, o);
      return compareText(a.cid, o);
    }
    case K.Nil:
    case K.Cons:
      return compareLists(a, y as VList);
    case K.None:
      return y.k === K.None ? 0 : -1;
    case K.Some:
      return y.k === K.None ? 1 : compareValues(a.value, (y as typeof a).value);
    case K.TextMap: {
      const o = y as typeof a;
      return compareEntries(a.keys, a.values, o.keys, o.values);
    }
    case K.GenMap: {
      const o = y as typeof a;
      return compareEntries(a.keys, a.values, o.keys, o.values);
    }
    case K.Record:
      return compareArrays(a.fields, (y as typeof a).fields);
    case K.Variant: {
      const o = y as typeof a;
      return a.rank !== o.rank ? cmpNum(a.rank, o.rank) : compareValues(a.value, o.value);
    }
    case K.Enum:
      return cmpNum(a.rank, (y as typeof a).rank);
    case K.Struct:
      return compareArrays(a.values, (y as typeof a).values);
    case K.Any: {
      const o = y as typeof a;
      const t = compareTypes(a.type, o.type);
      return t !== 0 ? t : compareValues(a.value, o.value);
    }
    case K.TypeRep:
      return compareTypes(a.type, (y as typeof a).type);
    case K.Closure:
    case K.Pap:
    case K.Builtin:
      throw new EngineError('NonComparableValues', 'Try to compare functions');
  }
}

export const equalValues = (a: V, b: V): boolean => a === b || compareValues(a, b) === 0;

function compareLists(a: VList, b: VList): number {
  let x = a;
  let y = b;
  for (;;) {
    if (x.k === K.Nil) return y.k === K.Nil ? 0 : -1;
    if (y.k === K.Nil) return 1;
    const c = compareValues(x.head, y.head);
    if (c !== 0) return c;
    x = x.tail;
    y = y.tail;
  }
}

function compareArrays(a: readonly V[], b: readonly V[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i] as V, b[i] as V);
    if (c !== 0) return c;
  }
  return cmpNum(a.length, b.length);
}

/** Maps compare as their lists of (key, value) entries. */
function compareEntries(ak: readonly V[], av: readonly V[], bk: readonly V[], bv: readonly V[]): number {
  const n = Math.min(ak.length, bk.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(ak[i] as V, bk[i] as V);
    if (c !== 0) return c;
    const d = compareValues(av[i] as V, bv[i] as V);
    if (d !== 0) return d;
  }
  return cmpNum(ak.length, bk.length);
}

/** Rank of builtin types in the type order (TypeOrderUnitBool … TypeOrderRoundingModeAnyException). */
const PRIM_RANK: Record<string, number> = {
  Unit: 0,
  Bool: 1,
  Int64: 2,
  Text: 3,
  Timestamp: 4,
  Party: 5,
  List: 6,
  Update: 7,
  Date: 8,
  ContractId: 9,
  Optional: 10,
  Arrow: 11,
  TextMap: 12,
  Numeric: 13,
  Any: 14,
  TypeRep: 15,
  GenMap: 16,
  BigNumeric: 17,
  RoundingMode: 18,
  AnyException: 19,
  FailureCategory: 20,
};
const CON_RANK = 100;
const NAT_RANK = 101;
const STRUCT_RANK = 102;
const APP_RANK = 103;

type Head = { rank: number; t: Type };

/** Splits a (flattened) type application into its head and arguments. */
function split(t: Type): { head: Type; args: Type[] } {
  if ((t.kind === 'prim' || t.kind === 'con' || t.kind === 'var' || t.kind === 'syn') && t.args.length > 0)
    return { head: { ...t, args: [] }, args: t.args };
  if (t.kind === 'app') return { head: t.fun, args: t.args };
  return { head: t, args: [] };
}

function rankOf(t: Type): Head {
  switch (t.kind) {
    case 'prim':
      return { rank: PRIM_RANK[t.prim] ?? 50, t };
    case 'con':
      return { rank: CON_RANK, t };
    case 'nat':
      return { rank: NAT_RANK, t };
    case 'struct':
      return { rank: STRUCT_RANK, t };
    default:
      return { rank: APP_RANK + 1, t };
  }
}

/** The type order `<ₜ` (applications compare curried: function part first, then the last argument). */
export function compareTypes(a: Type, b: Type): number {
  const sa = split(a);
  const sb = split(b);
  if (sa.args.length > 0 || sb.args.length > 0) {
    if (sa.args.length === 0) return rankOf(sa.head).rank < APP_RANK ? -1 : 0;
    if (sb.args.length === 0) return rankOf(sb.head).rank < APP_RANK ? 1 : 0;
    const fa = sa.args.length === 1 ? sa.head : rebuild(sa.head, sa.args.slice(0, -1));
    const fb = sb.args.length === 1 ? sb.head : rebuild(sb.head, sb.args.slice(0, -1));
    const c = compareTypes(fa, fb);
    return c !== 0 ? c : compareTypes(sa.args[sa.args.length - 1] as Type, sb.args[sb.args.length - 1] as Type);
  }
  const ra = rankOf(a);
  const rb = rankOf(b);
  if (ra.rank !== rb.rank) return cmpNum(ra.rank, rb.rank);
  if (a.kind === 'con' && b.kind === 'con')
    return compareText(a.packageId, b.packageId) || compareText(a.module, b.module) || compareText(a.name, b.name);
  if (a.kind === 'nat' && b.kind === 'nat') return cmpNum(a.value, b.value);
  if (a.kind === 'struct' && b.kind === 'struct') {
    const n = Math.min(a.fields.length, b.fields.length);
    for (let i = 0; i < n; i++) {
      const fa = a.fields[i] as { name: string; type: Type };
      const fb = b.fields[i] as { name: string; type: Type };
      const c = compareText(fa.name, fb.name) || compareTypes(fa.type, fb.type);
      if (c !== 0) return c;
    }
    return cmpNum(a.fields.length, b.fields.length);
  }
  return 0;
}

function rebuild(head: Type, args: Type[]): Type {
  if (head.kind === 'prim' || head.kind === 'con' || head.kind === 'var' || head.kind === 'syn') return { ...head, args };
  return { kind: 'app', fun: head, args };
}

export const equalTypes = (a: Type, b: Type): boolean => a === b || compareTypes(a, b) === 0;
