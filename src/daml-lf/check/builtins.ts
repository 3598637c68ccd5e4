/**
 * `𝕋(F)`: the type of every Daml-LF 2 builtin function (daml-lf-2.rst "Built-in functions"; in LF 2 the Numeric
 * builtins whose output scale is not determined by their inputs take the output scale as a first `Numeric n`
 * witness argument). Written in a small type syntax parsed once.
 */
import type { Type } from '../ast/ast.js';
import { fail } from './error.js';

const SIGS: Record<string, string> = {
  TRACE: 'forall a. Text -> a -> a',
  ERROR: 'forall a. Text -> a',
  EQUAL: 'forall a. a -> a -> Bool',
  LESS_EQ: 'forall a. a -> a -> Bool',
  LESS: 'forall a. a -> a -> Bool',
  GREATER_EQ: 'forall a. a -> a -> Bool',
  GREATER: 'forall a. a -> a -> Bool',
  ADD_INT64: 'Int64 -> Int64 -> Int64',
  SUB_INT64: 'Int64 -> Int64 -> Int64',
  MUL_INT64: 'Int64 -> Int64 -> Int64',
  DIV_INT64: 'Int64 -> Int64 -> Int64',
  MOD_INT64: 'Int64 -> Int64 -> Int64',
  EXP_INT64: 'Int64 -> Int64 -> Int64',
  ADD_NUMERIC: 'forall n. Numeric n -> Numeric n -> Numeric n',
  SUB_NUMERIC: 'forall n. Numeric n -> Numeric n -> Numeric n',
  MUL_NUMERIC: 'forall n1 n2 n. Numeric n -> Numeric n1 -> Numeric n2 -> Numeric n',
  DIV_NUMERIC: 'forall n1 n2 n. Numeric n -> Numeric n1 -> Numeric n2 -> Numeric n',
  ROUND_NUMERIC: 'forall n. Int64 -> Numeric n -> Numeric n',
  CAST_NUMERIC: 'forall n1 n2. Numeric n2 -> Numeric n1 -> Numeric n2',
  SHIFT_NUMERIC: 'forall n1 n2. Numeric n2 -> Numeric n1 -> Numeric n2',
  INT64_TO_NUMERIC: 'forall n. Numeric n -> Int64 -> Numeric n',
  NUMERIC_TO_INT64: 'forall n. Numeric n -> Int64',
  INT64_TO_TEXT: 'Int64 -> Text',
  NUMERIC_TO_TEXT: 'forall n. Numeric n -> Text',
  TIMESTAMP_TO_TEXT: 'Timestamp -> Text',
  DATE_TO_TEXT: 'Date -> Text',
  PARTY_TO_TEXT: 'Party -> Text',
  TEXT_TO_PARTY: 'Text -> Optional Party',
  TEXT_TO_INT64: 'Text -> Optional Int64',
  TEXT_TO_NUMERIC: 'forall n. Numeric n -> Text -> Optional (Numeric n)',
  CONTRACT_ID_TO_TEXT: 'forall a. ContractId a -> Optional Text',
  SHA256_TEXT: 'Text -> Text',
  SHA256_HEX: 'Text -> Text',
  KECCAK256_TEXT: 'Text -> Text',
  EXPLODE_TEXT: 'Text -> List Text',
  APPEND_TEXT: 'Text -> Text -> Text',
  IMPLODE_TEXT: 'List Text -> Text',
  CODE_POINTS_TO_TEXT: 'List Int64 -> Text',
  TEXT_TO_CODE_POINTS: 'Text -> List Int64',
  TEXT_TO_HEX: 'Text -> Text',
  HEX_TO_TEXT: 'Text -> Text',
  SECP256K1_BOOL: 'Text -> Text -> Text -> Bool',
  SECP256K1_WITH_ECDSA_BOOL: 'Text -> Text -> Text -> Bool',
  SECP256K1_VALIDATE_KEY: 'Text -> Bool',
  DATE_TO_UNIX_DAYS: 'Date -> Int64',
  UNIX_DAYS_TO_DATE: 'Int64 -> Date',
  TIMESTAMP_TO_UNIX_MICROSECONDS: 'Timestamp -> Int64',
  UNIX_MICROSECONDS_TO_TIMESTAMP: 'Int64 -> Timestamp',
  COERCE_CONTRACT_ID: 'forall a b. ContractId a -> ContractId b',
  FOLDL: 'forall a b. (b -> a -> b) -> b -> List a -> b',
  FOLDR: 'forall a b. (a -> b -> b) -> b -> List a -> b',
  EQUAL_LIST: 'forall a. (a -> a -> Bool) -> List a -> List a -> Bool',
  GENMAP_EMPTY: 'forall a b. GenMap a b',
  GENMAP_INSERT: 'forall a b. a -> b -> GenMap a b -> GenMap a b',
  GENMAP_LOOKUP: 'forall a b. a -> GenMap a b -> Optional b',
  GENMAP_DELETE: 'forall a b. a -> GenMap a b -> GenMap a b',
  GENMAP_KEYS: 'forall a b. GenMap a b -> List a',
  GENMAP_VALUES: 'forall a b. GenMap a b -> List b',
  GENMAP_SIZE: 'forall a b. GenMap a b -> Int64',
  ANY_EXCEPTION_MESSAGE: 'AnyException -> Text',
  TEXTMAP_EMPTY: 'forall a. TextMap a',
  TEXTMAP_INSERT: 'forall a. Text -> a -> TextMap a -> TextMap a',
  TEXTMAP_LOOKUP: 'forall a. Text -> TextMap a -> Optional a',
  TEXTMAP_DELETE: 'forall a. Text -> TextMap a -> TextMap a',
  TEXTMAP_TO_LIST: 'forall a. TextMap a -> List <key: Text, value: a>',
  TEXTMAP_SIZE: 'forall a. TextMap a -> Int64',
  FAIL_WITH_STATUS: 'forall a. Text -> FailureCategory -> Text -> TextMap Text -> a',
  SCALE_BIGNUMERIC: 'BigNumeric -> Int64',
  PRECISION_BIGNUMERIC: 'BigNumeric -> Int64',
  ADD_BIGNUMERIC: 'BigNumeric -> BigNumeric -> BigNumeric',
  SUB_BIGNUMERIC: 'BigNumeric -> BigNumeric -> BigNumeric',
  MUL_BIGNUMERIC: 'BigNumeric -> BigNumeric -> BigNumeric',
  DIV_BIGNUMERIC: 'Int64 -> RoundingMode -> BigNumeric -> BigNumeric -> BigNumeric',
  SHIFT_RIGHT_BIGNUMERIC: 'Int64 -> BigNumeric -> BigNumeric',
  BIGNUMERIC_TO_NUMERIC: 'forall n. Numeric n -> BigNumeric -> Numeric n',
  NUMERIC_TO_BIGNUMERIC: 'forall n. Numeric n -> BigNumeric',
  BIGNUMERIC_TO_TEXT: 'BigNumeric -> Text',
  TYPE_REP_TYCON_NAME: 'TypeRep -> Optional Text',
};

const PRIMS = new Set([
  'Unit',
  'Bool',
  'Int64',
  'Text',
  'Party',
  'Date',
  'Timestamp',
  'TypeRep',
  'Any',
  'AnyException',
  'BigNumeric',
  'RoundingMode',
  'FailureCategory',
  'Numeric',
  'List',
  'Optional',
  'ContractId',
  'TextMap',
  'GenMap',
  'Update',
]);

/** Parses the signature syntax: `forall a b. τ`, `τ -> τ`, applications, `( )`, structs `<f: τ, …>`. */
function parse(src: string): Type {
  const toks = src.match(/->|[A-Za-z_][A-Za-z0-9_]*|[().<>:,]/g) ?? [];
  let i = 0;
  const peek = (): string | undefined => toks[i];
  const take = (want?: string): string => {
    const t = toks[i++];
    if (t === undefined || (want !== undefined && t !== want)) throw new Error(`builtin signature ${src}: expected ${want ?? 'a token'}`);
    return t;
  };
  const type = (): Type => {
    if (peek() === 'forall') {
      take();
      const vars: string[] = [];
      while (peek() !== '.') vars.push(take());
      take('.');
      return { kind: 'forall', vars, body: type() };
    }
    const lhs = app();
    if (peek() === '->') {
      take();
      return { kind: 'prim', prim: 'Arrow', args: [lhs, type()] };
    }
    return lhs;
  };
  const app = (): Type => {
    const head = atom();
    const args: Type[] = [];
    while (peek() !== undefined && peek() !== '->' && peek() !== ')' && peek() !== ',' && peek() !== '>') args.push(atom());
    if (args.length === 0) return head;
    if (head.kind !== 'prim') throw new Error(`builtin signature ${src}: only builtin types are applied`);
    return { ...head, args };
  };
  const atom = (): Type => {
    const t = take();
    if (t === '(') {
      const r = type();
      take(')');
      return r;
    }
    if (t === '<') {
      const fields: { name: string; type: Type }[] = [];
      while (peek() !== '>') {
        const name = take();
        take(':');
        fields.push({ name, type: type() });
        if (peek() === ',') take();
      }
      take('>');
      return { kind: 'struct', fields: fields.sort((a, b) => (a.name < b.name ? -1 : 1)) };
    }
    if (PRIMS.has(t)) return { kind: 'prim', prim: t as Extract<Type, { kind: 'prim' }>['prim'], args: [] };
    return { kind: 'var', name: t, args: [] };
  };
  const r = type();
  if (i !== toks.length) throw new Error(`builtin signature ${src}: trailing tokens`);
  return r;
}

const parsed = new Map<string, Type>();

/** `𝕋(F)` (ExpBuiltin). */
export function builtinType(fn: string): Type {
  let t = parsed.get(fn);
  if (!t) {
    const src = SIGS[fn] ?? fail('ExpBuiltin', `no type known for builtin ${fn}`);
    t = parse(src);
    parsed.set(fn, t);
  }
  return t;
}

export const BUILTIN_SIGNATURES: ReadonlyMap<string, string> = new Map(Object.entries(SIGS));
