/**
 * Comparison, list, map and control builtins (spec "Generic comparison functions", "List functions", "Text map
 * functions", "Generic map functions", "Error functions", "Debugging functions", "Type Representation function").
 */
import { compareValues, equalValues } from '../compare.js';
import { EngineError, FailureStatusError } from '../errors.js';
import { Kont, type Machine } from '../machine.js';
import { compareText } from '../text.js';
import {
  K,
  NONE,
  PENDING,
  VGenMap,
  VSome,
  VStruct,
  VTextMap,
  listFromArray,
  listToArray,
  type V,
  type VAny,
  type VList,
  type VRecord,
  type VTypeRep,
} from '../value.js';
import { pure, register, registerValue } from './registry.js';

/** Remaining arity of a function value. */
function remaining(f: V): number {
  if (typeof f !== 'object') return 0;
  if (f.k === K.Closure || f.k === K.Builtin) return f.arity;
  if (f.k === K.Pap) return f.remaining;
  return 0;
}

class KFoldl extends Kont {
  constructor(
    private readonly f: V,
    private readonly rest: VList,
  ) {
    super();
  }
  resume(m: Machine, acc: V): void {
    foldlStep(m, this.f, acc, this.rest);
  }
}

function foldlStep(m: Machine, f: V, acc: V, list: VList): void {
  if (list.k === K.Nil) {
    m.val = acc;
    return;
  }
  m.push(new KFoldl(f, list.tail));
  m.apply(f, [acc, list.head]);
}

/** foldr when `f` takes both arguments: right to left, `f xᵢ acc`. */
class KFoldr extends Kont {
  constructor(
    private readonly f: V,
    private readonly xs: V[],
    private readonly i: number,
  ) {
    super();
  }
  resume(m: Machine, acc: V): void {
    if (this.i < 0) {
      m.val = acc;
      return;
    }
    m.push(new KFoldr(this.f, this.xs, this.i - 1));
    m.apply(this.f, [this.xs[this.i] as V, acc]);
  }
}

/** foldr when `f` takes one argument at a time: first `f xᵢ` left to right, then the results right to left. */
class KFoldrMap extends Kont {
  constructor(
    private readonly f: V,
    private readonly xs: V[],
    private readonly i: number,
    private readonly mapped: V[],
    private readonly init: V,
  ) {
    super();
  }
  resume(m: Machine, g: V): void {
    this.mapped.push(g);
    const next = this.i + 1;
    if (next < this.xs.length) {
      m.push(new KFoldrMap(this.f, this.xs, next, this.mapped, this.init));
      m.apply(this.f, [this.xs[next] as V]);
      return;
    }
    new KFoldrReduce(this.mapped, this.mapped.length - 1).resume(m, this.init);
  }
}

class KFoldrReduce extends Kont {
  constructor(
    private readonly gs: V[],
    private readonly i: number,
  ) {
    super();
  }
  resume(m: Machine, acc: V): void {
    if (this.i < 0) {
      m.val = acc;
      return;
    }
    m.push(new KFoldrReduce(this.gs, this.i - 1));
    m.apply(this.gs[this.i] as V, [acc]);
  }
}

/** EQUAL_LIST f xs ys: `f y x` on the heads, then the tails with the lists swapped (as the engine evaluates it). */
class KEqualList extends Kont {
  constructor(
    private readonly f: V,
    private readonly a: VList,
    private readonly b: VList,
  ) {
    super();
  }
  resume(m: Machine, ok: V): void {
    if (ok !== true) {
      m.val = false;
      return;
    }
    equalListStep(m, this.f, this.a, this.b);
  }
}

function equalListStep(m: Machine, f: V, xs: VList, ys: VList): void {
  if (xs.k === K.Nil) {
    m.val = ys.k === K.Nil;
    return;
  }
  if (ys.k === K.Nil) {
    m.val = false;
    return;
  }
  m.push(new KEqualList(f, ys.tail, xs.tail));
  m.apply(f, [ys.head, xs.head]);
}

/** Index of `key` in sorted `keys`, or -(insertion point) - 1. */
function search<T>(keys: readonly T[], key: T, cmp: (a: T, b: T) => number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = cmp(keys[mid] as T, key);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}

function insert<T>(keys: readonly T[], vals: readonly V[], k: T, v: V, cmp: (a: T, b: T) => number): [T[], V[]] {
  const i = search(keys, k, cmp);
  const ks = keys.slice();
  const vs = vals.slice();
  if (i >= 0) vs[i] = v;
  else {
    ks.splice(-i - 1, 0, k);
    vs.splice(-i - 1, 0, v);
  }
  return [ks, vs];
}

function remove<T>(keys: readonly T[], vals: readonly V[], k: T, cmp: (a: T, b: T) => number): [T[], V[]] | undefined {
  const i = search(keys, k, cmp);
  if (i < 0) return undefined;
  const ks = keys.slice();
  const vs = vals.slice();
  ks.splice(i, 1);
  vs.splice(i, 1);
  return [ks, vs];
}

/** A GenMap key must be comparable (no functions inside). */
function checkKey(k: V): V {
  compareValues(k, k);
  return k;
}

const ENTRY_NAMES = ['key', 'value'];
const tm = (v: V): VTextMap => v as VTextMap;
const gm = (v: V): VGenMap => v as VGenMap;

registerValue('TEXTMAP_EMPTY', new VTextMap([], []));
registerValue('GENMAP_EMPTY', new VGenMap([], []));

register({
  EQUAL: pure(2, (a) => equalValues(a[0] as V, a[1] as V)),
  LESS_EQ: pure(2, (a) => compareValues(a[0] as V, a[1] as V) <= 0),
  LESS: pure(2, (a) => compareValues(a[0] as V, a[1] as V) < 0),
  GREATER_EQ: pure(2, (a) => compareValues(a[0] as V, a[1] as V) >= 0),
  GREATER: pure(2, (a) => compareValues(a[0] as V, a[1] as V) > 0),

  FOLDL: {
    arity: 3,
    run: (m, a) => {
      foldlStep(m, a[0] as V, a[1] as V, a[2] as VList);
      return PENDING;
    },
  },
  FOLDR: {
    arity: 3,
    run: (m, a) => {
      const f = a[0] as V;
      const xs = listToArray(a[2] as VList);
      if (remaining(f) >= 2) new KFoldr(f, xs, xs.length - 1).resume(m, a[1] as V);
      else if (xs.length === 0) m.val = a[1] as V;
      else {
        m.push(new KFoldrMap(f, xs, 0, [], a[1] as V));
        m.apply(f, [xs[0] as V]);
      }
      return PENDING;
    },
  },
  EQUAL_LIST: {
    arity: 3,
    run: (m, a) => {
      equalListStep(m, a[0] as V, a[1] as VList, a[2] as VList);
      return PENDING;
    },
  },

  TEXTMAP_INSERT: pure(3, (a) => {
    const m = tm(a[2] as V);
    const [ks, vs] = insert(m.keys, m.values, a[0] as string, a[1] as V, compareText);
    return new VTextMap(ks, vs);
  }),
  TEXTMAP_LOOKUP: pure(2, (a) => {
    const m = tm(a[1] as V);
    const i = search(m.keys, a[0] as string, compareText);
    return i >= 0 ? new VSome(m.values[i] as V) : NONE;
  }),
  TEXTMAP_DELETE: pure(2, (a) => {
    const m = tm(a[1] as V);
    const r = remove(m.keys, m.values, a[0] as string, compareText);
    return r ? new VTextMap(r[0], r[1]) : m;
  }),
  TEXTMAP_TO_LIST: pure(1, (a) => {
    const m = tm(a[0] as V);
    return listFromArray(m.keys.map((k, i) => new VStruct(ENTRY_NAMES, [k, m.values[i] as V])));
  }),
  TEXTMAP_SIZE: pure(1, (a) => BigInt(tm(a[0] as V).keys.length)),

  GENMAP_INSERT: pure(3, (a) => {
    const m = gm(a[2] as V);
    const [ks, vs] = insert(m.keys, m.values, checkKey(a[0] as V), a[1] as V, compareValues);
    return new VGenMap(ks, vs);
  }),
  GENMAP_LOOKUP: pure(2, (a) => {
    const m = gm(a[1] as V);
    const i = search(m.keys, checkKey(a[0] as V), compareValues);
    return i >= 0 ? new VSome(m.values[i] as V) : NONE;
  }),
  GENMAP_DELETE: pure(2, (a) => {
    const m = gm(a[1] as V);
    const r = remove(m.keys, m.values, checkKey(a[0] as V), compareValues);
    return r ? new VGenMap(r[0], r[1]) : m;
  }),
  GENMAP_KEYS: pure(1, (a) => listFromArray(gm(a[0] as V).keys)),
  GENMAP_VALUES: pure(1, (a) => listFromArray(gm(a[0] as V).values)),
  GENMAP_SIZE: pure(1, (a) => BigInt(gm(a[0] as V).keys.length)),

  COERCE_CONTRACT_ID: pure(1, (a) => a[0] as V),
  TRACE: {
    arity: 2,
    run: (m, a) => {
      m.trace(a[0] as string);
      return a[1] as V;
    },
  },
  ERROR: pure(1, (a) => {
    throw new EngineError('UserError', a[0] as string);
  }),
  FAIL_WITH_STATUS: pure(4, (a) => {
    const meta = tm(a[3] as V);
    const metadata: Record<string, string> = {};
    meta.keys.forEach((k, i) => (metadata[k] = meta.values[i] as string));
    throw new FailureStatusError({ errorId: a[0] as string, category: Number(a[1]), message: a[2] as string, metadata });
  }),
  ANY_EXCEPTION_MESSAGE: {
    arity: 1,
    run: (m, a) => {
      const exc = a[0] as VAny;
      const rec = exc.value as VRecord;
      if (exc.type.kind !== 'con') throw new EngineError('Internal', 'ANY_EXCEPTION_MESSAGE: not an exception');
      m.apply(m.env.exceptionMessage(exc.type), [rec]);
      return PENDING;
    },
  },
  TYPE_REP_TYCON_NAME: pure(1, (a) => {
    const t = (a[0] as VTypeRep).type;
    return t.kind === 'con' && t.args.length === 0 ? new VSome(`${t.packageId}:${t.module}:${t.name}`) : NONE;
  }),
});
