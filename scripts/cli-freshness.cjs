/**
 * Whether the prebuilt command-line bundles (scripts/cli-bundle.mjs builds them) are fresh. CommonJS, like the
 * launcher that asks at every start (scripts/run.cjs): loading ES modules costs a start-up 10–20 ms more.
 *
 * `dist/cli/bundles.json` records when the build started and every local source file esbuild read (its metafile). A
 * bundle is stale when one of those files, package-lock.json, tsconfig.json or scripts/cli-bundle.mjs is newer, or
 * gone. A file the sources do not import yet cannot change the bundle until an imported file changes.
 */
'use strict';
const { readFileSync, statSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const OUT_DIR = path.join(ROOT, 'dist/cli');
const MANIFEST = path.join(OUT_DIR, 'bundles.json');

/** Entry points by bundle name. */
const ENTRIES = {
  sim: 'src/cli/sim.ts',
  launch: 'src/cli/launch.ts',
  host: 'src/cli/host-main.ts',
};

/** Worker threads are separate bundles beside the entry bundles; each is found next to its caller's bundle. */
const WORKERS = {
  // The DAR reader thread (src/dar-reader/dar-decoder.ts looks for dar-worker.cjs beside the bundle).
  'dar-worker': 'src/dar-reader/dar-worker.ts',
};

/** Files whose change invalidates every bundle even though esbuild does not list them as inputs. */
const ALWAYS = ['package-lock.json', 'tsconfig.json', 'scripts/cli-bundle.mjs'];

/**
 * Why bundles described by `manifest` must be rebuilt, or null when they are fresh. `mtimeOf(rel)` gives a file's
 * modification time (ms) relative to the checkout, or null when it does not exist.
 */
function staleReasonFor(manifest, root, mtimeOf) {
  if (manifest === null) return 'not built yet';
  if (manifest.root !== root) return 'built in another checkout';
  for (const name of [...Object.keys(ENTRIES), ...manifest.workers]) {
    if (mtimeOf(`dist/cli/${name}.cjs`) === null) return `dist/cli/${name}.cjs is missing`;
  }
  for (const [name, rel] of Object.entries(WORKERS)) {
    if (!manifest.workers.includes(name) && mtimeOf(rel) !== null) return `${rel} is new`;
  }
  for (const rel of [...ALWAYS, ...manifest.inputs]) {
    const mtime = mtimeOf(rel);
    if (mtime === null) return `${rel} is gone`;
    if (mtime > manifest.builtAt) return `${rel} changed`;
  }
  return null;
}

/** Why the bundles must be rebuilt, or null when they are fresh. Cheap: one stat per source file. */
function staleReason() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  } catch {
    manifest = null;
  }
  // the inputs are relative paths with forward slashes, which every platform's fs accepts; no path.join per file
  const prefix = `${ROOT}/`;
  return staleReasonFor(manifest, ROOT, (rel) => statSync(prefix + rel, { throwIfNoEntry: false })?.mtimeMs ?? null);
}

exports.ROOT = ROOT;
exports.OUT_DIR = OUT_DIR;
exports.MANIFEST = MANIFEST;
exports.ENTRIES = ENTRIES;
exports.WORKERS = WORKERS;
exports.staleReasonFor = staleReasonFor;
exports.staleReason = staleReason;
