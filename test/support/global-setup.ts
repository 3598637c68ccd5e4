/**
 * vitest globalSetup: the tests start `npm run sim`, `npm start` and the browser host as their prebuilt bundles
 * (scripts/run.cjs), so build them once here, before the test files run in parallel.
 */
import { ensureCliBundles } from '../../scripts/cli-bundle.mjs';

export default async function setup(): Promise<void> {
  await ensureCliBundles();
}
