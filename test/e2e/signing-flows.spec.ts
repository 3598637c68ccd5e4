/**
 * Signing end to end in Chromium through the browser host, against the embedded simulator, with the real keychain:
 * key creation, onboarding of an external party (one key, and k of n), compose → verify → sign → execute with the
 * resulting transaction, a real DAR's transaction described field by field, and a lying participant refused (the
 * simulator's fault injection tampering with its prepare answers). Screenshots of every screen in both themes. (The
 * offline round trips between two consoles and the audit chain: signing-offline.spec.ts.)
 */
import { Entry } from '@napi-rs/keyring';
import { test, expect } from '@playwright/test';
import { uploadReferenceDar } from '../support/e2e.js';
import { must } from '../support/must.js';
import { useSigningConsoles, fullPageShots, go } from '../support/signing-e2e.js';

test.describe.configure({ mode: 'serial' });

const IOU = '#simulator-demo:Demo.Iou:Iou';
const { online, keys: keyFingerprints, sim, allocate } = useSigningConsoles({ airGapped: false });
const shoot = fullPageShots('signing');
let party = '';
let bob = '';

test.beforeAll(async () => {
  bob = await allocate('E2EBob');
});

test('keys: create a key in the OS keychain, rename it, edit its policy', async ({ page }) => {
  await page.goto(online().url);
  await go(page, /^Keys/);
  await expect(page.getByTestId('keys-empty')).toBeVisible();
  await shoot(page, 'keys-empty');
  await page.getByTestId('keys-empty').getByRole('button', { name: 'New key' }).click();
  await page.getByLabel('Label').fill('Treasury');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByTestId('key-row')).toHaveCount(1);
  await expect(page.getByTestId('key-row')).toContainText('Treasury');
  await expect(page.getByTestId('key-row')).toContainText('OS keychain');
  const fp = await page.getByTestId('key-row').getByRole('button', { name: 'Copy fingerprint' }).locator('..').getAttribute('title');
  expect(fp).toMatch(/^1220[0-9a-f]{64}$/);
  keyFingerprints.push([online().keychainService, must(fp, 'fp')]);
  // the private key is in the real keychain, never on the page
  const stored = must(new Entry(online().keychainService, `signing-key:${fp}`).getPassword(), 'the new key in the keychain');
  expect(stored).toMatch(/^ed25519-seed:v1:/);
  const seedB64 = stored.slice('ed25519-seed:v1:'.length);
  expect(await page.content()).not.toContain(seedB64);
  expect(await page.content()).not.toContain(Buffer.from(seedB64, 'base64').toString('hex'));

  await page.getByRole('button', { name: 'Rename Treasury' }).click();
  await page.getByLabel('New label').fill('Treasury key');
  await page.getByLabel('New label').press('Enter');
  await expect(page.getByTestId('key-row')).toContainText('Treasury key');

  await page.getByRole('button', { name: /^Policy/ }).click();
  await expect(page.getByTestId('policy-editor')).toBeVisible();
  await page.getByLabel(/Amount limit/).fill('1000');
  await shoot(page, 'keys-policy');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText(/Signing policy saved: “Treasury key” is now at version 1/)).toBeVisible();
  await shoot(page, 'keys');

  // opt-in unlock window: visible while open, locked again on request
  await page.getByRole('button', { name: 'Unlock 5 min' }).click();
  await expect(page.getByTestId('key-unlocked')).toBeVisible();
  await expect(page.getByText(/is unlocked in memory until/)).toBeVisible();
  await shoot(page, 'keys-unlocked');
  await page.getByRole('button', { name: 'Lock' }).click();
  await expect(page.getByTestId('key-unlocked')).toHaveCount(0);
  await expect(page.getByText(/is locked: every signature reads the key/)).toBeVisible();
});

test('onboard an external party: topology verified locally, summary, confirm, allocated', async ({ page }) => {
  await page.goto(online().url);
  await go(page, /^Signing/);
  await expect(page.getByTestId('sign-empty')).toBeVisible();
  await page.getByRole('tab', { name: 'Onboard a party' }).click();
  await page.getByLabel('Party hint').fill('e2e-treasury');
  await page.getByTestId('onboard-prepare').click();
  await expect(page.getByTestId('topology-summary')).toBeVisible();
  await expect(page.getByTestId('onboard-party')).toContainText(`e2e-treasury::${must(keyFingerprints[0], 'keyFingerprints[0]')[1]}`);
  await expect(page.getByTestId('onboard-threshold')).toHaveText('1');
  await expect(page.getByTestId('topology-summary')).toContainText('confirmation');
  await shoot(page, 'onboard-review');
  await page.getByRole('button', { name: 'Sign and allocate the party' }).click();
  await expect(page.getByTestId('onboard-done')).toBeVisible();
  party = `e2e-treasury::${must(keyFingerprints[0], 'keyFingerprints[0]')[1]}`;
  const listed = await sim<{ partyDetails: Array<{ party: string }> }>('/v2/parties');
  expect(listed.partyDetails.map((p) => p.party)).toContain(party);
  await shoot(page, 'onboard-done');
  await go(page, /^Keys/);
  await expect(page.getByTestId('key-row')).toContainText('e2e-treasury::');
});

test('compose, verify, sign and execute a create and a transfer; the transaction is shown', async ({ page }) => {
  await page.goto(online().url);
  await go(page, /^Signing/);
  await expect(page.getByTestId('compose')).toBeVisible();
  await shoot(page, 'compose');
  // invalid JSON is caught in the form
  await page.getByLabel(/Create arguments/).fill('{"issuer": ');
  await page.getByTestId('prepare-button').click();
  await expect(page.getByTestId('json-error')).toBeVisible();

  await page
    .getByLabel(/Create arguments/)
    .fill(JSON.stringify({ issuer: party, owner: bob, currency: 'EUR', amount: '42.5', observers: [] }));
  await page.getByTestId('prepare-button').click();
  await expect(page.getByTestId('tx-summary')).toBeVisible();
  await expect(page.getByTestId('verified-banner')).toContainText('matches the participant’s');
  // described field by field from the package the participant served (its id verified here): no blind prompt
  await expect(page.getByTestId('tx-mode')).toHaveText('Described field by field');
  await expect(page.getByTestId('blind-warning')).toHaveCount(0);
  await expect(page.getByTestId('blind-word')).toHaveCount(0);
  const args = page.getByTestId('tx-node-argument').first();
  for (const field of ['issuer', 'owner', 'currency', 'amount', 'observers'])
    await expect(args.locator(`tr[data-label="${field}"]`)).toHaveCount(1);
  await expect(args.locator('tr[data-label="amount"]')).toContainText('42.5');
  await expect(args.locator('tr[data-label="amount"]')).toContainText('Numeric 10');
  await expect(args.locator('tr[data-label="owner"]')).toContainText('E2EBob::');
  await expect(page.getByTestId('tx-packages')).toContainText('simulator-demo');
  await shoot(page, 'review-described');
  await page.getByTestId('confirm-button').click();
  await expect(page.getByTestId('execution-result')).toBeVisible();
  await expect(page.getByTestId('result-update-id')).not.toBeEmpty();
  await expect(page.getByTestId('result-events')).toContainText('created');
  await shoot(page, 'result');

  // an exercise: transfer an IOU the party owns
  const iouTx = await sim<{ transaction: { events: Array<{ CreatedEvent?: { contractId: string } }> } }>(
    '/v2/commands/submit-and-wait-for-transaction',
    {
      commands: {
        commandId: `e2e-sign-iou-${Date.now()}`,
        actAs: [bob],
        commands: [
          {
            CreateCommand: { templateId: IOU, createArguments: { issuer: bob, owner: party, currency: 'USD', amount: '9', observers: [] } },
          },
        ],
      },
    },
  );
  const iou = must(
    must(iouTx.transaction.events[0], 'iouTx.transaction.events[0]').CreatedEvent,
    'iouTx.transaction.events[0].CreatedEvent',
  ).contractId;
  await page.getByRole('button', { name: 'Sign another transaction' }).click();
  await page.getByLabel('Exercise a choice').check();
  await page.getByLabel('Contract id').fill(iou);
  await page.getByLabel('Choice', { exact: true }).fill('Iou_Transfer');
  await page.getByLabel(/Choice argument/).fill(JSON.stringify({ newOwner: bob }));
  await page.getByTestId('prepare-button').click();
  await expect(page.getByTestId('tx-summary')).toContainText('Iou_Transfer');
  await expect(page.getByTestId('tx-summary')).toContainText('consuming');
  // the transfer names the new owner, in the headline and field by field
  await expect(page.getByTestId('tx-headline')).toContainText('newOwner E2EBob::');
  await expect(page.getByTestId('tx-node-argument').first().locator('tr[data-label="newOwner"]')).toContainText('E2EBob::');
  await page.getByLabel('Execute and wait — waits for the commit (update id and offset)').check();
  await page.getByTestId('confirm-button').click();
  await expect(page.getByTestId('result-offset')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('result-events')).toContainText('Iou_Transfer');

  // the policy (limit 1000) refuses a larger amount, with the reason
  await page.getByRole('button', { name: 'Sign another transaction' }).click();
  await page.getByLabel('Create a contract').check();
  await page
    .getByLabel(/Create arguments/)
    .fill(JSON.stringify({ issuer: party, owner: bob, currency: 'EUR', amount: '5000', observers: [] }));
  await page.getByTestId('prepare-button').click();
  await expect(page.getByTestId('refusal')).toBeVisible();
  await expect(page.getByTestId('refusal-reason')).toHaveText('POLICY_AMOUNT');
  await shoot(page, 'refused-policy');
});

test('a transaction of an uploaded real DAR is described field by field with its record field names', async ({ page }) => {
  // the real splice-test-token-v1 DAR, uploaded to the simulator like to any participant
  await uploadReferenceDar(online(), 'splice-test-token-v1-1.0.0.dar');
  await page.goto(online().url);
  await go(page, /^Signing/);
  await page.getByLabel('Template id').fill('#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:Token');
  await page.getByLabel(/Create arguments/).fill(
    JSON.stringify({
      holding: {
        owner: party,
        instrumentId: { admin: party, id: 'E2E' },
        amount: '7.25',
        lock: null,
        meta: { values: { 'e2e/note': 'real DAR' } },
      },
    }),
  );
  await page.getByTestId('prepare-button').click();
  await expect(page.getByTestId('tx-mode')).toHaveText('Described field by field');
  await expect(page.getByTestId('blind-word')).toHaveCount(0);
  const args = page.getByTestId('tx-node-argument').first();
  // the record field names of the real Daml-LF types, nested across the DAR's packages
  const labels = await args.locator('tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-label')));
  expect(labels).toEqual([
    'arguments',
    'holding',
    'owner',
    'instrumentId',
    'admin',
    'id',
    'amount',
    'lock',
    'meta',
    'values',
    '"e2e/note"',
  ]);
  await expect(args.locator('tr[data-label="holding"]')).toContainText('Splice.Api.Token.HoldingV1:HoldingView');
  await expect(args.locator('tr[data-label="amount"]')).toContainText('7.25');
  await expect(args.locator('tr[data-label="amount"]')).toContainText('Numeric 10');
  await expect(args.locator('tr[data-label="lock"]')).toContainText('None');
  await expect(page.getByTestId('tx-packages')).toContainText('splice-test-token-v1 1.0.0');
  await expect(page.getByTestId('tx-packages')).toContainText('splice-api-token-holding-v1 1.0.0');
  await shoot(page, 'review-real-dar');
  await page.getByTestId('confirm-button').click();
  await expect(page.getByTestId('execution-result')).toBeVisible();
  await expect(page.getByTestId('result-events')).toContainText('created');
});

test('a participant that tampers with the prepared transaction is refused on a big screen', async ({ page }) => {
  // the embedded simulator plays the lying participant (its fault injection, switched at runtime)
  await page.goto(online().url);
  const endBefore = (await sim<{ offset: number }>('/v2/state/ledger-end')).offset;
  try {
    for (const [kind, reason] of [
      ['amount', 'HASH_MISMATCH'],
      ['receiver', 'HASH_MISMATCH'],
      ['hash', 'HASH_MISMATCH'],
      ['submitter-rehashed', 'PARTY_NOT_SUBMITTER'],
      ['scheme-v3', 'UNSUPPORTED_HASHING_SCHEME'],
    ] as const) {
      await sim('/simulator/admin/fault-injection', { prepare: [kind] });
      await go(page, /^Signing/);
      await page
        .getByLabel(/Create arguments/)
        .fill(JSON.stringify({ issuer: party, owner: party, currency: 'EUR', amount: '1', observers: [] }));
      await page.getByTestId('prepare-button').click();
      await expect(page.getByTestId('refusal')).toBeVisible();
      await expect(page.getByTestId('refusal-reason')).toHaveText(reason);
      if (kind === 'amount') await shoot(page, 'refused-tampered');
      await page.getByRole('button', { name: 'Back' }).click();
    }
  } finally {
    await sim('/simulator/admin/fault-injection', { prepare: 'off' });
  }
  const injected = (
    await sim<{ injections: Array<{ kind: string; applied: boolean }> }>('/simulator/admin/fault-injection')
  ).injections.slice(-5);
  expect(injected.every((x) => x.applied)).toBe(true);
  // nothing reached the ledger, and each refusal is in the audit log
  expect((await sim<{ offset: number }>('/v2/state/ledger-end')).offset).toBe(endBefore);
  await go(page, /^Audit/);
  await expect(page.getByText('HASH_MISMATCH').first()).toBeVisible();
  await expect(page.getByText('UNSUPPORTED_HASHING_SCHEME').first()).toBeVisible();
});

test('k-of-n: onboard a 2-of-3 party with three local keys and sign for it', async ({ page }) => {
  await page.goto(online().url);
  await go(page, /^Keys/);
  for (const label of ['Board A', 'Board B', 'Board C']) {
    await page.getByRole('button', { name: 'New key' }).first().click();
    await page.getByLabel('Label').fill(label);
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByTestId('key-row').filter({ hasText: label })).toBeVisible();
    const fp = await page
      .getByTestId('key-row')
      .filter({ hasText: label })
      .getByRole('button', { name: 'Copy fingerprint' })
      .locator('..')
      .getAttribute('title');
    keyFingerprints.push([online().keychainService, must(fp, 'fp')]);
    expect(new Entry(online().keychainService, `signing-key:${fp}`).getPassword(), label).toMatch(/^ed25519-seed:v1:/);
  }
  for (const [service, fp] of keyFingerprints.slice(-3))
    expect(new Entry(service, `signing-key:${fp}`).getPassword(), fp).toMatch(/^ed25519-seed:v1:/);
  await go(page, /^Signing/);
  await page.getByRole('tab', { name: 'Onboard a party' }).click();
  const optionA = must(
    await page.getByLabel('Key', { exact: true }).locator('option', { hasText: 'Board A' }).textContent(),
    'the Board A key option',
  );
  await page.getByLabel('Key', { exact: true }).selectOption({ label: optionA });
  await page.getByLabel(/Board B/).check();
  await page.getByLabel(/Board C/).check();
  await page.getByLabel('Signatures required').fill('2');
  await page.getByLabel('Party hint').fill('e2e-board');
  await page.getByTestId('onboard-prepare').click();
  await expect(page.getByTestId('onboard-signing-keys')).toContainText('2 of 3');
  await shoot(page, 'onboard-k-of-n');
  await page.getByRole('button', { name: 'Sign and allocate the party' }).click();
  await expect(page.getByTestId('onboard-done')).toBeVisible();
  await page.getByRole('button', { name: 'Sign a transaction for it' }).click();
  await expect(page.getByLabel('External party')).toHaveValue(/^e2e-board::/);
  const board = await page.getByLabel('External party').inputValue();
  await page.getByLabel('Create a contract').check();
  await page
    .getByLabel(/Create arguments/)
    .fill(JSON.stringify({ issuer: board, owner: board, currency: 'EUR', amount: '2', observers: [] }));
  await page.getByTestId('prepare-button').click();
  await page.getByTestId('confirm-button').click();
  await expect(page.getByTestId('execution-result')).toBeVisible();
  await expect(page.getByTestId('result-events')).toContainText('created');
});
