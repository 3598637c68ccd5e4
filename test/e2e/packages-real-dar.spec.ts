/**
 * Packages view end to end (browser host + embedded simulator) with the real Splice DARs of ../shared/reference/dars:
 * validated, uploaded with their real ids, inspected and re-vetted; a multi-MB real DAR's upload progress chunk by
 * chunk, and a real DAR with a tampered archive refused with the archive named.
 */
import { test, expect } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDar, readZip, writeZip } from '../../src/daml-lf/index.js';
import { DAR_CHUNK_BYTES } from '../../src/ipc/channels/packages.js';
import { themedScreenshots } from '../support/e2e.js';
import { must } from '../support/must.js';
import { usePackagesConsole } from '../support/packages-e2e.js';

const { tmp, simulator, vettedOn, openPackages } = usePackagesConsole();
const screenshots = themedScreenshots;

test('a real Splice DAR: validate → upload (progress) → inspect → unvet / vet; a real token-standard API package', async ({ page }) => {
  test.setTimeout(180_000); // two real DARs read by the console and the participant on a loaded machine
  const dars = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/reference/dars');
  const utilDar = path.join(dars, 'splice-util-0.1.7.dar');
  const util = readDar(new Uint8Array(readFileSync(utilDar))).main;
  await openPackages(page);

  // Validate: the console reads every DALF, the participant accepts, nothing to compare (no vetted package of the name).
  await page.getByTestId('dar-input').setInputFiles(utilDar);
  await expect(page.getByTestId('dar-participant-ok')).toBeVisible();
  await expect(page.getByTestId('dar-crosscheck-none')).toBeVisible();
  await expect(page.getByTestId('dar-packages')).toContainText('splice-util');
  await expect(page.getByTestId('dar-packages').locator('tbody tr')).toHaveCount(
    readDar(new Uint8Array(readFileSync(utilDar))).packages.length,
  );
  await expect(page.getByTestId('dar-steps')).toHaveAttribute('data-phase', 'validated');
  expect((await simulator<{ packageIds: string[] }>('/v2/packages')).packageIds).not.toContain(util.packageId);

  // Upload with its real package id, vetted on every synchronizer; the detail opens on it.
  await page.getByTestId('dar-upload-button').click();
  await expect(page.getByTestId('dar-notice')).toContainText('Uploaded splice-util 0.1.7');
  await expect(page.getByTestId('dar-steps')).toHaveAttribute('data-phase', 'done');
  expect((await simulator<{ packageIds: string[] }>('/v2/packages')).packageIds).toContain(util.packageId);
  expect(await vettedOn(util.packageId)).toHaveLength(1); // the upload vets on the chosen synchronizer
  await expect(page.getByTestId('pkg-detail')).toHaveAttribute('data-package', util.packageId);
  await expect(page.getByTestId('pkg-detail-name')).toHaveText('splice-util 0.1.7');
  await page.getByTestId('dar-steps').scrollIntoViewIfNeeded();
  await screenshots(page, 'packages-real-dar', 1300);

  // Unvet on one synchronizer (dry run, confirm), then vet again.
  const target = must((await vettedOn(util.packageId))[0], '(await vettedOn(util.packageId))[0]');
  await page.getByTestId('packages-tab-vetting').click();
  const cell = page.locator(`[data-testid=vetting-row][data-package="${util.packageId}"] [data-testid=vet-cell][data-sync="${target}"]`);
  await expect(cell).toBeChecked();
  await cell.uncheck();
  await page.getByTestId('vetting-dry-run').click();
  await expect(page.getByTestId('vetting-result')).toHaveAttribute('data-dry-run', 'true');
  await page.getByTestId('vetting-apply').click();
  await page.getByTestId('vetting-apply-confirm').getByRole('button', { name: 'Apply changes' }).click();
  await expect.poll(() => vettedOn(util.packageId)).not.toContain(target);
  await expect(page.getByTestId('vetting-result')).toHaveAttribute('data-dry-run', 'false');
  await expect(cell).not.toBeChecked();
  await cell.check();
  await expect(page.getByTestId('vetting-staged')).toHaveText('1 change staged');
  await page.getByTestId('vetting-apply').click();
  await expect.poll(() => vettedOn(util.packageId)).toContain(target);
  await screenshots(page, 'packages-real-dar-vetting', 900);

  // A token-standard API DAR: same names and versions as the simulator's built-in stand-ins, accepted with its real
  // ids (the console's check notes the built-ins of equal version); its interfaces and choice arguments in the detail.
  const apiDar = path.join(dars, 'splice-api-token-transfer-instruction-v1-1.0.0.dar');
  const api = readDar(new Uint8Array(readFileSync(apiDar))).main;
  await page.getByTestId('packages-tab-packages').click();
  await page.getByTestId('dar-input').setInputFiles(apiDar);
  await expect(page.getByTestId('dar-participant-ok')).toBeVisible();
  await expect(page.locator('[data-testid=dar-crosscheck-item]').first()).toContainText('already vetted as a different package');
  await page.getByTestId('dar-upload-button').click();
  await expect(page.getByTestId('dar-notice')).toContainText('Uploaded splice-api-token-transfer-instruction-v1 1.0.0');
  await expect(page.getByTestId('pkg-detail')).toHaveAttribute('data-package', api.packageId);
  const factory = page.locator('[data-testid=pkg-interface][data-interface="Splice.Api.Token.TransferInstructionV1:TransferFactory"]');
  await expect(factory.locator('[data-testid=pkg-choice][data-choice=TransferFactory_Transfer]')).toContainText('expectedAdmin');
  await expect(factory.locator('[data-testid=pkg-choice][data-choice=TransferFactory_Transfer]')).toContainText('extraArgs');
  await factory.scrollIntoViewIfNeeded();
  await screenshots(page, 'packages-real-token-standard', 1300);
});

test('a multi-MB real DAR: the upload shows its progress chunk by chunk; a real DAR with a tampered archive gets the reason', async ({
  page,
}) => {
  test.setTimeout(180_000); // a 2 MiB DAR read by the console and the participant on a loaded machine
  const dars = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/reference/dars');
  const amuletDar = path.join(dars, 'splice-amulet-0.1.21.dar');
  const bytes = new Uint8Array(readFileSync(amuletDar));
  const amulet = readDar(bytes).main;
  expect(bytes.length).toBeGreaterThan(2 * DAR_CHUNK_BYTES);
  await openPackages(page);

  // Every value the progress bar shows while the file is read (one DOM update per chunk the console acknowledged).
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { darProgress: number[] }).darProgress = seen;
    const root = document.querySelector('[data-testid=dar-upload]') as HTMLElement;
    new MutationObserver(() => {
      const bar = root.querySelector('[data-testid=dar-progress]');
      const v = bar ? Number(bar.getAttribute('data-received')) : undefined;
      if (v !== undefined && seen.at(-1) !== v) seen.push(v);
    }).observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-received'] });
  });
  await page.getByTestId('dar-input').setInputFiles(amuletDar);
  await expect(page.getByTestId('dar-participant-ok')).toBeVisible();
  const seen = await page.evaluate(() => (window as unknown as { darProgress: number[] }).darProgress);
  // from 0, one step per chunk, every step strictly between 0 and the file's size (the last one ends the reading)
  expect(seen[0]).toBe(0);
  const steps = seen.slice(1);
  expect(steps).toEqual(steps.map((_, i) => (i + 1) * DAR_CHUNK_BYTES));
  expect(steps.length).toBe(Math.ceil(bytes.length / DAR_CHUNK_BYTES) - 1);
  await expect(page.getByTestId('dar-packages').locator('tbody tr')).toHaveCount(readDar(bytes).packages.length);
  await page.getByTestId('dar-upload-button').click();
  await expect(page.getByTestId('dar-notice')).toContainText('Uploaded splice-amulet 0.1.21');
  expect((await simulator<{ packageIds: string[] }>('/v2/packages')).packageIds).toContain(amulet.packageId);

  // The same real DAR with one byte of its main archive changed: the console names the archive and both package ids.
  const zip = readZip(new Uint8Array(readFileSync(path.join(dars, 'splice-util-0.1.7.dar'))));
  const util = readDar(new Uint8Array(readFileSync(path.join(dars, 'splice-util-0.1.7.dar'))));
  const mainPath = util.archives.find((a) => a.packageId === util.main.packageId)?.path as string;
  const entries = [...zip.entries.values()].map((e) => {
    const data = e.read();
    const mid = Math.floor(data.length / 2);
    if (e.name === mainPath) data[mid] = (data[mid] as number) ^ 0xff;
    return { name: e.name, data };
  });
  const tampered = path.join(tmp(), 'splice-util-0.1.7-tampered.dar');
  writeFileSync(tampered, writeZip(entries));
  await page.getByTestId('dar-input').setInputFiles(tampered);
  await expect(page.getByTestId('dar-decode-code')).toHaveText('HASH_MISMATCH');
  const reason = page.getByTestId('dar-decode-error');
  await expect(reason).toContainText(mainPath);
  await expect(reason).toContainText(`declares package id ${util.main.packageId}`);
  await expect(reason).toContainText('nothing was sent to the participant');
  await expect(page.getByTestId('dar-upload-button')).toHaveCount(0);
  await screenshots(page, 'packages-real-dar-tampered', 900);
});
