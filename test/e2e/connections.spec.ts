import { test, expect } from '@playwright/test';
import { Entry } from '@napi-rs/keyring';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';

let consoleProc: ConsoleProcess;
test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
});
test.afterAll(async () => {
  await consoleProc?.stop();
});

const TOKEN = 'e2e-secret-bearer-token-5f1c';

test('an operator adds a remote participant with a token, uses it, sees the structured error, and removes it', async ({ page }) => {
  await page.goto(consoleProc.url);
  await expect(page.getByTestId('participant-id')).toBeVisible();
  await page.getByRole('link', { name: /Connections/ }).or(page.getByRole('button', { name: /Connections/ })).first().click();
  await expect(page.getByTestId('profile-row')).toHaveCount(1);
  await expect(page.getByTestId('profile-row').first()).toContainText('Embedded simulator');

  // Bad input: specific field errors, nothing saved.
  await page.getByRole('button', { name: 'New remote profile' }).click();
  await page.getByLabel('Ledger API URL').fill('ftp://participant');
  await page.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.locator('#profile-ledger-url-error, .field-error').first()).toBeVisible();
  await expect(page.getByTestId('profile-row')).toHaveCount(1);

  await page.getByLabel('Name').fill('Unreachable node');
  await page.getByLabel('Ledger API URL').fill('http://127.0.0.1:9');
  await page.getByLabel(/Bearer token/).fill(TOKEN);
  await page.getByRole('button', { name: 'Create profile' }).click();
  const row = page.getByTestId('profile-row').filter({ hasText: 'Unreachable node' });
  await expect(row).toContainText('Token stored in OS keychain');
  const profileId = await row.getAttribute('data-profile-id');
  expect(profileId).toBeTruthy();
  // The token went to the real OS keychain and is not shown anywhere on the page.
  expect(new Entry(consoleProc.keychainService, `profile:${profileId}:bearer-token`).getPassword()).toBe(TOKEN);
  expect(await page.content()).not.toContain(TOKEN);
  await page.screenshot({ path: 'test/e2e/screenshots/connections.png', fullPage: true });

  await page.getByRole('button', { name: 'Use profile Unreachable node' }).click();
  await expect(row).toContainText('Active');
  await page.getByRole('link', { name: /Dashboard/ }).or(page.getByRole('button', { name: /Dashboard/ })).first().click();
  await expect(page.getByTestId('error-code').first()).toHaveText('UNREACHABLE');
  await page.screenshot({ path: 'test/e2e/screenshots/dashboard-unreachable.png', fullPage: true });

  // Back to the demo profile from the top bar.
  await page.getByLabel('Connection profile').selectOption({ label: 'Demo — embedded simulator' });
  await expect(page.getByTestId('participant-id')).toContainText('PAR::');

  await page.getByRole('link', { name: /Connections/ }).or(page.getByRole('button', { name: /Connections/ })).first().click();
  await page.getByRole('button', { name: 'Delete profile Unreachable node' }).click();
  await page.getByRole('group', { name: 'Confirm deletion of Unreachable node' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('profile-row')).toHaveCount(1);
  expect(new Entry(consoleProc.keychainService, `profile:${profileId}:bearer-token`).getPassword()).toBeNull();
});
