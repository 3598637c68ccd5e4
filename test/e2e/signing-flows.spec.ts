/**
 * Signing end to end in Chromium through the browser host, against the embedded simulator, with the real keychain:
 * key creation, onboarding of an external party, compose → verify → sign → execute with the resulting transaction,
 * a lying participant refused (the simulator's fault injection tampering with its prepare answers), the offline round trip between two
 * console processes (online demo + `--no-demo` air-gapped signer) with files moved through download/upload, and the
 * audit chain verified and exported. Screenshots of every screen in both themes.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { Entry } from '@napi-rs/keyring';
import { test, expect, type Page } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { callSimulator, uploadReferenceDar, download } from '../support/e2e.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

test.describe.configure({ mode: 'serial' });

const IOU = '#simulator-demo:Demo.Iou:Iou';
let online: ConsoleProcess;
let airGapped: ConsoleProcess;
let party = '';
let bob = '';
const keyFingerprints: Array<[service: string, fp: string]> = [];

test.beforeAll(async () => {
  [online, airGapped] = await Promise.all([startConsoleProcess(), startConsoleProcess(['--no-demo'])]);
  bob = await allocate('E2EBob');
});
test.afterAll(async () => {
  for (const [service, fp] of keyFingerprints) {
    try {
      new Entry(service, `signing-key:${fp}`).deletePassword();
    } catch {
      // already deleted by the test
    }
  }
  await ifAssigned(online)?.stop();
  await ifAssigned(airGapped)?.stop();
});

const sim = <T>(path: string, body?: unknown) => callSimulator<T>(online, path, body);
async function allocate(hint: string): Promise<string> {
  return (await sim<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: hint, identityProviderId: '' })).partyDetails.party;
}

/** Screenshot in both themes (follows prefers-color-scheme; no theme is stored). */
async function shoot(page: Page, name: string) {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: `test/e2e/screenshots/signing-${name}-light.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `test/e2e/screenshots/signing-${name}-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
}

async function go(page: Page, name: RegExp) {
  await page.getByRole('link', { name }).first().click();
}

test('keys: create a key in the OS keychain, rename it, edit its policy', async ({ page }) => {
  await page.goto(online.url);
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
  keyFingerprints.push([online.keychainService, must(fp, 'fp')]);
  // the private key is in the real keychain, never on the page
  const stored = must(new Entry(online.keychainService, `signing-key:${fp}`).getPassword(), 'the new key in the keychain');
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
  await page.goto(online.url);
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
  await page.goto(online.url);
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
  await uploadReferenceDar(online, 'splice-test-token-v1-1.0.0.dar');
  await page.goto(online.url);
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
  await page.goto(online.url);
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

test('offline round trip between two consoles: request out, verified and signed air-gapped, response in, executed', async ({ browser }) => {
  const on = await browser.newPage();
  const off = await browser.newPage();
  await on.goto(online.url);
  await off.goto(airGapped.url);

  // The key goes to the air-gapped console as an encrypted backup.
  await go(on, /^Keys/);
  await on.getByRole('button', { name: 'Back up…' }).click();
  await on.getByLabel('Backup passphrase').fill('correct horse battery staple');
  await on.getByLabel('Repeat passphrase').fill('correct horse battery staple');
  const backup = await download(on, () => on.getByRole('button', { name: 'Download encrypted backup' }).click());
  expect(backup.name).toMatch(/^canton-console-keys-.*\.json$/);
  expect(JSON.parse(backup.text)).toMatchObject({ format: 'canton-console/key-backup', version: 2 });

  await go(off, /^Keys/);
  await off.getByTestId('keys-empty').getByRole('button', { name: 'Restore backup…' }).click();
  await off
    .getByTestId('restore-file')
    .setInputFiles({ name: backup.name, mimeType: 'application/json', buffer: Buffer.from(backup.text) });
  await off.getByLabel('Backup passphrase').fill('wrong passphrase!!');
  await off.getByRole('button', { name: 'Decrypt and preview' }).click();
  // each try derives the backup key with scrypt (N=2^17, 128 MiB): seconds on a loaded machine
  await expect(off.getByTestId('restore-refusal')).toContainText('WRONG_PASSPHRASE', { timeout: 60_000 });
  await off.getByLabel('Backup passphrase').fill('correct horse battery staple');
  await off.getByRole('button', { name: 'Decrypt and preview' }).click();
  await expect(off.getByTestId('restore-preview')).toContainText('will be restored', { timeout: 60_000 });
  await shoot(off, 'restore-preview');
  await off.getByRole('button', { name: /Restore 1 key/ }).click();
  await expect(off.getByTestId('key-row')).toContainText('Treasury key', { timeout: 60_000 });
  keyFingerprints.push([airGapped.keychainService, must(keyFingerprints[0], 'keyFingerprints[0]')[1]]);

  // Online: prepare, verify, export the signing request.
  await go(on, /^Signing/);
  await on.getByLabel(/Create arguments/).fill(JSON.stringify({ issuer: party, owner: bob, currency: 'CHF', amount: '7', observers: [] }));
  await on.getByTestId('prepare-button').click();
  await expect(on.getByTestId('tx-summary')).toBeVisible();
  const hashOnline = await on.getByTestId('hash-hex').textContent();
  const request = await download(on, () => on.getByTestId('export-request').click());
  expect(request.name).toMatch(/^signing-request-.*\.json$/);
  await on.getByRole('tab', { name: /Offline requests/ }).click();
  await expect(on.getByTestId('collector-status')).toHaveText(/0 of 1 required/);

  // Air-gapped: altered files are refused; the genuine one is verified, decoded and signed.
  await go(off, /^Offline signer/);
  await expect(off.getByTestId('offline-open')).toBeVisible();
  await shoot(off, 'offline-open');
  const altered = request.text.replace(/"amount"|"expiresAt": "[^"]+"/, (m) =>
    m.startsWith('"expiresAt"') ? '"expiresAt": "2099-01-01T00:00:00.000Z"' : m,
  );
  await off.getByTestId('open-request').setInputFiles({ name: 'altered.json', mimeType: 'application/json', buffer: Buffer.from(altered) });
  await expect(off.getByTestId('refusal-reason')).toHaveText('DIGEST_MISMATCH');
  await shoot(off, 'offline-refused');
  await off.getByRole('button', { name: 'Back' }).click();

  await off
    .getByTestId('open-request')
    .setInputFiles({ name: request.name, mimeType: 'application/json', buffer: Buffer.from(request.text) });
  await expect(off.getByTestId('tx-summary')).toBeVisible();
  expect(await off.getByTestId('hash-hex').textContent()).toBe(hashOnline);
  await expect(off.getByTestId('request-details')).toContainText('on this machine');
  // the air-gapped console verified the packages the request carries and describes the create with them
  await expect(off.getByTestId('tx-mode')).toHaveText('Described field by field');
  await expect(off.getByTestId('tx-node-argument').first().locator('tr[data-label="currency"]')).toContainText('CHF');
  await shoot(off, 'offline-review');
  const response = await download(off, () => off.getByTestId('confirm-button').click());
  expect(response.name).toMatch(/^signature-response-.*\.json$/);
  await expect(off.getByTestId('qr-code')).toBeVisible();
  await shoot(off, 'offline-signed');

  // Online: a response for another party is refused; the genuine one completes the collection; execute.
  const wrongParty = response.text.replace(party, bob);
  await on
    .getByTestId('import-response')
    .setInputFiles({ name: 'wrong.json', mimeType: 'application/json', buffer: Buffer.from(wrongParty) });
  await expect(on.getByTestId('refusal-reason')).toHaveText('WRONG_PARTY');
  await on
    .getByTestId('import-response')
    .setInputFiles({ name: response.name, mimeType: 'application/json', buffer: Buffer.from(response.text) });
  await expect(on.getByTestId('collector-status')).toHaveText(/1 of 1 required/);
  await shoot(on, 'offline-collected');
  await on.getByTestId('execute-request').click();
  await expect(on.getByTestId('execution-result')).toBeVisible();
  await expect(on.getByTestId('result-events')).toContainText('created');
  await expect(on.getByTestId('offline-empty')).toBeVisible();
  await on.close();
  await off.close();
});

test(
  'offline onboarding by file between two consoles: request out, multi-hash verified and signed air-gapped, ' + 'response in, allocated',
  async ({ browser }) => {
    // the key is on both consoles (restored on the air-gapped one in the previous test)
    const on = await browser.newPage();
    const off = await browser.newPage();
    await on.goto(online.url);
    await off.goto(airGapped.url);
    const partyId = `e2e-offline-onboard::${must(keyFingerprints[0], 'keyFingerprints[0]')[1]}`;

    await go(on, /^Signing/);
    await on.getByRole('tab', { name: 'Onboard a party' }).click();
    await on.getByLabel('Party hint').fill('e2e-offline-onboard');
    await on.getByTestId('onboard-prepare').click();
    await expect(on.getByTestId('onboard-party')).toContainText(partyId);
    const request = await download(on, () => on.getByTestId('onboard-export').click());
    expect(request.name).toMatch(/^onboarding-request-[0-9a-f]{8}\.json$/);
    expect(JSON.parse(request.text)).toMatchObject({ format: 'canton-console/onboarding-request', version: 1 });
    await expect(on.getByTestId('onboard-exported')).toContainText('e2e-offline-onboard::');
    await shoot(on, 'onboard-exported');
    expect((await sim<{ partyDetails: Array<{ party: string }> }>('/v2/parties')).partyDetails.map((p) => p.party)).not.toContain(partyId);

    // air-gapped: an altered file is refused; the genuine one shows the recomputed multi-hash summary and is signed
    await go(off, /^Offline signer/);
    const altered = request.text.replace('"expiresAt": "', '"expiresAt": "2099-01-01T00:00:00.000Z", "x": "');
    await off
      .getByTestId('open-request')
      .setInputFiles({ name: 'altered.json', mimeType: 'application/json', buffer: Buffer.from(altered) });
    await expect(off.getByTestId('refusal')).toBeVisible();
    await off.getByRole('button', { name: 'Back' }).click();
    await off
      .getByTestId('open-request')
      .setInputFiles({ name: request.name, mimeType: 'application/json', buffer: Buffer.from(request.text) });
    await expect(off.getByTestId('onboarding-request-review')).toBeVisible();
    await expect(off.getByTestId('onboard-party')).toContainText(partyId);
    await expect(off.getByTestId('onboarding-request-details')).toContainText('on this machine');
    await shoot(off, 'offline-onboarding-review');
    const response = await download(off, () => off.getByTestId('confirm-button').click());
    expect(response.name).toMatch(/^onboarding-response-[0-9a-f]{8}\.json$/);
    await expect(off.getByTestId('offline-onboarding-signed')).toContainText('e2e-offline-onboard::');
    await shoot(off, 'offline-onboarding-signed');

    // online: a response for another party is refused, the genuine one allocates the party
    await on.getByRole('tab', { name: /Offline requests/ }).click();
    await expect(on.getByTestId('pending-onboarding')).toContainText('e2e-offline-onboard::');
    const wrong = response.text.replaceAll(partyId, party);
    await on
      .getByTestId('import-onboarding-response')
      .setInputFiles({ name: 'wrong.json', mimeType: 'application/json', buffer: Buffer.from(wrong) });
    await expect(on.getByTestId('refusal-reason')).toHaveText('WRONG_PARTY');
    await on
      .getByTestId('import-onboarding-response')
      .setInputFiles({ name: response.name, mimeType: 'application/json', buffer: Buffer.from(response.text) });
    await expect(on.getByTestId('offline-onboard-allocated')).toContainText('e2e-offline-onboard::');
    await expect(on.getByTestId('pending-onboarding')).toHaveCount(0);
    await shoot(on, 'offline-onboard-allocated');
    expect((await sim<{ partyDetails: Array<{ party: string }> }>('/v2/parties')).partyDetails.map((p) => p.party)).toContain(partyId);
    await on.close();
    await off.close();
  },
);

test('audit: decisions listed with reasons, chain verified, NDJSON exported', async ({ page }) => {
  await page.goto(online.url);
  await go(page, /^Audit/);
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  await expect(page.getByTestId('audit-table')).toContainText('POLICY_AMOUNT');
  await expect(page.getByTestId('audit-table')).toContainText('HASH_MISMATCH');
  await expect(page.getByTestId('audit-table')).toContainText('signed');
  await page.getByTestId('audit-verify').click();
  await expect(page.getByTestId('chain-status')).toContainText('Chain OK');
  await shoot(page, 'audit');
  const exported = await download(page, () => page.getByTestId('audit-export').click());
  const all = exported.text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { decision: string; chainHash: string; auditHead?: { seq: number; publicKeyHex: string } });
  // entries, then the head signed with the console's audit key (its public key is shown after Verify)
  const head = must(must(all.pop(), 'all.pop()').auditHead, 'all.pop().auditHead');
  const lines = all;
  expect(lines.length).toBe(await page.getByTestId('audit-row').count());
  expect(lines.every((l) => /^[0-9a-f]{64}$/.test(l.chainHash))).toBe(true);
  expect(head.seq).toBe(lines.length);
  await expect(page.getByTestId('chain-authenticated')).toContainText('authenticated with this console’s audit key');
  expect(await page.getByRole('button', { name: 'Copy audit public key' }).locator('..').textContent()).toContain(
    head.publicKeyHex.slice(0, 12),
  );
  await page
    .getByTestId('audit-verify-export')
    .setInputFiles({ name: exported.name, mimeType: 'application/x-ndjson', buffer: Buffer.from(exported.text) });
  await expect(page.getByTestId('export-status')).toContainText('Chain OK');
  await expect(page.getByTestId('export-signature')).toContainText(`Head #${head.seq} signed`);
  const altered = exported.text.replace('"decision":"refused"', '"decision":"signed"');
  await page
    .getByTestId('audit-verify-export')
    .setInputFiles({ name: 'altered.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(altered) });
  await expect(page.getByTestId('export-status')).toContainText('The chain is broken');
  await shoot(page, 'audit-export-verified');

  const air = await page.context().newPage();
  await air.goto(airGapped.url);
  await go(air, /^Audit/);
  await expect(air.getByTestId('audit-table')).toContainText('DIGEST_MISMATCH');
  await expect(air.getByTestId('audit-table')).toContainText('offline');
  await air.getByTestId('audit-verify').click();
  await expect(air.getByTestId('chain-status')).toContainText('Chain OK');
  // Someone edits a refusal into a signature behind the console's back: the chain says so.
  const db = new Database(path.join(airGapped.dataDir, 'console.sqlite'));
  const { seq } = db.prepare(`SELECT min(seq) AS seq FROM signing_audit WHERE entry_json LIKE '%"decision":"refused"%'`).get() as {
    seq: number;
  };
  const edited = db
    .prepare('UPDATE signing_audit SET entry_json = replace(entry_json, \'"decision":"refused"\', \'"decision":"signed"\') WHERE seq = ?')
    .run(seq);
  db.close();
  expect(edited.changes).toBe(1);
  await air.getByTestId('audit-verify').click();
  await expect(air.getByTestId('chain-status')).toContainText('The chain is broken');
  await expect(air.getByTestId('chain-status')).toContainText(`#${seq}`);
  await shoot(air, 'audit-broken');
  await air.close();
});

test('k-of-n: onboard a 2-of-3 party with three local keys and sign for it', async ({ page }) => {
  await page.goto(online.url);
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
    keyFingerprints.push([online.keychainService, must(fp, 'fp')]);
    expect(new Entry(online.keychainService, `signing-key:${fp}`).getPassword(), label).toMatch(/^ed25519-seed:v1:/);
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
