/**
 * The evaluator: an explicit-stack (CEK-style) machine. `ctrl` is the compiled expression to evaluate next (or null
 * when `val` holds a result to return); `regs` are the registers of the running function body (arguments first, then
 * let / case binders), `frame` its closure's captured values; `kont` is the continuation stack. Nothing recurses on the
 * JS stack, so Daml recursion depth is bounded only by memory. Daml exceptions unwind `kont` to the nearest try-catch.
 */
import type { QualifiedName } from '../../../daml-lf/ast/ast.js';
import { DamlThrow, EngineError } from './errors.js';
import { K, PENDING, UNIT, VClosure, VPap, type Code, type V, type VAny, type VBuiltin } from './value.js';

/** What builtins need from the loaded packages. */
export interface MachineEnv {
  /** `DA.Exception.ArithmeticError:ArithmeticError { message }` as an AnyException. */
  arithmeticError(message: string): VAny;
  /** The message function (`E → Text`) of exception type `tycon`. */
  exceptionMessage(tycon: QualifiedName): V;
}

/** A compiled expression: sets `m.ctrl` (to continue with another expression) or `m.val` (its value). */
export abstract class Node implements Code {
  abstract exec(m: Machine): void;
  /** Atoms (variables, constants) are evaluated inline, without a machine step. */
  atom(_m: Machine): V | undefined {
    return undefined;
  }
  /** True when `atom` may produce the value (variables, constants, top-level values, inline builtin calls). */
  get inlinable(): boolean {
    return false;
  }
}

/** A continuation: what to do with the value of the expression evaluated meanwhile. */
export abstract class Kont {
  abstract resume(m: Machine, v: V): void;
}

/** A try-catch frame (see update compilation); unwinding stops here. */
export abstract class CatchKont extends Kont {
  abstract handle(m: Machine, exception: VAny): void;
}

/** Runs a JS callback with the value (used by builtins and ledger operations that evaluate Daml code). */
export class KNative extends Kont {
  constructor(private readonly k: (v: V) => void) {
    super();
  }
  resume(_m: Machine, v: V): void {
    this.k(v);
  }
}

class KApplyRest extends Kont {
  constructor(private readonly args: V[]) {
    super();
  }
  resume(m: Machine, v: V): void {
    m.apply(v, this.args);
  }
}

const EMPTY: V[] = [];

export interface MachineOptions {
  /** Upper bound on machine steps (a Canton submission times out instead). */
  maxSteps?: number;
  /** TRACE output. */
  trace?: (message: string) => void;
}

export class Machine {
  ctrl: Code | null = null;
  val: V = UNIT;
  regs: V[] = EMPTY;
  frame: V[] = EMPTY;
  readonly kont: Kont[] = [];
  steps = 0;
  readonly maxSteps: number;
  readonly trace: (message: string) => void;
  /** Set by the update host (ledger operations); opaque to the evaluator. */
  host: unknown;

  constructor(
    readonly env: MachineEnv,
    opts: MachineOptions = {},
  ) {
    this.maxSteps = opts.maxSteps ?? 200_000_000;
    this.trace = opts.trace ?? (() => undefined);
  }

  /** Evaluates `code` with fresh registers and returns its value. */
  eval(code: Node, slots: number): V {
    this.regs = new Array<V>(slots);
    this.frame = EMPTY;
    this.ctrl = code;
    return this.run();
  }

  /** Applies `fn` to `args` and runs to completion. */
  call(fn: V, args: V[]): V {
    this.ctrl = null;
    this.apply(fn, args);
    return this.run();
  }

  /** Runs until the continuation stack is back to `base` entries (everything pushed since was consumed). */
  run(base = 0): V {
    let steps = this.steps;
    const max = this.maxSteps;
    for (;;) {
      const c = this.ctrl;
      if (c !== null) {
        this.ctrl = null;
        c.exec(this);
        if (++steps > max) throw new EngineError('LimitExceeded', `Interpretation exceeded ${max} steps`);
        continue;
      }
      if (this.kont.length <= base) {
        this.steps = steps;
        return this.val;
      }
      (this.kont.pop() as Kont).resume(this, this.val);
    }
  }

  ret(v: V): void {
    this.val = v;
  }

  push(k: Kont): void {
    this.kont.push(k);
  }

  /** Applies a function value to arguments (strict, all arguments already values). */
  apply(fn: V, args: V[]): void {
    if (typeof fn !== 'object') throw new EngineError('Internal', `apply: not a function (${typeof fn})`);
    switch (fn.k) {
      case K.Closure:
        this.applyClosure(fn, args);
        return;
      case K.Pap: {
        const all = fn.args.concat(args);
        if (fn.fn.k === K.Closure) this.applyClosure(fn.fn, all);
        else this.applyBuiltin(fn.fn, all);
        return;
      }
      case K.Builtin:
        this.applyBuiltin(fn, args);
        return;
      default:
        throw new EngineError('Internal', `apply: not a function (kind ${fn.k})`);
    }
  }

  private applyClosure(fn: VClosure, args: V[]): void {
    const n = fn.arity;
    if (args.length < n) {
      this.val = new VPap(fn, args);
      return;
    }
    if (args.length > n) this.kont.push(new KApplyRest(args.slice(n)));
    const regs = new Array<V>(fn.slots);
    for (let i = 0; i < n; i++) regs[i] = args[i] as V;
    this.regs = regs;
    this.frame = fn.frame;
    this.ctrl = fn.body;
  }

  private applyBuiltin(fn: VBuiltin, args: V[]): void {
    const n = fn.arity;
    if (args.length < n) {
      this.val = new VPap(fn, args);
      return;
    }
    if (args.length > n) {
      this.kont.push(new KApplyRest(args.slice(n)));
      args = args.slice(0, n);
    }
    const r = (fn.run as (m: Machine, a: V[]) => V | typeof PENDING)(this, args);
    if (r !== PENDING) this.val = r;
  }

  /** Applies `fn` to `args`; `k` receives the result. */
  callThen(fn: V, args: V[], k: (v: V) => void): void {
    this.kont.push(new KNative(k));
    this.apply(fn, args);
  }

  /** Throws a Daml exception (an `AnyException` value): unwinds to the nearest try-catch, else fails. */
  throwDaml(exception: VAny): void {
    const ks = this.kont;
    while (ks.length > 0) {
      const k = ks.pop() as Kont;
      if (k instanceof CatchKont) {
        k.handle(this, exception);
        return;
      }
    }
    throw new DamlThrow(exception);
  }
}

/** A closure with no captured values (compiled definitions). */
export const closureOf = (arity: number, slots: number, body: Node, label: string): VClosure =>
  new VClosure(arity, slots, body, EMPTY, label);
