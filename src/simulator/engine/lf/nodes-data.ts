/**
 * Compiled forms that build and take data apart (see nodes.ts for the evaluation order): case with its alternatives,
 * records, variants, structs, lists, optionals and primitive constructors.
 */
import { EngineError } from './errors.js';
import { Kont, Node, type Machine } from './machine.js';
import { SEvalN } from './nodes.js';
import { K, VCons, VRecord, VSome, VStruct, VVariant, type DataInfo, type V, type VList } from './value.js';

export type AltKind = 'default' | 'variant' | 'enum' | 'true' | 'false' | 'unit' | 'nil' | 'cons' | 'none' | 'some';

export interface Alt {
  kind: AltKind;
  /** Constructor rank for variant / enum patterns. */
  rank: number;
  /** Register of the first binder (variant / some / cons head); cons tail = slot + 1. */
  slot: number;
  body: Node;
}

export class SCase extends Node {
  constructor(
    readonly scrut: Node,
    readonly alts: Alt[],
  ) {
    super();
  }
  exec(m: Machine): void {
    const a = this.scrut.atom(m);
    if (a !== undefined) {
      this.match(m, a);
      return;
    }
    m.push(new KCase(this, m.regs, m.frame));
    m.ctrl = this.scrut;
  }
  match(m: Machine, v: V): void {
    for (const alt of this.alts) {
      if (matches(alt, v)) {
        bind(alt, v, m.regs);
        m.ctrl = alt.body;
        return;
      }
    }
    throw new EngineError('MatchError', 'match error');
  }
}

function matches(alt: Alt, v: V): boolean {
  switch (alt.kind) {
    case 'default':
      return true;
    case 'true':
      return v === true;
    case 'false':
      return v === false;
    case 'unit':
      return typeof v === 'object' && v.k === K.Unit;
    case 'nil':
      return typeof v === 'object' && v.k === K.Nil;
    case 'cons':
      return typeof v === 'object' && v.k === K.Cons;
    case 'none':
      return typeof v === 'object' && v.k === K.None;
    case 'some':
      return typeof v === 'object' && v.k === K.Some;
    case 'variant':
      return typeof v === 'object' && v.k === K.Variant && v.rank === alt.rank;
    case 'enum':
      return typeof v === 'object' && v.k === K.Enum && v.rank === alt.rank;
  }
}

function bind(alt: Alt, v: V, regs: V[]): void {
  if (typeof v !== 'object') return;
  if (alt.kind === 'cons' && v.k === K.Cons) {
    regs[alt.slot] = v.head;
    regs[alt.slot + 1] = v.tail;
  } else if (alt.kind === 'some' && v.k === K.Some) regs[alt.slot] = v.value;
  else if (alt.kind === 'variant' && v.k === K.Variant) regs[alt.slot] = v.value;
}

class KCase extends Kont {
  constructor(
    private readonly node: SCase,
    private readonly regs: V[],
    private readonly frame: V[],
  ) {
    super();
  }
  resume(m: Machine, v: V): void {
    m.regs = this.regs;
    m.frame = this.frame;
    this.node.match(m, v);
  }
}

export class SRecCon extends SEvalN {
  /** `order[i]` = the definition index of the i-th written field. */
  constructor(
    readonly info: DataInfo,
    readonly order: number[],
    subs: Node[],
  ) {
    super(subs);
  }
  finish(m: Machine, vals: V[]): void {
    const fields = new Array<V>(vals.length);
    for (let i = 0; i < vals.length; i++) fields[this.order[i] as number] = vals[i] as V;
    m.val = new VRecord(this.info, fields);
  }
}

export class SRecProj extends SEvalN {
  constructor(
    readonly index: number,
    rec: Node,
  ) {
    super([rec]);
  }
  finish(m: Machine, vals: V[]): void {
    m.val = (vals[0] as VRecord).fields[this.index] as V;
  }
}

export class SRecUpd extends SEvalN {
  constructor(
    readonly index: number,
    rec: Node,
    upd: Node,
  ) {
    super([rec, upd]);
  }
  finish(m: Machine, vals: V[]): void {
    const r = vals[0] as VRecord;
    const fields = r.fields.slice();
    fields[this.index] = vals[1] as V;
    m.val = new VRecord(r.info, fields);
  }
}

export class SVariantCon extends SEvalN {
  constructor(
    readonly info: DataInfo,
    readonly rank: number,
    arg: Node,
  ) {
    super([arg]);
  }
  finish(m: Machine, vals: V[]): void {
    m.val = new VVariant(this.info, this.rank, vals[0] as V);
  }
}

/** Struct construction: fields evaluated in the written order, stored sorted by name. */
export class SStructCon extends SEvalN {
  constructor(
    readonly names: string[],
    /** `perm[j]` = index (in written order) of the j-th sorted field. */
    readonly perm: number[],
    subs: Node[],
  ) {
    super(subs);
  }
  finish(m: Machine, vals: V[]): void {
    m.val = new VStruct(
      this.names,
      this.perm.map((i) => vals[i] as V),
    );
  }
}

export class SStructProj extends SEvalN {
  constructor(
    readonly field: string,
    s: Node,
  ) {
    super([s]);
  }
  finish(m: Machine, vals: V[]): void {
    const s = vals[0] as VStruct;
    const i = s.names.indexOf(this.field);
    if (i < 0) throw new EngineError('Internal', `struct has no field ${this.field}`);
    m.val = s.values[i] as V;
  }
}

export class SStructUpd extends SEvalN {
  constructor(
    readonly field: string,
    s: Node,
    u: Node,
  ) {
    super([s, u]);
  }
  finish(m: Machine, vals: V[]): void {
    const s = vals[0] as VStruct;
    const i = s.names.indexOf(this.field);
    if (i < 0) throw new EngineError('Internal', `struct has no field ${this.field}`);
    const values = s.values.slice();
    values[i] = vals[1] as V;
    m.val = new VStruct(s.names, values);
  }
}

/** `Cons @τ [e₁, …, eₙ] tail`. */
export class SCons extends SEvalN {
  finish(m: Machine, vals: V[]): void {
    let l = vals[vals.length - 1] as VList;
    for (let i = vals.length - 2; i >= 0; i--) l = new VCons(vals[i] as V, l);
    m.val = l;
  }
}

export class SSome extends SEvalN {
  finish(m: Machine, vals: V[]): void {
    m.val = new VSome(vals[0] as V);
  }
}

/** A node computing a value from its sub-values with a plain function (to_any, from_any, interface casts…). */
export class SPrim extends SEvalN {
  constructor(
    readonly fn: (m: Machine, vals: V[]) => void,
    subs: Node[],
  ) {
    super(subs);
  }
  finish(m: Machine, vals: V[]): void {
    this.fn(m, vals);
  }
}
