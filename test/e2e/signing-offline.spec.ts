/**
 * Offline signing end to end in Chromium between two console processes (online demo + `--no-demo` air-gapped
 * signer) with files moved through download/upload and the real keychain: a transaction's request out, verified and
 * signed air-gapped, response in, executed; the same for onboarding a party; and the audit chains of both consoles
 * verified, exported and caught when edited. Screenshots of every screen in both themes. (Keys, onboarding and
 * signing online: signing-flows.spec.ts.)
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { test, expect } from '@playwright/test';
import { withConsoleClient } from '../support/console-ipc.js';
import { download } from '../support/e2e.js';
import { must } from '../support/must.js';
import { useSigningConsoles, fullPageShots, go, openBoth } from '../support/signing-e2e.js';

test.describe.configure({ mode: 'serial' });

const IOU = '#simulator-demo:Demo.Iou:Iou';
const consoles = useSigningConsoles({ airGapped: true });
const { online, air: airGapped, keys: keyFingerprints, sim, allocate } = consoles;
const shoot = fullPageShots('signing');
let party = '';
let bob = '';

/**
 * What the tests start from, made through the console's own contract as its renderer calls it: the key "Treasury key"
 * with an amount limit of 1000, the party e2e-treasury onboarded with it (a signed topology), and two refusals in the
 * online console's audit log: an amount over the limit, and a participant's tampered prepare answer.
 */
test.beforeAll(async () => {
  bob = await allocate('E2EBob');
  await withConsoleClient(online(), async (c) => {
    const key = await c.call('signing.keys.create', { label: 'Treasury key', backend: 'os-keychain' });
    keyFingerprints.push([online().keychainService, key.fingerprint]);
    const { policy } = await c.call('signing.policy.get', { fingerprint: key.fingerprint });
    await c.call('signing.policy.set', { fingerprint: key.fingerprint, policy: { ...policy, maxAmountPerTransaction: '1000' } });
    const topology = await c.call('signing.onboard.prepare', {
      fingerprint: key.fingerprint,
      partyHint: 'e2e-treasury',
      observationOnly: false,
      extraFingerprints: [],
      signingThreshold: 1,
      synchronizerId: '',
    });
    if (topology.status !== 'verified') throw new Error(`onboarding e2e-treasury refused: ${topology.message}`);
    const allocated = await c.call('signing.onboard.confirm', { sessionId: topology.sessionId });
    if (allocated.status !== 'allocated') throw new Error(`allocating e2e-treasury refused: ${allocated.message}`);
    party = allocated.partyId;
    const refused = async (amount: string, reason: string) => {
      const argumentsJson = JSON.stringify({ issuer: party, owner: bob, currency: 'EUR', amount, observers: [] });
      const answer = await c.call('signing.prepare', {
        party,
        fingerprint: key.fingerprint,
        command: { kind: 'create', templateId: IOU, argumentsJson },
      });
      if (answer.status !== 'refused' || answer.reason !== reason)
        throw new Error(`expected ${reason} for ${amount}, got ${answer.status}`);
    };
    await refused('5000', 'POLICY_AMOUNT');
    await sim('/simulator/admin/fault-injection', { prepare: ['amount'] });
    try {
      await refused('1', 'HASH_MISMATCH');
    } finally {
      await sim('/simulator/admin/fault-injection', { prepare: 'off' });
    }
  });
});

test('offline round trip between two consoles: request out, verified and signed air-gapped, response in, executed', async ({ browser }) => {
  const { on, off } = await openBoth(browser, consoles);

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
  keyFingerprints.push([airGapped().keychainService, must(keyFingerprints[0], 'keyFingerprints[0]')[1]]);

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
  // no network, no profile: the top bar says so rather than showing an empty, disabled list
  await expect(off.getByLabel('Connection profile')).toBeDisabled();
  await expect(off.getByLabel('Connection profile').locator('option:checked')).toHaveText('No connection profile');
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
    const { on, off } = await openBoth(browser, consoles);
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
  await page.goto(online().url);
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
  await air.goto(airGapped().url);
  await go(air, /^Audit/);
  await expect(air.getByTestId('audit-table')).toContainText('DIGEST_MISMATCH');
  await expect(air.getByTestId('audit-table')).toContainText('offline');
  await air.getByTestId('audit-verify').click();
  await expect(air.getByTestId('chain-status')).toContainText('Chain OK');
  // Someone edits a refusal into a signature behind the console's back: the chain says so.
  const db = new Database(path.join(airGapped().dataDir, 'console.sqlite'));
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
