/** daml_lf2.proto `BuiltinType` enum, shared by the signature decoder, the AST decoder and the encoder. */
import type { PrimType } from './types.js';

/** daml_lf2.proto `BuiltinType` enum values → names. */
export const BUILTIN_TYPES: ReadonlyMap<number, PrimType> = new Map<number, PrimType>([
  [0, 'Unit'], // UNIT
  [1, 'Bool'], // BOOL
  [2, 'Int64'], // INT64
  [3, 'Date'], // DATE
  [4, 'Timestamp'], // TIMESTAMP
  [5, 'Numeric'], // NUMERIC
  [6, 'Party'], // PARTY
  [7, 'Text'], // TEXT
  [8, 'ContractId'], // CONTRACT_ID
  [9, 'Optional'], // OPTIONAL
  [10, 'List'], // LIST
  [11, 'GenMap'], // GENMAP
  [13, 'Any'], // ANY
  [14, 'AnyException'], // ANY_EXCEPTION
  [15, 'TypeRep'], // TYPE_REP
  [16, 'Arrow'], // ARROW
  [17, 'Update'], // UPDATE
  [18, 'FailureCategory'], // FAILURE_CATEGORY
  [19, 'TextMap'], // TEXTMAP
  [1002, 'BigNumeric'], // BIGNUMERIC
  [1003, 'RoundingMode'], // ROUNDING_MODE
]);
