/**
 * Compiled expression forms (the output of compile.ts). Evaluation order is the engine's: a function and then its
 * arguments left to right, record / struct fields in the order written, let bound expressions before the body.
 * Atoms (variables and constants) are read inline; anything else is evaluated through the machine's continuation stack.
 */
import { Kont, Node, type Machine } from './machine.js';
import { NIL, VClosure, type V, type VBuiltin } from './value.js';

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

export const NIL_NODE = new SConst(NIL);
