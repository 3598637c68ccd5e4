/**
 * Templates of uploaded (Daml-LF) packages. The simulator does not evaluate Daml expressions, so an uploaded template
 * gets a generic behaviour:
 * - create: the arguments are checked against the template's LF record type (field names, types, Optional, Numeric
 *   scale, lists, maps, contract ids, nested records / variants / enums resolved across packages with `PackageIndex`);
 *   the signatories are the submitting (authorizing) parties that occur in the arguments (at least one is required) and
 *   every other party occurring in the arguments is an observer;
 * - Archive: as for every template (controllers = signatories);
 * - any other choice: `UNSUPPORTED_OPERATION` (the simulator cannot run its body).
 */
import type { Value } from '@canton-network/core-ledger-proto';
import type { PackageIndex, PackageSummary, Template, Type } from '../../daml-lf/index.js';
import { encodeLfValue } from '../engine/lf-typed-proto.js';
import { CantonError } from '../errors.js';
import { jsonText } from '../lf-text.js';
import type { LfValue } from '../model.js';
import { normalizeValue } from '../engine/values.js';
import type { FieldDef, FieldType, LfRecord } from './types.js';

/** Generic behaviour of an uploaded template, used by the interpreter instead of the TypeScript definition. */
export interface UploadedTemplateBehaviour {
  /** Validates and normalises create arguments against the LF record type. */
  normalizeArguments(raw: unknown, path: string): LfRecord;
  /** Signatories and observers of a contract with these arguments created by `authorizers`. */
  stakeholders(args: LfRecord, authorizers: ReadonlySet<string>): { signatories: string[]; observers: string[] };
  /** The create arguments as a protobuf `Value` typed by the template's LF record (for prepared transactions). */
  encodeArguments(args: LfRecord): Value;
}

const MAX_DEPTH = 64;

function bad(path: string, msg: string): never {
  throw new CantonError('COMMAND_PREPROCESSING_FAILED', `Invalid argument at ${path || '(root)'}: ${msg}`, {
    context: { path: path || '(root)' },
  });
}

const describe = (v: unknown): string => {
  const s = jsonText(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates a Ledger-API-JSON value against an LF type (seen from package `from`). */
export function normalizeLfValue(index: PackageIndex, from: string, type: Type, v: unknown, path: string, depth = 0): LfValue {
  if (depth > MAX_DEPTH) bad(path, 'value nested too deeply');
  const simple = (t: FieldType): LfValue => normalizeValue(t, v, path);
  switch (type.kind) {
    case 'prim':
      switch (type.prim) {
        case 'Unit':
        case 'Bool':
        case 'Int64':
        case 'Text':
        case 'Party':
        case 'Date':
          return simple({ kind: type.prim });
        case 'Timestamp':
          return simple({ kind: 'Time' });
        case 'Numeric': {
          const arg = type.args[0];
          return simple({ kind: 'Numeric', scale: arg?.kind === 'nat' ? arg.value : 10 });
        }
        case 'ContractId':
          return simple({ kind: 'ContractId' });
        case 'List': {
          if (!Array.isArray(v)) bad(path, `expected a list, got ${describe(v)}`);
          const elem = type.args[0] as Type;
          return v.map((e, i) => normalizeLfValue(index, from, elem, e, `${path}[${i}]`, depth + 1));
        }
        case 'Optional': {
          if (v === null || v === undefined) return null;
          const elem = type.args[0] as Type;
          if (elem.kind === 'prim' && elem.prim === 'Optional') {
            if (!Array.isArray(v) || v.length > 1) bad(path, `expected a nested Optional ([] or [x]), got ${describe(v)}`);
            return v.length === 0 ? [] : [normalizeLfValue(index, from, elem, v[0], `${path}[0]`, depth + 1)];
          }
          return normalizeLfValue(index, from, elem, v, path, depth + 1);
        }
        case 'TextMap': {
          if (!isObject(v)) bad(path, `expected a TextMap (JSON object), got ${describe(v)}`);
          const elem = type.args[0] as Type;
          const out: Record<string, LfValue> = {};
          for (const [k, x] of Object.entries(v)) out[k] = normalizeLfValue(index, from, elem, x, `${path}.${k}`, depth + 1);
          return out;
        }
        case 'GenMap': {
          if (!Array.isArray(v)) bad(path, `expected a GenMap (list of [key, value] pairs), got ${describe(v)}`);
          const [kt, vt] = type.args as [Type, Type];
          return v.map((pair, i) => {
            if (!Array.isArray(pair) || pair.length !== 2) bad(`${path}[${i}]`, `expected a [key, value] pair, got ${describe(pair)}`);
            return [
              normalizeLfValue(index, from, kt, pair[0], `${path}[${i}][0]`, depth + 1),
              normalizeLfValue(index, from, vt, pair[1], `${path}[${i}][1]`, depth + 1),
            ];
          });
        }
        default:
          return bad(path, `type ${type.prim} is not serializable`);
      }
    case 'con': {
      const r = index.resolve(from, type);
      if (!r) bad(path, `unknown data type ${type.packageId === 'self' ? from : type.packageId}:${type.module}:${type.name}`);
      const dt = r.dataType;
      if (dt.kind === 'record') return normalizeLfRecord(index, r.packageId, dt.fields, v, path, depth + 1);
      if (dt.kind === 'enum') {
        if (typeof v !== 'string' || !dt.constructors.includes(v))
          bad(path, `expected one of ${dt.constructors.join(', ')} (enum ${r.module}:${r.name}), got ${describe(v)}`);
        return v;
      }
      if (!isObject(v) || typeof v.tag !== 'string')
        bad(path, `expected a variant {"tag": …, "value": …} of ${r.module}:${r.name}, got ${describe(v)}`);
      for (const k of Object.keys(v)) if (k !== 'tag' && k !== 'value') bad(path, `unexpected field '${k}' in a variant`);
      const ctor = dt.constructors.find((c) => c.name === v.tag);
      if (!ctor)
        bad(
          `${path}.tag`,
          `unknown constructor '${v.tag}' of ${r.module}:${r.name} (expected ${dt.constructors.map((c) => c.name).join(', ')})`,
        );
      return { tag: v.tag, value: normalizeLfValue(index, r.packageId, ctor.type, v.value ?? null, `${path}.value`, depth + 1) };
    }
    default:
      return bad(path, `unsupported type (${type.kind})`);
  }
}

export function normalizeLfRecord(
  index: PackageIndex,
  from: string,
  fields: { name: string; type: Type }[],
  v: unknown,
  path: string,
  depth = 0,
): LfRecord {
  if (!isObject(v)) bad(path, `expected a record, got ${describe(v)}`);
  const known = new Set(fields.map((f) => f.name));
  for (const k of Object.keys(v)) if (!known.has(k)) bad(path, `unexpected field '${k}'`);
  const out: LfRecord = {};
  for (const f of fields) {
    const fp = path ? `${path}.${f.name}` : f.name;
    const x = v[f.name];
    if (x === undefined) {
      if (f.type.kind === 'prim' && f.type.prim === 'Optional') {
        out[f.name] = null;
        continue;
      }
      bad(fp, 'missing field');
    }
    out[f.name] = normalizeLfValue(index, from, f.type, x, fp, depth);
  }
  return out;
}

/** Parties in Party-typed positions only (so that a Text that looks like a party is not a stakeholder). */
function partiesTyped(index: PackageIndex, from: string, type: Type, v: LfValue, out: Set<string>, depth = 0): void {
  if (depth > MAX_DEPTH || v === null) return;
  if (type.kind === 'prim') {
    if (type.prim === 'Party' && typeof v === 'string') out.add(v);
    else if ((type.prim === 'List' || type.prim === 'Optional') && type.args[0]) {
      const elem = type.args[0];
      if (type.prim === 'Optional' && elem.kind === 'prim' && elem.prim === 'Optional') {
        if (Array.isArray(v) && v.length === 1) partiesTyped(index, from, elem, v[0] as LfValue, out, depth + 1);
      } else if (type.prim === 'List' && Array.isArray(v)) v.forEach((x) => partiesTyped(index, from, elem, x, out, depth + 1));
      else if (type.prim === 'Optional') partiesTyped(index, from, elem, v, out, depth + 1);
    } else if (type.prim === 'TextMap' && type.args[0] && typeof v === 'object' && !Array.isArray(v)) {
      for (const x of Object.values(v)) partiesTyped(index, from, type.args[0], x, out, depth + 1);
    } else if (type.prim === 'GenMap' && Array.isArray(v)) {
      const [kt, vt] = type.args as [Type, Type];
      for (const pair of v)
        if (Array.isArray(pair)) {
          partiesTyped(index, from, kt, pair[0] as LfValue, out, depth + 1);
          partiesTyped(index, from, vt, pair[1] as LfValue, out, depth + 1);
        }
    }
    return;
  }
  if (type.kind !== 'con') return;
  const r = index.resolve(from, type);
  if (!r || typeof v !== 'object' || Array.isArray(v)) return;
  const dt = r.dataType;
  if (dt.kind === 'record') for (const f of dt.fields) partiesTyped(index, r.packageId, f.type, v[f.name] ?? null, out, depth + 1);
  else if (dt.kind === 'variant') {
    const ctor = dt.constructors.find((c) => c.name === v.tag);
    if (ctor) partiesTyped(index, r.packageId, ctor.type, v.value ?? null, out, depth + 1);
  }
}

/** Best-effort simulator field types (used to encode prepared transactions); variants, enums and maps become Text. */
export function toFieldType(index: PackageIndex, from: string, type: Type, depth = 0): FieldType {
  if (depth > 8) return { kind: 'Text' };
  if (type.kind === 'prim') {
    const elem = type.args[0];
    switch (type.prim) {
      case 'Unit':
      case 'Bool':
      case 'Int64':
      case 'Text':
      case 'Party':
      case 'Date':
        return { kind: type.prim };
      case 'Timestamp':
        return { kind: 'Time' };
      case 'Numeric':
        return { kind: 'Numeric', scale: elem?.kind === 'nat' ? elem.value : 10 };
      case 'ContractId':
        return { kind: 'ContractId' };
      case 'List':
        return { kind: 'List', elem: elem ? toFieldType(index, from, elem, depth + 1) : { kind: 'Text' } };
      case 'Optional':
        return { kind: 'Optional', elem: elem ? toFieldType(index, from, elem, depth + 1) : { kind: 'Text' } };
      default:
        return { kind: 'Text' };
    }
  }
  if (type.kind === 'con') {
    const r = index.resolve(from, type);
    if (r?.dataType.kind === 'record')
      return {
        kind: 'Record',
        name: `${r.module}:${r.name}`,
        fields: r.dataType.fields.map((f) => ({ name: f.name, type: toFieldType(index, r.packageId, f.type, depth + 1) })),
      };
  }
  return { kind: 'Text' };
}

export function toFieldDefs(index: PackageIndex, pkg: PackageSummary, t: Template): FieldDef[] {
  return t.fields.map((f) => ({ name: f.name, type: toFieldType(index, pkg.packageId, f.type) }));
}

export function uploadedBehaviour(index: PackageIndex, pkg: PackageSummary, t: Template): UploadedTemplateBehaviour {
  return {
    normalizeArguments: (raw, path) => normalizeLfRecord(index, pkg.packageId, t.fields, raw, path),
    encodeArguments: (args) => {
      const [module = '', name = ''] = t.qualifiedName.split(':');
      return encodeLfValue(index, pkg.packageId, { kind: 'con', packageId: pkg.packageId, module, name, args: [] }, args);
    },
    stakeholders: (args, authorizers) => {
      const all = new Set<string>();
      for (const f of t.fields) partiesTyped(index, pkg.packageId, f.type, args[f.name] ?? null, all);
      const signatories = [...all].filter((p) => authorizers.has(p)).sort();
      if (signatories.length === 0)
        throw new CantonError(
          'DAML_AUTHORIZATION_ERROR',
          `Interpretation error: Error: the simulator takes the signatories of uploaded template ${pkg.packageId}:${t.qualifiedName} ` +
            `to be the submitting parties that occur in its arguments, and none of ${[...authorizers].sort().join(', ')} does`,
          { context: { templateId: `${pkg.packageId}:${t.qualifiedName}` } },
        );
      return { signatories, observers: [...all].filter((p) => !authorizers.has(p)).sort() };
    },
  };
}
