/**
 * The simulator's validator-app answers checked against the Splice OpenAPI files at compile time. There is no
 * published package with the wallet-internal / validator-internal types, so this test generates them with
 * openapi-typescript from ../shared/reference/splice (a temp copy whose cross-file `$ref`s point at the flat
 * folder), writes a module that fills `SpliceAnswers` (src/simulator/wallet/http.ts) with each operation's 2xx JSON
 * answer by declaration merging, and type-checks the validator routes with it: a handler whose answer drifts from
 * the spec (a field renamed, retyped or missing) is a type error here. A missing spec file fails the test.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { referenceDir } from '../integration/simulator/helpers.js';

const repo = path.resolve(import.meta.dirname, '../..');
const spliceDir = path.join(referenceDir, 'splice');

/** Spec files the validator routes serve, with the prefix the simulator serves their paths under. */
const SERVED: { file: string; prefix: string }[] = [
  { file: 'wallet-internal', prefix: '' },
  { file: 'wallet-external', prefix: '' },
  { file: 'validator-internal', prefix: '' },
  { file: 'scan-proxy', prefix: '' },
  // the registry APIs, served under the validator's scan proxy (src/simulator/wallet/routes-registry.ts)
  { file: 'token-standard/token-metadata-v1', prefix: '/v0/scan-proxy' },
  { file: 'token-standard/transfer-instruction-v1', prefix: '/v0/scan-proxy' },
  { file: 'token-standard/allocation-instruction-v1', prefix: '/v0/scan-proxy' },
  { file: 'token-standard/allocation-v1', prefix: '/v0/scan-proxy' },
];
/** Referenced by the files above. */
const REFERENCED = ['common-external', 'common-internal', 'scan'];
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;
/**
 * Routes whose answer is not checked yet, with the reason. Each must be served and in a spec (checked below), so the
 * list cannot go stale silently.
 */
const NOT_CHECKED: Record<string, string> = {
  'POST /v0/wallet/transactions':
    "items are the log entries `log()` stores (app-store.ts, typed loosely); the spec's items are a union by transaction_type",
};

const tmp = mkdtempSync(path.join(os.tmpdir(), 'splice-types-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Copies a spec into the temp dir with its cross-file `$ref`s pointing at the flat copies. */
function copySpec(name: string): void {
  const text = readFileSync(path.join(spliceDir, `${name}.yaml`), 'utf8');
  const up = name.includes('/') ? '../' : './';
  const rewritten = text.replaceAll(/(?:\.\.\/)+common\/src\/main\/openapi\/(common-[a-z]+)\.yaml#/g, `${up}$1.yaml#`);
  mkdirSync(path.dirname(path.join(tmp, name)), { recursive: true });
  writeFileSync(path.join(tmp, `${name}.yaml`), rewritten);
}

const ident = (file: string) => path.basename(file).replaceAll(/[^a-zA-Z0-9]+(.)/g, (_m, c: string) => c.toUpperCase());
const importPath = (from: string, to: string) => {
  const rel = path.relative(path.dirname(from), to).replaceAll(path.sep, '/');
  return rel.startsWith('.') ? rel : `./${rel}`;
};

describe('Splice OpenAPI answer types', { timeout: 300_000 }, () => {
  it('every validator-app route answers with the type the Splice specs declare', async () => {
    for (const name of [...REFERENCED, ...SERVED.map((s) => s.file)]) copySpec(name);

    const entries: string[] = [];
    const specKeys = new Set<string>();
    const imports: string[] = [];
    for (const { file, prefix } of SERVED) {
      // `type: object` without properties (a contract payload, a choice context) is any object, not an empty one
      const ast = await openapiTS(pathToFileURL(path.join(tmp, `${file}.yaml`)), { emptyObjectsUnknown: true });
      writeFileSync(path.join(tmp, `${file}.ts`), astToString(ast));
      const spec = parse(readFileSync(path.join(tmp, `${file}.yaml`), 'utf8')) as { paths?: Record<string, Record<string, unknown>> };
      const id = ident(file);
      imports.push(`import type { paths as ${id} } from './${file}.js';`);
      for (const [p, item] of Object.entries(spec.paths ?? {}))
        for (const m of METHODS) {
          const key = `${m.toUpperCase()} ${prefix}${p}`;
          if (item[m] === undefined) continue;
          specKeys.add(key);
          if (NOT_CHECKED[key] === undefined) entries.push(`    '${key}': Answer<${id}['${p}']['${m}']>;`);
        }
    }
    expect(entries.length).toBeGreaterThan(50);
    expect(Object.keys(NOT_CHECKED).filter((k) => !specKeys.has(k))).toEqual([]);

    const check = path.join(tmp, 'check.ts');
    const http = path.join(repo, 'src/simulator/wallet/http.js');
    writeFileSync(
      check,
      [
        ...imports,
        `import '${importPath(check, path.join(repo, 'src/simulator/wallet/routes.js'))}';`,
        '',
        "/** The JSON body of an operation's 2xx answer (`unknown` when it has none). */",
        'type Json<R> = R extends { content: { "application/json": infer J } } ? J : unknown;',
        'type Answer<Op> = Op extends { responses: infer R }',
        '  ? 200 extends keyof R ? Json<R[200]> : 201 extends keyof R ? Json<R[201]> : unknown',
        '  : unknown;',
        '',
        `declare module '${importPath(check, http)}' {`,
        '  interface SpliceAnswers {',
        ...entries,
        '  }',
        '}',
        '',
      ].join('\n'),
    );

    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(repo, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    );
    if (config === undefined) throw new Error('tsconfig.json could not be read');
    const program = ts.createProgram([check], { ...config.options, noEmit: true, incremental: false });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${path.relative(repo, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    if (process.env.SPLICE_TYPES_KEEP) writeFileSync(process.env.SPLICE_TYPES_KEEP, diagnostics.join('\n\n'));
    expect(diagnostics).toEqual([]);
  });
});
