/**
 * What the signing-policy specs share: the officer's passphrase, and the steps through the Keys, Signing and Offline
 * signer views that their tests repeat (a key made, a policy saved at a version, an IOU prepared, a request opened).
 */
import { expect, type Page } from '@playwright/test';
import { must } from './must.js';
import { go, type SigningConsoles } from './signing-e2e.js';

export const PASS = 'officer passphrase 2026';

/** A file for `setInputFiles`. */
export const upload = (text: string, name: string) => ({ name, mimeType: 'application/json', buffer: Buffer.from(text) });

/**
 * The Keys view's row of the key with that label, by its label cell: a key's row also names the parties it signs for,
 * which can carry another key's label.
 */
export const row = (page: Page, label: string) =>
  page.getByTestId('key-row').filter({ has: page.locator('td:first-child').getByText(label, { exact: true }) });

/** A new key in the online console's keychain (deleted after the spec); its fingerprint. */
export async function createKey(page: Page, consoles: SigningConsoles, label: string): Promise<string> {
  await go(page, /^Keys/);
  await page.getByRole('button', { name: 'New key' }).first().click();
  await page.getByLabel('Label').fill(label);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(row(page, label)).toBeVisible();
  const fp = must(
    await row(page, label).getByRole('button', { name: 'Copy fingerprint' }).locator('..').getAttribute('title'),
    `the fingerprint of key ${label}`,
  );
  consoles.keys.push([consoles.online().keychainService, fp]);
  return fp;
}

/** Edits the key's policy with `fill` and saves it, which must make it that version. */
export async function setPolicy(page: Page, label: string, fill: (page: Page) => Promise<void>, version: number): Promise<void> {
  await go(page, /^Keys/);
  await row(page, label)
    .getByRole('button', { name: /^Policy/ })
    .click();
  await expect(page.getByTestId('policy-editor')).toBeVisible();
  await fill(page);
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText(new RegExp(`Signing policy saved: “${label}” is now at version ${version}`))).toBeVisible();
  await expect(row(page, label).getByRole('button', { name: /^Policy/ })).toContainText(`v${version}`);
}

/** Composes the create of an IOU of `amount` owned by the party and prepares it with the key. */
export async function prepareIou(page: Page, owner: string, fp: string, amount: string): Promise<void> {
  await go(page, /^Signing/);
  await page.getByRole('tab', { name: 'Sign a transaction' }).click();
  if (await page.getByRole('button', { name: /Sign another transaction/ }).isVisible()) {
    await page
      .getByRole('button', { name: /Sign another transaction/ })
      .first()
      .click();
  }
  await page.getByLabel('External party').selectOption(owner);
  await page.getByLabel('Key', { exact: true }).selectOption(fp);
  await page.getByLabel('Create a contract').check();
  await page.getByLabel(/Create arguments/).fill(JSON.stringify({ issuer: owner, owner, currency: 'CC', amount, observers: [] }));
  await page.getByTestId('prepare-button').click();
}

/** Opens a signing-request file in the Offline signer view. */
export async function openRequest(page: Page, request: { name: string; text: string }): Promise<void> {
  await go(page, /^Offline signer/);
  if (await page.getByRole('button', { name: 'Back' }).isVisible()) await page.getByRole('button', { name: 'Back' }).click();
  await page.getByTestId('open-request').setInputFiles(upload(request.text, request.name));
  await expect(page.getByTestId('tx-summary')).toBeVisible();
}

/** A transaction this console cannot describe field by field needs the typed confirmation word. */
export async function confirmWord(page: Page): Promise<void> {
  if ((await page.getByTestId('blind-word').count()) > 0) await page.getByTestId('blind-word').fill('BLIND');
}
