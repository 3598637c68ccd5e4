/**
 * The Electron bundles built once per test file with the real build script into a temporary directory, and the two
 * ways the tests run them: scanning their `require` calls, and running their CommonJS code with given bindings.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll } from 'vitest';
import { buildElectron } from '../../../scripts/build-electron.js';

export interface BuiltElectron {
  outDir: string;
  preloadCode: string;
  mainCode: string;
}

/** Builds the bundles before the file's tests and removes them after; read the result inside tests only. */
export function useBuiltElectron(): () => BuiltElectron {
  let built: BuiltElectron | undefined;
  beforeAll(async () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'console-electron-bundle-'));
    await buildElectron({ outDir });
    built = {
      outDir,
      preloadCode: readFileSync(path.join(outDir, 'preload.cjs'), 'utf8'),
      mainCode: readFileSync(path.join(outDir, 'main.cjs'), 'utf8'),
    };
  }, 60_000);
  afterAll(() => {
    if (built) rmSync(built.outDir, { recursive: true, force: true });
  });
  return () => {
    if (!built) throw new Error('the Electron bundles are read before they were built');
    return built;
  };
}

/** Every `require(...)` call in a bundle: the literal specifier, or null for a computed one. */
export function requiresIn(code: string): (string | null)[] {
  const found: (string | null)[] = [];
  for (const m of code.matchAll(/\brequire\s*\(\s*([^)]*?)\s*\)/g)) {
    const arg = m[1] ?? '';
    const literal = /^(["'`])([^"'`]+)\1$/.exec(arg);
    found.push(literal ? (literal[2] ?? null) : null);
  }
  return found;
}

/** Runs a CommonJS bundle's code with the given module-scope bindings, as Node's and Electron's loaders wrap a file. */
export function runCommonJs(code: string, scope: Record<string, unknown>): void {
  const names = Object.keys(scope);
  const run = vm.compileFunction(code, names) as (...args: unknown[]) => void;
  run(...names.map((n) => scope[n]));
}
