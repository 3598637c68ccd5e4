/**
 * `node scripts/run.mjs NAME [args…]` — what `npm run sim` and `npm start` run: the prebuilt bundle
 * dist/cli/NAME.cjs (scripts/cli-bundle.mjs), rebuilt first when a source changed.
 *
 * The bundle is compiled through `vm.Script` with V8's code cache (dist/cli/NAME.cjs.v8cache, written a moment
 * after start, or at exit if that comes first, so it covers the functions the start-up ran): compiling ~3 MB of
 * JavaScript is most of what is left of the start-up once nothing is transpiled. A cache that V8 rejects (other
 * Node version, rebuilt bundle) is ignored and rewritten. Node 22's module.enableCompileCache() would do the same,
 * but CI runs Node 20.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { ENTRIES, OUT_DIR, ensureCliBundles } from './cli-bundle.mjs';
import { installStackMapping } from './stack-map.mjs';

const [name, ...args] = process.argv.slice(2);
if (name === undefined || !Object.hasOwn(ENTRIES, name)) {
  process.stderr.write(`usage: node scripts/run.mjs ${Object.keys(ENTRIES).join('|')} [args…]\n`);
  process.exit(2);
}

try {
  await ensureCliBundles();
} catch (err) {
  process.stderr.write(`building dist/cli failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

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
const run = script.runInThisContext();
run.call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
