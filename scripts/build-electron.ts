/**
 * Bundles the Electron shell with esbuild:
 *   electron/main.ts    → dist/electron/main.cjs     (Node, CJS, everything bundled except Electron and native modules)
 *   electron/preload.ts → dist/electron/preload.cjs  (sandboxed preload: one self-contained file, requires only 'electron')
 *   src/dar-reader/dar-worker.ts → dist/electron/dar-worker.cjs (the DAR reader thread of the simulator and the console; found
 *                         beside main.cjs at run time and unpacked from the asar archive, see electron-builder.yml)
 *
 * The package is "type": "module", so the bundles use the .cjs extension to be loaded as CommonJS.
 * `import.meta.url` (used by src/ to find package.json and resources) is defined from `__filename`
 * in the main bundle; anywhere else an `import.meta` in a CJS bundle fails the build instead of
 * silently becoming `{}`.
 *
 * Usage: `tsx scripts/build-electron.ts` or `await buildElectron()` (scripts/build.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Loaded at run time from node_modules (native code, rebuilt for Electron by electron-builder). */
export const MAIN_EXTERNALS = ['electron', 'better-sqlite3', '@napi-rs/keyring'] as const;

export interface BuildElectronOptions {
  /** Output directory; default dist/electron. Tests build into a temporary directory. */
  outDir?: string;
  minify?: boolean;
}

const IMPORT_META_URL = '__consoleImportMetaUrl';

function commonOptions(outDir: string, minify: boolean): BuildOptions {
  return {
    absWorkingDir: ROOT,
    bundle: true,
    format: 'cjs',
    outdir: outDir,
    outExtension: { '.js': '.cjs' },
    sourcemap: 'linked',
    minify,
    legalComments: 'none',
    logLevel: 'silent',
    // A CJS bundle has no import.meta: refuse to produce one where it would silently be {}.
    logOverride: { 'empty-import-meta': 'error' },
  };
}

export async function buildElectron(options: BuildElectronOptions = {}): Promise<void> {
  const outDir = path.resolve(ROOT, options.outDir ?? 'dist/electron');
  const minify = options.minify ?? false;

  await Promise.all([
    build({
      ...commonOptions(outDir, minify),
      entryPoints: { main: path.join(ROOT, 'electron/main.ts') },
      platform: 'node',
      target: 'node20',
      external: [...MAIN_EXTERNALS],
      define: {
        'import.meta.url': IMPORT_META_URL,
        'import.meta.dirname': '__dirname',
        'import.meta.filename': '__filename',
      },
      banner: { js: `"use strict";\nconst ${IMPORT_META_URL} = require("node:url").pathToFileURL(__filename).href;` },
    }),
    build({
      ...commonOptions(outDir, minify),
      entryPoints: { 'dar-worker': path.join(ROOT, 'src/dar-reader/dar-worker.ts') },
      platform: 'node',
      target: 'node20',
    }),
    build({
      ...commonOptions(outDir, minify),
      entryPoints: { preload: path.join(ROOT, 'electron/preload.ts') },
      // 'browser': a sandboxed preload has no Node built-ins, so importing one must fail the build.
      platform: 'browser',
      target: 'chrome120',
      external: ['electron'],
    }),
  ]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildElectron().then(
    () => console.log('built dist/electron/main.cjs, preload.cjs and dar-worker.cjs'),
    (err: unknown) => {
      console.error(`electron build failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
