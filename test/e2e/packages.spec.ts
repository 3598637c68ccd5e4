/**
 * Packages view end to end (browser host + embedded simulator): list and decoded detail of the built-in package,
 * a corrupt file refused with the reader's error, a DAR built here validated then uploaded (its templates in the
 * detail), an incompatible upgrade with the broken field named, cancel before upload, vet / unvet with a dry run
 * and confirmation (checked through the simulator's HTTP API), the preferred-package query, and real Splice DARs from
 * ../shared/reference/dars validated, uploaded with their real ids, inspected and re-vetted; a multi-MB real DAR's
 * upload progress chunk by chunk, and a real DAR with a tampered archive refused with the archive named.
 */
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDar, readDar, readZip, writeZip, type Field, type PackageDescription, type Type } from '../../src/daml-lf/index.js';
import { DAR_CHUNK_BYTES } from '../../src/ipc/channels/packages.js';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { themedScreenshots, callSimulator } from '../support/e2e.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

let consoleProc: ConsoleProcess;
let tmp: string;

const screenshots = themedScreenshots;

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'packages-e2e-'));
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const simulator = <T>(path: string, body?: unknown) => callSimulator<T>(consoleProc, path, body);
const vettedOn = async (packageId: string) =>
  (
    await simulator<{ vettedPackages: Array<{ synchronizerId: string; packages: Array<{ packageId: string }> }> }>(
      '/v2/package-vetting/list',
      {},
    )
  ).vettedPackages
    .filter((v) => v.packages.some((p) => p.packageId === packageId))
    .map((v) => v.synchronizerId);

/** The package's validity bounds on the participant, per synchronizer. */
const boundsOn = async (packageId: string) =>
  (
    await simulator<{
      vettedPackages: Array<{
        synchronizerId: string;
        packages: Array<{ packageId: string; validFromInclusive?: string; validUntilExclusive?: string }>;
      }>;
    }>('/v2/package-vetting/list', {})
  ).vettedPackages.flatMap((v) =>
    v.packages
      .filter((p) => p.packageId === packageId)
      .map((p) => ({ synchronizerId: v.synchronizerId, from: p.validFromInclusive ?? null, until: p.validUntilExclusive ?? null })),
  );

const P = (prim: string, args: Type[] = []): Type => ({ kind: 'prim', prim, args }) as Type;
function description(name: string, version: string, fields: Field[], upgradedPackageId?: string): PackageDescription {
  return {
    name,
    version,
    ...(upgradedPackageId ? { upgradedPackageId } : {}),
    modules: [
      {
        name: 'Main',
        templates: [
          {
            name: 'Asset',
            fields,
            key: P('Party'),
            choices: [
              { name: 'Give', argFields: [{ name: 'newOwner', type: P('Party') }] },
              { name: 'Peek', consuming: false, argFields: [] },
            ],
            implements: ['Main:Holding'],
          },
        ],
        interfaces: [
          {
            name: 'Holding',
            viewFields: [
              { name: 'holder', type: P('Party') },
              { name: 'qty', type: P('Int64') },
            ],
          },
        ],
      },
    ],
  };
}
const V1: Field[] = [
  { name: 'owner', type: P('Party') },
  { name: 'label', type: P('Text') },
  { name: 'amount', type: P('Int64') },
];
function darFile(name: string, desc: PackageDescription): { file: string; mainPackageId: string } {
  const built = buildDar(desc, [], { sdkVersion: '3.4.0' });
  const file = path.join(tmp, name);
  writeFileSync(file, built.bytes);
  return { file, mainPackageId: built.mainPackageId };
}

async function openPackages(page: Page) {
  await page.goto(consoleProc.url);
  await page.getByRole('link', { name: /Packages/ }).click();
  await expect(page.getByTestId('packages')).toBeVisible();
}

test('list, detail, corrupt file, validate → upload, incompatible upgrade, cancel', async ({ page }) => {
  const name = `e2e-assets-${Date.now().toString(36)}`;
  await openPackages(page);

  // The built-in package: name, version, LF version, vetted on both synchronizers; decoded detail.
  const demo = page.locator('[data-testid=package-row][data-name="simulator-demo"]');
  await expect(demo).toBeVisible();
  await expect(demo).toContainText('1.0.0');
  await expect(demo).toContainText(/2\.\d/);
  await expect(demo.getByTestId('package-status')).toContainText('Vetted on all 2');
  await page.getByTestId('packages-search').fill('demo');
  await expect(page.getByTestId('package-row')).toHaveCount(1);
  await page.getByTestId('packages-search').fill('no-such-package-anywhere');
  await expect(page.getByTestId('packages-no-match')).toBeVisible();
  await page.getByTestId('packages-search').fill('');
  await demo.getByRole('button').click();
  await expect(page.getByTestId('pkg-detail-name')).toHaveText('simulator-demo 1.0.0');
  const account = page.locator('[data-testid=pkg-template][data-template="Demo.Account:Account"]');
  await expect(account).toContainText('accountId');
  await expect(account.getByTestId('pkg-template-key')).toBeVisible();
  await expect(account.locator('[data-testid=pkg-choice][data-choice=Account_Ping]')).toContainText('non-consuming');
  await expect(page.locator('[data-testid=pkg-interface][data-interface="Demo.Asset:Asset"]')).toContainText('description');

  // A corrupt file is refused by the console with the reader's specific error; nothing is sent on.
  await page
    .getByTestId('dar-input')
    .setInputFiles({ name: 'broken.dar', mimeType: 'application/octet-stream', buffer: Buffer.from('this is not a zip archive') });
  await expect(page.getByTestId('dar-decode-code')).toHaveText('NOT_A_ZIP');
  await expect(page.getByTestId('dar-decode-error')).toContainText('nothing was sent to the participant');
  await expect(page.getByTestId('dar-upload-button')).toHaveCount(0);
  // The stepper says validation refused it rather than ticking it off.
  await expect(page.getByTestId('dar-steps').locator('li[data-state=failed]')).toContainText('Validating');
  await screenshots(page, 'packages-corrupt', 900);

  // Validate → upload a DAR built here.
  const v1 = darFile(`${name}-1.0.0.dar`, description(name, '1.0.0', V1));
  await page.getByTestId('dar-input').setInputFiles(v1.file);
  await expect(page.getByTestId('dar-participant-ok')).toBeVisible();
  await expect(page.getByTestId('dar-crosscheck-none')).toBeVisible();
  await expect(page.getByTestId('dar-packages')).toContainText(name);
  await expect(page.getByTestId('dar-steps')).toHaveAttribute('data-phase', 'validated');
  expect((await simulator<{ packageIds: string[] }>('/v2/packages')).packageIds).not.toContain(v1.mainPackageId);
  await page.getByTestId('dar-upload-button').click();
  await expect(page.getByTestId('dar-notice')).toContainText(`Uploaded ${name} 1.0.0`);
  await expect(page.getByTestId('dar-steps')).toHaveAttribute('data-phase', 'done');
  expect((await simulator<{ packageIds: string[] }>('/v2/packages')).packageIds).toContain(v1.mainPackageId);
  // The detail opens on the new package, decoded from its archive.
  await expect(page.getByTestId('pkg-detail')).toHaveAttribute('data-package', v1.mainPackageId);
  const asset = page.locator('[data-testid=pkg-template][data-template="Main:Asset"]');
  await expect(asset).toContainText('owner');
  await expect(asset).toContainText('label');
  await expect(asset).toContainText('Int64');
  await expect(asset.locator('[data-testid=pkg-choice][data-choice=Give]')).toContainText('newOwner');
  await expect(asset.locator('[data-testid=pkg-choice][data-choice=Give]')).toContainText('consuming');
  await expect(page.locator('[data-testid=pkg-interface][data-interface="Main:Holding"]')).toContainText('qty');
  await expect(page.locator(`[data-testid=package-row][data-package="${v1.mainPackageId}"]`)).toBeVisible();
  await screenshots(page, 'packages', 1300);

  // Keyboard: ↓/↑ walk the package list, Enter opens a package.
  const rows = page.getByTestId('package-row');
  const ids = await rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.package ?? ''));
  const next = rows.nth(ids.indexOf(v1.mainPackageId) + 1);
  const nextName = (await next.getAttribute('data-name')) ?? '';
  await page.locator(`[data-testid=package-row][data-package="${v1.mainPackageId}"]`).getByRole('button').focus();
  await page.keyboard.press('ArrowDown');
  await expect(next.getByRole('button')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('pkg-detail-name')).toContainText(nextName);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('pkg-detail')).toHaveAttribute('data-package', v1.mainPackageId);

  // An incompatible upgrade: the removed field and the non-Optional addition are named.
  const bad = darFile(
    `${name}-2.0.0.dar`,
    description(name, '2.0.0', [must(V1[0], 'V1[0]'), must(V1[2], 'V1[2]'), { name: 'note', type: P('Text') }], v1.mainPackageId),
  );
  await page.getByTestId('dar-input').setInputFiles(bad.file);
  await expect(page.getByTestId('dar-participant-refused')).toBeVisible();
  await expect(page.getByTestId('dar-participant-refused').getByTestId('canton-error')).toBeVisible();
  const item = page.locator('[data-testid=dar-crosscheck-item][data-compatible=false]');
  await expect(item).toContainText('field label was removed');
  await expect(item).toContainText('note');
  await expect(page.getByTestId('dar-upload-button')).toBeDisabled();
  await screenshots(page, 'packages-upgrade', 1300);
  expect((await simulator<{ packageIds: string[] }>('/v2/packages')).packageIds).not.toContain(bad.mainPackageId);

  // Cancel before upload: a compatible upgrade is validated, then dropped.
  const good = darFile(
    `${name}-1.1.0.dar`,
    description(name, '1.1.0', [...V1, { name: 'memo', type: P('Optional', [P('Text')]) }], v1.mainPackageId),
  );
  await page.getByTestId('dar-input').setInputFiles(good.file);
  await expect(page.locator('[data-testid=dar-crosscheck-item][data-compatible=true]')).toBeVisible();
  await expect(page.getByTestId('dar-participant-ok')).toBeVisible();
  await page.getByTestId('dar-cancel').click();
  await expect(page.getByTestId('dar-notice')).toContainText('Cancelled');
  await expect(page.getByTestId('dar-report')).toHaveCount(0);
  expect((await simulator<{ packageIds: string[] }>('/v2/packages')).packageIds).not.toContain(good.mainPackageId);
});

test('vet and unvet with a dry run and confirmation; preferred packages; keyboard tabs', async ({ page }) => {
  const name = `e2e-vet-${Date.now().toString(36)}`;
  const dar = darFile(`${name}.dar`, description(name, '1.0.0', V1));
  await openPackages(page);
  await page.getByTestId('dar-input').setInputFiles(dar.file);
  await expect(page.getByTestId('dar-participant-ok')).toBeVisible();
  await page.getByTestId('dar-upload-button').click();
  await expect(page.getByTestId('dar-notice')).toContainText('Uploaded');
  const syncs = await vettedOn(dar.mainPackageId);
  expect(syncs).toHaveLength(1);
  const target = must(syncs[0], 'syncs[0]');

  // Keyboard: arrow keys move between the tabs.
  await page.getByTestId('packages-tab-packages').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('packages-tab-vetting')).toBeFocused();
  await expect(page.getByTestId('vetting-table')).toBeVisible();

  const row = page.locator(`[data-testid=vetting-row][data-package="${dar.mainPackageId}"]`);
  const cell = row.locator(`[data-testid=vet-cell][data-sync="${target}"]`);
  await expect(cell).toBeChecked();
  await cell.uncheck();
  await expect(page.getByTestId('vetting-staged')).toHaveText('1 change staged');

  // Dry run: shows the unvet, changes nothing.
  await page.getByTestId('vetting-dry-run').click();
  const result = page.getByTestId('vetting-result');
  await expect(result).toHaveAttribute('data-dry-run', 'true');
  await expect(result.getByTestId('vetting-result-unvet')).toContainText(name);
  expect(await vettedOn(dar.mainPackageId)).toEqual([target]);
  await screenshots(page, 'packages-vetting', 900);

  // Apply asks first (unvet), Escape backs out, then confirm.
  await page.getByTestId('vetting-apply').click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('vetting-apply')).toBeFocused();
  await page.getByTestId('vetting-apply').click();
  await expect(page.getByTestId('vetting-apply-confirm')).toContainText('Unvet 1 package?');
  await page.getByTestId('vetting-apply-confirm').getByRole('button', { name: 'Apply changes' }).click();
  await expect(result).toHaveAttribute('data-dry-run', 'false');
  await expect(result.getByTestId('vetting-result-unvet')).toContainText(name);
  expect(await vettedOn(dar.mainPackageId)).toEqual([]);
  await expect(cell).not.toBeChecked();

  // Vet again: no confirmation needed.
  await cell.check();
  await page.getByTestId('vetting-apply').click();
  await expect(result.getByTestId('vetting-result-vet')).toContainText(name);
  expect(await vettedOn(dar.mainPackageId)).toEqual([target]);

  // Validity bounds: edited per cell (keyboard), checked, dry-run first, then applied and shown in the table.
  await row.locator(`[data-testid=vet-bounds-edit][data-sync="${target}"]`).click();
  const editor = page.getByTestId('bounds-editor');
  await expect(page.getByTestId('bounds-from')).toBeFocused();
  await page.getByTestId('bounds-from').fill('2026-01-01T00:00');
  await page.getByTestId('bounds-until').fill('2025-01-01T00:00');
  await expect(editor.getByRole('alert')).toContainText('must be after');
  await expect(page.getByTestId('bounds-stage')).toBeDisabled();
  await page.getByTestId('bounds-until').fill('2030-06-01T12:00');
  await page.getByTestId('bounds-until').press('Enter');
  await expect(editor).toHaveCount(0);
  await expect(page.getByTestId('vetting-staged')).toHaveText('1 change staged');
  const cellBounds = row.locator(`[data-testid=vet-bounds][data-sync="${target}"]`);
  await expect(cellBounds).toContainText('from');
  await expect(cellBounds).toContainText('until');
  await page.getByTestId('vetting-dry-run').click();
  await expect(result).toHaveAttribute('data-dry-run', 'true');
  await expect(result.getByTestId('vetting-result-bounds')).toContainText(`change the validity of ${name}`);
  expect(await boundsOn(dar.mainPackageId)).toEqual([{ synchronizerId: target, from: null, until: null }]);
  await screenshots(page, 'packages-vetting-bounds', 900);
  await page.getByTestId('vetting-apply').click();
  await expect(result).toHaveAttribute('data-dry-run', 'false');
  const applied = await boundsOn(dar.mainPackageId);
  expect(applied).toHaveLength(1);
  expect(Date.parse(must(must(applied[0], 'applied[0]').from, 'applied[0].from'))).toBe(Date.parse('2026-01-01T00:00'));
  expect(Date.parse(must(must(applied[0], 'applied[0]').until, 'applied[0].until'))).toBe(Date.parse('2030-06-01T12:00'));
  await expect(page.getByTestId('vetting-staged')).toHaveCount(0);
  await expect(cellBounds).toContainText('until');
  // Clearing both bounds vets it unbounded again.
  await row.locator(`[data-testid=vet-bounds-edit][data-sync="${target}"]`).click();
  await expect(page.getByTestId('bounds-from')).not.toHaveValue('');
  await page.getByTestId('bounds-from').fill('');
  await page.getByTestId('bounds-until').fill('');
  await page.getByTestId('bounds-stage').click();
  await page.getByTestId('vetting-apply').click();
  await expect.poll(() => boundsOn(dar.mainPackageId)).toEqual([{ synchronizerId: target, from: null, until: null }]);
  await expect(cellBounds).toHaveCount(0);

  // Preferred packages for a party, per synchronizer.
  const party = (await simulator<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: `Pref${Date.now()}` })).partyDetails
    .party;
  await page.getByTestId('packages-tab-preferred').click();
  await page.getByTestId('preferred-name').fill('simulator-demo');
  await page.getByTestId('preferred-parties').fill(party);
  await page.getByTestId('preferred-run').click();
  await expect(page.getByTestId('preferred-result')).toHaveCount(2);
  await expect(page.getByTestId('preferred-ref').first()).toContainText('simulator-demo');
  await expect(page.getByTestId('preferred-ref').first()).toContainText('1.0.0');
  await screenshots(page, 'packages-preferred', 800);
});

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
  const tampered = path.join(tmp, 'splice-util-0.1.7-tampered.dar');
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
