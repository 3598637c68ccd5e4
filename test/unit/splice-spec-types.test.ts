/**
 * The simulator's validator-app routes and the console's validator client checked against the Splice OpenAPI files
 * at compile time. There is no published package with the wallet-internal / validator-internal types, so this test
 * generates them with openapi-typescript from ../shared/reference/splice (a temp copy whose cross-file `$ref`s point
 * at the flat folder), writes a module that fills `SpliceOperations` (src/common/splice-api.ts) with each operation's
 * 2xx JSON answer and JSON request body by declaration merging, and type-checks the wallet modules with it:
 * - a route handler whose answer drifts from the spec (a field renamed, retyped or missing) is a type error;
 * - a route's zod request schema (`parsedBody`) must read the spec's request body both ways: every spec body parses,
 *   and what it parses to is a spec body (src/simulator/wallet/http.ts, `Reads`);
 * - a body the console's `ValidatorClient` posts must be a spec request body, and its answer schemas must accept every
 *   answer the spec allows (they may read only the fields the console uses).
 * Planted drifts (planted.ts below) must fail each check. A missing spec file fails the test.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
 * Operations whose request body the simulator deliberately reads more loosely than the spec, with the reason. For
 * these `parsedBody` checks only that every spec body parses, and that the exact check fails: a schema brought in line
 * with the spec makes its entry here a type error, so the list cannot go stale.
 */
const ACCEPTS_MORE: Record<string, string> = {};

/**
 * Operations with a spec request body that no `parsedBody` reads, with the reason. Each must have a spec request body
 * and no reader (checked below), so the list cannot go stale.
 */
const BODY_NOT_READ: Record<string, string> = {
  'POST /v0/register': 'the optional RegistrationRequest has no field the simulator uses (the user is onboarded by its token)',
  'POST /v0/wallet/self-grant-feature-app-right': 'the optional SelfGrantFeaturedAppRightRequest has no field the simulator uses',
  'POST /v2/allocations': 'not served by the simulator (it serves the v0 allocation API)',
};

/** The wallet modules type-checked with the spec types: the simulator's routes and the console's validator client. */
const ROUTES_DIR = path.join(repo, 'src/simulator/wallet');
const CHECKED_DIRS = [ROUTES_DIR, path.join(repo, 'src/services/wallet')];

const inChecked = (file: string) => CHECKED_DIRS.some((d) => file.startsWith(d + path.sep));
/** What a module does to use the spec types: registers routes, reads bodies, or posts to the validator client. */
const USES_SPEC = /\b(?:add|parsedBody)\(|\.(?:post|put)\(/;

/** Inside the repo, so the planted module resolves zod as the sources do; node_modules keeps it out of git. */
const tmp = mkdtempSync(path.join(repo, 'node_modules', '.splice-types-'));
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
const moduleOf = (file: string) => {
  const rel = path.relative(tmp, path.join(repo, file)).replaceAll(path.sep, '/');
  return rel.startsWith('.') ? rel : `./${rel}`;
};

/** The operations of the served specs as `SpliceOperations` entries; `keys` are all operations, `withBody` those with a request body. */
async function specOperations(): Promise<{ imports: string[]; entries: string[]; keys: Set<string>; withBody: Set<string> }> {
  const out = { imports: [] as string[], entries: [] as string[], keys: new Set<string>(), withBody: new Set<string>() };
  for (const { file, prefix } of SERVED) {
    // `type: object` without properties (a contract payload, a choice context) is any object, not an empty one; a
    // property with a `default` may be left out (the defaults are in request bodies: `verbose_hashing`, …)
    const ast = await openapiTS(pathToFileURL(path.join(tmp, `${file}.yaml`)), { emptyObjectsUnknown: true, defaultNonNullable: false });
    writeFileSync(path.join(tmp, `${file}.ts`), astToString(ast));
    const spec = parse(readFileSync(path.join(tmp, `${file}.yaml`), 'utf8')) as { paths?: Record<string, Record<string, unknown>> };
    const id = ident(file);
    out.imports.push(`import type { paths as ${id} } from './${file}.js';`);
    for (const [p, item] of Object.entries(spec.paths ?? {}))
      for (const m of METHODS) {
        const op = item[m] as { requestBody?: unknown } | undefined;
        if (op === undefined) continue;
        const key = `${m.toUpperCase()} ${prefix}${p}`;
        const ref = `${id}['${p}']['${m}']`;
        out.keys.add(key);
        const fields = [`answer: Answer<${ref}>;`];
        if (op.requestBody !== undefined) {
          out.withBody.add(key);
          fields.push(`request: Request<${ref}>;`);
          if (ACCEPTS_MORE[key] !== undefined) fields.push('acceptsMore: true;');
        }
        out.entries.push(`    '${key}': { ${fields.join(' ')} };`);
      }
  }
  return out;
}

/** Drifts each check must catch, one per line, each marked `// drift`; the other lines must type-check. */
const PLANTED = [
  "import { z } from 'zod';",
  `import { ok, parsedBody, type RouteCtx, type WalletHandler } from '${moduleOf('src/simulator/wallet/http.js')}';`,
  `import type { ValidatorClient } from '${moduleOf('src/services/wallet/validator-client.js')}';`,
  "declare const ctx: RouteCtx<'POST /v0/wallet/tap'>;",
  'declare const client: ValidatorClient;',
  'export const planted = [',
  '  parsedBody(ctx, z.object({ amount: z.string(), command_id: z.string().optional() })),',
  '  parsedBody(ctx, z.object({ amount: z.string() })),',
  '  parsedBody(ctx, z.object({ amount: z.number() })), // drift',
  '  parsedBody(ctx, z.object({ amonut: z.string() })), // drift',
  '  parsedBody(ctx, z.object({ amount: z.string().optional() })), // drift',
  '  parsedBody(ctx, z.object({ amount: z.string(), reason: z.string() })), // drift',
  '  parsedBody(ctx as RouteCtx, z.object({ amount: z.string() })), // drift',
  "  client.post('/v0/wallet/tap', { amount: '1' }, z.unknown()),",
  "  client.post('/v0/wallet/tap', { amonut: '1' }, z.unknown()), // drift",
  "  client.post('/v0/wallet/tap', { amount: 1 }, z.unknown()), // drift",
  "  client.post('/v0/wallet/transfer-offers', { amount: '1' }, z.unknown()), // drift",
  "  client.post(`/v0/wallet/development-fund-coupons/${String(1)}/withdraw`, { reason: 'r' }, z.unknown()),",
  '  client.post(`/v0/wallet/development-fund-coupons/${String(1)}/withdraw`, {}, z.unknown()), // drift',
  "  client.post(String('/v0/wallet/tap'), { amount: '1' }, z.unknown()), // drift",
  "  client.get('/v0/wallet/user-status', z.object({ party_id: z.string() })),",
  "  client.get('/v0/wallet/user-status', z.object({ party_id: z.number() })), // drift",
  "  client.get('/v0/wallet/user-status', z.object({ party: z.string() })), // drift",
  '  client.post(`/v0/wallet/transfer-offers/${String(1)}/accept`, {}, z.object({ accepted_offer_contract_id: z.number() })), // drift',
  '  client.get(`/v0/admin/external-party/balance?party_id=${String(1)}`, z.object({ party_id: z.boolean() })), // drift',
  '];',
  "export const answers: WalletHandler<'POST /v0/wallet/tap'>[] = [",
  "  () => ok({ contract_id: '00' }),",
  "  () => ok({ contractId: '00' }), // drift",
  '];',
  '// an ACCEPTS_MORE route: a schema that accepts more passes, an exact one means the entry is stale',
  `declare module '${moduleOf('src/common/splice-api.js')}' {`,
  "  interface SpliceOperations { 'POST /planted': { answer: unknown; request: { a: string }; acceptsMore: true } }",
  '}',
  "declare const lenient: RouteCtx<'POST /planted'>;",
  'export const acceptsMore = [',
  '  parsedBody(lenient, z.object({ a: z.string().optional() })),',
  '  parsedBody(lenient, z.object({ a: z.string() })), // drift',
  '  parsedBody(lenient, z.object({ a: z.number().optional() })), // drift',
  '];',
];

function tsOptions(): ts.CompilerOptions {
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
  return { ...config.options, noEmit: true, incremental: false, skipLibCheck: true };
}

/** The `METHOD /path` keys `parsedBody` is called with in `files` (read from the type of its context argument). */
function bodyReaders(program: ts.Program, files: readonly ts.SourceFile[]): Set<string> {
  const checker = program.getTypeChecker();
  const keys = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'parsedBody' && n.arguments[0]) {
      const route = checker.getTypeAtLocation(n.arguments[0]).getProperty('spliceRoute');
      const t = route && checker.getTypeOfSymbolAtLocation(route, n);
      for (const u of t === undefined ? [] : t.isUnion() ? t.types : [t]) if (u.isStringLiteral()) keys.add(u.value);
    }
    ts.forEachChild(n, visit);
  };
  for (const f of files) visit(f);
  return keys;
}

describe('Splice OpenAPI types', { timeout: 300_000 }, () => {
  it('every validator-app route answers and reads bodies, and the console posts bodies, as the Splice specs declare', async () => {
    for (const name of [...REFERENCED, ...SERVED.map((s) => s.file)]) copySpec(name);
    const ops = await specOperations();
    expect(ops.entries.length).toBeGreaterThan(50);
    expect(ops.withBody.size).toBeGreaterThan(20);
    expect(Object.keys(ACCEPTS_MORE).filter((k) => !ops.withBody.has(k))).toEqual([]);

    const check = path.join(tmp, 'check.ts');
    writeFileSync(
      check,
      [
        ...ops.imports,
        '',
        'type Json<R> = R extends { content: { "application/json": infer J } } ? J : unknown;',
        "/** The JSON body of an operation's 2xx answer (`unknown` when it has none). */",
        'type Answer<Op> = Op extends { responses: infer R }',
        '  ? 200 extends keyof R ? Json<R[200]> : 201 extends keyof R ? Json<R[201]> : unknown',
        '  : unknown;',
        '/** The JSON request body of an operation. */',
        'type Request<Op> = Op extends { requestBody?: infer B } ? Json<NonNullable<B>> : unknown;',
        '',
        `declare module '${moduleOf('src/common/splice-api.js')}' {`,
        '  interface SpliceOperations {',
        ...ops.entries,
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const planted = path.join(tmp, 'planted.ts');
    writeFileSync(planted, PLANTED.join('\n') + '\n');

    const sources = CHECKED_DIRS.flatMap((d) =>
      readdirSync(d)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => path.join(d, f)),
    );
    const program = ts.createProgram([check, planted, ...sources], tsOptions());
    // Only the generated modules and the wallet modules that use the spec types are checked (npm run typecheck checks
    // the rest): the rest of the graph is read for the types they need, not checked, which more than halves the type-check.
    const checked = program
      .getSourceFiles()
      .filter((f) => f.fileName.startsWith(tmp + path.sep) || (inChecked(f.fileName) && USES_SPEC.test(f.text)));
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...checked.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
    ];
    const where = (d: ts.Diagnostic) =>
      d.file ? `${path.relative(repo, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
    const text = diagnostics.map((d) => `${where(d)} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    if (process.env.SPLICE_TYPES_KEEP) writeFileSync(process.env.SPLICE_TYPES_KEEP, text.join('\n\n'));

    const plantedRel = path.relative(repo, planted);
    expect(text.filter((t) => !t.startsWith(`${plantedRel}:`))).toEqual([]);
    const driftLines = PLANTED.flatMap((l, i) => (l.endsWith('// drift') ? [`${plantedRel}:${i + 1}`] : []));
    expect([...new Set(diagnostics.map(where).filter((w) => w.startsWith(`${plantedRel}:`)))].sort()).toEqual(driftLines.sort());

    // every spec request body has a reader, or a reason in BODY_NOT_READ
    const read = bodyReaders(
      program,
      checked.filter((f) => f.fileName.startsWith(ROUTES_DIR + path.sep)),
    );
    expect([...ops.withBody].filter((k) => !read.has(k) && BODY_NOT_READ[k] === undefined)).toEqual([]);
    expect(Object.keys(BODY_NOT_READ).filter((k) => !ops.withBody.has(k) || read.has(k))).toEqual([]);
  });
});
