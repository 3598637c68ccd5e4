/**
 * DARs produced by other zip tools (Info-ZIP `zip`, read back with `unzip -t`), and a large DAR read within a time budget.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDar, encodeArchive, readDar, type PackageDescription, type Type } from '../../../src/daml-lf/index.js';

const work = mkdtempSync(path.join(tmpdir(), 'daml-lf-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const has = (tool: string): boolean => spawnSync(tool, ['-v'], { stdio: 'ignore' }).status === 0;

function bigPackage(modules: number, templatesPerModule: number): PackageDescription {
  const party: Type = { kind: 'prim', prim: 'Party', args: [] };
  const ref = (m: number, t: number): Type => ({ kind: 'con', packageId: 'self', module: `Big.Module${m}`, name: `T${t}`, args: [] });
  return {
    name: 'big',
    version: '1.0.0',
    modules: Array.from({ length: modules }, (_, m) => ({
      name: `Big.Module${m}`,
      templates: Array.from({ length: templatesPerModule }, (_, t) => ({
        name: `T${t}`,
        fields: Array.from({ length: 12 }, (_, f) => ({
          name: `field${f}`,
          type: f % 3 === 0 ? party : ({ kind: 'prim', prim: 'Optional', args: [ref(m, (t + 1) % templatesPerModule)] } satisfies Type),
        })),
        choices: Array.from({ length: 4 }, (_, c) => ({ name: `T${t}_Choice${c}`, argFields: [{ name: 'x', type: party }] })),
      })),
    })),
  };
}

describe('zip interoperability with Info-ZIP', () => {
  it('a DAR zipped by `zip` (extra fields in local headers) reads; our DAR passes `unzip -t`', () => {
    const tools = { zip: has('zip'), unzip: has('unzip') };
    if (!tools.zip || !tools.unzip) {
      console.log(`[daml-lf] Info-ZIP tools not installed (${JSON.stringify(tools)}); interop not checked on this machine`);
      expect(tools.zip && tools.unzip).toBe(false);
      return;
    }
    const main = encodeArchive(bigPackage(2, 2));
    const dir = path.join(work, 'tree');
    mkdirSync(path.join(dir, 'META-INF'), { recursive: true });
    mkdirSync(path.join(dir, 'pkg'), { recursive: true });
    writeFileSync(
      path.join(dir, 'META-INF', 'MANIFEST.MF'),
      'Manifest-Version: 1.0\r\nMain-Dalf: pkg/big.dalf\r\nDalfs: pkg/big.dalf\r\n\r\n',
    );
    writeFileSync(path.join(dir, 'pkg', 'big.dalf'), main.bytes);
    const zipped = path.join(work, 'infozip.dar');
    execFileSync('zip', ['-q', '-r', '-X', zipped, 'META-INF', 'pkg'], { cwd: dir });
    const dar = readDar(new Uint8Array(readFileSync(zipped)));
    expect(dar.main.packageId).toBe(main.packageId);

    const ours = path.join(work, 'ours.dar');
    writeFileSync(ours, buildDar(bigPackage(2, 2)).bytes);
    const test = spawnSync('unzip', ['-t', ours], { encoding: 'utf8' });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/No errors detected/);
  });
});

describe('large DARs', () => {
  it('a DAR with 4,000 templates and 16,000 choices reads in well under the budget', () => {
    const built = buildDar(bigPackage(200, 20));
    const start = performance.now();
    const dar = readDar(built.bytes);
    const ms = performance.now() - start;
    console.log(`[daml-lf] ${built.bytes.length} byte DAR, ${dar.main.modules.length} modules: read in ${ms.toFixed(0)} ms`);
    expect(dar.main.packageId).toBe(built.mainPackageId);
    expect(dar.main.modules.reduce((n, m) => n + m.templates.length, 0)).toBe(4000);
    expect(dar.main.modules[199]?.templates[19]?.choices[3]?.argFields).toEqual([
      { name: 'x', type: { kind: 'prim', prim: 'Party', args: [] } },
    ]);
    expect(ms).toBeLessThan(5000);
  });
});
