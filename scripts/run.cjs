/**
 * `node scripts/run.cjs NAME [args…]` — what `npm run sim` and `npm start` run: the prebuilt bundle
 * dist/cli/NAME.cjs (scripts/cli-bundle.mjs), rebuilt first when a source changed.
 *
 * The bundle is compiled through `vm.Script` with V8's code cache (dist/cli/NAME.cjs.v8cache, written a moment
 * after start, or at exit if that comes first, so it covers the functions the start-up ran): compiling ~2 MB of
 * JavaScript is most of what is left of the start-up once nothing is transpiled. A cache that V8 rejects (other
 * Node version, rebuilt bundle) is ignored and rewritten. Node 22's module.enableCompileCache() would do the same,
 * but CI runs Node 20.
 *
 * Start-up order: the freshness check's stats go to libuv's threads first, the bundle is read and compiled while
 * they run, and the bundle runs only once they say it is fresh; a stale bundle is rebuilt and loaded again.
 * CommonJS, and the bundle read as Latin-1 (the build keeps it ASCII): each saves a few milliseconds of every start.
 */
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');
const { ENTRIES, OUT_DIR, staleReasonAsync } = require('./bundle-freshness.cjs');
const { installStackMapping } = require('./stack-map.cjs');

/** The compiled bundle `file`, or null when it cannot be read (not built yet: the freshness check says why). */
function compile(file) {
  const cacheFile = `${file}.v8cache`;
  let source;
  try {
    // ASCII only (scripts/cli-bundle.mjs checks), so Latin-1 gives the same string without UTF-8 decoding.
    source = readFileSync(file, 'latin1');
  } catch {
    return null;
  }
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const wrapped = Module.wrap(source);
  const script = new vm.Script(wrapped, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  return {
    file,
    cacheFile,
    script,
    firstLineOffset: wrapped.indexOf(source),
    cacheUsable: cachedData !== undefined && !script.cachedDataRejected,
  };
}

/** Writes the code cache a moment after start (or at exit, if sooner), once the start-up's functions are compiled. */
function scheduleCacheWrite({ script, cacheFile }) {
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

async function main() {
  const [name, ...args] = process.argv.slice(2);
  if (name === undefined || !Object.hasOwn(ENTRIES, name)) {
    process.stderr.write(`usage: node scripts/run.cjs ${Object.keys(ENTRIES).join('|')} [args…]\n`);
    process.exit(2);
  }
  const file = path.join(OUT_DIR, `${name}.cjs`);
  const freshness = staleReasonAsync();
  let compiled = null;
  let compileError;
  try {
    compiled = compile(file);
  } catch (err) {
    // e.g. a bundle of an older build that no longer parses: only an error when the freshness check says it is current
    compileError = err;
  }
  const reason = await freshness;
  if (reason === null && compileError !== undefined) throw compileError;
  if (reason !== null) {
    process.stderr.write(`building dist/cli (${reason})…\n`);
    try {
      const { buildCliBundles } = await import('./cli-bundle.mjs');
      await buildCliBundles();
    } catch (err) {
      process.stderr.write(`building dist/cli failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    }
    compiled = compile(file);
  }
  if (compiled === null) {
    process.stderr.write(`cannot read ${file}\n`);
    process.exit(1);
  }
  if (!compiled.cacheUsable) scheduleCacheWrite(compiled);
  // Stack traces name the TypeScript sources (the bundle's linked source map, read only when a stack is formatted).
  installStackMapping(file, compiled.firstLineOffset);
  // The bundle sees itself as the main script, as `node dist/cli/NAME.cjs args…` would.
  process.argv = [process.argv[0], file, ...args];
  const mod = new Module(file);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  const run = compiled.script.runInThisContext();
  run.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
}

main().catch((err) => {
  // As if the bundle had thrown at the top of a script: Node's own report of an uncaught exception, exit code 1.
  process.nextTick(() => {
    throw err;
  });
});
