/**
 * `node scripts/run.cjs NAME [args…]` — what `npm run sim` and `npm start` run: the prebuilt bundle
 * dist/cli/NAME.cjs (scripts/cli-bundle.mjs), rebuilt first when a source changed (scripts/cli-freshness.cjs).
 * CommonJS on purpose: an ES module launcher cost every start 10–20 ms more (BENCHMARKS.md, _Start-up_); the build
 * tools are loaded only when a bundle is stale.
 *
 * The bundle is compiled through `vm.Script` with V8's code cache (dist/cli/NAME.cjs.v8cache, written a moment
 * after start, or at exit if that comes first, so it covers the functions the start-up ran): compiling ~2 MB of
 * JavaScript is most of what is left of the start-up once nothing is transpiled. A cache that V8 rejects (other
 * Node version, rebuilt bundle) is ignored and rewritten. Node 22's module.enableCompileCache() would do the same,
 * but CI runs Node 20.
 */
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');
const { ENTRIES, OUT_DIR, staleReason } = require('./cli-freshness.cjs');
const { installStackMapping } = require('./stack-map.cjs');

const [name, ...args] = process.argv.slice(2);
if (name === undefined || !Object.hasOwn(ENTRIES, name)) {
  process.stderr.write(`usage: node scripts/run.cjs ${Object.keys(ENTRIES).join('|')} [args…]\n`);
  process.exit(2);
}

function run() {
  const file = path.join(OUT_DIR, `${name}.cjs`);
  const cacheFile = `${file}.v8cache`;
  // The bundle sees itself as the main script, as `node dist/cli/NAME.cjs args…` would.
  process.argv = [process.argv[0], file, ...args];

  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const source = readFileSync(file, 'utf8');
  const wrapped = Module.wrap(source);
  // Stack traces name the TypeScript sources (the bundle's linked source map, read only when a stack is formatted).
  installStackMapping(file, wrapped.indexOf(source));
  const script = new vm.Script(wrapped, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cachedData === undefined || script.cachedDataRejected) {
    let written = false;
    const writeCache = () => {
      if (written) return;
      written = true;
      try {
        writeFileSync(`${cacheFile}.${process.pid}.tmp`, script.createCachedData());
        renameSync(`${cacheFile}.${process.pid}.tmp`, cacheFile);
      } catch {
        // A read-only checkout only loses the speed-up.
      }
    };
    setTimeout(writeCache, 2_000).unref();
    // A process stopped sooner (a test, a benchmark, Ctrl-C right after start) still leaves the cache for the next one.
    process.once('exit', writeCache);
  }

  const mod = new Module(file);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  const compiled = script.runInThisContext();
  compiled.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
}

const reason = staleReason();
if (reason === null) {
  run();
} else {
  process.stderr.write(`building dist/cli (${reason})…\n`);
  import('./cli-bundle.mjs')
    .then((bundles) => bundles.buildCliBundles())
    .then(run, (err) => {
      process.stderr.write(`building dist/cli failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
