/**
 * Ledger API protobuf `Value`s of uploaded packages' contract arguments, choice arguments and results, encoded from
 * their LF-JSON with the exact LF types (records, variants and enums carry the identifier of the package that defines
 * them; nested Optionals, TextMaps and GenMaps as the Ledger API encodes them), for prepared transactions.
 */
import type { Identifier, Value } from '@canton-network/core-ledger-proto';
import type { QualifiedName, Type } from '../../daml-lf/ast/ast.js';
import { isoToMicros } from '../clock.js';
import type { Defs } from './lf/defs.js';
import { EngineError } from './lf/errors.js';
import { dateFromText } from './lf/text.js';

type Json = unknown;
const v = (sum: Value['sum']): Value => ({ sum });
const ident = (q: QualifiedName): Identifier => ({ packageId: q.packageId, moduleName: q.module, entityName: q.name });
const obj = (x: Json): Record<string, Json> =>
  typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, Json>) : {};
const arr = (x: Json): Json[] => (Array.isArray(x) ? x : []);

export function encodeLfValue(defs: Defs, type: Type, json: Json, env: ReadonlyMap<string, Type> = new Map()): Value {
  const t = type.kind === 'var' ? env.get(type.name) : type;
  if (t === undefined) throw new EngineError('Internal', `unbound type variable in ${JSON.stringify(type)}`);
  if (t.kind === 'con') return encodeCon(defs, t, json, env);
  if (t.kind !== 'prim') throw new EngineError('Internal', `type ${t.kind} is not serializable`);
  const arg = (i: number): Type => t.args[i] ?? { kind: 'prim', prim: 'Unit', args: [] };
  switch (t.prim) {
    case 'Unit':
      return v({ oneofKind: 'unit', unit: {} });
    case 'Bool':
      return v({ oneofKind: 'bool', bool: json === true });
    case 'Int64':
      return v({ oneofKind: 'int64', int64: String(json) });
    case 'Numeric':
      return v({ oneofKind: 'numeric', numeric: String(json) });
    case 'Text':
      return v({ oneofKind: 'text', text: String(json) });
    case 'Party':
      return v({ oneofKind: 'party', party: String(json) });
    case 'ContractId':
      return v({ oneofKind: 'contractId', contractId: String(json) });
    case 'Date':
      return v({ oneofKind: 'date', date: dateFromText(String(json)) ?? 0 });
    case 'Timestamp':
      return v({ oneofKind: 'timestamp', timestamp: String(isoToMicros(String(json)) ?? 0n) });
    case 'List':
      return v({ oneofKind: 'list', list: { elements: arr(json).map((x) => encodeLfValue(defs, arg(0), x, env)) } });
    case 'Optional': {
      if (json === null || json === undefined) return v({ oneofKind: 'optional', optional: {} });
      const elem = arg(0);
      const nested = elem.kind === 'prim' && elem.prim === 'Optional';
      const inner = nested ? (arr(json).length === 0 ? null : arr(json)[0]) : json;
      return v({ oneofKind: 'optional', optional: { value: encodeLfValue(defs, elem, inner, env) } });
    }
    case 'TextMap': {
      const entries = Object.entries(obj(json)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return v({
        oneofKind: 'textMap',
        textMap: { entries: entries.map(([key, x]) => ({ key, value: encodeLfValue(defs, arg(0), x, env) })) },
      });
    }
    case 'GenMap':
      return v({
        oneofKind: 'genMap',
        genMap: {
          entries: arr(json).map((p) => ({
            key: encodeLfValue(defs, arg(0), arr(p)[0], env),
            value: encodeLfValue(defs, arg(1), arr(p)[1], env),
          })),
        },
      });
    default:
      throw new EngineError('Internal', `type ${t.prim} is not serializable`);
  }
}

function encodeCon(defs: Defs, t: Extract<Type, { kind: 'con' }>, json: Json, env: ReadonlyMap<string, Type>): Value {
  const dt = defs.dataType(t);
  const inner = new Map<string, Type>();
  dt.params.forEach((p, i) => {
    const a = t.args[i];
    if (a) inner.set(p.name, a.kind === 'var' ? (env.get(a.name) ?? a) : a);
  });
  const id = ident(t);
  const c = dt.cons;
  switch (c.kind) {
    case 'record': {
      const o = obj(json);
      return v({
        oneofKind: 'record',
        record: {
          recordId: id,
          fields: c.fields.map((f) => ({ label: f.name, value: encodeLfValue(defs, f.type, o[f.name] ?? null, inner) })),
        },
      });
    }
    case 'variant': {
      const o = obj(json);
      const tag = String(o['tag']);
      const ctor = c.constructors.find((x) => x.name === tag);
      return v({
        oneofKind: 'variant',
        variant: {
          variantId: id,
          constructor: tag,
          value: ctor ? encodeLfValue(defs, ctor.type, o['value'] ?? null, inner) : v({ oneofKind: 'unit', unit: {} }),
        },
      });
    }
    case 'enum':
      return v({ oneofKind: 'enum', enum: { enumId: id, constructor: String(json) } });
    case 'interface':
      throw new EngineError('Internal', `interface ${id.entityName} values are not serializable`);
  }
}

const qnOf = (id: string): QualifiedName => {
  const [packageId = '', module = '', name = ''] = id.split(':');
  return { packageId, module, name };
};

/** The create argument of a contract of an uploaded package, as a protobuf Value. */
export function lfCreateArgument(defs: Defs, node: { packageId: string; qualifiedName: string; createArgument: unknown }): Value {
  return encodeLfValue(defs, { kind: 'con', ...qnOf(`${node.packageId}:${node.qualifiedName}`), args: [] }, node.createArgument);
}

/** Choice argument and result of an exercise on a contract of an uploaded package (template or interface choice). */
export function lfExerciseValues(
  defs: Defs,
  node: {
    packageId: string;
    qualifiedName: string;
    interfaceId?: string;
    choice: string;
    choiceArgument: unknown;
    exerciseResult: unknown;
  },
): { chosenValue: Value; exerciseResult: Value; interfaceId?: Identifier } {
  const iface = node.interfaceId ? qnOf(node.interfaceId) : undefined;
  const choices = iface ? defs.iface(iface).def.choices : defs.template(qnOf(`${node.packageId}:${node.qualifiedName}`)).def.choices;
  const ch = choices.find((c) => c.name === node.choice);
  if (!ch) throw new EngineError('Internal', `unknown choice ${node.choice}`);
  return {
    chosenValue: encodeLfValue(defs, ch.argBinder.type, node.choiceArgument),
    exerciseResult: encodeLfValue(defs, ch.returnType, node.exerciseResult),
    ...(iface ? { interfaceId: ident(iface) } : {}),
  };
}
