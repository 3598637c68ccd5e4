/**
 * Reading scalar fields of LF-JSON values. Party, Text, ContractId, Numeric, Int64, Time and Date all travel as
 * strings, so one accessor covers them; a record, list or missing value where a scalar belongs is a bug in the
 * caller or a malformed contract, and says so instead of turning into "[object Object]" or "undefined".
 */
import type { LfValue } from './model.js';

/** The string form of a scalar LF-JSON value (numbers and booleans as JavaScript prints them). */
export function asText(v: LfValue | undefined): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new TypeError(`expected a scalar LF value (text, party, contract id, number, time), got ${describe(v)}`);
}

/** The elements of an LF list; an absent (null) list is empty. */
export function asList(v: LfValue | undefined): LfValue[] {
  if (Array.isArray(v)) return v;
  if (v === null || v === undefined) return [];
  throw new TypeError(`expected an LF list, got ${describe(v)}`);
}

/** JSON.stringify typed as it behaves: `undefined`, functions and symbols have no JSON text. */
export const jsonText = (v: unknown): string | undefined => JSON.stringify(v);

function describe(v: LfValue | undefined): string {
  if (v === undefined) return 'no value';
  const json = JSON.stringify(v);
  return json.length > 80 ? `${json.slice(0, 77)}...` : json;
}
