/**
 * Whether the prebuilt command-line bundles (scripts/cli-bundle.mjs builds them) are fresh. CommonJS on purpose:
 * scripts/run.cjs loads this at every `npm run sim` / `npm start`, and Node starts a CommonJS file ~10 ms sooner than
 * an ES module (no module loader to set up).
 *
 * `dist/cli/bundles.json` records when the build started and every local source file esbuild read (its metafile). A
 * bundle is stale when one of those files, package-lock.json, tsconfig.json or scripts/cli-bundle.mjs is newer, or
 * gone. A file the sources do not import yet cannot change the bundle until an imported file changes.
 */
'use strict';
const { readFileSync, stat, statSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const OUT_DIR = path.join(ROOT, 'dist/cli');
const manifestIn = (root) => path.join(root, 'dist/cli/bundles.json');
const MANIFEST = manifestIn(ROOT);

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

function readManifest(root) {
  try {
    return JSON.parse(readFileSync(manifestIn(root), 'utf8'));
  } catch {
    return null;
  }
}

const mtimeIn = (root) => (rel) => {
  try {
    return statSync(path.join(root, rel)).mtimeMs;
  } catch {
    return null;
  }
};

/** Why the bundles of checkout `root` must be rebuilt, or null when they are fresh. One stat per source file. */
function staleReason(root = ROOT) {
  return staleReasonFor(readManifest(root), root, mtimeIn(root));
}

/**
 * staleReason() with every stat issued at once to libuv's threads, so the launcher reads and compiles the bundle
 * while the ~400 stats run.
 */
function staleReasonAsync(root = ROOT) {
  const manifest = readManifest(root);
  if (manifest === null || manifest.root !== root) return Promise.resolve(staleReasonFor(manifest, root, mtimeIn(root)));
  const rels = [
    ...[...Object.keys(ENTRIES), ...manifest.workers].map((name) => `dist/cli/${name}.cjs`),
    ...Object.values(WORKERS),
    ...ALWAYS,
    ...manifest.inputs,
  ];
  return new Promise((resolve) => {
    const mtimes = new Map();
    let pending = rels.length;
    for (const rel of rels) {
      stat(path.join(root, rel), (err, st) => {
        mtimes.set(rel, err ? null : st.mtimeMs);
        if (--pending === 0) resolve(staleReasonFor(manifest, root, (r) => (mtimes.has(r) ? mtimes.get(r) : mtimeIn(root)(r))));
      });
    }
  });
}

module.exports = { ROOT, OUT_DIR, MANIFEST, ENTRIES, WORKERS, staleReasonFor, staleReason, staleReasonAsync };
