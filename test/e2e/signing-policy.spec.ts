/**
 * Issue #14 end to end, through the UI of two console processes (online demo + air-gapped `--no-demo`), files moved
 * by download/upload as an officer would: the signing policy travels with the key's backup and is shown (with its
 * version) on the restoring console; a transaction the policy forbids is refused at the air-gapped signer and — signed
 * anyway by a tampered signer — refused at execution; a request checked against a newer policy is refused until a
 * policy file brings the signer up to date; a quorum rule collects 2 signatures before executing; each refusal kind
 * is one audit entry with its rule and the transaction hash. Screenshots in both themes.
 */
import * as ed from '@noble/ed25519';
import { Entry } from '@napi-rs/keyring';
import { test, expect, type Page } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { withConsoleClient } from '../support/console-ipc.js';
import { download } from '../support/e2e.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

test.describe.configure({ mode: 'serial' });

const PASS = 'officer passphrase 2026';
let online: ConsoleProcess;
let air: ConsoleProcess;
let party = '';
let officerFp = '';
const created: Array<[service: string, fp: string]> = [];

test.beforeAll(async () => {
  [online, air] = await Promise.all([startConsoleProcess(), startConsoleProcess(['--no-demo'])]);
});
test.afterAll(async () => {
  for (const [service, fp] of created) {
    try {
      new Entry(service, `signing-key:${fp}`).deletePassword();
    } catch {
      // deleted already
    }
  }
  await ifAssigned(online)?.stop();
  await ifAssigned(air)?.stop();
});

async function shoot(page: Page, name: string) {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: `test/e2e/screenshots/policy-${name}-light.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `test/e2e/screenshots/policy-${name}-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
}
const go = (page: Page, name: RegExp) => page.getByRole('link', { name }).first().click();
const upload = (text: string, name: string) => ({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
const row = (page: Page, label: string) => page.getByTestId('key-row').filter({ hasText: label });

async function createKey(page: Page, label: string): Promise<string> {
  await go(page, /^Keys/);
  await page.getByRole('button', { name: 'New key' }).first().click();
  await page.getByLabel('Label').fill(label);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(row(page, label)).toBeVisible();
  const fp = must(
    await row(page, label).getByRole('button', { name: 'Copy fingerprint' }).locator('..').getAttribute('title'),
    `the fingerprint of key ${label}`,
  );
  created.push([online.keychainService, fp]);
  return fp;
}
async function setPolicy(page: Page, label: string, fill: (page: Page) => Promise<void>, version: number) {
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
async function prepareIou(page: Page, owner: string, fp: string, amount: string) {
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
async function openRequest(page: Page, request: { name: string; text: string }) {
  await go(page, /^Offline signer/);
  if (await page.getByRole('button', { name: 'Back' }).isVisible()) await page.getByRole('button', { name: 'Back' }).click();
  await page.getByTestId('open-request').setInputFiles(upload(request.text, request.name));
  await expect(page.getByTestId('tx-summary')).toBeVisible();
}
/** A transaction this console cannot describe field by field needs the typed confirmation word. */
async function confirmWord(page: Page) {
  if ((await page.getByTestId('blind-word').count()) > 0) await page.getByTestId('blind-word').fill('BLIND');
}

test('a key’s policy is versioned and travels with its encrypted backup to the air-gapped signer', async ({ browser }) => {
  const on = await browser.newPage();
  const off = await browser.newPage();
  await on.goto(online.url);
  await off.goto(air.url);

  officerFp = await createKey(on, 'Officer');
  await go(on, /^Signing/);
  await on.getByRole('tab', { name: 'Onboard a party' }).click();
  await on.getByLabel('Key', { exact: true }).selectOption({
    label: must(
      await on.getByLabel('Key', { exact: true }).locator('option', { hasText: 'Officer' }).textContent(),
      'the Officer key option',
    ),
  });
  await on.getByLabel('Party hint').fill('e2e-policy');
  await on.getByTestId('onboard-prepare').click();
  await on.getByRole('button', { name: 'Sign and allocate the party' }).click();
  await expect(on.getByTestId('onboard-done')).toBeVisible();
  party = `e2e-policy::${officerFp}`;

  await setPolicy(on, 'Officer', (p) => p.getByLabel(/Amount limit/).fill('1000'), 1);
  await setPolicy(
    on,
    'Officer',
    async (p) => {
      await p.getByLabel(/Amount limit/).fill('800');
      await p.getByLabel(/Allowed choices/).fill('Iou_Transfer');
    },
    2,
  );
  await on.getByRole('button', { name: 'Back up…' }).click();
  await on.getByLabel('Backup passphrase').fill(PASS);
  await on.getByLabel('Repeat passphrase').fill(PASS);
  const backup = await download(on, () => on.getByRole('button', { name: 'Download encrypted backup' }).click());
  expect(JSON.parse(backup.text)).toMatchObject({ format: 'canton-console/key-backup', version: 2 });

  await go(off, /^Keys/);
  await off.getByTestId('keys-empty').getByRole('button', { name: 'Restore backup…' }).click();
  await off.getByTestId('restore-file').setInputFiles(upload(backup.text, backup.name));
  await off.getByLabel('Backup passphrase').fill(PASS);
  await off.getByRole('button', { name: 'Decrypt and preview' }).click();
  await expect(off.getByTestId('restore-preview')).toContainText('v2');
  await expect(off.getByTestId('policy-offer')).toContainText('newer');
  await shoot(off, 'restore-preview');
  await off.getByRole('button', { name: /Restore 1 key/ }).click();
  created.push([air.keychainService, officerFp]);
  await expect(row(off, 'Officer').getByRole('button', { name: /^Policy/ })).toContainText('v2');
  await row(off, 'Officer')
    .getByRole('button', { name: /^Policy/ })
    .click();
  await expect(off.getByTestId('policy-version')).toContainText('version 2');
  await expect(off.getByLabel(/Amount limit/)).toHaveValue('800');
  await expect(off.getByLabel(/Allowed choices/)).toHaveValue('Iou_Transfer');
  await shoot(off, 'restored-policy');
  await on.close();
  await off.close();
});

test('the bypass is refused at the air-gapped signer, and a tampered signer’s signature at execution', async ({ browser }) => {
  const on = await browser.newPage();
  const off = await browser.newPage();
  await on.goto(online.url);
  await off.goto(air.url);
  // the request is made while the online policy still allowed 5,000 (version 3); then the officer tightens it (version 4)
  await setPolicy(
    on,
    'Officer',
    async (p) => {
      await p.getByLabel(/Amount limit/).fill('10000');
      await p.getByLabel(/Allowed choices/).fill('');
    },
    3,
  );
  await prepareIou(on, party, officerFp, '5000');
  await expect(on.getByTestId('tx-summary')).toBeVisible();
  const hashHex = must(await on.getByTestId('hash-hex').textContent(), "on.getByTestId('hash-hex').textContent()").replace(/\s/g, '');
  const request = await download(on, () => on.getByTestId('export-request').click());
  expect(JSON.parse(request.text)).toMatchObject({ version: 3, policies: [{ fingerprint: officerFp, version: 3 }] });
  await setPolicy(on, 'Officer', (p) => p.getByLabel(/Amount limit/).fill('1000'), 4);
  // the officer brings version 4 to the signer with a policy file (no key material in it)
  await on.getByRole('button', { name: 'Export policy file…' }).click();
  await on.getByLabel('Policy file passphrase').fill(PASS);
  await on.getByLabel('Repeat passphrase').fill(PASS);
  const policyFile = await download(on, () => on.getByRole('button', { name: 'Download policy file' }).click());
  expect(policyFile.text).not.toMatch(/seed/);
  await go(off, /^Keys/);
  await off.getByRole('button', { name: 'Import policy file…' }).click();
  await off.getByTestId('policy-file').setInputFiles(upload(policyFile.text, policyFile.name));
  await off.getByLabel('Policy file passphrase').fill(PASS);
  await off.getByRole('button', { name: 'Decrypt and compare' }).click();
  await expect(off.getByTestId('policy-import-preview')).toContainText('v4 (here v2)');
  await expect(off.getByTestId('policy-import-preview')).toContainText('amount limit: 800 → 1000 (looser)');
  await shoot(off, 'policy-import-preview');
  await off.getByRole('button', { name: 'Adopt 1 newer policy' }).click();
  await expect(off.getByText(/Policies updated: Officer → version 4/)).toBeVisible();

  // at the air-gapped signer: its own policy refuses the 5,000 (shown, the sign button disabled, audited)
  await openRequest(off, request);
  await expect(off.getByTestId('policy-refusal')).toContainText('POLICY_AMOUNT');
  await expect(off.getByTestId('policy-refusal')).toContainText('exceeds this key’s limit of 1000');
  await expect(off.getByTestId('policy-refusal')).toContainText('an officer changes the key’s policy');
  await expect(off.getByTestId('request-policy-versions')).toContainText('checked against version 3');
  await confirmWord(off);
  await expect(off.getByTestId('confirm-button')).toBeDisabled();
  await off.getByTestId('policy-refusal').scrollIntoViewIfNeeded();
  await shoot(off, 'signer-refused');
  // forced past the disabled button, straight to the console: refused again, audited again
  const forced = await withConsoleClient(air, (c) => c.call('signing.offline.sign', { text: request.text, blindConfirmation: 'BLIND' }));
  expect(forced).toMatchObject({ status: 'refused', reason: 'POLICY_AMOUNT' });

  // a tampered signer holding the key signs the hash anyway; the online console refuses to execute it
  const seed = Buffer.from(
    must(new Entry(air.keychainService, `signing-key:${officerFp}`).getPassword(), 'the officer key in the air-gapped keychain').slice(
      'ed25519-seed:v1:'.length,
    ),
    'base64',
  );
  const req = JSON.parse(request.text) as {
    requestId: string;
    digest: string;
    party: string;
    prepared: { preparedTransactionHash: string };
  };
  expect(Buffer.from(req.prepared.preparedTransactionHash, 'base64').toString('hex')).toBe(hashHex);
  const signature = Buffer.from(await ed.signAsync(Buffer.from(req.prepared.preparedTransactionHash, 'base64'), seed)).toString('base64');
  const tampered = JSON.stringify({
    format: 'canton-console/signature-response',
    version: 1,
    requestId: req.requestId,
    requestDigest: req.digest,
    party: req.party,
    signedAt: new Date().toISOString(),
    signatures: [
      { format: 'SIGNATURE_FORMAT_CONCAT', signature, signedBy: officerFp, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' },
    ],
  });
  await go(on, /^Signing/);
  await on.getByRole('tab', { name: /Offline requests/ }).click();
  const pending = on.getByTestId('pending-request').filter({ hasText: req.requestId.slice(0, 8) });
  await pending.getByTestId('import-response').setInputFiles(upload(tampered, 'signature-response-tampered.json'));
  await expect(pending.getByTestId('refusal-reason')).toHaveText('POLICY_AMOUNT');
  await expect(pending.getByTestId('refusal-message')).toContainText('refused at execution');
  await expect(pending.getByTestId('collector-status')).toHaveText(/0 of 1 required/);
  await expect(pending.getByTestId('execute-request')).toBeDisabled();
  await shoot(on, 'execution-refused');
  await on.close();
  await off.close();
});

test('a request checked against a newer policy is refused at the signer until a policy file updates it', async ({ browser }) => {
  const on = await browser.newPage();
  const off = await browser.newPage();
  await on.goto(online.url);
  await off.goto(air.url);
  await setPolicy(on, 'Officer', (p) => p.getByLabel(/Amount limit/).fill('2000'), 5);
  await prepareIou(on, party, officerFp, '1500');
  await expect(on.getByTestId('tx-summary')).toBeVisible();
  const request = await download(on, () => on.getByTestId('export-request').click());

  await openRequest(off, request);
  await expect(off.getByTestId('policy-refusal')).toContainText('POLICY_OUTDATED');
  await expect(off.getByTestId('policy-refusal')).toContainText('Import policy file');
  await expect(off.getByTestId('request-policy-versions')).toContainText('checked against version 5');
  await expect(off.getByTestId('request-policy-versions')).toContainText('version 4');
  await expect(off.getByTestId('confirm-button')).toBeDisabled();
  await off.getByTestId('policy-refusal').scrollIntoViewIfNeeded();
  await shoot(off, 'signer-outdated');

  await go(on, /^Keys/);
  await on.getByRole('button', { name: 'Export policy file…' }).click();
  await on.getByLabel('Policy file passphrase').fill(PASS);
  await on.getByLabel('Repeat passphrase').fill(PASS);
  const policyFile = await download(on, () => on.getByRole('button', { name: 'Download policy file' }).click());
  await go(off, /^Keys/);
  await off.getByRole('button', { name: 'Import policy file…' }).click();
  await off.getByTestId('policy-file').setInputFiles(upload(policyFile.text, policyFile.name));
  await off.getByLabel('Policy file passphrase').fill(PASS);
  await off.getByRole('button', { name: 'Decrypt and compare' }).click();
  await off.getByRole('button', { name: 'Adopt 1 newer policy' }).click();
  await expect(off.getByText(/Policies updated: Officer → version 5/)).toBeVisible();

  await openRequest(off, request);
  await expect(off.getByTestId('policy-refusal')).toHaveCount(0);
  await confirmWord(off);
  const response = await download(off, () => off.getByTestId('confirm-button').click());
  await go(on, /^Signing/);
  await on.getByRole('tab', { name: /Offline requests/ }).click();
  const req = JSON.parse(request.text) as { requestId: string };
  const pending = on.getByTestId('pending-request').filter({ hasText: req.requestId.slice(0, 8) });
  await pending.getByTestId('import-response').setInputFiles(upload(response.text, response.name));
  await expect(pending.getByTestId('collector-status')).toHaveText(/1 of 1 required/);
  await pending.getByTestId('execute-request').click();
  await expect(on.getByTestId('execution-result')).toBeVisible();
  await on.close();
  await off.close();
});

test('online: the policy’s refusal names the rule and what would work', async ({ page }) => {
  await page.goto(online.url);
  await prepareIou(page, party, officerFp, '3000');
  await expect(page.getByTestId('refusal-reason')).toHaveText('POLICY_AMOUNT');
  await expect(page.getByTestId('refusal-hint')).toContainText('an officer changes the policy');
  await expect(page.getByText(/Recorded in the audit log as entry #\d+/)).toBeVisible();
  await shoot(page, 'online-refused');
});

test('a quorum of 2 keys above 10,000 collects both signatures before executing', async ({ browser }) => {
  const on = await browser.newPage();
  const off = await browser.newPage();
  await on.goto(online.url);
  await off.goto(air.url);
  const q1 = await createKey(on, 'Quorum A');
  const q2 = await createKey(on, 'Quorum B');
  await go(on, /^Signing/);
  await on.getByRole('tab', { name: 'Onboard a party' }).click();
  await on.getByLabel('Key', { exact: true }).selectOption({
    label: must(
      await on.getByLabel('Key', { exact: true }).locator('option', { hasText: 'Quorum A' }).textContent(),
      'the Quorum A key option',
    ),
  });
  await on.getByLabel(/Quorum B/).check();
  await on.getByLabel('Signatures required').fill('1');
  await on.getByLabel('Party hint').fill('e2e-quorum');
  await on.getByTestId('onboard-prepare').click();
  await expect(on.getByTestId('onboard-signing-keys')).toContainText('1 of 2');
  await on.getByRole('button', { name: 'Sign and allocate the party' }).click();
  await expect(on.getByTestId('onboard-done')).toBeVisible();
  const quorumParty = `e2e-quorum::${q1}`;
  const quorum = (offline: boolean) => async (p: Page) => {
    await p.getByLabel('Signatures required', { exact: true }).fill('2');
    await p.getByLabel('above', { exact: true }).fill('10000');
    if (offline) await p.getByLabel(/Require offline confirmation/).check();
  };
  await setPolicy(on, 'Quorum A', quorum(false), 1);
  await setPolicy(on, 'Quorum B', quorum(true), 1);

  await prepareIou(on, quorumParty, q1, '20000');
  await expect(on.getByTestId('policy-note')).toContainText('2 signatures');
  await expect(on.getByTestId('confirm-button')).toBeDisabled();
  await shoot(on, 'quorum-review');
  const request = await download(on, () => on.getByTestId('export-request').click());
  expect(JSON.parse(request.text)).toMatchObject({ threshold: 2 });
  await on.getByRole('tab', { name: /Offline requests/ }).click();
  const req = JSON.parse(request.text) as { requestId: string };
  const pending = on.getByTestId('pending-request').filter({ hasText: req.requestId.slice(0, 8) });
  await expect(pending.getByTestId('collector-status')).toHaveText(/0 of 2 required/);

  // Quorum B is on the air-gapped signer
  await go(on, /^Keys/);
  await on.getByRole('button', { name: 'Back up…' }).click();
  for (const label of ['Officer', 'Quorum A']) await on.getByRole('checkbox', { name: new RegExp(`^${label} `) }).uncheck();
  await on.getByLabel('Backup passphrase').fill(PASS);
  await on.getByLabel('Repeat passphrase').fill(PASS);
  const backup = await download(on, () => on.getByRole('button', { name: 'Download encrypted backup' }).click());
  await go(off, /^Keys/);
  await off.getByRole('button', { name: 'Restore backup…' }).click();
  await off.getByTestId('restore-file').setInputFiles(upload(backup.text, backup.name));
  await off.getByLabel('Backup passphrase').fill(PASS);
  await off.getByRole('button', { name: 'Decrypt and preview' }).click();
  await off.getByRole('button', { name: /Restore 1 key/ }).click();
  await expect(row(off, 'Quorum B')).toBeVisible();
  created.push([air.keychainService, q2]);
  await openRequest(off, request);
  await confirmWord(off);
  const fromAir = await download(off, () => off.getByTestId('confirm-button').click());

  await go(on, /^Signing/);
  await on.getByRole('tab', { name: /Offline requests/ }).click();
  await pending.getByTestId('import-response').setInputFiles(upload(fromAir.text, fromAir.name));
  await expect(pending.getByTestId('collector-status')).toHaveText(/1 of 2 required/);
  await expect(pending.getByTestId('execute-request')).toBeDisabled();
  await shoot(on, 'quorum-one-of-two');
  // forced: executing with one signature is refused (and audited)
  const early = await withConsoleClient(online, (c) =>
    c.call('signing.offline.execute', { requestId: req.requestId, mode: 'executeAndWait' }),
  );
  expect(early).toMatchObject({ status: 'refused', reason: 'POLICY_QUORUM' });

  // the second signature: Quorum A signs in this console's own Offline signer
  await openRequest(on, request);
  await confirmWord(on);
  const fromHere = await download(on, () => on.getByTestId('confirm-button').click());
  await go(on, /^Signing/);
  await on.getByRole('tab', { name: /Offline requests/ }).click();
  await pending.getByTestId('import-response').setInputFiles(upload(fromHere.text, fromHere.name));
  await expect(pending.getByTestId('collector-status')).toHaveText(/2 of 2 required/);
  await pending.getByTestId('execute-request').click();
  await expect(on.getByTestId('execution-result')).toBeVisible();
  await shoot(on, 'quorum-executed');
  await on.close();
  await off.close();
});

test('every refusal kind is one audit entry with its rule and the transaction hash, on both consoles', async ({ browser }) => {
  const on = await browser.newPage();
  const off = await browser.newPage();
  await on.goto(online.url);
  await off.goto(air.url);
  await go(off, /^Audit/);
  await off.getByLabel('Show').selectOption('refused');
  const offTable = off.getByTestId('audit-table');
  for (const reason of ['POLICY_AMOUNT', 'POLICY_OUTDATED']) await expect(offTable).toContainText(reason);
  // the signer's refusals of the 5,000: the disabled button and the forced request, each once
  await expect(off.getByTestId('audit-row').filter({ hasText: 'POLICY_AMOUNT' })).toHaveCount(2);
  await expect(off.getByTestId('audit-row').filter({ hasText: 'POLICY_AMOUNT' }).first()).toContainText('hash ');
  await off.getByLabel('Show').selectOption('policy-changed');
  await expect(off.getByTestId('audit-row')).toHaveCount(4);
  await shoot(off, 'audit-signer');

  await go(on, /^Audit/);
  await on.getByLabel('Show').selectOption('refused');
  const onTable = on.getByTestId('audit-table');
  // the amount refused online (error screen), the tampered signature at execution, the quorum executed too early
  for (const reason of ['POLICY_AMOUNT', 'POLICY_QUORUM']) await expect(onTable).toContainText(reason);
  // refused at execution, each once: the tampered signer's signature (amount) and the quorum short of its 2nd signature
  const atExecution = on.getByTestId('audit-row').filter({ hasText: 'refused at execution' });
  await expect(atExecution).toHaveCount(2);
  await expect(atExecution.filter({ hasText: 'POLICY_AMOUNT' })).toHaveCount(1);
  await expect(atExecution.filter({ hasText: 'POLICY_QUORUM' })).toHaveCount(1);
  await on.getByTestId('audit-verify').click();
  await expect(on.getByTestId('chain-status')).toContainText('Chain OK');
  await shoot(on, 'audit-online');
  await on.close();
  await off.close();
});
