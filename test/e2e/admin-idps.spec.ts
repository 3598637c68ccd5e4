/**
 * Identity providers view end to end: empty state, create up to the participant's maximum and see
 * its Canton error plainly, edit, delete with confirmation.
 */
import { test, expect } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { themedScreenshots, simulatorUrl } from '../support/e2e.js';
import { ifAssigned } from '../support/if-assigned.js';

let consoleProc: ConsoleProcess;

const screenshots = themedScreenshots;

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
});

const simUrl = () => simulatorUrl(consoleProc);
type Idp = { identityProviderId: string; issuer: string; jwksUrl: string; audience?: string; isDeactivated?: boolean };
const apiIdps = async (): Promise<Idp[]> =>
  ((await (await fetch(`${simUrl()}/v2/idps`)).json()) as { identityProviderConfigs: Idp[] }).identityProviderConfigs;

test('create identity providers up to the limit, see the error, edit and delete', async ({ page }) => {
  await page.goto(consoleProc.url);
  await page.getByRole('link', { name: /Identity providers/ }).click();
  await expect(page.getByTestId('idps-empty')).toContainText('No identity providers');
  await screenshots(page, 'idps-empty', 900);

  const create = async (id: string) => {
    await page.getByTestId('idp-new').click();
    await expect(page.locator('#idp-id')).toBeFocused();
    await page.keyboard.type(id);
    await page.locator('#idp-issuer').fill(`https://login.example.com/realms/${id}`);
    await page.locator('#idp-jwks').fill(`https://login.example.com/realms/${id}/certs`);
    await page.getByTestId('idp-save').click();
  };
  // The simulator allows 10 configurations (Canton's default maximum).
  for (let i = 1; i <= 10; i++) {
    await create(`corp-${i}`);
    await expect(page.getByRole('status')).toContainText(`Created identity provider “corp-${i}”`);
  }
  await expect(page.getByTestId('idp-row')).toHaveCount(10);
  await create('corp-11');
  const error = page.getByTestId('idp-save-error');
  await expect(error.getByTestId('canton-error')).toContainText('TOO_MANY_IDENTITY_PROVIDER_CONFIGS');
  await expect(error.getByTestId('canton-error')).toContainText('Create identity provider config failed.');
  await expect(error.getByTestId('canton-context')).toContainText('maxIdentityProviderConfigs');
  expect(await apiIdps()).toHaveLength(10);
  await screenshots(page, 'idps', 1450);
  await page.getByRole('button', { name: 'Cancel' }).click();

  // Client-side validation before any call.
  await page.getByTestId('idp-new').click();
  await page.locator('#idp-id').fill('x');
  await page.locator('#idp-issuer').fill('https://x.example.com');
  await page.locator('#idp-jwks').fill('not a url');
  await page.getByTestId('idp-save').click();
  await expect(page.locator('#idp-jwks-msg')).toHaveText('must be an http(s) URL');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('idp-form')).toHaveCount(0);

  // Edit: audience and deactivation.
  await page.getByRole('button', { name: 'Edit identity provider corp-3' }).click();
  await expect(page.locator('#idp-id')).toHaveAttribute('readonly', '');
  await page.locator('#idp-audience').fill('https://daml.com/jwt/aud/participant1');
  await page.getByTestId('idp-deactivated').check();
  await page.getByTestId('idp-save').click();
  await expect(page.getByRole('status')).toContainText('Saved identity provider “corp-3”');
  await expect(page.locator('[data-testid=idp-row][data-idp="corp-3"]')).toContainText('Deactivated');
  expect((await apiIdps()).find((i) => i.identityProviderId === 'corp-3')).toMatchObject({
    audience: 'https://daml.com/jwt/aud/participant1',
    isDeactivated: true,
  });

  // Delete with confirmation; then there is room for one more.
  await page.getByTestId('idp-delete-corp-10').click();
  await page.getByTestId('idp-delete-corp-10-confirm').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status')).toContainText('Deleted identity provider “corp-10”');
  await expect(page.getByTestId('idp-row')).toHaveCount(9);
  expect((await apiIdps()).map((i) => i.identityProviderId)).not.toContain('corp-10');
  await create('corp-11');
  await expect(page.getByRole('status')).toContainText('Created identity provider “corp-11”');
});
