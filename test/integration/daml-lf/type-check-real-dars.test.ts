/**
 * The Daml-LF type checker over every package of every DAR in ../shared/reference/dars (the folder must exist and hold
 * DARs): every top-level value, data type, template (with its choices, key and interface instances), interface and
 * exception the engine could run type-checks under the rules of daml-lf-2.rst, with no issue.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readDar } from '../../../src/daml-lf/index.js';
import { readDalfAst, type PackageAst } from '../../../src/daml-lf/ast/index.js';
import { LfTypeChecker, type PackageCheck } from '../../../src/daml-lf/check/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const darDir = path.resolve(repoRoot, '../shared/reference/dars');

/** Every package of every DAR in `dir`, by id; a missing or empty folder is an error, never an empty result. */
function loadPackages(dir: string): Map<string, PackageAst> {
  const names = readdirSync(dir).filter((n) => n.endsWith('.dar'));
  if (names.length === 0) throw new Error(`no DARs in ${dir}`);
  const out = new Map<string, PackageAst>();
  for (const name of names)
    for (const a of readDar(new Uint8Array(readFileSync(path.join(dir, name)))).archives)
      if (!out.has(a.packageId)) out.set(a.packageId, readDalfAst(a.bytes));
  return out;
}

describe('Daml-LF type checker on the reference DARs', () => {
  it('refuses a missing or empty DAR folder instead of checking nothing', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'no-dars-'));
    try {
      expect(() => loadPackages(empty)).toThrow(/no DARs in/);
      expect(() => loadPackages(path.join(empty, 'missing'))).toThrow(/ENOENT/);
    } finally {
      rmSync(empty, { recursive: true });
    }
  });

  it('type-checks every definition of every package with no issue', () => {
    const packages = loadPackages(darDir);
    const checker = new LfTypeChecker((id) => packages.get(id));
    const results: PackageCheck[] = [...packages.values()].map((p) => checker.checkPackage(p));
    const issues = results.flatMap((r) =>
      r.issues.map((i) => `${(packages.get(r.packageId) as PackageAst).name} ${i.definition}: ${i.message}`),
    );
    expect(issues).toEqual([]);

    // what was checked: all of it, including the definitions the engine runs for the token standard and Amulet
    const count = (f: (p: PackageAst) => number): number => [...packages.values()].reduce((n, p) => n + f(p), 0);
    const modules = (p: PackageAst) => p.modules;
    const templates = count((p) => modules(p).reduce((n, m) => n + m.templates.length, 0));
    const choices = count((p) => modules(p).reduce((n, m) => n + m.templates.reduce((k, t) => k + t.choices.length, 0), 0));
    const instances = count((p) => modules(p).reduce((n, m) => n + m.templates.reduce((k, t) => k + t.implements.length, 0), 0));
    const ifaceChoices = count((p) => modules(p).reduce((n, m) => n + m.interfaces.reduce((k, i) => k + i.choices.length, 0), 0));
    const values = count((p) => modules(p).reduce((n, m) => n + m.values.length, 0));
    const definitions = results.reduce((n, r) => n + r.definitions, 0);
    expect(packages.size).toBeGreaterThan(40);
    expect(values).toBeGreaterThan(30_000);
    expect(templates).toBeGreaterThanOrEqual(89);
    expect(choices).toBeGreaterThanOrEqual(317);
    expect(instances).toBeGreaterThanOrEqual(53);
    expect(ifaceChoices).toBeGreaterThanOrEqual(58);
    expect(definitions).toBe(
      count((p) =>
        modules(p).reduce(
          (n, m) =>
            n + m.dataTypes.length + m.synonyms.length + m.values.length + m.templates.length + m.interfaces.length + m.exceptions.length,
          0,
        ),
      ),
    );
    const names = new Set([...packages.values()].map((p) => p.name));
    for (const n of ['splice-test-token-v1', 'splice-amulet', 'splice-api-token-transfer-instruction-v1', 'daml-stdlib', 'daml-prim'])
      expect(names, n).toContain(n);
  }, 300_000);
});
