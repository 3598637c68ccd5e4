import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DamlLfError,
  ProtoReader,
  ProtoWriter,
  decodeLf2Package,
  encodeArchive,
  encodePackage,
  readArchive,
  readDalf,
  typeToString,
  wrapArchive,
  type PackageDescription,
  type PackageSummary,
  type Type,
} from '../../../src/daml-lf/index.js';
import { INT64, PARTY, TEXT, contractId, iouPackage, numeric, optional, self } from './fixtures.js';

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof DamlLfError) return e.code;
    throw e;
  }
  return 'no error';
}

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
describe('LF2 decoder on hand-written encodings', () => {
  const strings = ['pkg', '1.2.3', 'Main', 'T', 'owner', 'amount', 'x', 'Syn', 'f', 'b'.repeat(64), 'c'.repeat(64), 'Dep'];
  // dotted names: 0 = Main, 1 = T, 2 = Syn, 3 = Dep
  const dname = (w: ProtoWriter, segs: number[], packed: boolean): void => {
    w.message(3, (d) => {
      if (packed) d.packedInt32(1, segs);
      else for (const s of segs) d.int(1, s);
    });
  };
  const selfModule = (w: ProtoWriter): void => {
    w.message(1, (m) => m.message(1, (p) => p.message(1, () => {})).int(2, 0));
  };
  const builtin = (w: ProtoWriter, code: number, ...args: ((w: ProtoWriter) => void)[]): void => {
    w.message(3, (b) => {
      if (code !== 0) b.int(1, code);
      for (const a of args) b.message(2, a);
    });
  };

  function build(
    extra: { internedTypes?: ((w: ProtoWriter) => void)[]; fields?: [number, (w: ProtoWriter) => void][]; imports?: string[] } = {},
  ): Uint8Array {
    const w = new ProtoWriter();
    w.message(1, (mod) => {
      mod.int(1, 0); // name = Main
      mod.message(4, (dt) => {
        dt.int(2, 1); // T
        dt.bool(4, true);
        dt.message(5, (rec) => {
          for (const [name, ty] of extra.fields ?? []) rec.message(1, (f) => f.int(3, name).message(2, ty));
        });
      });
      mod.message(6, (t) => t.int(1, 1));
    });
    for (const s of strings) w.string(2, s);
    dname(w, [2], false);
    dname(w, [3], true);
    dname(w, [7], false);
    dname(w, [11], true);
    w.message(4, (md) =>
      md
        .int(1, 0)
        .int(2, 1)
        .message(3, (u) => u.int(1, 10)),
    );
    for (const t of extra.internedTypes ?? []) w.message(5, t);
    if (extra.imports) w.message(9, (im) => extra.imports?.forEach((i) => im.string(1, i)));
    return w.finish();
  }

  it('resolves TApp chains, package_import_id, Syn, Forall and Struct', () => {
    const bytes = build({
      imports: ['b'.repeat(64)],
      internedTypes: [
        (t) => builtin(t, 5), // 0: Numeric (unapplied)
        (t) => t.sint(6, 10), // 1: nat 10
        (t) => t.message(9, (app) => app.message(1, (l) => l.int(8, 0)).message(2, (r) => r.int(8, 1))), // 2: Numeric 10 via TApp
      ],
      fields: [
        [5, (t) => t.int(8, 2)], // amount: Numeric 10
        // owner: Dep:T imported via package_import_id 0, applied by TApp to Party
        [
          4,
          (t) =>
            t.message(9, (app) =>
              app
                .message(1, (l) =>
                  l.message(2, (c) => c.message(1, (id) => id.message(1, (m) => m.message(1, (p) => p.int(4, 0)).int(2, 3)).int(2, 1))),
                )
                .message(2, (r) => builtin(r, 6)),
            ),
        ],
        [
          6,
          (t) =>
            t.message(7, (s) =>
              s
                .message(1, (id) => {
                  selfModule(id);
                  id.int(2, 2);
                })
                .message(2, (a) => builtin(a, 7)),
            ),
        ], // x: Syn Text
        [
          8,
          (t) =>
            t.message(4, (fa) =>
              fa
                .message(1, (v) => v.int(3, 6))
                .message(2, (b) =>
                  b.message(5, (st) => st.message(1, (f) => f.int(3, 4).message(2, (ty) => ty.message(1, (v) => v.int(3, 6))))),
                ),
            ),
        ], // f: forall x. <owner: x>
      ],
    });
    const pkg = decodeLf2Package(bytes, 'self-id', { lfVersion: '2.dev' });
    expect(pkg).toMatchObject({ name: 'pkg', version: '1.2.3', upgradedPackageId: 'c'.repeat(64), lfVersion: '2.dev' });
    expect(pkg.dependencies).toEqual(['b'.repeat(64)]);
    const fields = pkg.modules[0]?.templates[0]?.fields ?? [];
    expect(fields.map((f) => [f.name, typeToString(f.type)])).toEqual([
      ['amount', 'Numeric 10'],
      ['owner', 'Dep:T Party'],
      ['x', 'Main:Syn Text'],
      ['f', 'forall x. <owner: x>'],
    ]);
    expect(fields[0]?.type).toEqual(numeric(10));
    expect(fields[1]?.type).toEqual({ kind: 'con', packageId: 'b'.repeat(64), module: 'Dep', name: 'T', args: [PARTY] });
  });

  it('resolves imported_package_id_interned_str references', () => {
    const bytes = build({
      fields: [
        [4, (t) => t.message(2, (c) => c.message(1, (id) => id.message(1, (m) => m.message(1, (p) => p.int(3, 10)).int(2, 3)).int(2, 1)))],
      ],
    });
    const pkg = decodeLf2Package(bytes, 'self-id', { lfVersion: '2.1' });
    expect(pkg.dependencies).toEqual(['c'.repeat(64)]);
    expect(pkg.modules[0]?.templates[0]?.fields[0]?.type).toMatchObject({ kind: 'con', packageId: 'c'.repeat(64) });
  });

  it('rejects dangling or forward interning references with MALFORMED_PACKAGE', () => {
    const cases: Uint8Array[] = [
      build({ fields: [[99, (t) => builtin(t, 7)]] }), // field name: interned string 99 does not exist
      build({ fields: [[4, (t) => t.int(8, 0)]] }), // no interned types at all
      build({ internedTypes: [(t) => t.message(2, (c) => c.message(2, (a) => a.int(8, 0)))] }), // type 0 refers to itself
      build({
        fields: [
          [4, (t) => t.message(2, (c) => c.message(1, (id) => id.message(1, (m) => m.message(1, (p) => p.int(4, 0)).int(2, 3)).int(2, 1)))],
        ],
      }), // package_import_id without imports
      build({ fields: [[4, (t) => builtin(t, 12)]] }), // BuiltinType 12 is unassigned
      build({ fields: [[4, () => {}]] }), // Type with no case set
    ];
    for (const bytes of cases) expect(codeOf(() => decodeLf2Package(bytes, 'id', { lfVersion: '2.1' }))).toBe('MALFORMED_PACKAGE');
  });

  it('rejects types nested deeper than the limit instead of overflowing the stack', () => {
    // Built bottom-up: Optional (Optional (... Text)), 5000 levels.
    let inner = new ProtoWriter().message(3, (b) => b.int(1, 7)).finish();
    for (let i = 0; i < 5000; i++) inner = new ProtoWriter().message(3, (b) => b.int(1, 9).bytes(2, inner)).finish();
    const deep = inner;
    const bytes = build({ fields: [[4, (t) => t.raw(deep)]] });
    expect(codeOf(() => decodeLf2Package(bytes, 'id', { lfVersion: '2.1' }))).toBe('MALFORMED_PACKAGE');
  });

  it('rejects interned types that expand exponentially or nest too deeply', () => {
    // type i = Pair (type i-1) (type i-1): 2^60 nodes when expanded, 60 entries in the table
    const pairs: ((w: ProtoWriter) => void)[] = [(t) => builtin(t, 7)];
    for (let i = 1; i <= 60; i++)
      pairs.push((t) =>
        builtin(
          t,
          11,
          (a) => a.int(8, i - 1),
          (a) => a.int(8, i - 1),
        ),
      );
    expect(codeOf(() => decodeLf2Package(build({ internedTypes: pairs }), 'id', { lfVersion: '2.1' }))).toBe('MALFORMED_PACKAGE');
    const chain: ((w: ProtoWriter) => void)[] = [(t) => builtin(t, 7)];
    for (let i = 1; i <= 5000; i++) chain.push((t) => builtin(t, 9, (a) => a.int(8, i - 1)));
    expect(codeOf(() => decodeLf2Package(build({ internedTypes: chain }), 'id', { lfVersion: '2.1' }))).toBe('MALFORMED_PACKAGE');
  });

  it('an Optional nested 200 deep through interned types decodes (interned types do not count towards the depth)', () => {
    const interned: ((w: ProtoWriter) => void)[] = [(t) => builtin(t, 7)];
    for (let i = 1; i <= 200; i++) interned.push((t) => builtin(t, 9, (a) => a.int(8, i - 1)));
    const pkg = decodeLf2Package(build({ internedTypes: interned, fields: [[4, (t) => t.int(8, 200)]] }), 'id', { lfVersion: '2.1' });
    let t = pkg.modules[0]?.templates[0]?.fields[0]?.type;
    let depth = 0;
    while (t?.kind === 'prim' && t.prim === 'Optional') {
      t = t.args[0];
      depth++;
    }
    expect(depth).toBe(200);
    expect(t).toEqual(TEXT);
  });
});

describe('archive envelope errors', () => {
  it('LF1 archives are UNSUPPORTED_LF_VERSION for package decoding but readArchive reports them', () => {
    const lf1 = wrapArchive(Uint8Array.of(1, 2, 3), { lfMajor: 1, lfMinor: '17' });
    expect(readArchive(lf1.bytes)).toMatchObject({ lfMajor: 1, lfMinor: '17', packageId: lf1.packageId });
    expect(codeOf(() => readDalf(lf1.bytes))).toBe('UNSUPPORTED_LF_VERSION');
    expect(codeOf(() => readDalf(wrapArchive(encodePackage(iouPackage()), { lfMinor: 'banana' }).bytes))).toBe('UNSUPPORTED_LF_VERSION');
  });

  it('an altered payload is HASH_MISMATCH naming both ids', () => {
    const enc = encodeArchive(iouPackage());
    const bad = new ProtoWriter()
      .bytes(3, Uint8Array.from([...enc.payload, 0]))
      .string(4, enc.packageId)
      .finish();
    try {
      readArchive(bad);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DamlLfError);
      const err = e as DamlLfError;
      expect(err.code).toBe('HASH_MISMATCH');
      expect(err.message).toContain(enc.packageId);
      expect(err.details['computed']).toMatch(/^[0-9a-f]{64}$/);
      expect(err.message).toContain(String(err.details['computed']));
    }
  });

  it('missing payload/hash, other hash functions, garbage and empty payload envelopes', () => {
    const enc = encodeArchive(iouPackage());
    expect(codeOf(() => readArchive(new ProtoWriter().string(4, enc.packageId).finish()))).toBe('MALFORMED_ARCHIVE');
    expect(codeOf(() => readArchive(new ProtoWriter().bytes(3, enc.payload).finish()))).toBe('MALFORMED_ARCHIVE');
    expect(codeOf(() => readArchive(new ProtoWriter().int(1, 1).bytes(3, enc.payload).string(4, enc.packageId).finish()))).toBe(
      'UNSUPPORTED_HASH_FUNCTION',
    );
    expect(codeOf(() => readArchive(Uint8Array.from([0xff, 0xff, 0xff])))).toBe('MALFORMED_ARCHIVE');
    const emptyPayload = new ProtoWriter().string(3, 'x').finish(); // payload without daml_lf_1/daml_lf_2
    const id = createHash('sha256').update(emptyPayload.subarray(2)).digest('hex');
    expect(codeOf(() => readArchive(new ProtoWriter().bytes(3, emptyPayload.subarray(2)).string(4, id).finish()))).toBe(
      'MALFORMED_ARCHIVE',
    );
  });

  it('garbage LF2 package bytes inside a valid envelope are MALFORMED_PACKAGE', () => {
    const garbage = wrapArchive(Uint8Array.from([0x0a, 0x05, 0x01]));
    expect(codeOf(() => readDalf(garbage.bytes))).toBe('MALFORMED_PACKAGE');
  });

  it('optional fields keep their Optional wrapper in the summary', () => {
    const pkg = summaryOf(true);
    const note = pkg.modules[1]?.templates[0]?.fields.find((f) => f.name === 'note');
    expect(note?.type).toEqual(optional(TEXT));
  });
});

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
