/**
 * A cache directory that belongs to the running build of the code: for a prebuilt command-line bundle
 * (`dist/cli/NAME.cjs`, scripts/cli-bundle.mjs) `dist/cli/cache/NAME-<mtime>/`, so a rebuilt bundle never reads what
 * an older build wrote (scripts/cli-bundle.mjs removes `dist/cli/cache` when it rebuilds). Undefined when the code
 * runs from its TypeScript sources (tsx, vitest): there no file names the build, and nothing is cached on disk.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function bundleCacheDir(moduleUrl: string): string | undefined {
  if (!moduleUrl.startsWith('file:') || !moduleUrl.endsWith('.cjs')) return undefined;
  const file = fileURLToPath(moduleUrl);
  const dir = path.dirname(file);
  if (path.basename(dir) !== 'cli' || path.basename(path.dirname(dir)) !== 'dist') return undefined;
  try {
    const built = Math.trunc(statSync(file).mtimeMs);
    return path.join(dir, 'cache', `${path.basename(file, '.cjs')}-${built}`);
  } catch {
    return undefined;
  }
}
