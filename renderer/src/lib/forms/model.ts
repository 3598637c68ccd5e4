/**
 * Forms generated from Daml-LF field types (pure; unit-tested): default values, validation against
 * the type (the same check for the form and the JSON editor), type labels. Values use the Ledger
 * API's LF-JSON encoding: records as objects (a missing Optional field = None), Int64 and Numeric as
 * strings, Optional as null / the value (nested Optional: `[]` = Some None, `[v]` = Some (Some v)),
 * variants as `{tag, value}`, enums as the constructor name, TextMap as an object, GenMap as
 * `[[key, value], …]`, Unit as `{}`.
 */
import type { FieldType, JsonValue } from '../../../../src/ipc/contract.js';

export interface Issue {
  /** Dotted path from the root (`owner`, `items.0.amount`); '' = the root. */
  path: string;
  message: string;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Daml Numeric: at most 38 significant digits. */
const NUMERIC_PRECISION = 38;

/** The value a fresh form starts with. Optional = None, lists and maps empty, records filled recursively. */
export function defaultValue(t: FieldType, depth = 0): JsonValue {
  if (depth > 16) return null;
  switch (t.kind) {
    case 'unit':
      return {};
    case 'bool':
      return false;
    case 'text':
    case 'party':
    case 'contractId':
    case 'int64':
    case 'numeric':
    case 'date':
    case 'timestamp':
      return '';
    case 'optional':
      return null;
    case 'list':
    case 'genMap':
      return [];
    case 'textMap':
      return {};
    case 'record': {
      const o: Record<string, JsonValue> = {};
      for (const f of t.fields) o[f.name] = defaultValue(f.type, depth + 1);
      return o;
    }
    case 'variant': {
      const first = t.constructors[0];
      return first ? { tag: first.name, value: defaultValue(first.type, depth + 1) } : null;
    }
    case 'enum':
      return t.constructors[0] ?? '';
    case 'unsupported':
      return null;
  }
}

/** Daml-like label of a type, e.g. `Numeric 10`, `Optional Party`, `[Text]`. */
export function typeLabel(t: FieldType): string {
  switch (t.kind) {
    case 'unit':
      return 'Unit';
    case 'bool':
      return 'Bool';
    case 'text':
      return 'Text';
    case 'int64':
      return 'Int';
    case 'numeric':
      return `Numeric ${t.scale}`;
    case 'party':
      return 'Party';
    case 'date':
      return 'Date';
    case 'timestamp':
      return 'Time';
    case 'contractId':
      return t.template ? `ContractId ${t.template.split(':').slice(1).join(':')}` : 'ContractId';
    case 'optional':
      return `Optional ${wrap(typeLabel(t.elem))}`;
    case 'list':
      return `[${typeLabel(t.elem)}]`;
    case 'textMap':
      return `TextMap ${wrap(typeLabel(t.elem))}`;
    case 'genMap':
      return `Map ${wrap(typeLabel(t.key))} ${wrap(typeLabel(t.value))}`;
    case 'record':
    case 'variant':
    case 'enum':
      return t.name.split(':').pop() ?? t.name;
    case 'unsupported':
      return t.description;
  }
}
const wrap = (s: string) => (/\s/.test(s) && !s.startsWith('[') ? `(${s})` : s);

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

function isObject(v: JsonValue | undefined): v is { [k: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks a Numeric literal against a scale; returns an error message or null. */
export function numericError(raw: string, scale: number): string | null {
  const s = raw.trim();
  if (s === '') return 'required';
  const m = /^-?(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) return 'not a decimal number (e.g. 100.25)';
  const intDigits = (m[1] ?? '').replace(/^0+(?=\d)/, '');
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > scale) return scale === 0 ? 'no decimals allowed (scale 0)' : `at most ${scale} decimal places (Numeric ${scale})`;
  if (intDigits !== '0' && intDigits.length > NUMERIC_PRECISION - scale)
    return `too large for Numeric ${scale} (at most ${NUMERIC_PRECISION - scale} digits before the point)`;
  return null;
}

export function int64Error(raw: string): string | null {
  const s = raw.trim();
  if (s === '') return 'required';
  if (!/^-?\d+$/.test(s)) return 'not a whole number';
  const n = BigInt(s);
  if (n < INT64_MIN || n > INT64_MAX) return 'out of the Int64 range';
  return null;
}

export function dateError(raw: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw.trim());
  if (!m) return 'expected a date YYYY-MM-DD';
  const d = new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== raw.trim()) return 'not a valid calendar date';
  return null;
}

export function timestampError(raw: string): string | null {
  const s = raw.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(s))
    return 'expected an ISO time, e.g. 2025-01-31T12:00:00Z';
  if (Number.isNaN(new Date(s).getTime())) return 'not a valid time';
  return null;
}

/** Canton party ids are `hint::namespace`; hints are letters, digits and `-_: `. */
export function partyError(raw: string): string | null {
  const s = raw.trim();
  if (s === '') return 'required';
  if (!/^[A-Za-z0-9:\-_ ]+::[A-Za-z0-9]+$/.test(s)) return 'expected a party id hint::namespace';
  if (s.length > 255) return 'too long for a party id';
  return null;
}

export function contractIdError(raw: string): string | null {
  const s = raw.trim();
  if (s === '') return 'required';
  if (!/^[0-9a-fA-F]+$/.test(s) || s.length < 10) return 'not a contract id (hexadecimal)';
  return null;
}

/** Every problem of `v` as a value of type `t` (an empty list = valid). */
export function validate(t: FieldType, v: JsonValue | undefined, path = ''): Issue[] {
  const out: Issue[] = [];
  const bad = (message: string, at = path) => out.push({ path: at, message });
  const str = (check: (s: string) => string | null) => {
    if (typeof v === 'number' && (t.kind === 'int64' || t.kind === 'numeric')) {
      const e = check(String(v));
      if (e) bad(e);
    } else if (typeof v !== 'string') bad(`expected ${typeLabel(t)} as a string`);
    else {
      const e = check(v);
      if (e) bad(e);
    }
  };
  switch (t.kind) {
    case 'unit':
      if (!isObject(v) || Object.keys(v).length > 0) bad('expected {} (Unit)');
      break;
    case 'bool':
      if (typeof v !== 'boolean') bad('expected true or false');
      break;
    case 'text':
      if (typeof v !== 'string') bad('expected text');
      break;
    case 'int64':
      str(int64Error);
      break;
    case 'numeric':
      str((s) => numericError(s, t.scale));
      break;
    case 'party':
      str(partyError);
      break;
    case 'date':
      str(dateError);
      break;
    case 'timestamp':
      str(timestampError);
      break;
    case 'contractId':
      str(contractIdError);
      break;
    case 'optional':
      if (v === null || v === undefined) break;
      if (t.elem.kind === 'optional') {
        if (!Array.isArray(v) || v.length > 1) bad('nested Optional: expected null, [] or [value]');
        else if (v.length === 1) out.push(...validate(t.elem, v[0], join(path, 0)));
      } else out.push(...validate(t.elem, v, path));
      break;
    case 'list':
      if (!Array.isArray(v)) bad('expected a list');
      else v.forEach((x, i) => out.push(...validate(t.elem, x, join(path, i))));
      break;
    case 'textMap':
      if (!isObject(v)) bad('expected an object (TextMap)');
      else for (const [k, x] of Object.entries(v)) out.push(...validate(t.elem, x, join(path, k)));
      break;
    case 'genMap':
      if (!Array.isArray(v)) bad('expected a list of [key, value] pairs');
      else
        v.forEach((pair, i) => {
          if (!Array.isArray(pair) || pair.length !== 2) bad('expected [key, value]', join(path, i));
          else {
            out.push(...validate(t.key, pair[0], join(join(path, i), 0)));
            out.push(...validate(t.value, pair[1], join(join(path, i), 1)));
          }
        });
      break;
    case 'record': {
      if (!isObject(v)) {
        bad(`expected a record (${typeLabel(t)})`);
        break;
      }
      const names = new Set(t.fields.map((f) => f.name));
      for (const k of Object.keys(v)) if (!names.has(k)) bad(`unknown field “${k}”`, join(path, k));
      for (const f of t.fields) {
        const x = v[f.name];
        if (x === undefined) {
          if (f.type.kind !== 'optional') bad('missing field', join(path, f.name));
        } else out.push(...validate(f.type, x, join(path, f.name)));
      }
      break;
    }
    case 'variant': {
      if (!isObject(v) || typeof v.tag !== 'string') {
        bad(`expected {"tag": …, "value": …} (${typeLabel(t)})`);
        break;
      }
      const c = t.constructors.find((x) => x.name === v.tag);
      if (!c) bad(`unknown constructor “${v.tag}” (one of ${t.constructors.map((x) => x.name).join(', ')})`);
      else out.push(...validate(c.type, v.value === undefined ? (c.type.kind === 'unit' ? {} : undefined) : v.value, join(path, 'value')));
      break;
    }
    case 'enum':
      if (typeof v !== 'string' || !t.constructors.includes(v)) bad(`expected one of ${t.constructors.join(', ')}`);
      break;
    case 'unsupported':
      break;
  }
  return out;
}

/** Parses the JSON editor's text and validates it against the type. */
export function parseJson(text: string, t: FieldType): { ok: true; value: JsonValue; issues: Issue[] } | { ok: false; message: string } {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (err) {
    return { ok: false, message: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  return { ok: true, value, issues: validate(t, value) };
}

/** Issues by path, first message per path (for inline display). */
export function issueMap(issues: readonly Issue[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const i of issues) if (!m.has(i.path)) m.set(i.path, i.message);
  return m;
}

/** A fresh command id: `console-<time>-<random>`. */
export function newCommandId(now = Date.now(), random = Math.random): string {
  return `console-${now.toString(36)}-${Math.floor(random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0')}`;
}

/** Trims text inputs of numeric/party/id kinds before submitting (leaves Text untouched). */
export function normalizeValue(t: FieldType, v: JsonValue): JsonValue {
  switch (t.kind) {
    case 'int64':
    case 'numeric':
    case 'party':
    case 'contractId':
    case 'date':
    case 'timestamp':
      return typeof v === 'string' ? v.trim() : v;
    case 'optional':
      if (v === null) return null;
      if (t.elem.kind === 'optional') return Array.isArray(v) ? v.map((x) => normalizeValue(t.elem, x)) : v;
      return normalizeValue(t.elem, v);
    case 'list':
      return Array.isArray(v) ? v.map((x) => normalizeValue(t.elem, x)) : v;
    case 'record': {
      if (!isObject(v)) return v;
      const o: Record<string, JsonValue> = {};
      for (const [k, x] of Object.entries(v)) {
        const f = t.fields.find((ff) => ff.name === k);
        o[k] = f ? normalizeValue(f.type, x) : x;
      }
      return o;
    }
    case 'variant': {
      if (!isObject(v)) return v;
      const c = t.constructors.find((x) => x.name === v.tag);
      return c && v.value !== undefined ? { ...v, value: normalizeValue(c.type, v.value) } : v;
    }
    default:
      return v;
  }
}
