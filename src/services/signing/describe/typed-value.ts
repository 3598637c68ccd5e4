/**
 * Types the Daml values of a prepared transaction with the Daml-LF types of verified packages. A value the types
 * describe gets its field names from the package (record fields are positional on the ledger: a participant's own
 * labels are checked against the package, never trusted), numerics their scale, contract ids their template. A value
 * whose package is missing is described from its own shape and labels, marked unverified; a value that does not fit
 * its type is reported as a problem and described the same way.
 */
import type { Value } from '@canton-network/core-ledger-proto';
import { typeToString, type PackageIndex, type Type } from '../../../daml-lf/index.js';
import { microsToIso } from '../daml-value.js';

export type ScalarPrim = 'Unit' | 'Bool' | 'Int64' | 'Text' | 'Date' | 'Timestamp';

/** A described value; `type` is the Daml type as text, null when the value could not be typed. */
export type DValue =
  | { kind: 'record'; type: string | null; fields: Array<{ name: string; value: DValue }> }
  | { kind: 'variant'; type: string | null; constructor: string; value: DValue }
  | { kind: 'enum'; type: string | null; constructor: string }
  | { kind: 'list'; type: string | null; items: DValue[] }
  | { kind: 'optional'; type: string | null; value: DValue | null }
  | { kind: 'textMap'; type: string | null; entries: Array<{ key: string; value: DValue }> }
  | { kind: 'genMap'; type: string | null; entries: Array<{ key: DValue; value: DValue }> }
  | { kind: 'scalar'; type: string | null; prim: ScalarPrim; text: string }
  | { kind: 'numeric'; type: string | null; value: string; scale: number | null }
  | { kind: 'party'; type: string | null; party: string }
  | { kind: 'contractId'; type: string | null; contractId: string; template: string | null };

export interface TypingContext {
  index: PackageIndex;
  /** Package ids a type refers to that the index does not hold. */
  missing: Set<string>;
  /** Package ids whose types described a value. */
  used: Set<string>;
  /** Values that do not fit their type (path: what is wrong). */
  problems: string[];
  /** Templates of the contract ids the transaction itself names (created, exercised, fetched, input contracts). */
  cidTemplates: Map<string, string>;
  /** Values described without types (their package is missing or they do not fit). */
  untyped: number;
}

const MAX_DEPTH = 100;

function dateText(days: number): string {
  return new Date(days * 86_400_000).toISOString().slice(0, 10);
}

/** Describes a value from its own shape, for when its type is unknown. Labels are the participant's, unverified. */
export function untypedValue(v: Value | undefined, ctx: TypingContext, depth = 0): DValue {
  ctx.untyped++;
  const sum = v?.sum;
  if (!sum || depth > MAX_DEPTH) return { kind: 'scalar', type: null, prim: 'Unit', text: '(missing)' };
  const d = depth + 1;
  switch (sum.oneofKind) {
    case 'record':
      return {
        kind: 'record',
        type: sum.record.recordId ? `${sum.record.recordId.moduleName}:${sum.record.recordId.entityName}` : null,
        fields: sum.record.fields.map((f, i) => ({ name: f.label || `_${i + 1}`, value: untypedValue(f.value, ctx, d) })),
      };
    case 'variant':
      return { kind: 'variant', type: null, constructor: sum.variant.constructor, value: untypedValue(sum.variant.value, ctx, d) };
    case 'enum':
      return { kind: 'enum', type: null, constructor: sum.enum.constructor };
    case 'list':
      return { kind: 'list', type: null, items: sum.list.elements.map((e) => untypedValue(e, ctx, d)) };
    case 'optional':
      return { kind: 'optional', type: null, value: sum.optional.value ? untypedValue(sum.optional.value, ctx, d) : null };
    case 'textMap':
      return {
        kind: 'textMap',
        type: null,
        entries: sum.textMap.entries.map((e) => ({ key: e.key, value: untypedValue(e.value, ctx, d) })),
      };
    case 'genMap':
      return {
        kind: 'genMap',
        type: null,
        entries: sum.genMap.entries.map((e) => ({ key: untypedValue(e.key, ctx, d), value: untypedValue(e.value, ctx, d) })),
      };
    case 'numeric':
      return { kind: 'numeric', type: null, value: sum.numeric, scale: null };
    case 'party':
      return { kind: 'party', type: null, party: sum.party };
    case 'contractId':
      return { kind: 'contractId', type: null, contractId: sum.contractId, template: ctx.cidTemplates.get(sum.contractId) ?? null };
    case 'unit':
      return { kind: 'scalar', type: null, prim: 'Unit', text: '()' };
    case 'bool':
      return { kind: 'scalar', type: null, prim: 'Bool', text: String(sum.bool) };
    case 'int64':
      return { kind: 'scalar', type: null, prim: 'Int64', text: sum.int64 };
    case 'text':
      return { kind: 'scalar', type: null, prim: 'Text', text: sum.text };
    case 'timestamp':
      return { kind: 'scalar', type: null, prim: 'Timestamp', text: microsToIso(sum.timestamp) };
    case 'date':
      return { kind: 'scalar', type: null, prim: 'Date', text: dateText(sum.date) };
    default:
      return { kind: 'scalar', type: null, prim: 'Unit', text: '(unknown value)' };
  }
}

/** Digits after the decimal point of a Numeric literal. */
function scaleOf(n: string): number {
  const i = n.indexOf('.');
  return i < 0 ? 0 : n.length - i - 1;
}

/**
 * Types `v` as `t` (a type seen from package `from`). Record field labels are set from the type on `v` itself
 * (callers pass a copy), so recognisers reading fields by name read the package's names.
 */
export function typedValue(v: Value | undefined, t: Type, from: string, path: string, ctx: TypingContext, depth = 0): DValue {
  const mismatch = (what: string): DValue => {
    ctx.problems.push(`${path}: ${what}`);
    return untypedValue(v, ctx, depth);
  };
  const sum = v?.sum;
  if (!sum) return mismatch(`no value where ${typeToString(t)} is expected`);
  if (depth > MAX_DEPTH) return mismatch('nested too deeply');
  const text = typeToString(t);
  const d = depth + 1;
  const found = (): string => sum.oneofKind ?? 'nothing';

  if (t.kind === 'prim') {
    const [a0, a1] = t.args;
    switch (t.prim) {
      case 'Unit':
        return sum.oneofKind === 'unit'
          ? { kind: 'scalar', type: text, prim: 'Unit', text: '()' }
          : mismatch(`expected Unit, found ${found()}`);
      case 'Bool':
        return sum.oneofKind === 'bool'
          ? { kind: 'scalar', type: text, prim: 'Bool', text: String(sum.bool) }
          : mismatch(`expected Bool, found ${found()}`);
      case 'Int64':
        return sum.oneofKind === 'int64'
          ? { kind: 'scalar', type: text, prim: 'Int64', text: sum.int64 }
          : mismatch(`expected Int64, found ${found()}`);
      case 'Text':
        return sum.oneofKind === 'text'
          ? { kind: 'scalar', type: text, prim: 'Text', text: sum.text }
          : mismatch(`expected Text, found ${found()}`);
      case 'Date':
        return sum.oneofKind === 'date'
          ? { kind: 'scalar', type: text, prim: 'Date', text: dateText(sum.date) }
          : mismatch(`expected Date, found ${found()}`);
      case 'Timestamp':
        return sum.oneofKind === 'timestamp'
          ? { kind: 'scalar', type: text, prim: 'Timestamp', text: microsToIso(sum.timestamp) }
          : mismatch(`expected Timestamp, found ${found()}`);
      case 'Party':
        return sum.oneofKind === 'party' ? { kind: 'party', type: text, party: sum.party } : mismatch(`expected Party, found ${found()}`);
      case 'Numeric': {
        if (sum.oneofKind !== 'numeric') return mismatch(`expected ${text}, found ${found()}`);
        const scale = a0?.kind === 'nat' ? a0.value : null;
        if (scale !== null && scaleOf(sum.numeric) > scale) return mismatch(`${sum.numeric} has more than ${scale} decimal places`);
        return { kind: 'numeric', type: text, value: sum.numeric, scale };
      }
      case 'ContractId': {
        if (sum.oneofKind !== 'contractId') return mismatch(`expected ${text}, found ${found()}`);
        const target = a0?.kind === 'con' ? `${a0.module}:${a0.name}` : null;
        return { kind: 'contractId', type: text, contractId: sum.contractId, template: ctx.cidTemplates.get(sum.contractId) ?? target };
      }
      case 'Optional':
        if (sum.oneofKind !== 'optional' || !a0) return mismatch(`expected ${text}, found ${found()}`);
        return { kind: 'optional', type: text, value: sum.optional.value ? typedValue(sum.optional.value, a0, from, path, ctx, d) : null };
      case 'List':
        if (sum.oneofKind !== 'list' || !a0) return mismatch(`expected ${text}, found ${found()}`);
        return { kind: 'list', type: text, items: sum.list.elements.map((e, i) => typedValue(e, a0, from, `${path}[${i}]`, ctx, d)) };
      case 'TextMap':
        if (sum.oneofKind !== 'textMap' || !a0) return mismatch(`expected ${text}, found ${found()}`);
        return {
          kind: 'textMap',
          type: text,
          entries: sum.textMap.entries.map((e) => ({
            key: e.key,
            value: typedValue(e.value, a0, from, `${path}[${JSON.stringify(e.key)}]`, ctx, d),
          })),
        };
      case 'GenMap':
        if (sum.oneofKind !== 'genMap' || !a0 || !a1) return mismatch(`expected ${text}, found ${found()}`);
        return {
          kind: 'genMap',
          type: text,
          entries: sum.genMap.entries.map((e, i) => ({
            key: typedValue(e.key, a0, from, `${path}{${i}}.key`, ctx, d),
            value: typedValue(e.value, a1, from, `${path}{${i}}.value`, ctx, d),
          })),
        };
      default:
        return mismatch(`${t.prim} is not a serializable type`);
    }
  }
  if (t.kind !== 'con') return mismatch(`${text} is not a serializable type`);

  const pkg = t.packageId === 'self' ? from : t.packageId;
  if (!ctx.index.get(pkg)) {
    ctx.missing.add(pkg);
    return untypedValue(v, ctx, depth);
  }
  const r = ctx.index.resolve(from, t);
  if (!r) return mismatch(`type ${text} is not defined in package ${pkg}`);
  ctx.used.add(r.packageId);
  const dt = r.dataType;
  switch (dt.kind) {
    case 'record': {
      if (sum.oneofKind !== 'record') return mismatch(`expected the record ${text}, found ${found()}`);
      const fields = sum.record.fields;
      // an upgraded package may add trailing Optional fields that older values leave out
      if (fields.length > dt.fields.length) return mismatch(`${text} has ${dt.fields.length} fields, the value ${fields.length}`);
      const out: Array<{ name: string; value: DValue }> = [];
      for (const [i, f] of dt.fields.entries()) {
        const vf = fields[i];
        if (!vf) {
          if (f.type.kind === 'prim' && f.type.prim === 'Optional') {
            out.push({ name: f.name, value: { kind: 'optional', type: typeToString(f.type), value: null } });
            continue;
          }
          return mismatch(`field ${f.name} of ${text} is missing`);
        }
        if (vf.label && vf.label !== f.name)
          return mismatch(`field ${i + 1} of ${text} is labelled “${vf.label}” in the transaction, but the package names it “${f.name}”`);
        vf.label = f.name;
        out.push({ name: f.name, value: typedValue(vf.value, f.type, r.packageId, `${path}.${f.name}`, ctx, d) });
      }
      return { kind: 'record', type: text, fields: out };
    }
    case 'variant': {
      if (sum.oneofKind !== 'variant') return mismatch(`expected the variant ${text}, found ${found()}`);
      const c = dt.constructors.find((x) => x.name === sum.variant.constructor);
      if (!c) return mismatch(`${text} has no constructor ${sum.variant.constructor}`);
      return {
        kind: 'variant',
        type: text,
        constructor: c.name,
        value: typedValue(sum.variant.value, c.type, r.packageId, `${path}.${c.name}`, ctx, d),
      };
    }
    case 'enum': {
      if (sum.oneofKind !== 'enum') return mismatch(`expected the enum ${text}, found ${found()}`);
      if (!dt.constructors.includes(sum.enum.constructor)) return mismatch(`${text} has no constructor ${sum.enum.constructor}`);
      return { kind: 'enum', type: text, constructor: sum.enum.constructor };
    }
  }
}
