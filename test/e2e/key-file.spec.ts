/**
 * Issue #13 item 12 in the UI: the encrypted key file is created only with its passphrase typed twice, its state
 * (unlocked until a time, or locked) is always shown on Keys, and unlocking and locking are audit entries.
 */
import { test, expect, type Page } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { themedScreenshots } from '../support/e2e.js';
import { ifAssigned } from '../support/if-assigned.js';

test.describe.configure({ mode: 'serial' });

const PASS = 'key file passphrase 2026';
let consoleProc: ConsoleProcess;

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
});

const go = (page: Page, name: RegExp) => page.getByRole('link', { name }).first().click();

test('the key file: passphrase twice, its unlock window shown on Keys, unlock and lock audited', async ({ page }) => {
  await page.goto(consoleProc.url);
  await go(page, /^Keys/);
  await page.getByTestId('keys-empty').getByRole('button', { name: 'New key' }).click();
  await page.getByLabel('Label').fill('File key');
  await page.getByLabel(/Encrypted key file/).check();
  await page.getByLabel('New key file passphrase').fill(PASS);
  await page.getByLabel('Repeat the new passphrase').fill(`${PASS} typo`);
  await page.getByRole('button', { name: 'Create key' }).click();
  // a mistyped repetition creates nothing
  await expect(page.getByText(/type the new passphrase twice|do not match|same passphrase/i).first()).toBeVisible();
  await expect(page.getByTestId('key-row')).toHaveCount(0);
  await expect(page.getByTestId('key-file-status')).toHaveCount(0);

  await page.getByLabel('Repeat the new passphrase').fill(PASS);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByTestId('key-row').filter({ hasText: 'File key' })).toBeVisible();
  const status = page.getByTestId('key-file-status');
  await expect(status.getByTestId('key-file-unlocked')).toContainText('unlocked until');
  await themedScreenshots(page, 'keys-key-file-unlocked', 700);

  await status.getByRole('button', { name: 'Lock key file' }).click();
  await expect(status.getByTestId('key-file-locked')).toBeVisible();
  await expect(page.getByTestId('key-row').filter({ hasText: 'File key' })).toContainText('locked');
  await themedScreenshots(page, 'keys-key-file-locked', 700);

  // entering the passphrase opens the window again, for the time chosen
  await status.getByLabel('Key file passphrase').fill(PASS);
  await status.getByLabel('for').selectOption('1');
  await status.getByRole('button', { name: 'Unlock key file' }).click();
  await expect(status.getByTestId('key-file-unlocked')).toBeVisible();

  await go(page, /^Audit/);
  await page.getByLabel('Show').selectOption('unlocked');
  const rows = page.getByTestId('audit-row');
  await expect(rows.filter({ hasText: 'Encrypted key file created and unlocked for 5 min' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Encrypted key file unlocked for 1 min' })).toHaveCount(1);
  await page.getByLabel('Show').selectOption('locked');
  await expect(rows.filter({ hasText: 'Encrypted key file locked' })).toHaveCount(1);
});
