/** The LF2 decoder on hand-written encodings (interning, limits) and the archive envelope's errors. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DamlLfError,
  ProtoWriter,
  decodeLf2Package,
  encodeArchive,
  encodePackage,
  readArchive,
  readDalf,
  typeToString,
  wrapArchive,
  type PackageSummary,
} from '../../../src/daml-lf/index.js';
import { PARTY, TEXT, codeOf, iouPackage, numeric, optional } from './fixtures.js';

function summaryOf(internTypes: boolean): PackageSummary {
  return readDalf(encodeArchive(iouPackage({ internTypes })).bytes);
}

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
