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

const v = (sum: Value['sum']): Value => ({ sum });
const unit = (): Value => v({ oneofKind: 'unit', unit: {} });

export function encodeLfValue(index: PackageIndex, from: string, type: Type, value: LfValue, depth = 0): Value {
  if (depth > 64) return unit();
  const d = depth + 1;
  if (type.kind === 'prim') {
    const [a0, a1] = type.args;
    switch (type.prim) {
      case 'Unit':
        return unit();
      case 'Bool':
        return v({ oneofKind: 'bool', bool: value === true });
      case 'Int64':
        return v({ oneofKind: 'int64', int64: String(value) });
      case 'Text':
        return v({ oneofKind: 'text', text: String(value) });
      case 'Party':
        return v({ oneofKind: 'party', party: String(value) });
      case 'Numeric':
        return v({ oneofKind: 'numeric', numeric: String(value) });
      case 'Date':
        return v({ oneofKind: 'date', date: Math.floor(Date.parse(`${String(value)}T00:00:00Z`) / 86_400_000) });
      case 'Timestamp':
        return v({ oneofKind: 'timestamp', timestamp: String(isoToMicros(String(value)) ?? 0n) });
      case 'ContractId':
        return v({ oneofKind: 'contractId', contractId: String(value) });
      case 'List':
        return v({
          oneofKind: 'list',
          list: { elements: ((value as LfValue[] | null) ?? []).map((e) => encodeLfValue(index, from, a0!, e, d)) },
        });
      case 'Optional': {
        if (value === null || value === undefined) return v({ oneofKind: 'optional', optional: {} });
        // nested optionals are normalised as [] (None) / [x] (Some x)
        if (a0?.kind === 'prim' && a0.prim === 'Optional') {
          const inner = value as LfValue[];
          return v({
            oneofKind: 'optional',
            optional: { value: encodeLfValue(index, from, a0, inner.length === 0 ? null : (inner[0] ?? null), d) },
          });
        }
        return v({ oneofKind: 'optional', optional: { value: encodeLfValue(index, from, a0!, value, d) } });
      }
      case 'TextMap': {
        const entries = Object.entries((value ?? {}) as { [k: string]: LfValue }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        return v({
          oneofKind: 'textMap',
          textMap: { entries: entries.map(([key, x]) => ({ key, value: encodeLfValue(index, from, a0!, x, d) })) },
        });
      }
      case 'GenMap':
        return v({
          oneofKind: 'genMap',
          genMap: {
            entries: ((value as LfValue[][] | null) ?? []).map(([k, x]) => ({
              key: encodeLfValue(index, from, a0!, k ?? null, d),
              value: encodeLfValue(index, from, a1!, x ?? null, d),
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
          constructor: String(o.tag ?? ''),
          value: c ? encodeLfValue(index, r.packageId, c.type, o.value ?? null, d) : unit(),
        },
      });
    }
    case 'enum':
      return v({ oneofKind: 'enum', enum: { enumId: id, constructor: String(value) } });
  }
}
