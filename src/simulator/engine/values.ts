/** Validation and normalisation of LF-JSON values against field types. Failures: COMMAND_PREPROCESSING_FAILED. */
import { CantonError } from '../errors.js';
import { isPartyId } from '../ids.js';
import { jsonText } from '../lf-text.js';
import type { LfValue } from '../model.js';
import type { FieldDef, FieldType, LfRecord } from '../packages/types.js';
import { formatDecimal, parseDecimal } from '../../common/decimal.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function bad(path: string, msg: string): never {
  throw new CantonError('COMMAND_PREPROCESSING_FAILED', `Invalid argument at ${path || '(root)'}: ${msg}`, {
    context: { path: path || '(root)' },
  });
}

const describe = (v: unknown): string => {
  let s: string | undefined;
  try {
    s = jsonText(v);
  } catch {
    // a value too deep for JSON.stringify (callers normally refuse those first: json-depth.ts)
    return Array.isArray(v) ? 'a deeply nested list' : 'a deeply nested object';
  }
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

export function normalizeValue(type: FieldType, v: unknown, path: string): LfValue {
  switch (type.kind) {
    case 'Party':
      if (typeof v !== 'string' || !isPartyId(v)) bad(path, `expected a party id (name::namespace), got ${describe(v)}`);
      return v;
    case 'Text':
      if (typeof v !== 'string') bad(path, `expected Text, got ${describe(v)}`);
      return v;
    case 'Bool':
      if (typeof v !== 'boolean') bad(path, `expected Bool, got ${describe(v)}`);
      return v;
    case 'Int64': {
      if (!(typeof v === 'string' && /^-?\d{1,19}$/.test(v)) && !(typeof v === 'number' && Number.isSafeInteger(v)))
        bad(path, `expected Int64, got ${describe(v)}`);
      const b = BigInt(v);
      if (b < INT64_MIN || b > INT64_MAX) bad(path, `Int64 out of range: ${describe(v)}`);
      return b.toString();
    }
    case 'Numeric': {
      const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : v;
      if (typeof s !== 'string') bad(path, `expected Numeric ${type.scale}, got ${describe(v)}`);
      const n = parseDecimal(s, type.scale);
      if (n === null) bad(path, `expected Numeric ${type.scale}, got ${describe(v)}`);
      return formatDecimal(n, type.scale);
    }
    case 'Time':
      if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(v) || Number.isNaN(Date.parse(v)))
        bad(path, `expected Time (RFC 3339 UTC), got ${describe(v)}`);
      return v;
    case 'Date':
      if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v)))
        bad(path, `expected Date (YYYY-MM-DD), got ${describe(v)}`);
      return v;
    case 'Unit':
      if (typeof v !== 'object' || v === null || Array.isArray(v) || Object.keys(v).length > 0)
        bad(path, `expected Unit ({}), got ${describe(v)}`);
      return {};
    case 'ContractId':
      if (typeof v !== 'string' || !/^00[0-9a-f]{64,}$/.test(v)) bad(path, `expected a contract id, got ${describe(v)}`);
      return v;
    case 'List':
      if (!Array.isArray(v)) bad(path, `expected a list, got ${describe(v)}`);
      return v.map((e, i) => normalizeValue(type.elem, e, `${path}[${i}]`));
    case 'Optional':
      if (v === null || v === undefined) return null;
      if (type.elem.kind === 'Optional') {
        // nested optionals are encoded as [] (None) / [x] (Some x)
        if (!Array.isArray(v) || v.length > 1) bad(path, `expected a nested Optional ([] or [x]), got ${describe(v)}`);
        return v.length === 0 ? [] : [normalizeValue(type.elem, v[0], `${path}[0]`)];
      }
      return normalizeValue(type.elem, v, path);
    case 'TextMap': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) bad(path, `expected a TextMap (JSON object), got ${describe(v)}`);
      const out: { [k: string]: LfValue } = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = normalizeValue(type.elem, x, `${path}.${k}`);
      return out;
    }
    case 'GenMap': {
      if (!Array.isArray(v)) bad(path, `expected a GenMap (list of [key, value] pairs), got ${describe(v)}`);
      return v.map((pair, i) => {
        if (!Array.isArray(pair) || pair.length !== 2) bad(`${path}[${i}]`, `expected a [key, value] pair, got ${describe(pair)}`);
        return [normalizeValue(type.key, pair[0], `${path}[${i}][0]`), normalizeValue(type.value, pair[1], `${path}[${i}][1]`)];
      });
    }
    case 'Variant': {
      const o = v as { tag?: unknown; value?: unknown } | null;
      if (typeof o !== 'object' || o === null || typeof o.tag !== 'string')
        bad(path, `expected a variant { tag, value }, got ${describe(v)}`);
      const c = type.constructors.find((x) => x.name === o.tag);
      if (!c) bad(path, `unknown constructor '${o.tag}' of ${type.name}`);
      return { tag: c.name, value: normalizeValue(c.type, o.value, `${path}.value`) };
    }
    case 'Record':
      return normalizeRecord(type.fields, v, path);
  }
}

export function normalizeRecord(fields: FieldDef[], v: unknown, path: string): LfRecord {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) bad(path, `expected a record, got ${describe(v)}`);
  const input = v as Record<string, unknown>;
  const known = new Set(fields.map((f) => f.name));
  for (const k of Object.keys(input)) if (!known.has(k)) bad(path, `unexpected field '${k}'`);
  const out: LfRecord = {};
  for (const f of fields) {
    const fp = path ? `${path}.${f.name}` : f.name;
    if (!(f.name in input) || input[f.name] === undefined) {
      if (f.type.kind === 'Optional') {
        out[f.name] = null;
        continue;
      }
      bad(fp, 'missing field');
    }
    out[f.name] = normalizeValue(f.type, input[f.name], fp);
  }
  return out;
}

/** Parties named by a Party / [Party] / Optional Party value. */
export function partiesIn(v: LfValue | undefined): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap((x) => partiesIn(x));
  return [];
}
