/**
 * The complete LF2 AST decoder over every DAR in ../shared/reference/dars (the folder must exist and hold DARs):
 * every DALF decodes completely, its package id is the SHA-256 of the archive payload (node:crypto) and the id in the
 * DALF's file name, and the AST agrees with the signature decoder (`readDalf`) on names, versions, templates, choices,
 * interfaces and data types.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readArchive, readDalf, readDar } from '../../../src/daml-lf/index.js';
import { readDalfAst, type ExprTag, type PackageAst } from '../../../src/daml-lf/ast/index.js';
import { walkPackage } from '../../../src/daml-lf/ast/walk.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const darDir = path.resolve(repoRoot, '../shared/reference/dars');

function referenceDars(): string[] {
  const names = readdirSync(darDir).filter((n) => n.endsWith('.dar'));
  if (names.length === 0) throw new Error(`no DARs in ${darDir}`);
  return names.sort();
}

describe('Daml-LF 2 AST decoder on the reference DARs', () => {
  const decoded = new Map<string, PackageAst>();

  it('decodes every DALF of every reference DAR completely, with verified package ids', () => {
    const dars = referenceDars();
    expect(dars.length).toBeGreaterThanOrEqual(11);
    let dalfs = 0;
    for (const name of dars) {
      const dar = readDar(new Uint8Array(readFileSync(path.join(darDir, name))));
      expect(dar.archives.length).toBeGreaterThan(0);
      for (const a of dar.archives) {
        dalfs++;
        const fileId = /-([0-9a-f]{64})\.dalf$/.exec(a.path)?.[1];
        expect(fileId, a.path).toBeDefined();
        const payloadHash = createHash('sha256').update(readArchive(a.bytes).payload).digest('hex');
        const ast = decoded.get(a.packageId) ?? readDalfAst(a.bytes);
        decoded.set(a.packageId, ast);
        expect(ast.packageId).toBe(payloadHash);
        expect(ast.packageId).toBe(fileId);
        expect(ast.lfVersion).toBe(a.lfVersion);
      }
      // the main package's name and version are the DAR's
      const main = decoded.get(dar.main.packageId) as PackageAst;
      expect(`${main.name}-${main.version}.dar`).toBe(name);
    }
    expect(dalfs).toBeGreaterThan(300);
    expect(decoded.size).toBeGreaterThan(40);
  });

  it('agrees with the signature decoder on names, versions, templates, choices, interfaces and data types', () => {
    for (const name of referenceDars()) {
      const dar = readDar(new Uint8Array(readFileSync(path.join(darDir, name))));
      for (const a of dar.archives) {
        const ast = decoded.get(a.packageId) ?? readDalfAst(a.bytes);
        const sum = readDalf(a.bytes);
        expect(ast.name).toBe(sum.name);
        expect(ast.version).toBe(sum.version);
        expect(ast.upgradedPackageId).toBe(sum.upgradedPackageId);
        expect(ast.modules.map((m) => m.name)).toEqual(sum.modules.map((m) => m.name));
        ast.modules.forEach((m, i) => {
          const s = sum.modules[i];
          if (!s) throw new Error('module missing');
          expect(m.templates.map((t) => t.name)).toEqual(s.templates.map((t) => t.name));
          m.templates.forEach((t, j) => {
            const st = s.templates[j];
            expect(t.choices.map((c) => `${c.name}/${c.consuming}`)).toEqual(st?.choices.map((c) => `${c.name}/${c.consuming}`));
            expect(t.implements.map((x) => `${x.iface.packageId}:${x.iface.module}:${x.iface.name}`)).toEqual(st?.implements);
            expect(t.key !== undefined).toBe(st?.key !== undefined);
          });
          expect(m.interfaces.map((x) => `${x.name}:${x.choices.map((c) => c.name).join(',')}:${x.methods.length}`)).toEqual(
            s.interfaces.map((x) => `${x.name}:${x.choices.map((c) => c.name).join(',')}:${x.methods.length}`),
          );
          expect(m.dataTypes.filter((d) => d.cons.kind !== 'interface').map((d) => `${d.name}/${d.cons.kind}`)).toEqual(
            s.dataTypes.map((d) => `${d.name}/${d.kind}`),
          );
          expect(m.exceptions.map((x) => x.name)).toEqual(s.exceptions);
        });
      }
    }
  });

  it('reads the expressions of real code: Splice Amulet, the test token and the standard library', () => {
    const byName = (n: string): PackageAst[] => [...decoded.values()].filter((p) => p.name === n);
    const amulet = byName('splice-amulet');
    expect(amulet.map((p) => p.version).sort()).toEqual(['0.1.21', '0.1.22']);
    for (const p of amulet) {
      const rules = p.modules.find((m) => m.name === 'Splice.AmuletRules')?.templates.find((t) => t.name === 'AmuletRules');
      expect(rules?.choices.map((c) => c.name)).toContain('AmuletRules_Transfer');
      const tags = new Map<ExprTag, number>();
      let updates = 0;
      walkPackage(
        p,
        (e) => tags.set(e.tag, (tags.get(e.tag) ?? 0) + 1),
        () => updates++,
      );
      for (const t of [
        'var',
        'val',
        'builtin',
        'lit',
        'recCon',
        'recProj',
        'app',
        'tyApp',
        'abs',
        'tyAbs',
        'case',
        'let',
        'update',
      ] as const)
        expect(tags.get(t) ?? 0, t).toBeGreaterThan(0);
      expect(updates).toBeGreaterThan(500);
    }
    const token = byName('splice-test-token-v1')[0];
    const tmod = token?.modules.flatMap((m) => m.templates.map((t) => `${m.name}:${t.name}`));
    expect(tmod?.length).toBeGreaterThan(0);
    const stdlib = byName('daml-stdlib');
    expect(stdlib.length).toBeGreaterThan(0);
    for (const p of stdlib) expect(p.modules.reduce((n, m) => n + m.values.length, 0)).toBeGreaterThan(1000);
  });
});
