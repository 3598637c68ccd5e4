/** Helpers the end-to-end specs share: themed screenshots, navigation, and direct calls to the embedded simulator. */
import { expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConsoleProcess } from './console-process.js';
import { must } from './must.js';

/** Opens the Connections view from the navigation and waits until it shows. */
export async function openConnections(page: Page): Promise<void> {
  await page
    .getByRole('link', { name: /Connections/ })
    .or(page.getByRole('button', { name: /Connections/ }))
    .first()
    .click();
  await expect(page.getByTestId('connections')).toBeVisible();
}

/** Light and dark screenshots; the shell scrolls inside its main pane, so the window is made tall enough instead of fullPage. */
export async function themedScreenshots(page: Page, name: string, height: number): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1400, height });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: `test/e2e/screenshots/${name}.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `test/e2e/screenshots/${name}-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  if (size) await page.setViewportSize(size);
}

/**
 * Picks a profile in the top bar and waits until the switch is done (the picker no longer busy, the profile shown as
 * selected). Views reread when the switch lands, cancelling what they started before it: a test that navigates or
 * counts a participant's requests before then races the view's own reread.
 */
export async function switchProfile(page: Page, label: string): Promise<void> {
  const picker = page.getByLabel('Connection profile');
  await picker.selectOption({ label });
  await expect(picker).toHaveAttribute('aria-busy', 'false');
  await expect(picker.locator('option:checked')).toHaveText(label);
}

/** The embedded simulator's URL, as the console process printed it. */
export function simulatorUrl(proc: ConsoleProcess): string {
  const m = /Embedded simulator \(demo mode\): (\S+)/.exec(proc.output());
  if (!m?.[1]) throw new Error('embedded simulator URL not printed');
  return m[1];
}

/** The simulator's URL once the console process has printed it (it follows "Console ready" on the output). */
export async function waitForSimulatorUrl(proc: ConsoleProcess, timeoutMs = 10_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (!/Embedded simulator \(demo mode\): \S+/.test(proc.output()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return simulatorUrl(proc);
}

/** GET (no body) or POST (JSON body) to the simulator; a non-2xx answer fails the test with its text. */
export async function callSimulator<T>(proc: ConsoleProcess, path: string, body?: unknown): Promise<T> {
  const res = await fetch(
    (await waitForSimulatorUrl(proc)) + path,
    body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Uploads and vets a DAR of ../shared/reference/dars to the embedded simulator (a missing file throws). */
export async function uploadReferenceDar(proc: ConsoleProcess, file: string): Promise<void> {
  const dar = readFileSync(resolve('../shared/reference/dars', file));
  const res = await fetch(`${await waitForSimulatorUrl(proc)}/v2/dars?vetAllPackages=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: dar,
  });
  if (res.status !== 200) throw new Error(`uploading ${file}: HTTP ${res.status} ${await res.text()}`);
}

/** The file the page downloads when `action` runs: its suggested name and its text. */
export async function download(page: Page, action: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [dl] = await Promise.all([page.waitForEvent('download'), action()]);
  return { name: dl.suggestedFilename(), text: readFileSync(must(await dl.path(), 'the downloaded file on disk'), 'utf8') };
}
