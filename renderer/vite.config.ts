/**
 * Vite build of the renderer. Output is loaded by Electron through the app:// scheme and served
 * by the browser host, so every asset URL is relative and nothing is inlined as a script (the
 * CSP in index.html allows only 'self').
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const rendererRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The dev server injects component CSS as <style> elements, which `style-src 'self'` refuses.
 * Relax the policy for `vite serve` only; builds keep the strict policy from index.html.
 */
function devCsp(): Plugin {
  return {
    name: 'console-dev-csp',
    apply: 'serve',
    transformIndexHtml(html) {
      return html
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        .replace("connect-src 'self' ws://127.0.0.1:*", "connect-src 'self' ws://127.0.0.1:* ws://localhost:*");
    },
  };
}

export default defineConfig({
  root: rendererRoot,
  base: './',
  plugins: [svelte(), devCsp()],
  server: {
    host: '127.0.0.1',
    // The renderer imports the IPC contract straight from ../src/ipc.
    fs: { allow: [repoRoot] },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No inline polyfill script, no data: fonts: the CSP forbids both.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});
