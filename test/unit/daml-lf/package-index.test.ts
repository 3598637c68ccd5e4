import { describe, expect, it } from 'vitest';
import {
  PackageIndex,
  absolutizeType,
  buildDar,
  encodeArchive,
  readDar,
  type PackageDescription,
  type Type,
} from '../../../src/daml-lf/index.js';
import { PARTY, TEXT, iouPackage, list, numeric, optional } from './fixtures.js';

const varT = (name: string): Type => ({ kind: 'var', name, args: [] });

const dep: PackageDescription = {
  name: 'common',
  version: '1.0.0',
  modules: [
    {
      name: 'Common',
      dataTypes: [
        {
          kind: 'record',
          name: 'Tagged',
          params: ['a'],
          fields: [
            { name: 'tag', type: TEXT },
            { name: 'value', type: varT('a') },
          ],
        },
        {
          kind: 'variant',
          name: 'Status',
          constructors: [
            { name: 'Open', type: { kind: 'prim', prim: 'Unit', args: [] } },
            { name: 'Closed', type: TEXT },
          ],
        },
      ],
    },
  ],
};
const depId = encodeArchive(dep).packageId;
const main: PackageDescription = {
  name: 'app',
  version: '1.0.0',
  modules: [
    {
      name: 'App',
      dataTypes: [{ kind: 'enum', name: 'Kind', constructors: ['Small', 'Large'] }],
      templates: [
        {
          name: 'Order',
          fields: [
            { name: 'owner', type: PARTY },
            { name: 'qty', type: { kind: 'con', packageId: depId, module: 'Common', name: 'Tagged', args: [numeric(4)] } },
            { name: 'status', type: { kind: 'con', packageId: depId, module: 'Common', name: 'Status', args: [] } },
            { name: 'kind', type: { kind: 'con', packageId: 'self', module: 'App', name: 'Kind', args: [] } },
            { name: 'notes', type: list(TEXT) },
            { name: 'due', type: optional({ kind: 'prim', prim: 'Date', args: [] }) },
          ],
          choices: [
            {
              name: 'Fill',
              argFields: [
                { name: 'by', type: PARTY },
                { name: 'at', type: { kind: 'prim', prim: 'Timestamp', args: [] } },
              ],
            },
          ],
        },
      ],
    },
  ],
};

describe('PackageIndex over the packages of a DAR', () => {
  const dar = readDar(buildDar(main, [dep]).bytes);
  const index = new PackageIndex(dar.packages);
  const appId = dar.main.packageId;

  it('finds templates by id and resolves parameterised records of another package with arguments substituted', () => {
    const found = index.template(`${appId}:App:Order`);
    expect(found?.template.fields.map((f) => f.name)).toEqual(['owner', 'qty', 'status', 'kind', 'notes', 'due']);
    const qty = found?.template.fields[1]?.type;
    if (qty?.kind !== 'con') throw new Error('expected a con type');
    const r = index.resolve(appId, qty);
    expect(r).toEqual({
      packageId: depId,
      module: 'Common',
      name: 'Tagged',
      dataType: {
        kind: 'record',
        name: 'Tagged',
        params: ['a'],
        serializable: true,
        fields: [
          { name: 'tag', type: TEXT },
          { name: 'value', type: numeric(4) },
        ],
      },
    });
    expect(index.template(`${appId}:App:Nope`)).toBeUndefined();
    expect(index.resolve(appId, { kind: 'con', packageId: 'f'.repeat(64), module: 'X', name: 'Y', args: [] })).toBeUndefined();
  });

  it('builds example create and choice arguments in the JSON API value encoding', () => {
    const order = index.template(`${appId}:App:Order`);
    expect(index.exampleValue(appId, { kind: 'con', packageId: 'self', module: 'App', name: 'Order', args: [] })).toEqual({
      owner: '',
      qty: { tag: '', value: '0.0000' },
      status: { tag: 'Open', value: {} },
      kind: 'Small',
      notes: [],
      due: null,
    });
    const fill = order?.template.choices[0];
    expect(fill && index.exampleValue(appId, fill.argType)).toEqual({ by: '', at: '1970-01-01T00:00:00Z' });
  });

  it('reports transitive dependencies missing from the index', () => {
    expect(index.missingDependencies(appId)).toEqual([]);
    const partial = new PackageIndex([dar.main]);
    expect(partial.missingDependencies(appId)).toEqual([depId]);
  });

  it('lists the templates implementing an interface and makes self references absolute', () => {
    const iou = readDar(buildDar(iouPackage()).bytes).main;
    const idx = new PackageIndex([iou]);
    expect(idx.implementationsOf(`${iou.packageId}:Iou.Holding:Holding`)).toEqual([`${iou.packageId}:Iou.Main:Iou`]);
    expect(idx.interface(`${iou.packageId}:Iou.Holding:Holding`)?.iface.viewFields?.map((f) => f.name)).toEqual(['owner', 'amount']);
    expect(absolutizeType(optional({ kind: 'con', packageId: 'self', module: 'M', name: 'T', args: [] }), 'abc')).toEqual(
      optional({ kind: 'con', packageId: 'abc', module: 'M', name: 'T', args: [] }),
    );
  });
});
