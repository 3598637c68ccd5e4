/** `npm run build`: the renderer (Vite) and the Electron bundles (esbuild). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as viteBuild } from 'vite';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildRenderer(): Promise<void> {
  await viteBuild({ configFile: path.join(ROOT, 'renderer/vite.config.ts'), logLevel: 'warn' });
}

export async function buildAll(): Promise<void> {
  await buildRenderer();
  const { buildElectron } = await import('./build-electron.js');
  await buildElectron();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildAll().then(
    () => console.log('build complete: dist/renderer, dist/electron'),
    (err: unknown) => {
      console.error(`build failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
