/**
 * What the console says about its state is true: "Demo mode" only while the demo profile is active (not with a remote
 * profile), the theme button names what it does in each theme, and the completions of Commands read "Not started"
 * (not a red "Stopped") before any party is followed.
 */
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { waitForSimulatorUrl } from '../support/e2e.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

let consoleProc: ConsoleProcess;
test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
});

test('demo badge, theme button and completions state say what is true', async ({ page }) => {
  await page.goto(consoleProc.url);
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await expect(page.getByTestId('demo-badge')).toBeVisible();

  // The theme button says what pressing it does, in both themes.
  await page.emulateMedia({ colorScheme: 'light' });
  const toggle = page.getByTestId('theme-toggle');
  const first = await toggle.getAttribute('aria-label');
  await toggle.click();
  const second = await toggle.getAttribute('aria-label');
  expect(new Set([first, second])).toEqual(new Set(['Switch to dark theme', 'Switch to light theme']));
  expect(await page.evaluate(() => document.documentElement.dataset.theme ?? '')).toBe(
    second === 'Switch to light theme' ? 'dark' : 'light',
  );
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-label', must(first, 'first'));

  // Commands before any party: nothing started, nothing stopped.
  await page.getByRole('link', { name: /Commands/ }).click();
  await expect(page.getByTestId('completions-state')).toHaveText('Not started');
  await expect(page.getByTestId('completions-state')).not.toHaveClass(/badge-fail/);

  // A remote profile (here: the same simulator over its URL): no "Demo mode" badge.
  const url = await waitForSimulatorUrl(consoleProc);
  await page.getByRole('link', { name: /Connections/ }).click();
  await page.getByRole('button', { name: 'New remote profile' }).click();
  await page.getByLabel('Name').fill('Remote participant');
  await page.getByLabel('Ledger API URL').fill(url);
  await page.getByRole('button', { name: 'Create profile' }).click();
  await page.getByRole('button', { name: 'Use profile Remote participant' }).click();
  await expect(page.getByTestId('profile-row').filter({ hasText: 'Remote participant' })).toContainText('Active');
  await expect(page.getByTestId('demo-badge')).toHaveCount(0);
  await page.getByLabel('Connection profile').selectOption({ label: 'Demo — embedded simulator' });
  await expect(page.getByTestId('demo-badge')).toBeVisible();
});

test('Updates suggests template ids and proposes the full id; the IDP audience placeholder is the README’s', async ({ page }) => {
  await page.goto(consoleProc.url);
  await page.getByRole('link', { name: /Updates/ }).click();
  const input = page.getByTestId('template-filter');
  await expect(page.locator('#updates-template-options option[value="#simulator-demo:Demo.Iou:Iou"]')).toHaveCount(1);
  await input.fill('Demo.Iou:Iou');
  await expect(page.getByTestId('templates-proposal')).toContainText('Did you mean');
  await page.getByTestId('templates-proposal-use').filter({ hasText: '#simulator-demo:Demo.Iou:Iou' }).click();
  await expect(input).toHaveValue('#simulator-demo:Demo.Iou:Iou');
  await expect(input).not.toHaveAttribute('aria-invalid', 'true');

  const readme = readFileSync('README.md', 'utf8');
  const audience = /`(https:\/\/daml\.com\/jwt\/aud\/participant\/<participant id>)`/.exec(readme)?.[1];
  expect(audience).toBeTruthy();
  await page.getByRole('link', { name: /Identity providers/ }).click();
  await page.getByTestId('idp-new').click();
  await expect(page.locator('#idp-audience')).toHaveAttribute('placeholder', must(audience, 'audience'));
});
