/**
 * Template and interface definitions from the participant's packages: `GET /v2/packages` lists the
 * ids, `GET /v2/packages/{id}` returns each Daml-LF archive, decoded here with `src/daml-lf`
 * (hash verified). Field types are resolved across packages with `PackageIndex` and converted to the
 * contract's `FieldType`, which is all the renderer needs to build create/exercise forms.
 *
 * Decoding and its cache (package ids are content hashes) are shared with the Packages service
 * (`./packages.ts`).
 */
import { PackageIndex, typeToString, type PackageSummary, type Type, type Choice } from '../../daml-lf/index.js';
import type { ChoiceDef, FieldType, InterfaceDef, TemplateCatalog, TemplateDef } from '../../ipc/contract.js';
import { ConsoleError } from '../../ipc/errors.js';
import type { LedgerClient } from '../ledger-client.js';
import { decodedPackage } from './package-cache.js';

/** At most this many packages are fetched at once. */
const FETCH_CONCURRENCY = 8;
/** Nesting deeper than this is left to the JSON editor. */
const MAX_DEPTH = 12;

export interface CatalogResult {
  catalog: TemplateCatalog;
  index: PackageIndex;
}

/** Decoded through the Packages service's cache (one fetch and decode per package id for the whole console). */
async function fetchPackage(client: LedgerClient, packageId: string): Promise<PackageSummary> {
  const d = await decodedPackage(client, packageId);
  if (!d.summary) throw new ConsoleError('LEDGER_API_ERROR', `package ${packageId.slice(0, 12)}…: ${d.error ?? 'not decodable'}`);
  return d.summary;
}

/** Every package of the participant, decoded; unreadable ones are reported in `problems`. */
export async function loadCatalog(client: LedgerClient): Promise<CatalogResult> {
  const list = await client.read(client.api.GET('/v2/packages'));
  const ids = [...new Set(list.packageIds)];
  const summaries: PackageSummary[] = [];
  const problems: TemplateCatalog['problems'] = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++] as string;
      try {
        summaries.push(await fetchPackage(client, id));
      } catch (err) {
        problems.push({ packageId: id, message: err instanceof Error ? err.message : String(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, ids.length) }, worker));
  const index = new PackageIndex(summaries);
  return { catalog: buildCatalog(index, problems), index };
}

/** Templates and interfaces of the indexed packages, field types resolved. */
export function buildCatalog(index: PackageIndex, problems: TemplateCatalog['problems'] = []): TemplateCatalog {
  const templates: TemplateDef[] = [];
  const interfaces: InterfaceDef[] = [];
  const pkgs = index.packages.sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
  for (const pkg of pkgs) {
    for (const m of pkg.modules) {
      for (const t of m.templates) {
        const id = `${pkg.packageId}:${m.name}:${t.name}`;
        const choices: ChoiceDef[] = t.choices.map((c) => choiceDef(index, pkg.packageId, c, null));
        // Interface choices are exercised on the contract with the interface id as templateId.
        for (const ifaceId of t.implements) {
          const found = index.interface(ifaceId);
          if (!found) continue;
          for (const c of found.iface.choices) choices.push(choiceDef(index, found.pkg.packageId, c, ifaceId));
        }
        templates.push({
          id,
          nameRef: pkg.name ? `#${pkg.name}:${m.name}:${t.name}` : id,
          qualifiedName: `${m.name}:${t.name}`,
          packageId: pkg.packageId,
          packageName: pkg.name,
          packageVersion: pkg.version,
          argument: toFieldType(index, pkg.packageId, { kind: 'con', packageId: 'self', module: m.name, name: t.name, args: [] }),
          key: t.key ? toFieldType(index, pkg.packageId, t.key) : null,
          choices: choices.sort((a, b) => Number(a.name === 'Archive') - Number(b.name === 'Archive') || a.name.localeCompare(b.name)),
          implements: t.implements,
        });
      }
      for (const i of m.interfaces) {
        const id = `${pkg.packageId}:${m.name}:${i.name}`;
        interfaces.push({
          id,
          nameRef: pkg.name ? `#${pkg.name}:${m.name}:${i.name}` : id,
          qualifiedName: `${m.name}:${i.name}`,
          packageName: pkg.name,
          view: toFieldType(index, pkg.packageId, i.viewType),
          choices: i.choices.map((c) => choiceDef(index, pkg.packageId, c, id)),
          implementations: index.implementationsOf(id),
        });
      }
    }
  }
  return {
    templates,
    interfaces,
    packages: pkgs.map((p) => ({ packageId: p.packageId, name: p.name, version: p.version, lfVersion: p.lfVersion })),
    problems,
  };
}

function choiceDef(index: PackageIndex, from: string, c: Choice, interfaceId: string | null): ChoiceDef {
  return {
    name: c.name,
    consuming: c.consuming,
    argument: toFieldType(index, from, c.argType),
    returnType: typeToString(c.returnType),
    interfaceId,
  };
}

/** `pkg:Module:Entity` of a `con` type seen from `from`. */
function conName(from: string, t: Extract<Type, { kind: 'con' }>): string {
  return `${t.packageId === 'self' ? from : t.packageId}:${t.module}:${t.name}`;
}

/**
 * Converts an LF type (seen from package `from`) to the form's FieldType, resolving type constructors
 * across packages. A data type that contains itself is cut at its second occurrence.
 */
export function toFieldType(index: PackageIndex, from: string, t: Type, stack: string[] = []): FieldType {
  if (stack.length > MAX_DEPTH) return { kind: 'unsupported', description: 'nested too deeply for the form' };
  switch (t.kind) {
    case 'prim': {
      const arg = (i: number): Type | undefined => t.args[i];
      const sub = (i: number): FieldType => {
        const a = arg(i);
        return a ? toFieldType(index, from, a, stack) : { kind: 'unsupported', description: `${t.prim} without argument` };
      };
      switch (t.prim) {
        case 'Unit':
          return { kind: 'unit' };
        case 'Bool':
          return { kind: 'bool' };
        case 'Text':
          return { kind: 'text' };
        case 'Int64':
          return { kind: 'int64' };
        case 'Numeric': {
          const a = arg(0);
          return { kind: 'numeric', scale: a?.kind === 'nat' ? a.value : 10 };
        }
        case 'Party':
          return { kind: 'party' };
        case 'Date':
          return { kind: 'date' };
        case 'Timestamp':
          return { kind: 'timestamp' };
        case 'ContractId': {
          const a = arg(0);
          return { kind: 'contractId', template: a?.kind === 'con' ? conName(from, a) : null };
        }
        case 'Optional':
          return { kind: 'optional', elem: sub(0) };
        case 'List':
          return { kind: 'list', elem: sub(0) };
        case 'TextMap':
          return { kind: 'textMap', elem: sub(0) };
        case 'GenMap':
          return { kind: 'genMap', key: sub(0), value: sub(1) };
        default:
          return { kind: 'unsupported', description: typeToString(t) };
      }
    }
    case 'con': {
      const name = conName(from, t);
      if (stack.includes(name)) return { kind: 'unsupported', description: `recursive type ${t.module}:${t.name}` };
      const r = index.resolve(from, t);
      if (!r) return { kind: 'unsupported', description: `unknown type ${name} (package not loaded)` };
      const inner = [...stack, name];
      const label = `${r.module}:${r.name}`;
      const d = r.dataType;
      if (d.kind === 'record')
        return {
          kind: 'record',
          name: label,
          fields: d.fields.map((f) => ({ name: f.name, type: toFieldType(index, r.packageId, f.type, inner) })),
        };
      if (d.kind === 'variant')
        return {
          kind: 'variant',
          name: label,
          constructors: d.constructors.map((f) => ({ name: f.name, type: toFieldType(index, r.packageId, f.type, inner) })),
        };
      return { kind: 'enum', name: label, constructors: [...d.constructors] };
    }
    default:
      return { kind: 'unsupported', description: typeToString(t) };
  }
}
