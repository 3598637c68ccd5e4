/**
 * The engine on every reference DAR (../shared/reference/dars, must exist): every builtin function the compiled code
 * uses is implemented (100 %), every definition compiles (values, template signatories / observers / preconditions /
 * keys / choices / interface instances, interface choices, exception messages), and evaluating every top-level value
 * either yields a value or fails the way Daml code fails (never an internal error of the engine).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readDar } from '../../../src/daml-lf/index.js';
import { readDalfAst, type PackageAst } from '../../../src/daml-lf/ast/index.js';
import { walkPackage } from '../../../src/daml-lf/ast/walk.js';
import { builtinValue } from '../../../src/simulator/engine/lf/builtins/index.js';
import type { UpdateOps } from '../../../src/simulator/engine/lf/compile-update.js';
import { LfEngine } from '../../../src/simulator/engine/lf/engine.js';
import { EngineError } from '../../../src/simulator/engine/lf/errors.js';
import { K, VBuiltin } from '../../../src/simulator/engine/lf/value.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const darDir = path.resolve(repoRoot, '../shared/reference/dars');

function loadAll(): Map<string, PackageAst> {
  const dars = readdirSync(darDir).filter((n) => n.endsWith('.dar'));
  if (dars.length === 0) throw new Error(`no DARs in ${darDir}`);
  const pkgs = new Map<string, PackageAst>();
  for (const d of dars)
    for (const a of readDar(new Uint8Array(readFileSync(path.join(darDir, d)))).archives)
      if (!pkgs.has(a.packageId)) pkgs.set(a.packageId, readDalfAst(a.bytes));
  return pkgs;
}

/** Ledger builtins that refuse to run (these tests exercise pure evaluation only). */
const noLedger = new VBuiltin('no-ledger', 1, () => {
  throw new EngineError('Internal', 'no ledger');
});
const NO_LEDGER = new Proxy({}, { get: () => () => noLedger }) as UpdateOps;

describe('Daml-LF engine on the reference DARs', () => {
  const pkgs = loadAll();

  it('implements every builtin function the reference DARs use (100 %)', () => {
    const used = new Set<string>();
    for (const p of pkgs.values()) walkPackage(p, (e) => (e.tag === 'builtin' ? used.add(e.fn) : undefined));
    const missing = [...used].filter((b) => builtinValue(b) === undefined);
    expect(missing).toEqual([]);
    expect(used.size).toBeGreaterThanOrEqual(60);
    for (const b of [
      'ADD_NUMERIC',
      'MUL_NUMERIC',
      'DIV_NUMERIC',
      'ROUND_NUMERIC',
      'SHA256_TEXT',
      'EXPLODE_TEXT',
      'GENMAP_INSERT',
      'FAIL_WITH_STATUS',
      'SECP256K1_BOOL',
    ])
      expect(used.has(b), b).toBe(true);
  });

  it('compiles every definition of every package', () => {
    const engine = new LfEngine({ get: (id) => pkgs.get(id) }, NO_LEDGER);
    let n = 0;
    for (const p of pkgs.values())
      for (const m of p.modules) {
        const q = (name: string) => ({ packageId: p.packageId, module: m.name, name });
        for (const v of m.values) {
          engine.defs.valueCode(engine.defs.valueRef(q(v.name)));
          n++;
        }
        for (const t of m.templates) {
          const rt = engine.defs.template(q(t.name));
          expect(rt.signatories.k).toBe(K.Closure);
          expect(rt.observers.k).toBe(K.Closure);
          if (t.precond) expect(rt.precond?.k).toBe(K.Closure);
          if (t.key) expect(rt.key?.maintainers.k).toBe(K.Closure);
          for (const c of t.choices) expect(rt.choice(c.name)).toBeDefined();
          for (const i of t.implements) expect(rt.instance(i.iface)).toBeDefined();
          n++;
        }
        for (const i of m.interfaces) for (const c of i.choices) expect(engine.defs.iface(q(i.name)).choice(c.name)).toBeDefined();
        for (const x of m.exceptions) engine.defs.exceptionMessage(q(x.name));
      }
    expect(n).toBeGreaterThan(30_000);
  });

  it('evaluates every top-level value: a value, or a failure of the Daml code itself, never an engine fault', () => {
    const engine = new LfEngine({ get: (id) => pkgs.get(id) }, NO_LEDGER);
    let ok = 0;
    const faults: string[] = [];
    for (const p of pkgs.values())
      for (const m of p.modules)
        for (const v of m.values) {
          try {
            engine.evaluate({ tag: 'val', ref: { packageId: p.packageId, module: m.name, name: v.name } });
            ok++;
          } catch (e) {
            const daml = e instanceof EngineError && (e.kind === 'FailureStatus' || e.kind === 'UserError');
            if (!daml) faults.push(`${p.name} ${m.name}.${v.name}: ${String(e)}`);
          }
        }
    expect(faults.slice(0, 10)).toEqual([]);
    expect(ok).toBeGreaterThan(28_000);
  });
});
