/** Encodes normalised LF-JSON values into Ledger API protobuf `Value`s, driven by the field types. */
import type { Identifier, Value } from '@canton-network/core-ledger-proto';
import { isoToMicros } from '../clock.js';
import type { LfValue } from '../model.js';
import type { FieldDef, FieldType } from '../packages/types.js';
import { asText } from '../lf-text.js';

const v = (sum: Value['sum']): Value => ({ sum });

/** `Module.Name:Entity` → Identifier in `packageId`. */
export function identifier(packageId: string, qualifiedName: string): Identifier {
  const i = qualifiedName.lastIndexOf(':');
  return { packageId, moduleName: qualifiedName.slice(0, i), entityName: qualifiedName.slice(i + 1) };
}

/** Package id of a built-in package by name (the home of record and variant types defined in another package). */
export type PackageIdOf = (packageName: string) => string;

export function encodeRecord(packageId: string, recordName: string, fields: FieldDef[], value: LfValue, idOf?: PackageIdOf): Value {
  const rec = (value ?? {}) as Record<string, LfValue>;
  return v({
    oneofKind: 'record',
    record: {
      recordId: identifier(packageId, recordName),
      fields: fields.map((f) => ({ label: f.name, value: encodeValue(packageId, f.type, rec[f.name] ?? null, idOf) })),
    },
  });
}

/** Values of types defined in another built-in package carry that package's id (and so do the values inside them). */
const homeOf = (packageId: string, pkg: string | undefined, idOf: PackageIdOf | undefined): string =>
  pkg !== undefined && idOf !== undefined ? idOf(pkg) : packageId;

export function encodeValue(packageId: string, type: FieldType, value: LfValue, idOf?: PackageIdOf): Value {
  switch (type.kind) {
    case 'Party':
      return v({ oneofKind: 'party', party: asText(value) });
    case 'Text':
      return v({ oneofKind: 'text', text: asText(value) });
    case 'Int64':
      return v({ oneofKind: 'int64', int64: asText(value) });
    case 'Numeric':
      return v({ oneofKind: 'numeric', numeric: asText(value) });
    case 'Bool':
      return v({ oneofKind: 'bool', bool: value === true });
    case 'Time':
      return v({ oneofKind: 'timestamp', timestamp: String(isoToMicros(asText(value)) ?? 0n) });
    case 'Date':
      return v({ oneofKind: 'date', date: Math.floor(Date.parse(`${asText(value)}T00:00:00Z`) / 86_400_000) });
    case 'Unit':
      return v({ oneofKind: 'unit', unit: {} });
    case 'ContractId':
      return v({ oneofKind: 'contractId', contractId: asText(value) });
    case 'List':
      return v({
        oneofKind: 'list',
        list: { elements: ((value as LfValue[] | null) ?? []).map((e) => encodeValue(packageId, type.elem, e, idOf)) },
      });
    case 'Optional': {
      if (value === null) return v({ oneofKind: 'optional', optional: {} });
      if (type.elem.kind === 'Optional') {
        const inner = value as LfValue[];
        return v({
          oneofKind: 'optional',
          optional: {
            value:
              inner.length === 0 ? v({ oneofKind: 'optional', optional: {} }) : encodeValue(packageId, type.elem, inner[0] ?? null, idOf),
          },
        });
      }
      return v({ oneofKind: 'optional', optional: { value: encodeValue(packageId, type.elem, value, idOf) } });
    }
    case 'TextMap': {
      const entries = Object.entries((value ?? {}) as { [k: string]: LfValue }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return v({
        oneofKind: 'textMap',
        textMap: { entries: entries.map(([key, x]) => ({ key, value: encodeValue(packageId, type.elem, x, idOf) })) },
      });
    }
    case 'GenMap':
      return v({
        oneofKind: 'genMap',
        genMap: {
          entries: ((value as LfValue[][] | null) ?? []).map(([k, x]) => ({
            key: encodeValue(packageId, type.key, k ?? null, idOf),
            value: encodeValue(packageId, type.value, x ?? null, idOf),
          })),
        },
      });
    case 'Variant': {
      const home = homeOf(packageId, type.package, idOf);
      const o = (value ?? {}) as { tag?: string; value?: LfValue };
      const c = type.constructors.find((x) => x.name === o.tag);
      return v({
        oneofKind: 'variant',
        variant: {
          variantId: identifier(home, type.name),
          constructor: o.tag ?? '',
          value: c ? encodeValue(home, c.type, o.value ?? null, idOf) : v({ oneofKind: 'unit', unit: {} }),
        },
      });
    }
    case 'Record':
      return encodeRecord(homeOf(packageId, type.package, idOf), type.name, type.fields, value, idOf);
  }
}
