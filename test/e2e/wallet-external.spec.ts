/**
 * The external-party wallet end to end in Chromium through the browser host against the embedded validator app: key
 * and party created in the console, preapproval set up and a preapproved transfer signed in the console (prepare →
 * verify → sign → submit), online and through request/response files, and transfers the key's policy forbids refused
 * with the rule and audited. Effects are checked again through the validator's own HTTP API. Screenshots of every
 * view, light and dark.
 */
import { test, expect } from '@playwright/test';
import { themedScreenshots, download } from '../support/e2e.js';
import { must } from '../support/must.js';
import { useWalletConsole, selectUser, openTab } from '../support/wallet-e2e.js';

test.describe.configure({ mode: 'serial' });

const { proc, keys, validator, unlocked } = useWalletConsole();

test('external party: preapproval set up and a preapproved transfer, each signed in the console', async ({ page }) => {
  // A key in the OS keychain and an external party onboarded with it (Keys and Signing views).
  await page.goto(proc().url);
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
  await page.goto(proc().url);
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
  await signer.goto(proc().url);
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
  await page.goto(proc().url);
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
