/**
 * Wallet views end to end in Chromium through the browser host against the embedded validator app: the seeded
 * wallets, onboarding a user, receiving coin through an offer the receiver accepts, withdrawing another offer, live
 * offer status, buying traffic, history and delegations; then the external-party wallet — key and party created in
 * the console, preapproval set up and a preapproved transfer signed in the console (prepare → verify → sign →
 * submit), and transfers the key's policy forbids refused with the rule and audited. Effects are checked again through
 * the validator's own HTTP API. Screenshots of every view, light and dark.
 */
import { test, expect, type Page } from '@playwright/test';
import { Entry } from '@napi-rs/keyring';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { themedScreenshots, simulatorUrl, download } from '../support/e2e.js';
import { mintDemoToken } from '../../src/services/wallet/demo-token.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

test.describe.configure({ mode: 'serial' });

let consoleProc: ConsoleProcess;
const keys: string[] = [];

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
  for (let i = 0; i < 100 && !/Embedded simulator \(demo mode\): \S+/.test(consoleProc.output()); i++)
    await new Promise((r) => setTimeout(r, 50));
});
test.afterAll(async () => {
  for (const fp of keys) {
    try {
      new Entry(consoleProc.keychainService, `signing-key:${fp}`).deletePassword();
    } catch {
      // deleted already
    }
  }
  await ifAssigned(consoleProc)?.stop();
});

/** The validator's own answer for a wallet user (demo tokens: the simulator decodes, does not verify). */
async function validator<T>(user: string, p: string): Promise<T> {
  const res = await fetch(`${simulatorUrl(consoleProc)}/api/validator${p}`, {
    headers: { authorization: `Bearer ${mintDemoToken(user)}` },
  });
  if (!res.ok) throw new Error(`${p}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
const unlocked = async (user: string) =>
  Number((await validator<{ effective_unlocked_qty: string }>(user, '/v0/wallet/balance')).effective_unlocked_qty);

async function openWallet(page: Page) {
  await page.goto(consoleProc.url);
  await page
    .getByRole('link', { name: /^Wallet/ })
    .first()
    .click();
  await expect(page.getByTestId('wallet')).toBeVisible();
}
async function selectUser(page: Page, user: string) {
  await page.getByTestId('wallet-user').selectOption(user);
}
async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

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

test('external party: preapproval set up and a preapproved transfer, each signed in the console', async ({ page }) => {
  // A key in the OS keychain and an external party onboarded with it (Keys and Signing views).
  await page.goto(consoleProc.url);
  await page.getByRole('link', { name: /^External wallet/ }).click();
  await expect(page.getByTestId('external-empty')).toBeVisible();
  await themedScreenshots(page, 'wallet-external-empty', 600);
  await page.getByRole('link', { name: /^Keys/ }).click();
  await page.getByTestId('keys-empty').getByRole('button', { name: 'New key' }).click();
  await page.getByLabel('Label').fill('Wallet key');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByTestId('key-row')).toHaveCount(1);
  const fp = must(
    await page.getByTestId('key-row').getByRole('button', { name: 'Copy fingerprint' }).locator('..').getAttribute('title'),
    "the key's fingerprint",
  );
  keys.push(fp);
  await page.getByRole('link', { name: /^Signing/ }).click();
  await page.getByRole('tab', { name: 'Onboard a party' }).click();
  await page.getByLabel('Party hint').fill('walletext');
  await page.getByTestId('onboard-prepare').click();
  await page.getByRole('button', { name: 'Sign and allocate the party' }).click();
  await expect(page.getByTestId('onboard-done')).toBeVisible();
  const party = `walletext::${fp}`;

  // Its wallet: no coin, no preapproval.
  await page.getByRole('link', { name: /^External wallet/ }).click();
  const row = page.getByTestId('external-party-row');
  await expect(row).toHaveAttribute('data-party', party);
  await expect(row.getByTestId('external-balance')).toHaveText('0');
  await expect(row.getByTestId('external-preapproval')).toHaveText('None');

  // Preapproval setup: the validator prepares, the console verifies and shows what it does, the key signs.
  await page.getByTestId('external-preapproval-setup').click();
  const signing = page.getByTestId('external-signing');
  await expect(signing.getByTestId('verified-banner')).toContainText('matches the validator’s');
  await expect(signing.getByTestId('validator-hash')).toHaveText(/^[0-9a-f]{64,}$/);
  // the console's own preapproval setup is recognised: clear-signed, no BLIND prompt
  await expect(signing.getByTestId('tx-mode')).toHaveText('Clear signing');
  await expect(signing.getByTestId('clear-sign')).toContainText('Transfer pre-approval setup');
  await expect(signing.getByTestId('blind-word')).toHaveCount(0);
  await themedScreenshots(page, 'wallet-external-sign-preapproval', 1300);
  await signing.getByTestId('confirm-button').click();
  await expect(page.getByTestId('external-done')).toContainText('Transfer preapproval set up');
  await expect(row.getByTestId('external-preapproval')).toHaveText('Set up');

  // Alice funds it in one step (preapproved transfer from her wallet); bob sets up his own preapproval.
  await page
    .getByRole('link', { name: /^Wallet/ })
    .first()
    .click();
  await openTab(page, 'Send');
  await page.getByTestId('send-mode-preapproval').check();
  await page.getByTestId('send-receiver').fill(party);
  await page.getByTestId('send-receiver').press('Enter');
  await page.getByTestId('send-amount').fill('100');
  await page.getByTestId('send-submit').click();
  await page.getByTestId('spend-confirm-button').click();
  await expect(page.getByTestId('send-notice')).toContainText('Sent 100 CC');
  await selectUser(page, 'bob');
  await page.getByTestId('preapproval-create').click();
  await expect(page.getByTestId('preapproval-notice')).toContainText(/preapproval/);
  // once created, the button gives way to the pre-approval itself
  await expect(page.getByTestId('preapproval-own')).toContainText('Set up');
  await expect(page.getByTestId('preapproval-create')).toHaveCount(0);
  await openTab(page, 'Overview');
  const bob = must(await page.getByTestId('wallet-party').textContent(), "page.getByTestId('wallet-party').textContent()").trim();
  const bobBefore = await unlocked('bob');

  // The external party sends 25 to bob: prepare → verify → confirm → sign with the keychain key → submit.
  await page.getByRole('link', { name: /^External wallet/ }).click();
  await expect(row.getByTestId('external-balance')).toHaveText('100');
  await page.getByTestId('external-receiver').fill(bob);
  await page.getByTestId('external-receiver').press('Enter');
  await page.getByTestId('external-amount').fill('25');
  await themedScreenshots(page, 'wallet-external', 900);
  await page.getByTestId('external-send-prepare').click();
  await expect(signing.getByTestId('tx-summary')).toBeVisible();
  await expect(signing.getByTestId('tx-summary')).toContainText('25');
  // a recognised Canton Coin transfer: clear-signed field by field, no BLIND prompt
  await expect(signing.getByTestId('tx-mode')).toHaveText('Clear signing');
  await expect(signing.getByTestId('clear-sign')).toContainText('Canton Coin transfer');
  await expect(signing.locator('[data-testid="clear-sign-field"][data-label="Amount"]')).toHaveText('25 CC');
  await expect(signing.getByTestId('blind-word')).toHaveCount(0);
  await themedScreenshots(page, 'wallet-external-sign-send', 1300);
  await signing.getByTestId('confirm-button').click();
  await expect(page.getByTestId('external-done')).toContainText('Transfer submitted');
  await expect.poll(async () => (await unlocked('bob')) - bobBefore).toBeCloseTo(25, 4);
  await expect(row.getByTestId('external-balance')).toHaveText('75');
  await themedScreenshots(page, 'wallet-external-done', 900);
});

test('external party: a preapproved transfer signed offline through request and response files', async ({ page, context }) => {
  const bob = (await validator<{ party_id: string }>('bob', '/v0/wallet/user-status')).party_id;
  const bobBefore = await unlocked('bob');
  await page.goto(consoleProc.url);
  await page.getByRole('link', { name: /^External wallet/ }).click();
  const row = page.getByTestId('external-party-row');
  await expect(row.getByTestId('external-balance')).toHaveText('75');
  await page.getByTestId('external-receiver').fill(bob);
  await page.getByTestId('external-receiver').press('Enter');
  await page.getByTestId('external-amount').fill('5');
  await page.getByTestId('external-send-prepare').click();
  const request = await download(page, () => page.getByTestId('external-sign-offline').click());
  expect(request.name).toMatch(/^signing-request-.*\.json$/);
  await expect(page.getByTestId('external-offline')).toContainText(request.name);
  await themedScreenshots(page, 'wallet-external-offline', 1200);

  // The signer side (this console's Offline signer, in another tab): verify the file, sign, download the response.
  const signer = await context.newPage();
  await signer.goto(consoleProc.url);
  await signer.getByRole('link', { name: /^Offline signer/ }).click();
  await signer
    .getByTestId('open-request')
    .setInputFiles({ name: request.name, mimeType: 'application/json', buffer: Buffer.from(request.text) });
  await expect(signer.getByTestId('tx-summary')).toContainText('5');
  await expect(signer.getByTestId('tx-mode')).toHaveText('Clear signing');
  await expect(signer.getByTestId('blind-word')).toHaveCount(0);
  const response = await download(signer, () => signer.getByTestId('confirm-button').click());
  await signer.close();

  // Back in the wallet: the response is checked against the request and submitted to the validator.
  await page
    .getByTestId('external-import-response')
    .setInputFiles({ name: response.name, mimeType: 'application/json', buffer: Buffer.from(response.text) });
  await expect(page.getByTestId('external-done')).toContainText('Transfer submitted');
  await expect.poll(async () => (await unlocked('bob')) - bobBefore).toBeCloseTo(5, 4);
  await expect(row.getByTestId('external-balance')).toHaveText('70');
});

test('external party: transfers its key’s policy forbids are named, cannot be signed on any path, and audited', async ({ page }) => {
  const bob = (await validator<{ party_id: string }>('bob', '/v0/wallet/user-status')).party_id;
  const alice = (await validator<{ party_id: string }>('alice', '/v0/wallet/user-status')).party_id;
  await page.goto(consoleProc.url);
  const setPolicy = async (version: number, fill: () => Promise<void>) => {
    await page.getByRole('link', { name: /^Keys/ }).click();
    await page
      .getByTestId('key-row')
      .getByRole('button', { name: /^Policy/ })
      .click();
    await fill();
    await page.getByRole('button', { name: 'Save policy' }).click();
    // the version the save produced, so a message left from an earlier save cannot satisfy the wait
    await expect(page.getByText(`Signing policy saved: “Wallet key” is now at version ${version}`)).toBeVisible();
  };
  const prepareSend = async (amount: string) => {
    await page.getByRole('link', { name: /^External wallet/ }).click();
    await expect(page.getByTestId('external-party-row').getByTestId('external-balance')).toHaveText('70');
    await page.getByTestId('external-receiver').fill(bob);
    await page.getByTestId('external-receiver').press('Enter');
    await page.getByTestId('external-amount').fill(amount);
    await page.getByTestId('external-send-prepare').click();
    await expect(page.getByTestId('external-signing').getByTestId('tx-summary')).toBeVisible();
  };
  const signing = page.getByTestId('external-signing');
  const refusedHere = async (reason: RegExp) => {
    const note = signing.getByTestId('policy-note');
    await expect(note).toContainText('Refused by this key’s policy');
    await expect(note).toContainText(reason);
    // what would work is an officer's policy change, not another path that refuses too
    await expect(note).toContainText('an officer changes the key’s policy');
    await expect(note).not.toContainText(/use .?sign offline/i);
    await expect(note).toContainText(/Recorded\s+in\s+the audit log as entry #\d+/);
    await expect(signing.getByTestId('confirm-button')).toBeDisabled();
    await expect(signing.getByTestId('external-sign-offline')).toBeDisabled();
    return must(await signing.getByTestId('hash-hex').textContent(), "signing.getByTestId('hash-hex').textContent()").replace(/\s/g, '');
  };

  // an amount limit of 50: 60 CC to bob is over it
  await setPolicy(1, () => page.getByLabel(/Amount limit/).fill('50'));
  await prepareSend('60');
  const overHash = await refusedHere(/exceeds this key’s limit of 50/);
  await signing.getByTestId('policy-note').scrollIntoViewIfNeeded();
  await themedScreenshots(page, 'wallet-external-policy-refused', 1300);
  await signing.getByRole('button', { name: 'Cancel' }).click();
  // only alice as counterparty: 5 CC to bob is to a counterparty the policy does not allow
  await setPolicy(2, async () => {
    await page.getByLabel(/Amount limit/).fill('');
    await page.getByLabel(/Allowed counterparties/).fill(alice);
  });
  await prepareSend('5');
  const counterpartyHash = await refusedHere(/counterpart/i);
  await signing.getByRole('button', { name: 'Cancel' }).click();
  await setPolicy(3, () => page.getByLabel(/Allowed counterparties/).fill(''));

  // each refusal shown as a disabled button is one audit entry with its rule and the transaction hash
  await page.getByRole('link', { name: /^Audit/ }).click();
  await page.getByLabel('Show').selectOption('refused');
  const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
  for (const [reason, hash] of [
    ['POLICY_AMOUNT', overHash],
    ['POLICY_COUNTERPARTY', counterpartyHash],
  ] as const) {
    const rows = page.getByTestId('audit-row').filter({ hasText: reason });
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText(`hash ${b64(hash).slice(0, 12)}`);
  }
  await themedScreenshots(page, 'wallet-external-policy-audit', 900);
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
