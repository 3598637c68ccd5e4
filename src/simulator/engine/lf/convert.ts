/**
 * Conversion between engine values and the simulator's LF-JSON (the JSON Ledger API encoding: records as objects,
 * variants `{tag, value}`, enums as strings, Int64 / Numeric as strings, Optional as null / the value, nested
 * Optional as `[]` / `[x]`, TextMap as an object, GenMap as `[[k, v]…]`, Unit `{}`). Import is type-directed: it
 * checks the value against the LF type (COMMAND_PREPROCESSING_FAILED-style errors name the path) and, for smart
 * contract upgrades, fills fields a newer record adds at the end (Optional) with None and accepts absent / null
 * trailing Optional fields an older record lacks.
 */
import type { Type } from '../../../daml-lf/ast/ast.js';
import { microsToIso } from '../../clock.js';
import type { Defs } from './defs.js';
import { EngineError } from './errors.js';
import { compareValues } from './compare.js';
import { MAX_SCALE, parseApi, plain } from './numeric.js';
import { compareText, dateFromText, dateToText, isPartyString, timestampFromText } from './text.js';
import {
  K,
  listFromArray,
  NONE,
  UNIT,
  VContractId,
  VEnum,
  VGenMap,
  VRecord,
  VSome,
  VTextMap,
  VTimestamp,
  VVariant,
  type V,
  type VList,
} from './value.js';

/** LF-JSON (the simulator's `LfValue`). */
export type Json = null | boolean | string | number | Json[] | { [k: string]: Json };

export class ImportError extends EngineError {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super('Internal', `Invalid argument at ${path || '(root)'}: ${message}`, { path: path || '(root)' });
  }
}

/** A downgrade would drop a field set to Some (Canton: `Found an optional contract field with a value of Some …`). */
export class DowngradeError extends ImportError {
  constructor(
    path: string,
    readonly reason: string,
    readonly expectedType: string,
  ) {
    super(path, reason);
  }
}

const MAX_DEPTH = 100;
const describe = (v: unknown): string => {
  const s = JSON.stringify(v) as string | undefined;
  return s === undefined ? typeof v : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};
const isObj = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An engine value as LF-JSON. */
export function toJson(v: V): Json {
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'bigint':
      return v.toString();
    case 'string':
      return v;
    case 'number':
      return dateToText(v);
  }
  switch (v.k) {
    case K.Unit:
      return {};
    case K.Numeric:
      return plain(v.value, v.scale);
    case K.Timestamp:
      return microsToIso(v.micros);
    case K.ContractId:
      return v.cid;
    case K.Nil:
    case K.Cons: {
      const out: Json[] = [];
      let c: VList = v;
      while (c.k === K.Cons) {
        out.push(toJson(c.head));
        c = c.tail;
      }
      return out;
    }
    case K.None:
      return null;
    case K.Some: {
      const inner = v.value;
      if (typeof inner === 'object' && (inner.k === K.None || inner.k === K.Some)) return inner.k === K.None ? [] : [toJson(inner.value)];
      return toJson(inner);
    }
    case K.TextMap: {
      const o: Record<string, Json> = {};
      v.keys.forEach((k, i) => (o[k] = toJson(v.values[i] as V)));
      return o;
    }
    case K.GenMap:
      return v.keys.map((k, i) => [toJson(k), toJson(v.values[i] as V)]);
    case K.Record: {
      const o: Record<string, Json> = {};
      v.info.names.forEach((n, i) => (o[n] = toJson(v.fields[i] as V)));
      return o;
    }
    case K.Variant:
      return { tag: v.con, value: toJson(v.value) };
    case K.Enum:
      return v.con;
    default:
      throw new EngineError('Internal', `value of kind ${K[v.k]} is not serializable`);
  }
}

export interface ImportOptions {
  /** Command input: unknown record fields are errors. Stored values of other package versions: see the module doc. */
  upgrade?: boolean;
}

/** Imports LF-JSON as a value of `type` (type variables resolved through `env`). */
export function fromJson(
  defs: Defs,
  type: Type,
  json: unknown,
  path = '',
  opts: ImportOptions = {},
  env = new Map<string, Type>(),
  depth = 0,
): V {
  const bad = (msg: string): never => {
    throw new ImportError(path, msg);
  };
  if (depth > MAX_DEPTH) bad('value nested too deeply');
  const t = type.kind === 'var' ? (env.get(type.name) ?? bad(`unbound type variable ${type.name}`)) : type;
  const sub = (ty: Type, x: unknown, p: string): V => fromJson(defs, ty, x, p, opts, env, depth + 1);
  switch (t.kind) {
    case 'prim': {
      const arg = (i: number): Type => t.args[i] ?? bad(`${t.prim} without a type argument`);
      switch (t.prim) {
        case 'Unit':
          if (!isObj(json) || Object.keys(json).length > 0) bad(`expected Unit ({}), got ${describe(json)}`);
          return UNIT;
        case 'Bool':
          return typeof json === 'boolean' ? json : bad(`expected Bool, got ${describe(json)}`);
        case 'Int64': {
          if (!(typeof json === 'string' && /^[+-]?\d{1,19}$/.test(json)) && !(typeof json === 'number' && Number.isSafeInteger(json)))
            bad(`expected Int64, got ${describe(json)}`);
          const n = BigInt(json as string | number);
          return n < -(2n ** 63n) || n >= 2n ** 63n ? bad(`Int64 out of range: ${describe(json)}`) : n;
        }
        case 'Numeric': {
          const a = arg(0);
          const scale = a.kind === 'nat' ? a.value : 10;
          if (scale > MAX_SCALE) bad(`bad Numeric scale ${scale}`);
          const s = typeof json === 'number' && Number.isFinite(json) ? String(json) : json;
          if (typeof s !== 'string') return bad(`expected Numeric ${scale}, got ${describe(json)}`);
          return parseApi(scale, s) ?? bad(`expected Numeric ${scale}, got ${describe(json)}`);
        }
        case 'Text':
          return typeof json === 'string' ? json : bad(`expected Text, got ${describe(json)}`);
        case 'Party':
          // Canton 3 party ids are `hint::namespace` (the spec's PartyId string, with the namespace separator)
          return typeof json === 'string' && isPartyString(json) && /^[^:]+(:[^:]+)*::\S/.test(json)
            ? json
            : bad(`expected a party id (name::namespace), got ${describe(json)}`);
        case 'Date': {
          const d = typeof json === 'string' ? dateFromText(json) : undefined;
          return d ?? bad(`expected Date (YYYY-MM-DD), got ${describe(json)}`);
        }
        case 'Timestamp': {
          const us = typeof json === 'string' ? timestampFromText(json) : undefined;
          return us === undefined ? bad(`expected Timestamp (RFC 3339 UTC), got ${describe(json)}`) : new VTimestamp(us);
        }
        case 'ContractId':
          return typeof json === 'string' && /^00[0-9a-f]{64,252}$/.test(json)
            ? new VContractId(json)
            : bad(`expected a contract id, got ${describe(json)}`);
        case 'List': {
          if (!Array.isArray(json)) bad(`expected a list, got ${describe(json)}`);
          return listFromArray((json as unknown[]).map((x, i) => sub(arg(0), x, `${path}[${i}]`)));
        }
        case 'Optional': {
          if (json === null || json === undefined) return NONE;
          const elem = arg(0);
          if (elem.kind === 'prim' && elem.prim === 'Optional') {
            if (!Array.isArray(json) || json.length > 1) bad(`expected a nested Optional ([] or [x]), got ${describe(json)}`);
            return new VSome((json as unknown[]).length === 0 ? NONE : sub(elem, (json as unknown[])[0], `${path}[0]`));
          }
          return new VSome(sub(elem, json, path));
        }
        case 'TextMap': {
          if (!isObj(json)) bad(`expected a TextMap (JSON object), got ${describe(json)}`);
          const keys = Object.keys(json as object).sort(compareText);
          return new VTextMap(
            keys,
            keys.map((k) => sub(arg(0), (json as Record<string, unknown>)[k], `${path}.${k}`)),
          );
        }
        case 'GenMap': {
          if (!Array.isArray(json)) bad(`expected a GenMap (list of [key, value] pairs), got ${describe(json)}`);
          const entries = (json as unknown[]).map((pair, i): [V, V] => {
            if (!Array.isArray(pair) || pair.length !== 2) bad(`expected a [key, value] pair at [${i}], got ${describe(pair)}`);
            const [k, x] = pair as [unknown, unknown];
            return [sub(arg(0), k, `${path}[${i}][0]`), sub(arg(1), x, `${path}[${i}][1]`)];
          });
          entries.sort((a, b) => compareValues(a[0], b[0]));
          for (let i = 1; i < entries.length; i++)
            if (compareValues((entries[i - 1] as [V, V])[0], (entries[i] as [V, V])[0]) === 0) bad('duplicate GenMap key');
          return new VGenMap(
            entries.map((e) => e[0]),
            entries.map((e) => e[1]),
          );
        }
        default:
          return bad(`type ${t.prim} is not serializable`);
      }
    }
    case 'con':
      return fromJsonCon(defs, t, json, path, opts, env, depth);
    default:
      return bad(`unsupported type (${t.kind})`);
  }
}

function fromJsonCon(
  defs: Defs,
  t: Extract<Type, { kind: 'con' }>,
  json: unknown,
  path: string,
  opts: ImportOptions,
  env: Map<string, Type>,
  depth: number,
): V {
  const bad = (msg: string): never => {
    throw new ImportError(path, msg);
  };
  const dt = defs.dataType(t);
  const info = defs.dataInfo(t);
  const inner = new Map<string, Type>();
  dt.params.forEach((p, i) => {
    const a = t.args[i];
    if (a) inner.set(p.name, a.kind === 'var' ? (env.get(a.name) ?? a) : a);
  });
  const sub = (ty: Type, x: unknown, p: string): V => fromJson(defs, ty, x, p, opts, inner, depth + 1);
  const c = dt.cons;
  switch (c.kind) {
    case 'record': {
      if (!isObj(json)) return bad(`expected a record ${t.module}:${t.name}, got ${describe(json)}`);
      const known = new Set(c.fields.map((f) => f.name));
      Object.keys(json).forEach((k, i) => {
        if (known.has(k) || (opts.upgrade && json[k] === null)) return;
        if (opts.upgrade)
          throw new DowngradeError(
            path,
            `Found an optional contract field with a value of Some at index ${i}, may not be dropped during downgrading.`,
            `${t.module}:${t.name}`,
          );
        bad(`unexpected field '${k}' of ${t.module}:${t.name}`);
      });
      return new VRecord(
        info,
        c.fields.map((f) => {
          const fp = path ? `${path}.${f.name}` : f.name;
          const x = json[f.name];
          if (x === undefined) {
            if (f.type.kind === 'prim' && f.type.prim === 'Optional') return NONE;
            throw new ImportError(fp, 'missing field');
          }
          return sub(f.type, x, fp);
        }),
      );
    }
    case 'variant': {
      if (!isObj(json) || typeof json['tag'] !== 'string')
        return bad(`expected a variant {"tag": …, "value": …} of ${t.module}:${t.name}, got ${describe(json)}`);
      const tag = json['tag'];
      const rank = info.index.get(tag);
      if (rank === undefined)
        throw new ImportError(`${path}.tag`, `unknown constructor '${tag}' of ${t.module}:${t.name} (expected ${info.names.join(', ')})`);
      const ctor = c.constructors[rank] as { type: Type };
      return new VVariant(info, rank, sub(ctor.type, json['value'] ?? null, `${path}.value`));
    }
    case 'enum': {
      const rank = typeof json === 'string' ? info.index.get(json) : undefined;
      return rank === undefined
        ? bad(`expected one of ${c.constructors.join(', ')} (${t.module}:${t.name}), got ${describe(json)}`)
        : new VEnum(info, rank);
    }
    case 'interface':
      return bad(`interface ${t.module}:${t.name} is not a serializable value`);
  }
}
