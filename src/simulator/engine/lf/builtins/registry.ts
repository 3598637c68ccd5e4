/**
 * Builtin functions by name (daml_lf2.proto `BuiltinFunction`). Numeric `nat` type arguments are erased: the scale of
 * a result comes from a value argument (the spec's "witness"), so e.g. MUL_NUMERIC takes (witness, x, y).
 * Builtins that raise ArithmeticError throw it as a catchable Daml exception with the engine's message
 * `ArithmeticError while evaluating (NAME arg₁ … argₙ).`.
 */
import type { Machine } from '../machine.js';
import { toUnscaledString } from '../numeric.js';
import { dateToText, timestampToText } from '../text.js';
import { K, PENDING, UNIT, VBuiltin, type V } from '../value.js';

export type BuiltinFn = (m: Machine, args: V[]) => V | typeof PENDING;

export interface BuiltinSpec {
  arity: number;
  run: BuiltinFn;
  /**
   * For pure builtins: computes the result from the arguments without the machine, or returns undefined where the
   * builtin must throw (the machine then runs `run`). Lets saturated calls be evaluated inline.
   */
  inline?: (args: V[]) => V | undefined;
}

/** The engine's text of a literal argument (`litToText`), used in ArithmeticError messages. */
export function litToText(v: V): string {
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'string':
      return v;
    case 'number':
      return dateToText(v);
  }
  switch (v.k) {
    case K.Unit:
      return '<unit>';
    case K.Numeric:
    case K.BigNumeric:
      return toUnscaledString(v.value, v.scale);
    case K.Timestamp:
      return timestampToText(v.micros);
    default:
      return `<${K[v.k]}>`;
  }
}

/** Throws ArithmeticError for builtin `name` applied to `args`. */
export function arithmeticError(m: Machine, name: string, args: V[]): typeof PENDING {
  m.throwDaml(m.env.arithmeticError(`ArithmeticError while evaluating (${[name, ...args.map(litToText)].join(' ')}).`));
  return PENDING;
}

/** A builtin whose result is `undefined` exactly when it must raise ArithmeticError. */
export function arith(name: string, arity: number, f: (args: V[]) => V | undefined): BuiltinSpec {
  return {
    arity,
    run: (m, args) => {
      const r = f(args);
      return r === undefined ? arithmeticError(m, name, args) : r;
    },
    inline: f,
  };
}

export const pure = (arity: number, f: (args: V[]) => V): BuiltinSpec => ({ arity, run: (_m, args) => f(args), inline: f });

const specs = new Map<string, BuiltinSpec>();
const values = new Map<string, V>();

export function register(table: Record<string, BuiltinSpec>): void {
  for (const [name, spec] of Object.entries(table)) specs.set(name, spec);
}

/** Builtins that are plain values (arity 0 after type erasure). */
export function registerValue(name: string, v: V): void {
  values.set(name, v);
}

/** The runtime value of builtin `name`; undefined when the engine does not know it. */
export function builtinValue(name: string): V | undefined {
  const v = values.get(name);
  if (v !== undefined) return v;
  const s = specs.get(name);
  if (!s) return undefined;
  const b = new VBuiltin(name, s.arity, s.run, s.inline);
  values.set(name, b);
  return b;
}

export const knownBuiltins = (): string[] => [...new Set([...specs.keys(), ...values.keys()])].sort();

export { PENDING, UNIT };
