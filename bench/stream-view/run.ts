/**
 * Stream-view bench (not part of the tests): builds a page with the real virtualized UpdateList,
 * fills it with 100,000 update summaries and measures in Debian's Chromium via Playwright:
 * time to the first painted frame, row elements in the DOM, a jump to the middle and a live batch
 * of 2,000 newer updates. Baseline in the same run: the same rows rendered without virtualization.
 *
 *   npx tsx bench/stream-view/run.ts [--n 100000] [--baseline-n 100000]
 */
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { build } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg('n', 100_000);
const BASELINE_N = arg('baseline-n', N);
const RUNS = arg('runs', 3);

const TARGET_RENDER_MS = 300;
const TARGET_ROWS = 1_000;

async function main() {
  const out = mkdtempSync(path.join(os.tmpdir(), 'bench-stream-view-'));
  await build({
    root: path.join(here, 'page'),
    base: './',
    logLevel: 'warn',
    configFile: false,
    plugins: [svelte()],
    build: { outDir: out, emptyOutDir: true, target: 'es2022', modulePreload: { polyfill: false } },
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const file = path.join(out, url.pathname === '/' ? 'index.html' : path.normalize(url.pathname));
    if (!file.startsWith(out)) return void res.writeHead(400).end();
    try {
      const body = readFileSync(file);
      const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html';
      res.writeHead(200, { 'content-type': type }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });

  type Result = Awaited<ReturnType<Window['__run']>>;
  async function measure(mode: 'virtual' | 'naive', n: number): Promise<Result> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${origin}/?n=${n}&mode=${mode}`);
    await page.waitForFunction(() => typeof window.__run === 'function');
    const r = await page.evaluate(() => window.__run());
    await page.close();
    return r;
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

  try {
    await measure('virtual', 1_000); // warm-up
    const virtual: Result[] = [];
    for (let i = 0; i < RUNS; i++) virtual.push(await measure('virtual', N));
    const naive = await measure('naive', BASELINE_N);

    const v = {
      renderMs: median(virtual.map((r) => r.renderMs)),
      scrollMs: median(virtual.map((r) => r.scrollMs)),
      appendMs: median(virtual.map((r) => r.appendMs)),
      rows: Math.max(...virtual.map((r) => r.rows)),
      rowsAfter: Math.max(...virtual.map((r) => r.rowsAfter)),
      generateMs: median(virtual.map((r) => r.generateMs)),
    };
    const f = (x: number) => x.toFixed(1).padStart(9);
    console.log(`stream-view bench — ${N.toLocaleString('en')} updates, Chromium ${browser.version()}, median of ${RUNS} runs`);
    console.log(`                          virtualized   baseline (all ${BASELINE_N.toLocaleString('en')} rows in the DOM)`);
    console.log(`first render (ms)          ${f(v.renderMs)}   ${f(naive.renderMs)}   ratio ${(naive.renderMs / v.renderMs).toFixed(1)}×`);
    console.log(`jump to middle (ms)        ${f(v.scrollMs)}   ${f(naive.scrollMs)}`);
    console.log(`+2,000 live updates (ms)   ${f(v.appendMs)}           —`);
    console.log(
      `row elements in the DOM    ${String(v.rows).padStart(9)}   ${String(naive.rows).padStart(9)}   ` +
        `ratio ${(naive.rows / v.rows).toFixed(0)}×`,
    );
    console.log(`rows after live batch      ${String(v.rowsAfter).padStart(9)}`);
    console.log(`(generating ${N.toLocaleString('en')} summaries, not timed above: ${v.generateMs.toFixed(1)} ms)`);
    const ok = v.renderMs < TARGET_RENDER_MS && v.rows < TARGET_ROWS;
    console.log(
      `targets: first render < ${TARGET_RENDER_MS} ms, DOM rows < ${TARGET_ROWS.toLocaleString('en')} → ${ok ? 'met' : 'NOT met'}`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    await browser.close();
    server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
