/**
 * The built-in packages' archives come from a cache when a directory is given (builtin-archives.ts): the same
 * package ids and bytes as encoding them, a corrupt cache file is re-encoded, and the registry decodes a built-in
 * package's LF only when something asks for it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PackageIndex } from '../../src/daml-lf/index.js';
import type { PackageSummary } from '../../src/daml-lf/index.js';
import { builtinPackages } from '../../src/simulator/packages/builtins.js';
import { builtinArchive, forgetBuiltinArchives } from '../../src/simulator/packages/builtin-archives.js';
import { archiveOf } from '../../src/simulator/packages/lf.js';
import { PackageRegistry } from '../../src/simulator/packages/registry.js';

// counts the registry's decodes of built-in packages (the real readDalf runs)
const decoded = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/daml-lf/dar.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/daml-lf/dar.js')>();
  return {
    ...real,
    readDalf: (bytes: Uint8Array) => {
      decoded.count++;
      return real.readDalf(bytes);
    },
  };
});

const dir = mkdtempSync(path.join(os.tmpdir(), 'builtin-archives-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every built-in package encoded here, without the cache, in dependency order. */
function encodedHere(): Map<string, { packageId: string; bytes: Uint8Array }> {
  const ids = new Map<string, string>();
  const out = new Map<string, { packageId: string; bytes: Uint8Array }>();
  for (const def of builtinPackages()) {
    const a = archiveOf(def, (name) => ids.get(name) ?? expect.fail(`${def.name} needs ${name} first`));
    ids.set(def.name, a.packageId);
    out.set(def.name, a);
  }
  return out;
}

const registryIds = (r: PackageRegistry) => r.packages.map((p) => [p.def.name, p.id, Buffer.from(p.archive).toString('hex')]);

describe('built-in package archives', () => {
  const expected = encodedHere();

  it('a cache directory gives the archives encoding gives, one file per package, read back by a new process', () => {
    forgetBuiltinArchives();
    const first = new PackageRegistry(undefined, { archiveCacheDir: dir });
    const files = readdirSync(dir).filter((f) => f.endsWith('.dalf'));
    expect(files).toHaveLength(expected.size);
    expect(expected.size).toBeGreaterThan(5);
    for (const [name, id, hex] of registryIds(first)) {
      expect(id).toBe(expected.get(name ?? '')?.packageId);
      expect(hex).toBe(Buffer.from(expected.get(name ?? '')?.bytes ?? []).toString('hex'));
    }
    // what a fresh process sees: nothing in memory, the files on disk
    forgetBuiltinArchives();
    expect(registryIds(new PackageRegistry(undefined, { archiveCacheDir: dir }))).toEqual(registryIds(first));
  });

  it('a corrupt or truncated cache file is encoded again and rewritten', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.dalf'));
    const [a, b] = files.map((f) => path.join(dir, f));
    if (a === undefined || b === undefined) return expect.fail('the cache holds no files');
    const good = readFileSync(a);
    const flipped = Buffer.from(good);
    flipped.writeUInt8(flipped.readUInt8(flipped.length - 1) ^ 0xff, flipped.length - 1);
    writeFileSync(a, flipped);
    writeFileSync(b, good.subarray(0, 10));
    forgetBuiltinArchives();
    const ids = registryIds(new PackageRegistry(undefined, { archiveCacheDir: dir }));
    expect(ids.map(([name, id]) => [name, id])).toEqual([...expected].map(([name, x]) => [name, x.packageId]));
    expect(readFileSync(a)).toEqual(good);
  });

  it('a package that names an unknown dependency still fails as before', () => {
    const amulet = builtinPackages().find((d) => d.templates.some((t) => t.implements.some((i) => i.interface.startsWith('#'))));
    if (amulet === undefined) return expect.fail('no built-in package implements an interface of another package');
    expect(() =>
      builtinArchive(amulet, (name) => {
        throw new Error(`built-in package ${amulet.name}: package ${name} is not defined by an earlier built-in package`);
      }),
    ).toThrow(/is not defined by an earlier built-in package/);
  });
});

describe('PackageIndex.addLazy', () => {
  const summary = (packageId: string): PackageSummary => ({
    packageId,
    name: packageId,
    version: '1.0.0',
    lfVersion: '2.1',
    modules: [],
    dependencies: [],
  });

  it('decodes a package on first use only, once, and keeps the order packages were added in', () => {
    const loads: string[] = [];
    const index = new PackageIndex([summary('a')]);
    index.addLazy('b', () => (loads.push('b'), summary('b')));
    index.addLazy('c', () => (loads.push('c'), summary('c')));
    expect(loads).toEqual([]);
    expect(index.get('c')?.name).toBe('c');
    expect(index.get('c')?.name).toBe('c');
    expect(loads).toEqual(['c']);
    expect(index.packages.map((p) => p.packageId)).toEqual(['a', 'b', 'c']);
    expect(loads).toEqual(['c', 'b']);
    expect(index.get('nope')).toBeUndefined();
  });

  it('add replaces a package not yet decoded, in its place', () => {
    const index = new PackageIndex();
    index.addLazy('a', () => expect.fail('replaced before use'));
    index.add(summary('b'));
    index.add({ ...summary('a'), version: '2.0.0' });
    expect(index.packages.map((p) => [p.packageId, p.version])).toEqual([
      ['a', '2.0.0'],
      ['b', '1.0.0'],
    ]);
  });

  it('the registry decodes no built-in package at construction, and one when its LF is asked for', () => {
    decoded.count = 0;
    const registry = new PackageRegistry();
    expect(decoded.count).toBe(0);
    const first = registry.packages[0];
    if (first === undefined) return expect.fail('no built-in packages');
    expect(registry.index.get(first.id)?.packageId).toBe(first.id);
    expect(first.summary.name).toBe(first.def.name);
    expect(decoded.count).toBe(1);
  });
});
