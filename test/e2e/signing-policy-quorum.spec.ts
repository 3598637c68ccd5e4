/**
 * Issue #14's quorum rule end to end, through the UI of two console processes (online demo + air-gapped
 * `--no-demo`), files moved by download/upload as an officer would: above 10,000 a party's transaction needs the
 * signatures of 2 of its keys, one of them on the air-gapped signer; executing with one is refused, and audited.
 * Screenshots in both themes. (The other policy rules: signing-policy.spec.ts.)
 */
import { test, expect, type Page } from '@playwright/test';
import { withConsoleClient } from '../support/console-ipc.js';
import { download } from '../support/e2e.js';
import { must } from '../support/must.js';
import { useSigningConsoles, fullPageShots, go, openBoth } from '../support/signing-e2e.js';
import { PASS, upload, row, createKey, setPolicy, prepareIou, openRequest, confirmWord } from '../support/signing-policy-e2e.js';

test.describe.configure({ mode: 'serial' });

const consoles = useSigningConsoles({ airGapped: true });
const { online, air, keys } = consoles;
const shoot = fullPageShots('policy');

test('a quorum of 2 keys above 10,000 collects both signatures before executing', async ({ browser }) => {
  const { on, off } = await openBoth(browser, consoles);
  const q1 = await createKey(on, consoles, 'Quorum A');
  const q2 = await createKey(on, consoles, 'Quorum B');
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
  for (const label of ['Quorum A']) await on.getByRole('checkbox', { name: new RegExp(`^${label} `) }).uncheck();
  await on.getByLabel('Backup passphrase').fill(PASS);
  await on.getByLabel('Repeat passphrase').fill(PASS);
  const backup = await download(on, () => on.getByRole('button', { name: 'Download encrypted backup' }).click());
  await go(off, /^Keys/);
  // no key on the air-gapped signer yet
  await off.getByTestId('keys-empty').getByRole('button', { name: 'Restore backup…' }).click();
  await off.getByTestId('restore-file').setInputFiles(upload(backup.text, backup.name));
  await off.getByLabel('Backup passphrase').fill(PASS);
  await off.getByRole('button', { name: 'Decrypt and preview' }).click();
  await off.getByRole('button', { name: /Restore 1 key/ }).click();
  await expect(row(off, 'Quorum B')).toBeVisible();
  keys.push([air().keychainService, q2]);
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
  const early = await withConsoleClient(online(), (c) =>
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

test('the quorum executed short of its second signature is one audit entry, refused at execution', async ({ browser }) => {
  const { on, off } = await openBoth(browser, consoles);
  await go(off, /^Audit/);
  await off.getByLabel('Show').selectOption('policy-changed');
  // Quorum B restored with its policy
  await expect(off.getByTestId('audit-row')).toHaveCount(1);

  await go(on, /^Audit/);
  await on.getByLabel('Show').selectOption('refused');
  await expect(on.getByTestId('audit-table')).toContainText('POLICY_QUORUM');
  const atExecution = on.getByTestId('audit-row').filter({ hasText: 'refused at execution' });
  await expect(atExecution).toHaveCount(1);
  await expect(atExecution.filter({ hasText: 'POLICY_QUORUM' })).toHaveCount(1);
  await on.getByTestId('audit-verify').click();
  await expect(on.getByTestId('chain-status')).toContainText('Chain OK');
  await on.close();
  await off.close();
});
