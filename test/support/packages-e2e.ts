/**
 * What the Packages specs share: each spec's own console process (its own data dir, port and keychain service) and
 * scratch folder for the DARs it writes, the simulator's HTTP API to check effects against, and opening the view.
 */
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startConsoleProcess, type ConsoleProcess } from './console-process.js';
import { callSimulator } from './e2e.js';
import { must } from './must.js';

export interface PackagesConsole {
  /** The spec's console process, started in its beforeAll. */
  proc: () => ConsoleProcess;
  /** The spec's scratch folder, removed after the spec. */
  tmp: () => string;
  simulator: <T>(path: string, body?: unknown) => Promise<T>;
  /** The synchronizers the package is vetted on, as the participant lists them. */
  vettedOn: (packageId: string) => Promise<string[]>;
  openPackages: (page: Page) => Promise<void>;
}

/** Starts a console process and a scratch folder for the calling spec (beforeAll); both go afterwards (afterAll). */
export function usePackagesConsole(): PackagesConsole {
  let started: ConsoleProcess | undefined;
  let dir: string | undefined;
  test.beforeAll(async () => {
    started = await startConsoleProcess();
    dir = mkdtempSync(path.join(os.tmpdir(), 'packages-e2e-'));
  });
  test.afterAll(async () => {
    await started?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const proc = () => must(started, 'the console process of this spec');
  const simulator = <T>(p: string, body?: unknown) => callSimulator<T>(proc(), p, body);
  return {
    proc,
    tmp: () => must(dir, 'the scratch folder of this spec'),
    simulator,
    vettedOn: async (packageId) =>
      (
        await simulator<{ vettedPackages: Array<{ synchronizerId: string; packages: Array<{ packageId: string }> }> }>(
          '/v2/package-vetting/list',
          {},
        )
      ).vettedPackages
        .filter((v) => v.packages.some((p) => p.packageId === packageId))
        .map((v) => v.synchronizerId),
    openPackages: async (page) => {
      await page.goto(proc().url);
      await page.getByRole('link', { name: /Packages/ }).click();
      await expect(page.getByTestId('packages')).toBeVisible();
    },
  };
}
