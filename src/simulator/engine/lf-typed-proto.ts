/**
 * Encodes normalised LF-JSON values of uploaded packages into Ledger API protobuf `Value`s driven by their Daml-LF
 * types (records, variants, enums and maps resolved across packages), so prepared transactions carry the values a
 * participant would: every record field in declaration order, variants and enums by constructor, maps as maps.
 */
import type { Value } from '@canton-network/core-ledger-proto';
import type { PackageIndex, Type } from '../../daml-lf/index.js';
import { isoToMicros } from '../clock.js';
import type { LfValue } from '../model.js';
import { identifier } from './lf-proto.js';
import { asText } from '../lf-text.js';

const v = (sum: Value['sum']): Value => ({ sum });
const unit = (): Value => v({ oneofKind: 'unit', unit: {} });

/** The i-th type argument of a primitive type (List, Optional, maps); a package that omits it is malformed. */
function typeArg(type: Extract<Type, { kind: 'prim' }>, i: number): Type {
  const t = type.args[i];
  if (t === undefined) throw new Error(`LF type ${type.prim} lacks its type argument ${i}`);
  return t;
}

export function encodeLfValue(index: PackageIndex, from: string, type: Type, value: LfValue, depth = 0): Value {
  if (depth > 64) return unit();
  const d = depth + 1;
  if (type.kind === 'prim') {
    const a0 = type.args[0];
    switch (type.prim) {
      case 'Unit':
        return unit();
      case 'Bool':
        return v({ oneofKind: 'bool', bool: value === true });
      case 'Int64':
        return v({ oneofKind: 'int64', int64: asText(value) });
      case 'Text':
        return v({ oneofKind: 'text', text: asText(value) });
      case 'Party':
        return v({ oneofKind: 'party', party: asText(value) });
      case 'Numeric':
        return v({ oneofKind: 'numeric', numeric: asText(value) });
      case 'Date':
        return v({ oneofKind: 'date', date: Math.floor(Date.parse(`${asText(value)}T00:00:00Z`) / 86_400_000) });
      case 'Timestamp':
        return v({ oneofKind: 'timestamp', timestamp: String(isoToMicros(asText(value)) ?? 0n) });
      case 'ContractId':
        return v({ oneofKind: 'contractId', contractId: asText(value) });
      case 'List':
        return v({
          oneofKind: 'list',
          list: { elements: ((value as LfValue[] | null) ?? []).map((e) => encodeLfValue(index, from, typeArg(type, 0), e, d)) },
        });
      case 'Optional': {
        if (value === null) return v({ oneofKind: 'optional', optional: {} });
        // nested optionals are normalised as [] (None) / [x] (Some x)
        if (a0?.kind === 'prim' && a0.prim === 'Optional') {
          const inner = value as LfValue[];
          return v({
            oneofKind: 'optional',
            optional: { value: encodeLfValue(index, from, a0, inner.length === 0 ? null : (inner[0] ?? null), d) },
          });
        }
        return v({ oneofKind: 'optional', optional: { value: encodeLfValue(index, from, typeArg(type, 0), value, d) } });
      }
      case 'TextMap': {
        const entries = Object.entries((value ?? {}) as { [k: string]: LfValue }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        return v({
          oneofKind: 'textMap',
          textMap: { entries: entries.map(([key, x]) => ({ key, value: encodeLfValue(index, from, typeArg(type, 0), x, d) })) },
        });
      }
      case 'GenMap':
        return v({
          oneofKind: 'genMap',
          genMap: {
            entries: ((value as LfValue[][] | null) ?? []).map(([k, x]) => ({
              key: encodeLfValue(index, from, typeArg(type, 0), k ?? null, d),
              value: encodeLfValue(index, from, typeArg(type, 1), x ?? null, d),
            })),
          },
        });
      default:
        return unit();
    }
  }
  if (type.kind !== 'con') return unit();
  const r = index.resolve(from, type);
  if (!r) return unit();
  const id = identifier(r.packageId, `${r.module}:${r.name}`);
  const dt = r.dataType;
  switch (dt.kind) {
    case 'record': {
      const rec = (value ?? {}) as Record<string, LfValue>;
      return v({
        oneofKind: 'record',
        record: {
          recordId: id,
          fields: dt.fields.map((f) => ({ label: f.name, value: encodeLfValue(index, r.packageId, f.type, rec[f.name] ?? null, d) })),
        },
      });
    }
    case 'variant': {
      const o = (value ?? {}) as { tag?: string; value?: LfValue };
      const c = dt.constructors.find((x) => x.name === o.tag);
      return v({
        oneofKind: 'variant',
        variant: {
          variantId: id,
          constructor: o.tag ?? '',
          value: c ? encodeLfValue(index, r.packageId, c.type, o.value ?? null, d) : unit(),
        },
      });
    }
    case 'enum':
      return v({ oneofKind: 'enum', enum: { enumId: id, constructor: asText(value) } });
  }
}
