/** Decoding of `BuiltinLit` (daml_lf2.proto): the literals of expressions. */
import { ProtoReader, WireType } from '../protobuf-wire.js';
import { FAILURE_CATEGORIES, ROUNDING_MODES, type Literal } from './ast.js';
import { fail, fields, i32, req, type LfReader } from './reader.js';

/**
 * BuiltinLit: int64 = 1, timestamp = 2, numeric_interned_str = 3, text_interned_str = 4, date = 5, failure_category = 6,
 * rounding_mode = 1001.
 */
export function decodeLiteral(c: LfReader, r: ProtoReader): Literal {
  let lit: Literal | undefined;
  fields(r, (f, wt) => {
    switch (f) {
      case 1:
        r.expect(f, wt, WireType.VARINT);
        lit = { lit: 'int64', value: r.sint64() };
        return;
      case 2:
        r.expect(f, wt, WireType.FIXED64);
        lit = { lit: 'timestamp', value: r.sfixed64() };
        return;
      case 3:
        lit = { lit: 'numeric', value: c.str(i32(r, f, wt)) };
        return;
      case 4:
        lit = { lit: 'text', value: c.str(i32(r, f, wt)) };
        return;
      case 5:
        lit = { lit: 'date', value: i32(r, f, wt) };
        return;
      case 6: {
        const v = i32(r, f, wt);
        lit = { lit: 'failureCategory', value: FAILURE_CATEGORIES[v] ?? fail(`unknown FailureCategory ${v}`) };
        return;
      }
      case 1001: {
        const v = i32(r, f, wt);
        lit = { lit: 'roundingMode', value: ROUNDING_MODES[v] ?? fail(`unknown RoundingMode ${v}`) };
        return;
      }
      default:
        return false;
    }
  });
  return req(lit, 'BuiltinLit case');
}
