/** Sums the vitest and Playwright JSON reports into the one closing line CI counts. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

function usage(): never {
  console.error('usage: test-summary <results-dir>');
  process.exit(2);
}
const dir: string = process.argv[2] ?? usage();

const Vitest = z.object({
  numPassedTests: z.number(),
  numFailedTests: z.number(),
  numPendingTests: z.number().optional(),
  numTodoTests: z.number().optional(),
});
const Playwright = z.object({ stats: z.object({ expected: z.number(), unexpected: z.number(), flaky: z.number(), skipped: z.number() }) });

function read(file: string): unknown {
  const p = path.join(dir, file);
  return existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : null;
}
function rc(file: string): number {
  const p = path.join(dir, file);
  return existsSync(p) ? Number(readFileSync(p, 'utf8').trim()) : 1;
}

let passed = 0;
let failed = 0;
let skipped = 0;
const problems: string[] = [];

const v = Vitest.safeParse(read('vitest.json'));
if (v.success) {
  passed += v.data.numPassedTests;
  failed += v.data.numFailedTests;
  skipped += (v.data.numPendingTests ?? 0) + (v.data.numTodoTests ?? 0);
} else problems.push('vitest produced no report');
if (rc('vitest.rc') !== 0 && (!v.success || v.data.numFailedTests === 0)) {
  failed += 1;
  problems.push(`vitest exited ${rc('vitest.rc')}`);
}

const p = Playwright.safeParse(read('playwright.json'));
if (p.success) {
  passed += p.data.stats.expected + p.data.stats.flaky;
  failed += p.data.stats.unexpected;
  skipped += p.data.stats.skipped;
} else problems.push('playwright produced no report');
if (rc('playwright.rc') !== 0 && (!p.success || p.data.stats.unexpected === 0)) {
  failed += 1;
  problems.push(`playwright exited ${rc('playwright.rc')}`);
}

if (rc('typecheck.rc') !== 0) {
  failed += 1;
  problems.push('type checking (tsc / svelte-check) failed');
}

if (rc('format.rc') !== 0) {
  failed += 1;
  problems.push('format check (prettier --check .) failed: run npm run format');
}

if (rc('layers.rc') !== 0) {
  failed += 1;
  problems.push('layer rules (npm run lint:layers, .dependency-cruiser.cjs) failed');
}

if (rc('lint.rc') !== 0) {
  failed += 1;
  problems.push('lint (npm run lint, eslint.config.js ENFORCED) failed');
}

for (const line of problems) console.log(`note: ${line}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
