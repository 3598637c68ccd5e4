/**
 * Issue #14 end to end, through the UI of two console processes (online demo + air-gapped `--no-demo`), files moved
 * by download/upload as an officer would: the signing policy travels with the key's backup and is shown (with its
 * version) on the restoring console; a transaction the policy forbids is refused at the air-gapped signer and — signed
 * anyway by a tampered signer — refused at execution; a request checked against a newer policy is refused until a
 * policy file brings the signer up to date; each refusal kind is one audit entry with its rule and the transaction
 * hash. Screenshots in both themes. (The quorum rule: signing-policy-quorum.spec.ts.)
 */
import * as ed from '@noble/ed25519';
import { Entry } from '@napi-rs/keyring';
import { test, expect } from '@playwright/test';
import { withConsoleClient } from '../support/console-ipc.js';
import { download } from '../support/e2e.js';
import { must } from '../support/must.js';
import { useSigningConsoles, fullPageShots, go, openBoth } from '../support/signing-e2e.js';
import { PASS, upload, row, createKey, setPolicy, prepareIou, openRequest, confirmWord } from '../support/signing-policy-e2e.js';

test.describe.configure({ mode: 'serial' });

const consoles = useSigningConsoles({ airGapped: true });
const { online, air, keys } = consoles;
const shoot = fullPageShots('policy');
let party = '';
let officerFp = '';

test('a key’s policy is versioned and travels with its encrypted backup to the air-gapped signer', async ({ browser }) => {
  const { on, off } = await openBoth(browser, consoles);

  officerFp = await createKey(on, consoles, 'Officer');
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
  keys.push([air().keychainService, officerFp]);
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
  const { on, off } = await openBoth(browser, consoles);
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
  const forced = await withConsoleClient(air(), (c) => c.call('signing.offline.sign', { text: request.text, blindConfirmation: 'BLIND' }));
  expect(forced).toMatchObject({ status: 'refused', reason: 'POLICY_AMOUNT' });

  // a tampered signer holding the key signs the hash anyway; the online console refuses to execute it
  const seed = Buffer.from(
    must(new Entry(air().keychainService, `signing-key:${officerFp}`).getPassword(), 'the officer key in the air-gapped keychain').slice(
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
  const { on, off } = await openBoth(browser, consoles);
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
  await page.goto(online().url);
  await prepareIou(page, party, officerFp, '3000');
  await expect(page.getByTestId('refusal-reason')).toHaveText('POLICY_AMOUNT');
  await expect(page.getByTestId('refusal-hint')).toContainText('an officer changes the policy');
  await expect(page.getByText(/Recorded in the audit log as entry #\d+/)).toBeVisible();
  await shoot(page, 'online-refused');
});

test('every refusal kind is one audit entry with its rule and the transaction hash, on both consoles', async ({ browser }) => {
  const { on, off } = await openBoth(browser, consoles);
  await go(off, /^Audit/);
  await off.getByLabel('Show').selectOption('refused');
  const offTable = off.getByTestId('audit-table');
  for (const reason of ['POLICY_AMOUNT', 'POLICY_OUTDATED']) await expect(offTable).toContainText(reason);
  // the signer's refusals of the 5,000: the disabled button and the forced request, each once
  await expect(off.getByTestId('audit-row').filter({ hasText: 'POLICY_AMOUNT' })).toHaveCount(2);
  await expect(off.getByTestId('audit-row').filter({ hasText: 'POLICY_AMOUNT' }).first()).toContainText('hash ');
  await off.getByLabel('Show').selectOption('policy-changed');
  // the restored version 2, the adopted versions 4 and 5
  await expect(off.getByTestId('audit-row')).toHaveCount(3);
  await shoot(off, 'audit-signer');

  await go(on, /^Audit/);
  await on.getByLabel('Show').selectOption('refused');
  const onTable = on.getByTestId('audit-table');
  // the amount refused online (error screen) and the tampered signature at execution
  await expect(onTable).toContainText('POLICY_AMOUNT');
  // refused at execution, once: the tampered signer's signature (amount)
  const atExecution = on.getByTestId('audit-row').filter({ hasText: 'refused at execution' });
  await expect(atExecution).toHaveCount(1);
  await expect(atExecution.filter({ hasText: 'POLICY_AMOUNT' })).toHaveCount(1);
  await on.getByTestId('audit-verify').click();
  await expect(on.getByTestId('chain-status')).toContainText('Chain OK');
  await shoot(on, 'audit-online');
  await on.close();
  await off.close();
});
