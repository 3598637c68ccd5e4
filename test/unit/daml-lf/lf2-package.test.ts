/** LF2 packages: encodeArchive → readDalf round trips, package ids, dependencies, and description checks. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ProtoReader,
  decodeLf2Package,
  encodeArchive,
  encodePackage,
  readArchive,
  readDalf,
  typeToString,
  type PackageDescription,
  type PackageSummary,
  type Type,
} from '../../../src/daml-lf/index.js';
import { INT64, PARTY, TEXT, codeOf, contractId, iouPackage, numeric, self } from './fixtures.js';

function summaryOf(internTypes: boolean): PackageSummary {
  return readDalf(encodeArchive(iouPackage({ internTypes })).bytes);
}

describe('LF2 package round trip (encodeArchive → readDalf)', () => {
  for (const internTypes of [true, false]) {
    describe(internTypes ? 'with interned types' : 'with inline types', () => {
      const pkg = summaryOf(internTypes);
      const main = pkg.modules.find((m) => m.name === 'Iou.Main');
      const holdingMod = pkg.modules.find((m) => m.name === 'Iou.Holding');
      const iou = main?.templates.find((t) => t.name === 'Iou');

      it('keeps package metadata and LF version', () => {
        expect(pkg.name).toBe('iou-model');
        expect(pkg.version).toBe('1.0.0');
        expect(pkg.lfVersion).toBe('2.1');
        expect(pkg.modules.map((m) => m.name)).toEqual(['Iou.Holding', 'Iou.Main']);
        expect(pkg.dependencies).toEqual([]);
      });

      it('decodes template fields with Numeric/Optional/List/ContractId/enum types, key and implements', () => {
        expect(iou?.qualifiedName).toBe('Iou.Main:Iou');
        expect(iou?.fields.map((f) => `${f.name}: ${typeToString(f.type)}`)).toEqual([
          'issuer: Party',
          'owner: Party',
          'amount: Numeric 10',
          'currency: Iou.Main:Currency',
          'observers: [Party]',
          'note: Optional Text',
          'previous: Optional (ContractId Iou.Main:Iou)',
        ]);
        expect(iou?.key).toEqual({ kind: 'prim', prim: 'Party', args: [] });
        expect(iou?.implements).toEqual([`${pkg.packageId}:Iou.Holding:Holding`]);
      });

      it('decodes choices with consuming flag, argument/return types and argument fields (type parameters substituted)', () => {
        const byName = new Map(iou?.choices.map((c) => [c.name, c]));
        expect([...byName.keys()]).toEqual(['Transfer', 'Split', 'Swap', 'Archive', 'Peek']);
        expect(byName.get('Transfer')).toEqual({
          name: 'Transfer',
          consuming: true,
          argType: self('Iou.Main', 'Transfer'),
          returnType: contractId(self('Iou.Main', 'Iou')),
          argFields: [{ name: 'newOwner', type: PARTY }],
        });
        expect(typeToString(byName.get('Split')?.returnType as Type)).toBe(
          'Iou.Main:Pair (ContractId Iou.Main:Iou) (ContractId Iou.Main:Iou)',
        );
        expect(byName.get('Swap')?.argFields).toEqual([
          { name: 'fst', type: PARTY },
          { name: 'snd', type: INT64 },
        ]);
        expect(byName.get('Archive')?.argFields).toEqual([]);
        expect(byName.get('Peek')?.consuming).toBe(false);
        expect(typeToString(byName.get('Peek')?.returnType as Type)).toBe('TextMap (Numeric 10)');
      });

      it('decodes interfaces: view type and fields, choices, methods', () => {
        const holding = holdingMod?.interfaces[0];
        expect(holding?.qualifiedName).toBe('Iou.Holding:Holding');
        expect(holding?.viewType).toEqual(self('Iou.Holding', 'HoldingView'));
        expect(holding?.viewFields).toEqual([
          { name: 'owner', type: PARTY },
          { name: 'amount', type: numeric(10) },
        ]);
        expect(holding?.choices.map((c) => [c.name, c.consuming, typeToString(c.returnType)])).toEqual([
          ['Holding_Describe', false, 'Text'],
        ]);
        expect(holding?.methods).toEqual([{ name: 'describe', type: TEXT }]);
        // the interface marker data type is not listed as a data type
        expect(holdingMod?.dataTypes.map((d) => d.name)).toEqual(['HoldingView', 'Holding_Describe']);
      });

      it('decodes records (with params), variants, enums and exceptions', () => {
        const dts = new Map(main?.dataTypes.map((d) => [d.name, d]));
        expect(dts.get('Currency')).toEqual({
          kind: 'enum',
          name: 'Currency',
          params: [],
          serializable: true,
          constructors: ['USD', 'EUR', 'CHF'],
        });
        expect(dts.get('Settlement')).toEqual({
          kind: 'variant',
          name: 'Settlement',
          params: [],
          serializable: true,
          constructors: [
            { name: 'Cash', type: numeric(10) },
            { name: 'Delivery', type: contractId(self('Iou.Main', 'Iou')) },
          ],
        });
        expect(dts.get('Pair')).toMatchObject({ kind: 'record', params: ['a', 'b'] });
        expect(main?.exceptions).toEqual(['InsufficientFunds']);
      });
    });
  }

  it('interning shrinks the package and both encodings decode to the same summary (apart from the id)', () => {
    const interned = encodePackage(iouPackage({ internTypes: true }));
    const inline = encodePackage(iouPackage({ internTypes: false }));
    expect(interned.length).toBeLessThan(inline.length);
    const a = { ...decodeLf2Package(interned, 'x', { lfVersion: '2.1' }) };
    const b = { ...decodeLf2Package(inline, 'x', { lfVersion: '2.1' }) };
    expect(a).toEqual(b);
  });

  it('package id = SHA-256 of the payload (checked with node:crypto) and equals Archive.hash', () => {
    const enc = encodeArchive(iouPackage());
    const a = readArchive(enc.bytes);
    expect(a.packageId).toBe(createHash('sha256').update(a.payload).digest('hex'));
    expect(a.packageId).toBe(enc.packageId);
    expect(a).toMatchObject({ hashFunction: 'SHA256', lfMajor: 2, lfMinor: '1', lfPatch: 0 });
  });

  it('records cross-package references as dependencies and qualifies implements with their package id', () => {
    const dep = 'a'.repeat(64);
    const pkg = readDalf(
      encodeArchive({
        name: 'uses-dep',
        version: '0.1.0',
        modules: [
          {
            name: 'M',
            templates: [
              {
                name: 'T',
                fields: [
                  { name: 'p', type: PARTY },
                  { name: 'h', type: { kind: 'con', packageId: dep, module: 'Other', name: 'Rec', args: [] } },
                ],
                implements: [`${dep}:Splice.Api:Holding`],
              },
            ],
          },
        ],
      }).bytes,
    );
    expect(pkg.dependencies).toEqual([dep]);
    expect(pkg.modules[0]?.templates[0]?.implements).toEqual([`${dep}:Splice.Api:Holding`]);
    expect(pkg.modules[0]?.templates[0]?.fields[1]?.type).toMatchObject({ kind: 'con', packageId: dep, module: 'Other', name: 'Rec' });
  });
});

/**
 * Hand-written LF2 packages exercising encodings the encoder does not produce: Type.TApp, package_imports +
 * package_import_id, unpacked dotted-name segments, Type.Syn / Forall / Struct, an upgraded_package_id.
 */

describe('encodeArchive / encodePackage descriptions', () => {
  it('is deterministic: the same description always yields the same package id', () => {
    expect(encodeArchive(iouPackage()).packageId).toBe(encodeArchive(iouPackage()).packageId);
    expect(encodeArchive(iouPackage({ version: '1.0.1' })).packageId).not.toBe(encodeArchive(iouPackage()).packageId);
  });

  it('rejects inconsistent descriptions with INVALID_DESCRIPTION', () => {
    const base = iouPackage();
    const bad: PackageDescription[] = [
      { ...base, name: 'has space' },
      { ...base, version: '1.0-beta' },
      { ...base, modules: [...base.modules, { name: 'Iou.Main' }] },
      {
        ...base,
        modules: [{ name: 'M', templates: [{ name: 'T', fields: [], choices: [{ name: 'C', argType: PARTY, argFields: [] }] }] }],
      },
      { ...base, modules: [{ name: 'M', dataTypes: [{ kind: 'record', name: 'T', fields: [] }], templates: [{ name: 'T', fields: [] }] }] },
      { ...base, modules: [{ name: 'M', templates: [{ name: 'T', fields: [], implements: ['NoColon'] }] }] },
      { ...base, modules: [{ name: 'M..N' }] },
    ];
    for (const d of bad)
      expect(
        codeOf(() => encodeArchive(d)),
        JSON.stringify(d).slice(0, 120),
      ).toBe('INVALID_DESCRIPTION');
  });

  it('LF 2.dev uses the flat encoding (Type.TApp) and decodes to the same summary as LF 2.1', () => {
    const v21 = readDalf(encodeArchive(iouPackage()).bytes);
    const dev = readDalf(encodeArchive(iouPackage({ lfMinor: 'dev' })).bytes);
    expect(dev.lfVersion).toBe('2.dev');
    const strip = (p: PackageSummary): unknown => JSON.parse(JSON.stringify(p.modules).split(p.packageId).join('<self>'));
    expect(strip(dev)).toEqual(strip(v21));
    // The 2.dev interned type table holds TApp nodes (Type field 9) and no Builtin/Con with args.
    const pkg = encodePackage(iouPackage({ lfMinor: 'dev' }));
    const kinds = new Set<number>();
    const r = new ProtoReader(pkg, 'MALFORMED_PACKAGE', 'Package');
    while (!r.done) {
      const t = r.tag();
      if (t.field !== 5) {
        r.skip(t.wireType);
        continue;
      }
      const ty = r.message('Type');
      while (!ty.done) {
        const tt = ty.tag();
        kinds.add(tt.field);
        if (tt.field === 2 || tt.field === 3) {
          const inner = ty.message('inner');
          while (!inner.done) {
            const it2 = inner.tag();
            expect(it2.field).not.toBe(2); // no flattened args (Con.args / Builtin.args = 2)
            inner.skip(it2.wireType);
          }
        } else ty.skip(tt.wireType);
      }
    }
    expect(kinds.has(9)).toBe(true);
  });
});
