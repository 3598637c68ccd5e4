/**
 * Compiled expression forms (the output of compile.ts). Evaluation order is the engine's: a function and then its
 * arguments left to right, record / struct fields in the order written, let bound expressions before the body.
 * Atoms (variables and constants) are read inline; anything else is evaluated through the machine's continuation stack.
 */
import { EngineError } from './errors.js';
import { Kont, Node, type Machine } from './machine.js';
import { K, NIL, VClosure, VCons, VRecord, VSome, VStruct, VVariant, type DataInfo, type V, type VBuiltin, type VList } from './value.js';

export class SLocal extends Node {
  override get inlinable(): boolean {
    return true;
  }
  constructor(readonly slot: number) {
    super();
  }
  exec(m: Machine): void {
    m.val = m.regs[this.slot] as V;
  }
  override atom(m: Machine): V {
    return m.regs[this.slot] as V;
  }
}

export class SFree extends Node {
  override get inlinable(): boolean {
    return true;
  }
  constructor(readonly index: number) {
    super();
  }
  exec(m: Machine): void {
    m.val = m.frame[this.index] as V;
  }
  override atom(m: Machine): V {
    return m.frame[this.index] as V;
  }
}

export class SConst extends Node {
  override get inlinable(): boolean {
    return true;
  }
  constructor(readonly value: V) {
    super();
  }
  exec(m: Machine): void {
    m.val = this.value;
  }
  override atom(): V {
    return this.value;
  }
}

/**
 * Evaluates sub-expressions left to right, then `finish`es with their values. Atoms are read inline; the first
 * non-atom suspends the node in a continuation that restores the registers when resumed.
 */
export abstract class SEvalN extends Node {
  constructor(readonly subs: Node[]) {
    super();
  }
  abstract finish(m: Machine, vals: V[]): void;
  exec(m: Machine): void {
    this.continueFrom(m, new Array<V>(this.subs.length), 0);
  }
  continueFrom(m: Machine, vals: V[], from: number): void {
    const subs = this.subs;
    for (let i = from; i < subs.length; i++) {
      const s = subs[i] as Node;
      const a = s.atom(m);
      if (a !== undefined) {
        vals[i] = a;
        continue;
      }
      m.push(new KEvalN(this, vals, i, m.regs, m.frame));
      m.ctrl = s;
      return;
    }
    this.finish(m, vals);
  }
}

class KEvalN extends Kont {
  constructor(
    private readonly node: SEvalN,
    private readonly vals: V[],
    private readonly i: number,
    private readonly regs: V[],
    private readonly frame: V[],
  ) {
    super();
  }
  resume(m: Machine, v: V): void {
    m.regs = this.regs;
    m.frame = this.frame;
    this.vals[this.i] = v;
    this.node.continueFrom(m, this.vals, this.i + 1);
  }
}

/** Function application: the function, then the arguments (left to right), then the call. */
export class SApp extends Node {
  constructor(
    readonly fn: Node,
    readonly args: Node[],
  ) {
    super();
  }
  exec(m: Machine): void {
    const f = this.fn.atom(m);
    if (f === undefined) {
      m.push(new KAppFn(this, m.regs, m.frame));
      m.ctrl = this.fn;
      return;
    }
    this.evalArgs(m, f, new Array<V>(this.args.length), 0);
  }
  evalArgs(m: Machine, f: V, vals: V[], from: number): void {
    const args = this.args;
    for (let i = from; i < args.length; i++) {
      const s = args[i] as Node;
      const a = s.atom(m);
      if (a !== undefined) {
        vals[i] = a;
        continue;
      }
      m.push(new KAppArg(this, f, vals, i, m.regs, m.frame));
      m.ctrl = s;
      return;
    }
    m.apply(f, vals);
  }
}

class KAppFn extends Kont {
  constructor(
    private readonly node: SApp,
    private readonly regs: V[],
    private readonly frame: V[],
  ) {
    super();
  }
  resume(m: Machine, f: V): void {
    m.regs = this.regs;
    m.frame = this.frame;
    this.node.evalArgs(m, f, new Array<V>(this.node.args.length), 0);
  }
}

class KAppArg extends Kont {
  constructor(
    private readonly node: SApp,
    private readonly f: V,
    private readonly vals: V[],
    private readonly i: number,
    private readonly regs: V[],
    private readonly frame: V[],
  ) {
    super();
  }
  resume(m: Machine, v: V): void {
    m.regs = this.regs;
    m.frame = this.frame;
    this.vals[this.i] = v;
    this.node.evalArgs(m, this.f, this.vals, this.i + 1);
  }
}

/**
 * A saturated call of a pure builtin: evaluated inline (as an atom) when its arguments are; when the builtin must
 * throw, or an argument needs the machine, it runs as an ordinary application.
 */
export class SBuiltinCall extends SApp {
  private readonly inline: (args: V[]) => V | undefined;
  private readonly direct: boolean;
  constructor(fn: VBuiltin, args: Node[]) {
    super(new SConst(fn), args);
    this.inline = fn.inline as (args: V[]) => V | undefined;
    this.direct = args.every((a) => a.inlinable);
  }
  override get inlinable(): boolean {
    return this.direct;
  }
  override atom(m: Machine): V | undefined {
    if (!this.direct) return undefined;
    const args = this.args;
    const vals = new Array<V>(args.length);
    for (let i = 0; i < args.length; i++) {
      const a = (args[i] as Node).atom(m);
      if (a === undefined) return undefined;
      vals[i] = a;
    }
    return this.inline(vals);
  }
}

/** A lambda: builds a closure over the values of `captures` (read in the enclosing function). */
export class SMakeClosure extends Node {
  constructor(
    readonly arity: number,
    readonly slots: number,
    readonly body: Node,
    readonly captures: Node[],
    readonly label: string,
  ) {
    super();
  }
  override get inlinable(): boolean {
    return true;
  }
  exec(m: Machine): void {
    m.val = this.atom(m);
  }
  override atom(m: Machine): V {
    const caps = this.captures;
    const frame = new Array<V>(caps.length);
    for (let i = 0; i < caps.length; i++) frame[i] = (caps[i] as Node).atom(m) as V;
    return new VClosure(this.arity, this.slots, this.body, frame, this.label);
  }
}

export class SLet extends Node {
  constructor(
    readonly bound: Node,
    readonly slot: number,
    readonly body: Node,
  ) {
    super();
  }
  exec(m: Machine): void {
    const a = this.bound.atom(m);
    if (a !== undefined) {
      m.regs[this.slot] = a;
      m.ctrl = this.body;
      return;
    }
    m.push(new KLet(this, m.regs, m.frame));
    m.ctrl = this.bound;
  }
}

class KLet extends Kont {
  constructor(
    private readonly node: SLet,
    private readonly regs: V[],
    private readonly frame: V[],
  ) {
    super();
  }
  resume(m: Machine, v: V): void {
    m.regs = this.regs;
    m.frame = this.frame;
    this.regs[this.node.slot] = v;
    m.ctrl = this.node.body;
  }
}

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

export const NIL_NODE = new SConst(NIL);
