import { defineConfig } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: 'test/e2e',
  // The console process each spec starts runs the prebuilt browser-host bundle: build it once, first.
  globalSetup: './test/support/global-setup.ts',
  // backstops, sized for a loaded 2-core machine (CI): every wait in the specs is on a condition
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 2,
  retries: 0,
  use: {
    browserName: 'chromium',
    viewport: { width: 1400, height: 900 },
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'off',
  },
});
