/**
 * The simulator's built-in token-standard API packages against the real ones (../shared/reference/dars, must exist):
 * the archives the simulator serves (`GET /v2/packages/{id}`) and the real DALFs are decoded with src/daml-lf and
 * compared field by field — every data type (records, variants, their fields / constructors and types), every
 * interface (view type, choices with consuming flag, argument and result types), no templates — with type
 * constructors compared by package name, module and entity (the package ids differ by design). Interface methods are
 * implementation detail of the real archives and are not compared. The two stable stdlib packages the APIs refer to
 * (`DA.Internal.Template:Archive`, `DA.Time.Types:RelTime`) are compared the same way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDalf, readDar } from '../../../src/daml-lf/index.js';
import type { PackageSummary, Type } from '../../../src/daml-lf/index.js';
import { call, referenceDir, startTestSim } from './helpers.js';
import type { TestSim } from './helpers.js';

const API_PACKAGES = [
  'splice-api-token-metadata-v1',
  'splice-api-token-holding-v1',
  'splice-api-token-transfer-instruction-v1',
  'splice-api-token-allocation-v1',
  'splice-api-token-allocation-instruction-v1',
  'splice-api-token-allocation-request-v1',
  'ghc-stdlib-DA-Internal-Template',
  'daml-stdlib-DA-Time-Types',
];
const INTERFACES = [
  'Holding',
  'TransferFactory',
  'TransferInstruction',
  'AllocationFactory',
  'Allocation',
  'AllocationRequest',
  'AllocationInstruction',
];

/** A type as text with constructors named by package name (not id). */
function canon(t: Type, owner: string, nameOf: (id: string) => string): string {
  const args = (xs: Type[]): string => (xs.length === 0 ? '' : `(${xs.map((x) => canon(x, owner, nameOf)).join(', ')})`);
  switch (t.kind) {
    case 'prim':
      return `${t.prim}${args(t.args)}`;
    case 'con':
      return `${nameOf(t.packageId === 'self' ? owner : t.packageId)}:${t.module}:${t.name}${args(t.args)}`;
    case 'nat':
      return String(t.value);
    case 'var':
      return `${t.name}${args(t.args)}`;
    default:
      return JSON.stringify(t);
  }
}

interface Shape {
  dataTypes: Record<string, string>;
  interfaces: Record<string, { view: string; choices: string[] }>;
  templates: string[];
}

function shapeOf(p: PackageSummary, nameOf: (id: string) => string): Shape {
  const c = (t: Type): string => canon(t, p.packageId, nameOf);
  const out: Shape = { dataTypes: {}, interfaces: {}, templates: [] };
  for (const m of p.modules) {
    for (const d of m.dataTypes) {
      const body =
        d.kind === 'enum'
          ? d.constructors.join(' | ')
          : (d.kind === 'record' ? d.fields : d.constructors).map((f) => `${f.name}: ${c(f.type)}`).join('; ');
      out.dataTypes[`${m.name}:${d.name}`] = `${d.kind}<${d.params.join(',')}> ${body}`;
    }
    for (const i of m.interfaces)
      out.interfaces[i.qualifiedName] = {
        view: c(i.viewType),
        choices: i.choices.map((ch) => `${ch.name} consuming=${ch.consuming} ${c(ch.argType)} -> ${c(ch.returnType)}`).sort(),
      };
    for (const t of m.templates) out.templates.push(t.qualifiedName);
  }
  return out;
}

let sim: TestSim;
const real = new Map<string, PackageSummary>();
const realNames = new Map<string, string>();
const builtin = new Map<string, PackageSummary>();
const builtinNames = new Map<string, string>();

beforeAll(async () => {
  const dir = path.join(referenceDir, 'dars');
  const files = readdirSync(dir).filter((f) => f.startsWith('splice-api-token-') && f.endsWith('.dar'));
  expect(files.length).toBe(6);
  for (const f of files)
    for (const p of readDar(new Uint8Array(readFileSync(path.join(dir, f)))).packages) {
      realNames.set(p.packageId, p.name);
      if (API_PACKAGES.includes(p.name)) real.set(p.name, p);
    }
  sim = await startTestSim();
  const ids = ((await call(sim.url, 'GET', '/v2/packages')).json as { packageIds: string[] }).packageIds;
  for (const id of ids) {
    const res = await fetch(`${sim.url}/v2/packages/${id}`);
    const s = readDalf(new Uint8Array(await res.arrayBuffer()));
    builtinNames.set(id, s.name);
    if (API_PACKAGES.includes(s.name)) builtin.set(s.name, s);
  }
});
afterAll(async () => {
  await sim.dispose();
});

describe('built-in token-standard packages = the real ones', () => {
  it('the simulator has every API package (and the stdlib ones) with the real name and version', () => {
    for (const name of API_PACKAGES) {
      expect(real.get(name), `${name} in the reference DARs`).toBeDefined();
      expect(builtin.get(name), `${name} built in`).toBeDefined();
      expect(builtin.get(name)?.version).toBe(real.get(name)?.version);
    }
  });

  it.each(API_PACKAGES)('%s: data types, interfaces, views and choices match field by field', (name) => {
    const r = shapeOf(real.get(name) as PackageSummary, (id) => realNames.get(id) ?? id);
    const b = shapeOf(builtin.get(name) as PackageSummary, (id) => builtinNames.get(id) ?? id);
    expect(b.templates).toEqual(r.templates);
    expect(Object.keys(b.dataTypes).sort()).toEqual(Object.keys(r.dataTypes).sort());
    for (const [k, v] of Object.entries(r.dataTypes)) expect(b.dataTypes[k], k).toBe(v);
    expect(b.interfaces).toEqual(r.interfaces);
  });

  it('all seven interfaces are there, with ExtraArgs / ChoiceContext / Metadata', () => {
    const all = [...builtin.values()].flatMap((p) => p.modules.flatMap((m) => m.interfaces.map((i) => i.name)));
    for (const i of INTERFACES) expect(all).toContain(i);
    const meta = builtin.get('splice-api-token-metadata-v1') as PackageSummary;
    const types = meta.modules.flatMap((m) => m.dataTypes.map((d) => d.name));
    for (const t of ['ExtraArgs', 'ChoiceContext', 'Metadata', 'AnyValue', 'ChoiceExecutionMetadata']) expect(types).toContain(t);
  });
});
