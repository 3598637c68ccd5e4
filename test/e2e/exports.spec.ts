/**
 * One way for every export (browser host + embedded simulator): the audit log, an encrypted key backup, a policy
 * file and an offline signing request each leave as a real browser download streamed from the host (the Updates
 * export is in updates.spec.ts), each file is read and checked, and each ends with the same notice — file name,
 * size, and that it is in the browser's downloads. The backup holds no plaintext key material.
 */
import { readFileSync } from 'node:fs';
import { Entry } from '@napi-rs/keyring';
import { test, expect, type Page } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';

let consoleProc: ConsoleProcess;
const created: string[] = [];
test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
});
test.afterAll(async () => {
  for (const fp of created) {
    try {
      new Entry(consoleProc.keychainService, `signing-key:${fp}`).deletePassword();
    } catch {
      // deleted already
    }
  }
  await consoleProc.stop();
});

const PASS = 'export passphrase 2026';
const go = (page: Page, name: RegExp) => page.getByRole('link', { name }).first().click();

/** Clicks, takes the download, and checks the notice it ends with; returns the file's name and text. */
async function exported(page: Page, label: string, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [dl] = await Promise.all([page.waitForEvent('download'), click()]);
  const name = dl.suggestedFilename();
  const text = readFileSync(await dl.path(), 'utf8');
  const notice = page.getByTestId('export-notice').filter({ hasText: label }).first();
  await expect(notice).toHaveAttribute('data-state', 'done');
  await expect(notice.getByTestId('export-file')).toHaveText(name);
  const size = Buffer.byteLength(text);
  await expect(notice.getByTestId('export-size')).toHaveText(size < 1024 ? `${size} B` : `${(size / 1024).toFixed(1)} KiB`);
  await expect(notice.getByTestId('export-where')).toHaveText("in your browser's downloads");
  return { name, text };
}

test('audit log, key backup, policy file: one way, one notice', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(consoleProc.url);

  // A key, so there is something to back up (and an audit entry).
  await go(page, /^Keys/);
  await page.getByRole('button', { name: 'New key' }).first().click();
  await page.getByLabel('Label').fill('Export key');
  await page.getByRole('button', { name: 'Create key' }).click();
  const row = page.getByTestId('key-row').filter({ hasText: 'Export key' });
  await expect(row).toBeVisible();
  const fp = (await row.getByRole('button', { name: 'Copy fingerprint' }).locator('..').getAttribute('title')) ?? '';
  expect(fp).toMatch(/^1220/);
  created.push(fp);

  // Encrypted backup: sealed JSON, no plaintext private key, the key's fingerprint inside only as metadata.
  await page.getByRole('button', { name: 'Back up…' }).click();
  await page.getByLabel('Backup passphrase').fill(PASS);
  await page.getByLabel('Repeat passphrase').fill(PASS);
  const backup = await exported(page, 'Encrypted key backup', () =>
    page.getByRole('button', { name: 'Download encrypted backup' }).click(),
  );
  expect(backup.name).toMatch(/^canton-console-keys-.*\.json$/);
  const sealed = JSON.parse(backup.text) as Record<string, unknown>;
  expect(JSON.stringify(sealed)).not.toMatch(/"(privateKey|seed|secretKey)"/);
  await expect(page.getByText(/Encrypted backup of 1 key\(s\) and their policies saved as canton-console-keys-/)).toBeVisible();

  // Policy file: sealed too.
  await page.getByRole('button', { name: 'Export policy file…' }).click();
  await page.getByLabel('Policy file passphrase').fill(PASS);
  await page.getByLabel('Repeat passphrase').fill(PASS);
  const policy = await exported(page, 'Policy file', () => page.getByRole('button', { name: 'Download policy file' }).click());
  expect(policy.name).toMatch(/^canton-console-policies-.*\.json$/);
  expect(() => JSON.parse(policy.text) as unknown).not.toThrow();

  // The audit log: NDJSON, one entry a line.
  // An admin action, so the audit log has an entry to export.
  await go(page, /^Parties/);
  await page.getByTestId('party-allocate-open').click();
  await page.locator('#party-hint').fill(`Exported${Date.now()}`);
  await page.getByTestId('party-allocate').click();
  await expect(page.getByTestId('parties-notice')).toContainText('Allocated');
  await go(page, /^Audit/);
  await expect(page.getByTestId('audit-export')).toBeEnabled();
  const audit = await exported(page, 'Audit log', () => page.getByTestId('audit-export').click());
  expect(audit.name).toMatch(/^signing-audit-.*\.ndjson$/);
  const lines = audit.text.trim().split('\n');
  expect(lines.length).toBeGreaterThan(1);
  for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();

  // A link serves once: fetching a used export URL again finds nothing.
  const status = await page.evaluate(async () => (await fetch('/exports/' + '0'.repeat(32))).status);
  expect(status).toBe(404);
  await page.screenshot({ path: 'test/e2e/screenshots/exports-notice.png' });
});
