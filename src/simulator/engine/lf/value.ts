/**
 * Runtime values of the Daml-LF engine (the spec's "Values", with types erased). Representation:
 * Bool = JS boolean, Int64 = bigint, Text and Party = JS string (both ordered lexicographically by code point, so one
 * representation serves both), Date = JS number (days since the epoch); everything else is an instance of a class
 * below with a numeric kind tag `k` (for fast dispatch). Values are immutable once built.
 */
import type { QualifiedName, Type } from '../../../daml-lf/ast/ast.js';

export enum K {
  Unit = 1,
  Numeric,
  BigNumeric,
  Timestamp,
  ContractId,
  Nil,
  Cons,
  None,
  Some,
  TextMap,
  GenMap,
  Record,
  Variant,
  Enum,
  Struct,
  Any,
  TypeRep,
  Closure,
  Pap,
  Builtin,
  Token,
}

/** A compiled expression (see nodes.ts); declared here to keep values free of machine imports. */
export interface Code {
  exec(m: unknown): void;
}

export type V = boolean | bigint | string | number | Obj;

export type Obj =
  | VUnit
  | VNumeric
  | VBigNumeric
  | VTimestamp
  | VContractId
  | VNil
  | VCons
  | VNone
  | VSome
  | VTextMap
  | VGenMap
  | VRecord
  | VVariant
  | VEnum
  | VStruct
  | VAny
  | VTypeRep
  | VClosure
  | VPap
  | VBuiltin
  | VToken;

export class VUnit {
  readonly k = K.Unit;
}
export const UNIT = new VUnit();

/** Numeric: `value × 10^-scale`, scale 0…37, at most 38 digits. */
export class VNumeric {
  readonly k = K.Numeric;
  constructor(
    readonly value: bigint,
    readonly scale: number,
  ) {}
}

/** BigNumeric: `value × 10^-scale` (arbitrary precision, |scale| and integral digits ≤ 2^15). */
export class VBigNumeric {
  readonly k = K.BigNumeric;
  constructor(
    readonly value: bigint,
    readonly scale: number,
  ) {}
}

export class VTimestamp {
  readonly k = K.Timestamp;
  constructor(readonly micros: bigint) {}
}

export class VContractId {
  readonly k = K.ContractId;
  constructor(readonly cid: string) {}
}

export class VNil {
  readonly k = K.Nil;
}
export const NIL = new VNil();

export class VCons {
  readonly k = K.Cons;
  constructor(
    readonly head: V,
    readonly tail: VList,
  ) {}
}
export type VList = VNil | VCons;

export class VNone {
  readonly k = K.None;
}
export const NONE = new VNone();

export class VSome {
  readonly k = K.Some;
  constructor(readonly value: V) {}
}
export type VOptional = VNone | VSome;

/** TextMap: keys sorted by code point, parallel arrays. */
export class VTextMap {
  readonly k = K.TextMap;
  constructor(
    readonly keys: string[],
    readonly values: V[],
  ) {}
}

/** GenMap: keys sorted by the generic order (`compareValues`), parallel arrays. */
export class VGenMap {
  readonly k = K.GenMap;
  constructor(
    readonly keys: V[],
    readonly values: V[],
  ) {}
}

/** A data type's runtime description (fields / constructors in definition order). */
export interface DataInfo {
  /** `packageId:Module:Name`. */
  id: string;
  tycon: QualifiedName;
  /** Record fields or variant / enum constructors, in definition order. */
  names: string[];
  index: Map<string, number>;
}

export class VRecord {
  readonly k = K.Record;
  constructor(
    readonly info: DataInfo,
    readonly fields: V[],
  ) {}
}

export class VVariant {
  readonly k = K.Variant;
  constructor(
    readonly info: DataInfo,
    readonly rank: number,
    readonly value: V,
  ) {}
  get con(): string {
    return this.info.names[this.rank] as string;
  }
}

export class VEnum {
  readonly k = K.Enum;
  constructor(
    readonly info: DataInfo,
    readonly rank: number,
  ) {}
  get con(): string {
    return this.info.names[this.rank] as string;
  }
}

/** Struct: fields sorted by name (the spec's value form). */
export class VStruct {
  readonly k = K.Struct;
  constructor(
    readonly names: string[],
    readonly values: V[],
  ) {}
  get(name: string): V | undefined {
    const i = this.names.indexOf(name);
    return i < 0 ? undefined : this.values[i];
  }
}

/** `to_any @τ v`, `to_any_exception @τ v`, and interface values (`to_interface`: τ = the template's type constructor). */
export class VAny {
  readonly k = K.Any;
  constructor(
    readonly type: Type,
    readonly value: V,
  ) {}
}

export class VTypeRep {
  readonly k = K.TypeRep;
  constructor(readonly type: Type) {}
}

/** A lambda closed over its free variables (`frame`); `slots` = registers its body needs (arguments first). */
export class VClosure {
  readonly k = K.Closure;
  constructor(
    readonly arity: number,
    readonly slots: number,
    readonly body: Code,
    readonly frame: V[],
    readonly label: string,
  ) {}
}

/** A partially applied function. */
export class VPap {
  readonly k = K.Pap;
  constructor(
    readonly fn: VClosure | VBuiltin,
    readonly args: V[],
  ) {}
  get remaining(): number {
    return this.fn.arity - this.args.length;
  }
}

/** The machine a builtin runs on (defined in machine.ts). */
export interface BuiltinHost {
  /** Sets the machine's result (pure builtins just return a value instead). */
  readonly marker?: never;
}

/**
 * A builtin function. `run` returns the result, or `PENDING` after arranging (through the machine) for the result to be
 * computed (higher-order and ledger builtins).
 */
export class VBuiltin {
  readonly k = K.Builtin;
  constructor(
    readonly name: string,
    readonly arity: number,
    readonly run: (m: never, args: V[]) => V | typeof PENDING,
    /** Pure builtins: the result without the machine (undefined = must throw, use `run`). */
    readonly inline?: (args: V[]) => V | undefined,
  ) {}
}

export const PENDING: unique symbol = Symbol('pending');

/** The token an update is applied to when it runs (updates are functions of a token). */
export class VToken {
  readonly k = K.Token;
}
export const TOKEN = new VToken();

export const isObj = (v: V): v is Obj => typeof v === 'object';

export function listFromArray(xs: readonly V[], tail: VList = NIL): VList {
  let l = tail;
  for (let i = xs.length - 1; i >= 0; i--) l = new VCons(xs[i] as V, l);
  return l;
}

export function listToArray(l: VList): V[] {
  const out: V[] = [];
  let c: VList = l;
  while (c.k === K.Cons) {
    out.push(c.head);
    c = c.tail;
  }
  return out;
}

export const some = (v: V): VSome => new VSome(v);
