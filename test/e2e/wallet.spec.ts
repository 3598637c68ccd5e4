/**
 * The user wallets end to end in Chromium through the browser host against the embedded validator app: the seeded
 * wallets, onboarding a user, receiving coin through an offer the receiver accepts, withdrawing another offer, live
 * offer status, buying traffic, history, delegations and automation settings. Effects are checked again through the
 * validator's own HTTP API. Screenshots of every view, light and dark. (The external-party wallet:
 * wallet-external.spec.ts.)
 */
import { test, expect } from '@playwright/test';
import { themedScreenshots } from '../support/e2e.js';
import { must } from '../support/must.js';
import { useWalletConsole, selectUser, openTab } from '../support/wallet-e2e.js';

test.describe.configure({ mode: 'serial' });

const { validator, unlocked, openWallet } = useWalletConsole();

test('overview of a seeded wallet: balance, chart, holdings with fees and ages', async ({ page }) => {
  await openWallet(page);
  await expect(page.getByTestId('wallet-user')).toHaveValue('alice');
  await expect(page.getByTestId('wallet-balance')).toBeVisible();
  const b = await validator<{ effective_unlocked_qty: string; effective_locked_qty: string }>('alice', '/v0/wallet/balance');
  await expect(page.getByTestId('balance-unlocked')).toHaveText(
    Number(b.effective_unlocked_qty).toLocaleString('en-US', { maximumFractionDigits: 4 }),
  );
  await expect(page.getByTestId('balance-locked')).toHaveText(
    Number(b.effective_locked_qty).toLocaleString('en-US', { maximumFractionDigits: 4 }),
  );
  await expect(page.getByTestId('balance-chart')).toBeVisible();
  const rows = page.getByTestId('holding-row');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('holdings-table')).toContainText('Locked');
  await themedScreenshots(page, 'wallet-overview', 1100);
});

test('onboard a user, who receives coin through an offer they accept; another offer is withdrawn', async ({ page, context }) => {
  await openWallet(page);
  // Onboard dave: an empty wallet that says what to do.
  await page.getByTestId('wallet-onboard-open').click();
  await expect(page.getByTestId('wallet-onboard-name')).toBeFocused();
  await page.keyboard.type('dave');
  await themedScreenshots(page, 'wallet-onboard', 700);
  await page.getByTestId('wallet-onboard-submit').click();
  await expect(page.getByTestId('wallet-notice')).toContainText('Onboarded dave');
  await expect(page.getByTestId('wallet-user')).toHaveValue('dave');
  await expect(page.getByTestId('holdings-empty')).toBeVisible();
  await expect(page.getByTestId('balance-unlocked')).toHaveText('0');
  const dave = must(await page.getByTestId('wallet-party').textContent(), "page.getByTestId('wallet-party').textContent()").trim();
  expect(dave).toMatch(/^dave.*::/);
  await themedScreenshots(page, 'wallet-new-user', 900);

  // Alice offers dave 30 CC (picking dave by user name) and 12.5 CC.
  await selectUser(page, 'alice');
  await openTab(page, 'Send');
  await page.getByTestId('send-receiver-user').selectOption('dave');
  await expect(page.getByTestId('send-receiver')).toHaveValue(dave);
  await page.getByTestId('send-amount').fill('30');
  await page.getByTestId('send-description').fill('Welcome, dave');
  await themedScreenshots(page, 'wallet-send', 800);
  // every spend is confirmed first: nothing is offered before the confirmation
  await page.getByTestId('send-submit').click();
  await expect(page.getByTestId('spend-amount')).toHaveText('30 CC');
  await expect(page.getByTestId('spend-confirm')).toContainText(dave);
  await themedScreenshots(page, 'wallet-send-confirm', 900);
  await page.getByTestId('spend-cancel').click();
  await expect(page.getByTestId('spend-confirm')).toHaveCount(0);
  await page.getByTestId('send-submit').click();
  await page.getByTestId('spend-confirm-button').click();
  await expect(page.getByTestId('send-notice')).toContainText('Offered 30 CC');
  await page.getByTestId('send-amount').fill('12.5');
  await page.getByTestId('send-description').fill('To be withdrawn');
  await page.getByTestId('send-submit').click();
  await page.getByTestId('spend-confirm-button').click();
  await expect(page.getByTestId('send-notice')).toContainText('Offered 12.5 CC');
  // A bad amount is refused in the form, naming the field.
  await page.getByTestId('send-amount').fill('-4');
  await page.getByTestId('send-submit').click();
  await expect(page.locator('#send-amount-msg')).toContainText('positive amount');

  await openTab(page, 'Offers');
  const outgoing = page.getByTestId('outgoing-offer');
  await expect(outgoing.filter({ hasText: 'Welcome, dave' })).toBeVisible();
  await expect(page.getByTestId('tracked-offer')).toHaveCount(2);
  await expect(page.getByTestId('tracked-status').first()).toHaveText('Waiting for the receiver');

  // Dave accepts the 30 in another window; alice's open Offers tab follows live, without a reload.
  const davePage = await context.newPage();
  await openWallet(davePage);
  await selectUser(davePage, 'dave');
  await openTab(davePage, 'Offers');
  await expect(davePage.getByTestId('incoming-offer')).toHaveCount(2);
  await themedScreenshots(davePage, 'wallet-offers-incoming', 1000);
  await davePage
    .getByTestId('incoming-offer')
    .filter({ hasText: 'Welcome, dave' })
    .getByRole('button', { name: /^Accept/ })
    .click();
  await expect(davePage.getByTestId('offers-notice')).toContainText('Accepted the offer of 30 CC');
  await expect(davePage.getByTestId('incoming-offer')).toHaveCount(1);
  await davePage.close();
  const tracked = page.getByTestId('tracked-offer');
  await expect(tracked.filter({ hasText: '30 to' }).getByTestId('tracked-status')).toHaveText('Completed');
  await expect(outgoing.filter({ hasText: 'Welcome, dave' })).toHaveCount(0);
  await expect.poll(() => unlocked('dave')).toBeCloseTo(30, 4);

  // Alice withdraws the other.
  await page
    .getByTestId('outgoing-offer')
    .filter({ hasText: 'To be withdrawn' })
    .getByRole('button', { name: /^Withdraw/ })
    .click();
  await expect(page.getByTestId('offers-notice')).toContainText('Withdrew the offer of 12.5 CC');
  await expect(tracked.filter({ hasText: '12.5 to' }).getByTestId('tracked-status')).toHaveText('Failed: withdrawn');
  await themedScreenshots(page, 'wallet-offers', 1100);

  // Dave's overview shows the coin received.
  await selectUser(page, 'dave');
  await openTab(page, 'Overview');
  await expect(page.getByTestId('balance-unlocked')).toHaveText('30');
  await expect(page.getByTestId('holding-row')).toHaveCount(1);

  // A one-step transfer to dave, who has no preapproval, is refused by the validator: code and cause are shown.
  await selectUser(page, 'alice');
  await openTab(page, 'Send');
  await page.getByTestId('send-mode-preapproval').check();
  await page.getByTestId('send-receiver').fill(dave);
  await page.getByTestId('send-receiver').press('Enter');
  await page.getByTestId('send-amount').fill('1');
  await page.getByTestId('send-submit').click();
  await expect(page.getByTestId('spend-confirm')).toContainText('One step, through the receiver’s pre-approval');
  await page.getByTestId('spend-confirm-button').click();
  const refused = page.getByTestId('send-form').getByTestId('error-panel');
  await expect(refused).toContainText('Nothing was sent');
  await expect(refused.getByTestId('error-code')).toHaveText('NOT_FOUND');
  await expect(refused.getByTestId('canton-error')).toContainText('has no transfer preapproval');
  // it is the validator that refused, and the console says so
  await expect(refused.getByTestId('error-source')).toHaveText('Validator error');
  await themedScreenshots(page, 'wallet-send-refused', 900);

  // Dave taps the faucet too.
  await selectUser(page, 'dave');
  await openTab(page, 'Overview');
  await page.getByTestId('tap-amount').fill('100');
  await page.getByTestId('tap-submit').click();
  await expect(page.getByTestId('balance-unlocked')).toHaveText('130');
});

test('buy traffic and follow its status; history and delegations', async ({ page }) => {
  await openWallet(page);
  await openTab(page, 'Traffic');
  await expect(page.getByTestId('traffic-requests')).toContainText('No traffic bought from this console');
  // the price is shown before anything is bought: 50,000 bytes at 60 USD/MB and 0.005 USD/CC = 600 CC
  await page.getByTestId('traffic-bytes').fill('50000');
  await expect(page.getByTestId('traffic-cost')).toHaveText('600 CC');
  await expect(page.getByTestId('traffic-price')).toContainText('60 USD per MB');
  await expect(page.getByTestId('traffic-price')).toContainText('0.005 USD');
  await expect(page.getByTestId('traffic-min')).toContainText('minimum top-up of 200,000 bytes');
  await page.getByTestId('traffic-submit').click();
  // and the purchase is confirmed with its cost
  await expect(page.getByTestId('spend-amount')).toHaveText('600 CC');
  await themedScreenshots(page, 'wallet-traffic-confirm', 800);
  await page.getByTestId('spend-confirm-button').click();
  await expect(page.getByTestId('traffic-notice')).toContainText('Bought 50,000 bytes of traffic for 600 CC');
  await expect(page.getByTestId('traffic-status')).toHaveText('Completed');
  await themedScreenshots(page, 'wallet-traffic', 700);

  // more than the wallet holds: the validator refuses, labelled as the validator's error
  await page.getByTestId('traffic-bytes').fill('20000000');
  await expect(page.getByTestId('traffic-cost')).toHaveText('240,000 CC');
  await page.getByTestId('traffic-submit').click();
  await page.getByTestId('spend-confirm-button').click();
  const refused = page.getByTestId('traffic-form').getByTestId('error-panel');
  await expect(refused).toContainText('No traffic bought');
  await expect(refused.getByTestId('error-source')).toHaveText('Validator error');
  await expect(refused).not.toContainText('Ledger API error');

  await openTab(page, 'History');
  const history = page.getByTestId('history-row');
  await expect(history.filter({ hasText: 'Buy traffic' })).toBeVisible();
  await expect(page.locator('[data-testid=history-row][data-type=transfer]').first()).toContainText('−30');
  await expect(history.filter({ hasText: 'Tap (faucet)' }).first()).toContainText('+');
  await themedScreenshots(page, 'wallet-history', 1000);

  // Merge delegation: none → proposed to the wallet provider, whose automation accepts it → active; then cancelled.
  await openTab(page, 'Delegations');
  await expect(page.getByTestId('delegation-holdings')).toBeVisible();
  // The embedded validator serves minting delegations; alice has none.
  await expect(page.getByTestId('delegations-empty')).toBeVisible();
  await expect(page.getByTestId('merge-delegation-status')).toHaveText('None');
  await page.getByTestId('merge-delegation-propose').click();
  await expect(page.getByTestId('merge-delegation-status')).toHaveText('Active');
  await expect(page.getByTestId('merge-delegation')).toContainText('validator-operator::');
  await themedScreenshots(page, 'wallet-delegations', 900);
  await page.getByTestId('merge-delegation-cancel').click();
  await expect(page.getByTestId('merge-delegation-status')).toHaveText('None');

  // The chart has grown with the samples of this session.
  await openTab(page, 'Overview');
  await expect(page.getByTestId('balance-chart')).toBeVisible();
});

test('tabs work from the keyboard', async ({ page }) => {
  await openWallet(page);
  await page.getByRole('tab', { name: 'Overview' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Send' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Send' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await expect(page.getByRole('tab').last()).toBeFocused();
});

test('automation settings of the simulator: merge holdings above a threshold', async ({ page }) => {
  await openWallet(page);
  await openTab(page, 'Automation');
  const form = page.getByTestId('wallet-automation');
  await expect(form.locator('[data-key=autoCompleteAcceptedOffers] input')).toBeChecked();
  await expect(page.getByTestId('automation-save')).toBeDisabled();
  await themedScreenshots(page, 'wallet-automation', 1500);
  // Alice holds several amulets; merging above 1 leaves one.
  await openTab(page, 'Delegations');
  await expect(page.getByTestId('merge-automation')).toContainText('Off');
  const before = Number(await page.getByTestId('delegation-holdings').locator('.value').textContent());
  expect(before).toBeGreaterThan(1);
  await openTab(page, 'Automation');
  await form.locator('[data-key=mergeThreshold] input').fill('1');
  await page.getByTestId('automation-save').click();
  await expect(form.getByRole('status')).toHaveText('Automation settings saved.');
  await openTab(page, 'Delegations');
  await expect(page.getByTestId('merge-automation')).toContainText('> 1');
  await expect(page.getByTestId('delegation-holdings').locator('.value')).toHaveText('1');
  await themedScreenshots(page, 'wallet-merge-status', 700);
});
