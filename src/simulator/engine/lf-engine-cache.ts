/**
 * The Daml-LF engine of a package registry, kept across submissions: packages decoded on first use (uploaded ones
 * only), compiled code and evaluated top-level values cached.
 */
import type { PackageAst } from '../../daml-lf/ast/ast.js';
import { readDalfAst } from '../../daml-lf/ast/decode-package.js';
import type { PackageRegistry } from '../packages/registry.js';
import { LfEngine } from './lf/engine.js';
import { LedgerOps } from './lf/ledger/ops.js';

interface EngineState {
  engine: LfEngine;
  asts: Map<string, PackageAst>;
}

const engines = new WeakMap<PackageRegistry, EngineState>();

/** The engine of a registry: packages decoded on first use, compiled code and evaluated values kept across submissions. */
export function engineFor(registry: PackageRegistry): EngineState {
  let st = engines.get(registry);
  if (!st) {
    const asts = new Map<string, PackageAst>();
    const source = {
      get: (id: string): PackageAst | undefined => {
        let a = asts.get(id);
        if (!a) {
          const p = registry.package(id);
          if (!p?.uploaded) return undefined;
          a = readDalfAst(p.archive);
          asts.set(id, a);
        }
        return a;
      },
    };
    st = { engine: new LfEngine(source, new LedgerOps()), asts };
    engines.set(registry, st);
  }
  return st;
}
