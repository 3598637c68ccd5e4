import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  DamlLfError,
  MANIFEST_PATH,
  ProtoWriter,
  buildDar,
  computePackageId,
  encodeArchive,
  encodePackage,
  parseManifest,
  readDar,
  renderManifest,
  wrapArchive,
  writeZip,
  type PackageDescription,
} from '../../../src/daml-lf/index.js';
import { PARTY, TEXT, codeOf, iouPackage } from './fixtures.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

function errorOf(f: () => unknown): DamlLfError {
  try {
    f();
  } catch (e) {
    if (e instanceof DamlLfError) return e;
    throw e;
  }
  throw new Error('expected a DamlLfError');
}

const depPackage: PackageDescription = {
  name: 'common-types',
  version: '2.0.0',
  modules: [{ name: 'Common', dataTypes: [{ kind: 'record', name: 'Meta', fields: [{ name: 'tag', type: TEXT }] }] }],
};

function mainUsing(depId: string): PackageDescription {
  return {
    name: 'app',
    version: '1.0.0',
    modules: [
      {
        name: 'App',
        templates: [
          {
            name: 'Doc',
            fields: [
              { name: 'owner', type: PARTY },
              { name: 'meta', type: { kind: 'con', packageId: depId, module: 'Common', name: 'Meta', args: [] } },
            ],
            choices: [{ name: 'Close', argFields: [] }],
          },
        ],
      },
    ],
  };
}

/** A DAR made of a manifest and DALF entries given explicitly. */
function darOf(manifest: string | undefined, entries: Record<string, Uint8Array>, deflate = true): Uint8Array {
  const files = Object.entries(entries).map(([name, data]) => ({ name, data, deflate }));
  if (manifest !== undefined) files.unshift({ name: MANIFEST_PATH, data: enc.encode(manifest), deflate });
  return writeZip(files);
}

describe('readDar on DARs built by buildDar', () => {
  const dep = encodeArchive(depPackage);
  const built = buildDar(mainUsing(dep.packageId), [depPackage], { sdkVersion: '3.4.9' });
  const dar = readDar(built.bytes);

  it('returns exactly the package ids the archives declare, main first', () => {
    expect(dar.main.packageId).toBe(built.mainPackageId);
    expect(dar.packages.map((p) => p.packageId)).toEqual(built.packageIds);
    expect(built.packageIds[1]).toBe(dep.packageId);
    expect(dar.archives.map((a) => a.packageId)).toEqual(built.packageIds);
    expect(dar.archives[1]?.bytes).toEqual(dep.bytes);
  });

  it('parses the manifest: wrapped Main-Dalf and Dalfs, Sdk-Version, Name', () => {
    expect(built.manifest.split('\r\n').every((l) => l.length <= 72)).toBe(true);
    expect(built.manifest).toMatch(/\r\n /); // continuation lines were needed
    expect(dar.manifest.mainDalf).toBe(`app-1.0.0-${built.mainPackageId}/app-1.0.0-${built.mainPackageId}.dalf`);
    expect(dar.manifest.dalfs).toEqual([
      dar.manifest.mainDalf,
      `app-1.0.0-${built.mainPackageId}/common-types-2.0.0-${dep.packageId}.dalf`,
    ]);
    expect(dar.manifest).toMatchObject({ sdkVersion: '3.4.9', name: 'app', format: 'daml-lf', encryption: 'non-encrypted' });
  });

  it('summarises every package and records the main package dependency', () => {
    expect(dar.main.dependencies).toEqual([dep.packageId]);
    expect(dar.main.modules[0]?.templates[0]?.fields[1]?.type).toMatchObject({
      kind: 'con',
      packageId: dep.packageId,
      module: 'Common',
      name: 'Meta',
    });
    expect(dar.packages[1]).toMatchObject({ name: 'common-types', version: '2.0.0', lfVersion: '2.1' });
  });

  it('is readable by an independent zip implementation (fflate unzipSync)', () => {
    const files = unzipSync(built.bytes);
    expect(Object.keys(files).sort()).toEqual([MANIFEST_PATH, ...dar.archives.map((a) => a.path)].sort());
    expect(dec.decode(files[MANIFEST_PATH])).toBe(built.manifest);
  });

  it('reads a DAR written by an independent zip implementation (fflate zipSync), stored and deflated', () => {
    const main = encodeArchive(iouPackage());
    const manifest = `Manifest-Version: 1.0\r\nMain-Dalf: iou/iou.dalf\r\nDalfs: iou/iou.dalf\r\nFormat: daml-lf\r\n\r\n`;
    for (const level of [0, 9] as const) {
      const bytes = zipSync({ 'META-INF': {}, [MANIFEST_PATH]: enc.encode(manifest), 'iou/iou.dalf': main.bytes }, { level });
      expect(readDar(bytes).main.packageId).toBe(main.packageId);
    }
  });

  it('reads DARs without a Dalfs header (all .dalf entries) and de-duplicates repeated packages', () => {
    const a = encodeArchive(iouPackage());
    const b = encodeArchive(depPackage);
    const noDalfs = readDar(
      darOf('Main-Dalf: m.dalf\n', { 'm.dalf': a.bytes, 'lib/d.dalf': b.bytes, 'src/Main.daml': enc.encode('module Main') }),
    );
    expect(noDalfs.packages.map((p) => p.packageId)).toEqual([a.packageId, b.packageId]);
    const dup = readDar(
      darOf('Main-Dalf: m.dalf\nDalfs: m.dalf, copy.dalf, d.dalf\n', { 'm.dalf': a.bytes, 'copy.dalf': a.bytes, 'd.dalf': b.bytes }),
    );
    expect(dup.packages.map((p) => p.packageId)).toEqual([a.packageId, b.packageId]);
  });
});

describe('manifest parsing', () => {
  it('joins continuation lines (CRLF, LF), keeps the main section and splits Dalfs on commas', () => {
    const long = `pkg-1.0.0-${'f'.repeat(64)}/pkg-1.0.0-${'f'.repeat(64)}.dalf`;
    const text = renderManifest([
      ['Manifest-Version', '1.0'],
      ['Main-Dalf', long],
      ['Dalfs', `${long}, daml-prim-${'0'.repeat(64)}.dalf,daml-stdlib.dalf`],
    ]);
    for (const t of [text, text.replace(/\r\n/g, '\n')]) {
      const m = parseManifest(t + 'Name: per-entry-section\nMain-Dalf: ignored\n\nName: other\n');
      expect(m.mainDalf).toBe(long);
      expect(m.dalfs).toEqual([long, `daml-prim-${'0'.repeat(64)}.dalf`, 'daml-stdlib.dalf']);
    }
  });

  it('rejects manifests without Main-Dalf or with broken lines as MALFORMED_MANIFEST', () => {
    expect(codeOf(() => parseManifest('Manifest-Version: 1.0\n'))).toBe('MALFORMED_MANIFEST');
    expect(codeOf(() => parseManifest(' continuation first\n'))).toBe('MALFORMED_MANIFEST');
    expect(codeOf(() => parseManifest('no colon here\n'))).toBe('MALFORMED_MANIFEST');
    expect(codeOf(() => parseManifest('Main-Dalf: a.dalf\nMain-Dalf: b.dalf\n'))).toBe('MALFORMED_MANIFEST');
  });
});

describe('corrupt DARs: each failure has its specific error', () => {
  const main = encodeArchive(iouPackage());
  const manifest = 'Manifest-Version: 1.0\r\nMain-Dalf: a/main.dalf\r\nDalfs: a/main.dalf\r\n\r\n';
  const good = darOf(manifest, { 'a/main.dalf': main.bytes });

  it('the reference DAR is valid', () => {
    expect(readDar(good).main.packageId).toBe(main.packageId);
  });

  it('non-zip bytes → NOT_A_ZIP', () => {
    expect(codeOf(() => readDar(new Uint8Array(0)))).toBe('NOT_A_ZIP');
    expect(codeOf(() => readDar(enc.encode('this is not a zip, just text that is long enough to scan')))).toBe('NOT_A_ZIP');
    expect(codeOf(() => readDar(main.bytes))).toBe('NOT_A_ZIP'); // a bare .dalf is not a DAR
  });

  it('truncated zip → CORRUPT_ZIP at every cut point', () => {
    for (const cut of [4, 30, Math.floor(good.length / 2), good.length - 23, good.length - 1]) {
      expect(codeOf(() => readDar(good.subarray(0, cut)))).toBe('CORRUPT_ZIP');
    }
  });

  it('damaged entry data (CRC mismatch) and a damaged central directory → CORRUPT_ZIP', () => {
    const stored = darOf(manifest, { 'a/main.dalf': main.bytes }, false);
    const flipped = stored.slice();
    const at = stored.length - 200; // inside the stored dalf
    flipped[at] = (flipped[at] as number) ^ 0xff;
    expect(codeOf(() => readDar(flipped))).toBe('CORRUPT_ZIP');
    const badCd = good.slice();
    const eocd = good.length - 22;
    new DataView(badCd.buffer).setUint32(eocd + 16, eocd + 5, true); // central directory offset past its end
    expect(codeOf(() => readDar(badCd))).toBe('CORRUPT_ZIP');
  });

  it('encrypted entries and unknown compression methods → UNSUPPORTED_ZIP; huge entries → TOO_LARGE', () => {
    const encrypted = good.slice();
    const cd = new DataView(encrypted.buffer).getUint32(good.length - 22 + 16, true);
    new DataView(encrypted.buffer).setUint16(cd + 8, 1, true);
    expect(codeOf(() => readDar(encrypted))).toBe('UNSUPPORTED_ZIP');
    const bzip = good.slice();
    new DataView(bzip.buffer).setUint16(cd + 10, 12, true);
    new DataView(bzip.buffer).setUint16(8, 12, true);
    expect(codeOf(() => readDar(bzip))).toBe('UNSUPPORTED_ZIP');
    expect(codeOf(() => readDar(good, { maxEntryBytes: 100 }))).toBe('TOO_LARGE');
    // a tiny entry claiming 200 MB is rejected before anything is allocated
    const inflated = good.slice();
    new DataView(inflated.buffer).setUint32(cd + 24, 200_000_000, true);
    expect(errorOf(() => readDar(inflated)).message).toMatch(/declares 200000000 bytes from \d+ compressed bytes/);
  });

  it('manifest missing → MISSING_MANIFEST', () => {
    expect(codeOf(() => readDar(darOf(undefined, { 'a/main.dalf': main.bytes })))).toBe('MISSING_MANIFEST');
  });

  it('manifest without Main-Dalf → MALFORMED_MANIFEST; other formats → UNSUPPORTED_DAR_FORMAT', () => {
    expect(codeOf(() => readDar(darOf('Manifest-Version: 1.0\n', { 'a/main.dalf': main.bytes })))).toBe('MALFORMED_MANIFEST');
    expect(codeOf(() => readDar(darOf(`${manifest.trim()}\r\nFormat: daml-lf-1.0-encrypted\r\n`, { 'a/main.dalf': main.bytes })))).toBe(
      'UNSUPPORTED_DAR_FORMAT',
    );
  });

  it('main dalf missing → MAIN_DALF_MISSING; listed dalf missing → DALF_MISSING', () => {
    const e = errorOf(() => readDar(darOf(manifest, { 'a/other.dalf': main.bytes })));
    expect(e.code).toBe('MAIN_DALF_MISSING');
    expect(e.message).toContain('a/main.dalf');
    const m2 = 'Main-Dalf: a/main.dalf\nDalfs: a/main.dalf, a/dep.dalf\n';
    const e2 = errorOf(() => readDar(darOf(m2, { 'a/main.dalf': main.bytes })));
    expect(e2.code).toBe('DALF_MISSING');
    expect(e2.message).toContain('a/dep.dalf');
  });

  it('altered payload → HASH_MISMATCH naming the dalf and both package ids', () => {
    const tamperedPayload = main.payload.slice();
    tamperedPayload[tamperedPayload.length - 1] = (tamperedPayload[tamperedPayload.length - 1] as number) ^ 1;
    const tampered = new ProtoWriter().bytes(3, tamperedPayload).string(4, main.packageId).finish();
    const e = errorOf(() => readDar(darOf(manifest, { 'a/main.dalf': tampered })));
    expect(e.code).toBe('HASH_MISMATCH');
    expect(e.message).toContain('a/main.dalf');
    expect(e.message).toContain(main.packageId);
    expect(e.details['dalf']).toBe('a/main.dalf');
    expect(e.details['declared']).toBe(main.packageId);
    expect(e.details['computed']).not.toBe(main.packageId);
    expect(e.message).toContain(String(e.details['computed']));
  });

  it('garbage protobuf as a dalf → MALFORMED_ARCHIVE; garbage LF2 package → MALFORMED_PACKAGE', () => {
    const e = errorOf(() => readDar(darOf(manifest, { 'a/main.dalf': Uint8Array.from([0x0f, 0xff, 0x00, 0x13]) })));
    expect(e.code).toBe('MALFORMED_ARCHIVE');
    expect(e.details['dalf']).toBe('a/main.dalf');
    const garbagePackage = wrapArchive(Uint8Array.from([0x0a, 0x7f, 0x01, 0x02]));
    expect(codeOf(() => readDar(darOf(manifest, { 'a/main.dalf': garbagePackage.bytes })))).toBe('MALFORMED_PACKAGE');
  });

  it('a Daml-LF 1 dalf → UNSUPPORTED_LF_VERSION', () => {
    const lf1 = wrapArchive(Uint8Array.of(0x0a, 0x00), { lfMajor: 1, lfMinor: '15' });
    const e = errorOf(() => readDar(darOf(manifest, { 'a/main.dalf': lf1.bytes })));
    expect(e.code).toBe('UNSUPPORTED_LF_VERSION');
    expect(e.message).toContain('1.15');
  });
});

/** Small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(src: Uint8Array, rand: () => number): Uint8Array {
  const int = (n: number): number => Math.floor(rand() * n);
  let b = src.slice();
  const rounds = 1 + int(4);
  for (let r = 0; r < rounds; r++) {
    const op = int(6);
    const at = int(Math.max(1, b.length));
    if (op === 0)
      b[at] = int(256); // overwrite a byte
    else if (op === 1)
      b[at] = (b[at] as number) ^ (1 << int(8)); // flip a bit
    else if (op === 2)
      b = b.subarray(0, at).slice(); // truncate
    else if (op === 3)
      b = Uint8Array.from([...b.subarray(0, at), ...b.subarray(at + 1 + int(16))]); // delete a run
    else if (op === 4)
      b = Uint8Array.from([...b.subarray(0, at), ...Array.from({ length: 1 + int(8) }, () => int(256)), ...b.subarray(at)]); // insert
    else if (b.length > 16) {
      // copy an 8-byte chunk over another place
      const from = int(b.length - 8);
      b.set(b.slice(from, from + 8), int(b.length - 8));
    }
  }
  return b;
}

describe('fuzz: random mutations only ever raise DamlLfError', () => {
  it('2,000 mutations of a valid DAR (zip, manifest, archive layers)', () => {
    const rand = rng(0xda4);
    const dep = encodeArchive(depPackage);
    const stored = buildDar(mainUsing(dep.packageId), [depPackage]).bytes;
    const storedManifest = `Main-Dalf: m.dalf\nDalfs: m.dalf, d.dalf\n`;
    const uncompressed = darOf(storedManifest, { 'm.dalf': encodeArchive(iouPackage()).bytes, 'd.dalf': dep.bytes }, false);
    const codes = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const input = mutate(i % 2 === 0 ? stored : uncompressed, rand);
      const code = codeOf(() => readDar(input));
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    console.log('DAR fuzz outcomes:', Object.fromEntries(codes));
    // Several layers were reached, and nothing but DamlLfError escaped (codeOf rethrows anything else).
    expect(codes.size).toBeGreaterThanOrEqual(3);
  });

  it('2,000 mutations of an LF2 package re-wrapped with a valid hash and CRC (decoder layer)', () => {
    const rand = rng(0x1f2);
    const pkgBytes = encodePackage(iouPackage());
    const codes = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const archive = wrapArchive(mutate(pkgBytes, rand));
      const bytes = darOf('Main-Dalf: m.dalf\n', { 'm.dalf': archive.bytes }, false);
      const code = codeOf(() => readDar(bytes));
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    console.log('LF2 package fuzz outcomes:', Object.fromEntries(codes));
    expect(codes.get('MALFORMED_PACKAGE') ?? 0).toBeGreaterThan(100);
    expect([...codes.keys()].every((c) => c === 'no error' || c === 'MALFORMED_PACKAGE')).toBe(true);
  });

  it('1,000 mutations of an ArchivePayload re-hashed so the id verifies (envelope layer)', () => {
    const rand = rng(0x5eed);
    const payload = encodeArchive(iouPackage()).payload;
    const codes = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const mutated = mutate(payload, rand);
      const archive = new ProtoWriter().bytes(3, mutated).string(4, computePackageId(mutated)).finish();
      const code = codeOf(() => readDar(darOf('Main-Dalf: m.dalf\n', { 'm.dalf': archive }, false)));
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    console.log('ArchivePayload fuzz outcomes:', Object.fromEntries(codes));
    expect(codes.get('MALFORMED_ARCHIVE') ?? 0).toBeGreaterThan(0);
    expect(codes.get('MALFORMED_PACKAGE') ?? 0).toBeGreaterThan(0);
  });
});
