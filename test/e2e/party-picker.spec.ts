/**
 * One party picker everywhere: in every form that takes parties (Commands act as / read as, the Contracts filter and
 * its generated create form, a user's rights and primary party, the wallet's receiver), a party is found by typing
 * its hint, its display name or an annotation, and is shown with its namespace; synchronizers are picked from a list.
 */
import { test, expect, type Locator, type Page } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { callSimulator, themedScreenshots } from '../support/e2e.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

let consoleProc: ConsoleProcess;
let party = '';
let stamp = 0;

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
  stamp = Date.now();
  party = (
    await callSimulator<{ partyDetails: { party: string } }>(consoleProc, '/v2/parties', {
      partyIdHint: `Picker${stamp}`,
      localMetadata: {
        resourceVersion: '',
        annotations: { 'example.com/display-name': `Treasury Desk ${stamp}`, 'example.com/team': `ops-${stamp}` },
      },
    })
  ).partyDetails.party;
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
});

const namespace = () => must(party.split('::')[1], "party.split('::')[1]");

/** Types `text` into a picker's search and picks the option of `party`; the option shows the name and the namespace. */
async function pick(page: Page, input: Locator, text: string) {
  await input.fill(text);
  const option = page.locator(`[role=option][data-party="${party}"]`);
  await expect(option).toBeVisible();
  await expect(option).toContainText(`Treasury Desk ${stamp}`);
  await expect(option).toContainText(`Picker${stamp}::${namespace().slice(0, 8)}`);
  await option.click();
}

test('a party is found by hint, display name or annotation in every form that takes parties', async ({ page }) => {
  await page.goto(consoleProc.url);

  // Commands: act as (by hint) and read as (by annotation)
  await page.getByRole('link', { name: /^Commands/ }).click();
  await pick(page, page.getByTestId('cmd-act-as-input'), `picker${stamp}`);
  await expect(page.getByTestId('cmd-act-as').locator(`[data-party="${party}"]`)).toContainText(`Treasury Desk ${stamp}`);
  await pick(page, page.getByTestId('cmd-read-as-input'), `ops-${stamp}`);
  await expect(page.getByTestId('cmd-read-as').locator(`[data-party="${party}"]`)).toBeVisible();
  await themedScreenshots(page, 'party-picker-commands', 900);

  // Contracts: the filter (by display name) and the Party fields of the generated create form (by hint)
  await page.getByRole('link', { name: /^Contracts/ }).click();
  await pick(page, page.getByTestId('acs-parties-input'), `Treasury Desk ${stamp}`);
  await expect(page.getByTestId('acs-parties').locator(`[data-party="${party}"]`)).toBeVisible();
  await page.getByTestId('create-template').selectOption({ label: 'Demo.Iou:Iou' });
  await page.getByTestId('contract-new').click();
  await pick(page, page.locator('[data-testid=create-form] input[data-field="issuer"]'), `Picker${stamp}`);
  await expect(page.locator('[data-testid=create-form] input[type=hidden][data-field="issuer"]')).toHaveValue(party);
  // the form proposes the issuer as the party to act as, shown by its name
  await expect(page.getByTestId('act-as').locator(`[data-party="${party}"]`)).toContainText(`Treasury Desk ${stamp}`);
  await themedScreenshots(page, 'party-picker-contracts', 900);

  // Users: a right's party and a new user's primary party
  await page.getByRole('link', { name: /^Users/ }).click();
  await page.getByRole('button', { name: 'Show user participant_admin' }).click();
  await page.getByTestId('right-kind').selectOption({ label: 'Read as' });
  await pick(page, page.getByTestId('right-party'), `picker${stamp}`);
  await expect(page.getByTestId('right-party-picked')).toContainText(`Treasury Desk ${stamp}`);
  await page.getByTestId('grant-right').click();
  await expect(page.locator(`[data-testid=right-row][data-kind=CanReadAs][data-party="${party}"]`)).toBeVisible();
  await page.getByTestId('user-new').click();
  await pick(page, page.locator('#user-primary'), `ops-${stamp}`);
  await expect(page.getByTestId('user-primary-picked')).toHaveAttribute('data-party', party);

  // Wallet: the receiver of a transfer
  await page
    .getByRole('link', { name: /^Wallet/ })
    .first()
    .click();
  await page.getByRole('tab', { name: 'Send' }).click();
  await pick(page, page.getByTestId('send-receiver'), `Picker${stamp}`);
  await expect(page.getByTestId('send-receiver-picked')).toContainText(`Picker${stamp}::`);

  // Synchronizers are picked, not typed
  await page.getByRole('tab', { name: 'Traffic' }).click();
  const sync = page.getByTestId('traffic-domain');
  const syncs = await callSimulator<{ connectedSynchronizers: Array<{ synchronizerId: string }> }>(
    consoleProc,
    '/v2/state/connected-synchronizers',
  );
  // the default, then every connected synchronizer by alias and id
  await expect(sync.locator('option')).toHaveCount(1 + syncs.connectedSynchronizers.length);
  await sync.selectOption(must(syncs.connectedSynchronizers[0], 'syncs.connectedSynchronizers[0]').synchronizerId);
  await expect(sync).toHaveValue(must(syncs.connectedSynchronizers[0], 'syncs.connectedSynchronizers[0]').synchronizerId);
});
