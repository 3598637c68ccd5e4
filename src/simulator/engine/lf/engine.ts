/**
 * The engine: loaded packages (`Defs`), the compiler, and machines to run code. `run` turns a Daml exception that
 * nobody caught into the error Canton 3 reports (a FailureStatus `UNHANDLED_EXCEPTION/Module:Name` with the
 * exception's message).
 */
import type { Expr } from '../../../daml-lf/ast/ast.js';
import { Compiler } from './compile.js';
import type { UpdateOps } from './compile-update.js';
import { Defs, type PackageSource } from './defs.js';
import { DamlThrow, EngineError, FailureStatusError } from './errors.js';
import { Machine, type MachineOptions } from './machine.js';
import type { V, VAny } from './value.js';

export class LfEngine {
  readonly defs: Defs;
  readonly compiler: Compiler;

  constructor(source: PackageSource, ops: UpdateOps) {
    this.defs = new Defs(source);
    this.compiler = new Compiler(this.defs, ops);
    this.defs.compiler = this.compiler;
  }

  machine(opts: MachineOptions = {}): Machine {
    const defs = this.defs;
    return new Machine(
      {
        arithmeticError: (message) => defs.arithmeticError(message),
        exceptionMessage: (tycon) => defs.exceptionMessage(tycon),
      },
      opts,
    );
  }

  /** Runs `f` on a machine; an uncaught Daml exception becomes a FailureStatusError (as in Canton 3). */
  run<T>(m: Machine, f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof DamlThrow) throw this.unhandled(e.exception as VAny);
      if (e instanceof RangeError) throw new EngineError('ValueNesting', `Value nesting too deep: ${e.message}`);
      throw e;
    }
  }

  /** Evaluates a closed expression (no ledger effects unless the machine has a host). */
  evaluate(e: Expr, m: Machine = this.machine()): V {
    const { code, slots } = this.compiler.compileTop(e, 'expr');
    return this.run(m, () => m.eval(code, slots));
  }

  /** The FailureStatus of an unhandled exception: its message computed by the exception's `message` function. */
  unhandled(exc: VAny): FailureStatusError {
    const t = exc.type;
    const id = t.kind === 'con' ? `${t.module}:${t.name}` : 'unknown';
    let message: string;
    try {
      if (t.kind !== 'con') throw new EngineError('Internal', 'exception type is not a type constructor');
      const m = this.machine();
      const text = m.call(this.defs.exceptionMessage(t), [exc.value]);
      if (typeof text !== 'string') throw new EngineError('Internal', 'exception message is not a Text');
      message = text;
    } catch (e) {
      const et = e instanceof DamlThrow ? (e.exception as VAny).type : undefined;
      const inner = et?.kind === 'con' ? `${et.module}:${et.name}` : 'an exception';
      message = `<Failed to calculate message as ${inner} was thrown during conversion>`;
    }
    return new FailureStatusError({ errorId: `UNHANDLED_EXCEPTION/${id}`, category: 9, message, metadata: {} });
  }
}
