/** Reading Daml values (Ledger API protobuf `Value`) for summaries and clear signing. */
import type { Identifier, Value } from '@canton-network/core-ledger-proto';

export type Plain = string | boolean | null | Plain[] | { [field: string]: Plain };

/** A Daml value as plain JSON-safe data (numbers as strings, timestamps as ISO, variants as {tag, value}). */
export function toPlain(value: Value | undefined, depth = 0): Plain {
  if (depth > 64) return '…';
  const sum = value?.sum;
  switch (sum?.oneofKind) {
    case 'unit':
      return {};
    case 'bool':
      return sum.bool;
    case 'int64':
      return sum.int64;
    case 'numeric':
      return sum.numeric;
    case 'text':
      return sum.text;
    case 'party':
      return sum.party;
    case 'contractId':
      return sum.contractId;
    case 'timestamp':
      return microsToIso(sum.timestamp);
    case 'date':
      return new Date(sum.date * 86_400_000).toISOString().slice(0, 10);
    case 'enum':
      return sum.enum.constructor;
    case 'variant':
      return { tag: sum.variant.constructor, value: toPlain(sum.variant.value, depth + 1) };
    case 'optional':
      return sum.optional.value ? toPlain(sum.optional.value, depth + 1) : null;
    case 'list':
      return sum.list.elements.map((e) => toPlain(e, depth + 1));
    case 'textMap':
      return Object.fromEntries(sum.textMap.entries.map((e) => [e.key, toPlain(e.value, depth + 1)]));
    case 'genMap':
      return sum.genMap.entries.map((e) => [toPlain(e.key, depth + 1), toPlain(e.value, depth + 1)]);
    case 'record':
      return Object.fromEntries(sum.record.fields.map((f, i) => [f.label || `_${i + 1}`, toPlain(f.value, depth + 1)]));
    default:
      return null;
  }
}

export function microsToIso(micros: string | bigint): string {
  try {
    return new Date(Number(BigInt(micros) / 1000n)).toISOString();
  } catch {
    return String(micros);
  }
}

/** The value of a record field by label (undefined when the value is not a record or has no such field). */
export function field(value: Value | undefined, label: string): Value | undefined {
  if (value?.sum.oneofKind !== 'record') return undefined;
  return value.sum.record.fields.find((f) => f.label === label)?.value;
}

export function partyOf(value: Value | undefined): string | null {
  return value?.sum.oneofKind === 'party' ? value.sum.party : null;
}
export function numericOf(value: Value | undefined): string | null {
  return value?.sum.oneofKind === 'numeric' ? value.sum.numeric : null;
}
export function textOf(value: Value | undefined): string | null {
  return value?.sum.oneofKind === 'text' ? value.sum.text : null;
}
export function timestampOf(value: Value | undefined): string | null {
  return value?.sum.oneofKind === 'timestamp' ? microsToIso(value.sum.timestamp) : null;
}
export function int64Of(value: Value | undefined): string | null {
  return value?.sum.oneofKind === 'int64' ? value.sum.int64 : null;
}
/** Unwraps `Optional`: undefined when absent/None, the inner value otherwise (non-optional values pass through). */
export function optionalOf(value: Value | undefined): Value | undefined {
  if (value?.sum.oneofKind === 'optional') return value.sum.optional.value;
  return value;
}
export function textMapGet(value: Value | undefined, key: string): Value | undefined {
  if (value?.sum.oneofKind !== 'textMap') return undefined;
  return value.sum.textMap.entries.find((e) => e.key === key)?.value;
}

export interface FoundValue {
  path: string;
  value: string;
}

/** Walks a value and reports every party and every numeric (with its field path). */
export function scanValue(value: Value | undefined, path: string, out: { parties: Set<string>; numerics: FoundValue[] }, depth = 0): void {
  if (!value || depth > 64) return;
  const sum = value.sum;
  switch (sum.oneofKind) {
    case 'party':
      out.parties.add(sum.party);
      return;
    case 'numeric':
      out.numerics.push({ path, value: sum.numeric });
      return;
    case 'record':
      sum.record.fields.forEach((f, i) => scanValue(f.value, `${path}.${f.label || `_${i + 1}`}`, out, depth + 1));
      return;
    case 'variant':
      scanValue(sum.variant.value, `${path}.${sum.variant.constructor}`, out, depth + 1);
      return;
    case 'optional':
      scanValue(sum.optional.value, path, out, depth + 1);
      return;
    case 'list':
      sum.list.elements.forEach((e, i) => scanValue(e, `${path}[${i}]`, out, depth + 1));
      return;
    case 'textMap':
      sum.textMap.entries.forEach((e) => scanValue(e.value, `${path}[${JSON.stringify(e.key)}]`, out, depth + 1));
      return;
    case 'genMap':
      sum.genMap.entries.forEach((e, i) => {
        scanValue(e.key, `${path}{${i}}.key`, out, depth + 1);
        scanValue(e.value, `${path}{${i}}.value`, out, depth + 1);
      });
      return;
    default:
      return;
  }
}

/** "package-name:Module.Sub:Entity" (package name when known, else the package id). */
export function templateName(id: Identifier | undefined, packageName?: string): string {
  if (!id) return '(unknown template)';
  return `${packageName || id.packageId}:${id.moduleName}:${id.entityName}`;
}

/** "Module:Entity" — what policies and recognisers match on (package ids change with upgrades). */
export function qualifiedName(id: Identifier | undefined): string {
  return id ? `${id.moduleName}:${id.entityName}` : '';
}
