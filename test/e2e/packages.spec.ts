/**
 * Packages view end to end (browser host + embedded simulator) with DARs built here: list and decoded detail of the
 * built-in package, a corrupt file refused with the reader's error, a DAR validated then uploaded (its templates in the
 * detail), an incompatible upgrade with the broken field named, cancel before upload, vet / unvet and validity bounds
 * with a dry run and confirmation (checked through the simulator's HTTP API), and the preferred-package query. (Real
 * Splice DARs: packages-real-dar.spec.ts.)
 */
import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildDar, type Field, type PackageDescription, type Type } from '../../src/daml-lf/index.js';
import { themedScreenshots } from '../support/e2e.js';
import { must } from '../support/must.js';
import { usePackagesConsole } from '../support/packages-e2e.js';

const { tmp, simulator, vettedOn, openPackages } = usePackagesConsole();
const screenshots = themedScreenshots;

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
  const file = path.join(tmp(), name);
  writeFileSync(file, built.bytes);
  return { file, mainPackageId: built.mainPackageId };
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
