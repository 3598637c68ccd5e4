/**
 * Operator features end to end (browser host + embedded simulator): allocate a party on a chosen synchronizer and
 * see its hosting and permission per synchronizer; submit a command that uses a disclosed contract pasted as the
 * stakeholder's JSON on a chosen synchronizer; dry-read and prune from the Dashboard; and see those admin actions in
 * the audit log with who did what. Effects are checked through the simulator's HTTP API.
 */
import { test, expect, type Page } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { themedScreenshots, callSimulator } from '../support/e2e.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

let consoleProc: ConsoleProcess;

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
});

const simulator = <T>(path: string, body?: unknown) => callSimulator<T>(consoleProc, path, body);
const allocate = async (hint: string) =>
  (await simulator<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: hint })).partyDetails.party;
const field = (page: Page, form: string, name: string) => page.locator(`[data-testid=${form}] input[data-field="${name}"]`);
const open = async (page: Page, view: RegExp, testid: string) => {
  await page.getByRole('link', { name: view }).click();
  await expect(page.getByTestId(testid)).toBeVisible();
};

test('synchronizer choice, hosting, disclosed contracts, pruning, and admin actions in the audit log', async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const syncs = (
    await simulator<{ connectedSynchronizers: Array<{ synchronizerId: string; synchronizerAlias: string }> }>(
      '/v2/state/connected-synchronizers',
    )
  ).connectedSynchronizers;
  const second = must(syncs[1], 'syncs[1]');

  // Parties: allocate on the second synchronizer; the details list the hosting per synchronizer with the permission,
  // and only that synchronizer.
  await page.goto(consoleProc.url);
  await open(page, /Parties/, 'parties');
  await page.getByTestId('party-allocate-open').click();
  await page.locator('#party-hint').fill(`Desk${stamp}`);
  await page.getByTestId('party-sync').selectOption(second.synchronizerId);
  await page.getByTestId('party-allocate').click();
  const hosting = page.getByTestId('party-hosting');
  await expect(hosting.getByTestId('party-hosting-row').first()).toBeVisible();
  await expect(hosting.locator(`[data-synchronizer="${second.synchronizerId}"]`)).toContainText(second.synchronizerAlias);
  await expect(hosting.getByTestId('party-hosting-permission').first()).toHaveText('Submission');
  // Hosted only where it was allocated: the first synchronizer is not listed.
  await expect(hosting.getByTestId('party-hosting-row')).toHaveCount(1);
  await expect(hosting.locator(`[data-synchronizer="${must(syncs[0], 'the first synchronizer').synchronizerId}"]`)).toHaveCount(0);
  await themedScreenshots(page, 'parties-hosting', 900);

  // Commands: Carol cannot see Alice's Iou; with the blob Alice shared (pasted as JSON) she exercises Asset_Describe.
  const bank = await allocate(`DBank${stamp}`);
  const alice = await allocate(`DAlice${stamp}`);
  const carol = await allocate(`DCarol${stamp}`);
  const created = await simulator<{ transaction: { events: Array<{ CreatedEvent?: { contractId: string } }> } }>(
    '/v2/commands/submit-and-wait-for-transaction',
    {
      commands: {
        commandId: `iou-${stamp}`,
        actAs: [bank],
        synchronizerId: second.synchronizerId,
        commands: [
          {
            CreateCommand: {
              templateId: '#simulator-demo:Demo.Iou:Iou',
              createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '9', observers: [] },
            },
          },
        ],
      },
    },
  );
  const iou = must(
    must(created.transaction.events[0], 'created.transaction.events[0]').CreatedEvent,
    'created.transaction.events[0].CreatedEvent',
  ).contractId;
  const shared = (
    await simulator<{ createdEvent: { contractId: string; templateId: string; createdEventBlob: string } }>(
      '/v2/contracts/contract-by-id',
      {
        contractId: iou,
        queryingParties: [alice],
      },
    )
  ).createdEvent;

  await open(page, /Commands/, 'commands');
  await page.getByTestId('cmd-kind').selectOption('exercise');
  await page.getByTestId('cmd-template').selectOption({ label: 'Demo.Iou:Iou (simulator-demo 1.0.0)' });
  await page.getByTestId('cmd-choice').selectOption('Asset_Describe');
  await page.getByTestId('cmd-cid').fill(iou);
  await field(page, 'choice-arg-form', 'viewer').fill(carol);
  await field(page, 'choice-arg-form', 'viewer').press('Enter');
  await page.getByTestId('cmd-act-as-input').fill(carol);
  await page.getByTestId('cmd-act-as-input').press('Enter');
  await page.getByTestId('cmd-sync').selectOption(second.synchronizerId);
  await page.getByTestId('cmd-submit').click();
  await expect(page.getByTestId('cmd-error').getByTestId('canton-error')).toContainText('CONTRACT_NOT_FOUND');

  await page.getByTestId('disclosed-add').click();
  await page.getByTestId('disclosed-json').fill(
    JSON.stringify({
      contract: { contract_id: shared.contractId, template_id: shared.templateId, created_event_blob: shared.createdEventBlob },
    }),
  );
  await page.getByTestId('disclosed-json').blur();
  await expect(page.getByTestId('disclosed-cid')).toHaveValue(iou);
  await expect(page.getByTestId('disclosed-blob')).toHaveValue(shared.createdEventBlob);
  await page.getByTestId('cmd-new-id').click();
  await page.getByTestId('cmd-submit').click();
  await expect(page.getByTestId('cmd-result')).toContainText('Committed');
  await themedScreenshots(page, 'commands-disclosed', 1600);

  // Dashboard: a dry read of what pruning up to the ledger end removes, then the pruning itself.
  const end = (await simulator<{ offset: number }>('/v2/state/ledger-end')).offset;
  await open(page, /Dashboard/, 'dashboard');
  await page.getByTestId('prune-offset').fill(String(end));
  await page.getByTestId('prune-preview').click();
  await expect(page.getByTestId('prune-result')).toContainText(`Pruning up to ${end} removes`);
  expect(Number(await page.getByTestId('prune-transactions').textContent())).toBeGreaterThanOrEqual(2);
  expect(
    (await simulator<{ participantPrunedUpToInclusive: number }>('/v2/state/latest-pruned-offsets')).participantPrunedUpToInclusive,
  ).toBe(0);
  await themedScreenshots(page, 'dashboard-pruning', 1200);
  await page.getByTestId('prune-run').click();
  await page.getByRole('button', { name: 'Prune now' }).click();
  await expect(page.getByTestId('prune-done')).toContainText(`Pruned up to offset ${end}`);
  await expect
    .poll(
      async () =>
        (await simulator<{ participantPrunedUpToInclusive: number }>('/v2/state/latest-pruned-offsets')).participantPrunedUpToInclusive,
    )
    .toBe(end);

  // Audit: the allocation and the pruning, with who did them.
  await open(page, /Audit/, 'audit');
  await page.locator('#audit-filter').selectOption('admin');
  const rows = page.getByTestId('audit-row');
  await expect(rows.filter({ hasText: `Allocated party Desk${stamp}` })).toContainText(`on ${second.synchronizerId}`);
  await expect(rows.filter({ hasText: `Allocated party Desk${stamp}` }).getByTestId('audit-actor')).toContainText('by ');
  await expect(rows.filter({ hasText: `Pruned the participant up to offset ${end}` })).toContainText('pruning');
  await themedScreenshots(page, 'audit-admin', 900);
});
