/**
 * Prebuilt bundles for the command-line entry points (`npm run sim`, `npm start`, the browser host), so they
 * start without transpiling TypeScript at run time. Plain JavaScript on purpose: `scripts/run.cjs` loads this
 * before anything is built.
 *
 *   src/cli/sim.ts    → dist/cli/sim.cjs
 *   src/cli/launch.ts → dist/cli/launch.cjs
 *   src/cli/host-main.ts → dist/cli/host.cjs
 *
 * Everything is bundled except the native modules (better-sqlite3, @napi-rs/keyring) and the build tools the
 * launcher loads only when something is stale (vite, esbuild). dist/cli sits two folders deep like src/cli, and
 * `import.meta.url` is the bundle's own URL, so the sources' `new URL('../../package.json', import.meta.url)`
 * lookups and the DAR worker beside the bundle resolve as they do for dist/electron.
 *
 * Freshness: this file writes `dist/cli/bundles.json` (when the build started, every local source file esbuild
 * read); scripts/bundle-freshness.cjs decides from it whether the bundles are stale.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ENTRIES, MANIFEST, OUT_DIR, ROOT, WORKERS, staleReason } from './bundle-freshness.cjs';

export { ENTRIES, OUT_DIR, ROOT, staleReason, staleReasonAsync, staleReasonFor } from './bundle-freshness.cjs';

/** Loaded at run time from node_modules: native code, and the build tools used only when something is stale. */
export const CLI_EXTERNALS = ['better-sqlite3', '@napi-rs/keyring', 'electron', 'vite', 'esbuild'];

const IMPORT_META_URL = '__consoleImportMetaUrl';

/**
 * Start-up: what the bundles evaluate at load. The sources import only the id constants of
 * @canton-network/core-token-standard, but its one module file also runs the Daml codegen (with @daml/types and
 * lodash) when loaded, about a tenth of the simulator bundle; the bundles get a module holding just the constants,
 * read from the package's own declaration of them (a name it does not declare fails the build). The generated
 * protobuf modules of @canton-network/core-ledger-proto only define message types: marked free of side effects, the
 * files the sources do not use are left out.
 */
const leanImports = {
  name: 'lean-imports',
  setup(b) {
    b.onResolve({ filter: /^@canton-network\/core-token-standard$/ }, () => ({
      path: path.join(ROOT, 'node_modules/@canton-network/core-token-standard/dist/interface-ids.const.d.ts'),
      namespace: 'token-standard-ids',
    }));
    b.onLoad({ filter: /.*/, namespace: 'token-standard-ids' }, (args) => {
      const declared = [...readFileSync(args.path, 'utf8').matchAll(/^export declare const (\w+) = ("[^"\n]*");$/gm)];
      if (declared.length === 0) return { errors: [{ text: `no id constants declared in ${args.path}` }] };
      return { contents: declared.map(([, name, value]) => `export const ${name} = ${value};`).join('\n'), loader: 'js' };
    });
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'lean-imports' || !/core-ledger-proto/.test(`${args.path} ${args.importer}`)) return undefined;
      const r = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'lean-imports',
      });
      if (r.errors.length > 0 || !r.path.includes('/node_modules/@canton-network/core-ledger-proto/')) return undefined;
      return { path: r.path, sideEffects: false };
    });
  },
};

/**
 * esbuild options of the CLI bundles, without entry points and output: `buildCliBundles`, and benchmarks that run a
 * simulator compiled the way `npm run sim` ships it (bench/support/shipped-child.ts).
 */
export function cliBuildOptions() {
  return {
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    external: CLI_EXTERNALS,
    plugins: [leanImports],
    sourcemap: 'linked',
    // Smaller source parses faster; names stay readable in stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    // scripts/run.cjs reads the bundles as Latin-1, which is their text only while every byte is ASCII.
    charset: 'ascii',
    logLevel: 'silent',
    logOverride: { 'empty-import-meta': 'error' },
    define: {
      'import.meta.url': IMPORT_META_URL,
      'import.meta.dirname': '__dirname',
      'import.meta.filename': '__filename',
    },
    banner: { js: `"use strict";const ${IMPORT_META_URL}=require("node:url").pathToFileURL(__filename).href;` },
  };
}

/**
 * Builds every CLI bundle (one esbuild run, so shared modules are parsed once). Outputs are written beside their
 * final names and renamed, so a process loading a bundle while another rebuilds never reads half a file.
 */
export async function buildCliBundles() {
  const { build } = await import('esbuild');
  const builtAt = Date.now();
  const workers = Object.fromEntries(Object.entries(WORKERS).filter(([, rel]) => existsSync(path.join(ROOT, rel))));
  const result = await build({
    ...cliBuildOptions(),
    entryPoints: Object.fromEntries(Object.entries({ ...ENTRIES, ...workers }).map(([name, rel]) => [name, path.join(ROOT, rel)])),
    outdir: OUT_DIR,
    metafile: true,
    write: false,
  });
  mkdirSync(OUT_DIR, { recursive: true });
  // caches written by earlier builds (src/cli/bundle-cache.ts) are keyed by bundle mtime; drop them with their builds
  rmSync(path.join(OUT_DIR, 'cache'), { recursive: true, force: true });
  const suffix = `.${process.pid}.tmp`;
  for (const file of result.outputFiles.filter((f) => f.path.endsWith('.cjs'))) {
    const nonAscii = file.contents.findIndex((b) => b > 0x7f);
    if (nonAscii >= 0) throw new Error(`${path.relative(ROOT, file.path)} has a non-ASCII byte at ${nonAscii}`);
  }
  for (const file of result.outputFiles) writeFileSync(file.path + suffix, file.contents);
  for (const file of result.outputFiles) renameSync(file.path + suffix, file.path);
  const inputs = Object.keys(result.metafile.inputs)
    .filter((f) => !f.startsWith('node_modules/') && !f.includes('/node_modules/'))
    .sort();
  const manifest = { root: ROOT, builtAt, workers: Object.keys(workers), inputs };
  writeFileSync(MANIFEST + suffix, JSON.stringify(manifest, null, 1));
  renameSync(MANIFEST + suffix, MANIFEST);
}

/** Builds the bundles when they are stale; says so on stderr (stdout's first line belongs to the command). */
export async function ensureCliBundles() {
  const reason = staleReason();
  if (reason === null) return;
  process.stderr.write(`building dist/cli (${reason})…\n`);
  await buildCliBundles();
}
