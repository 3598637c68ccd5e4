import { existsSync, readFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { callSimulator, themedScreenshots } from '../support/e2e.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

let consoleProc: ConsoleProcess;

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
});

const IOU = '#simulator-demo:Demo.Iou:Iou';

const simulator = <T>(path: string, body?: unknown) => callSimulator<T>(consoleProc, path, body);

async function allocate(hint: string): Promise<string> {
  const r = await simulator<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: hint, identityProviderId: '' });
  return r.partyDetails.party;
}

let commandNo = 0;
async function createIou(issuer: string, owner: string, amount: string): Promise<{ offset: number; updateId: string; contractId: string }> {
  const r = await simulator<{
    transaction: { offset: number; updateId: string; events: Array<{ CreatedEvent?: { contractId: string } }> };
  }>('/v2/commands/submit-and-wait-for-transaction', {
    commands: {
      commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer, owner, currency: 'USD', amount, observers: [] } } }],
      commandId: `e2e-updates-${Date.now()}-${++commandNo}`,
      actAs: [issuer],
    },
  });
  const contractId = r.transaction.events.find((e) => e.CreatedEvent)?.CreatedEvent?.contractId ?? '';
  return { offset: r.transaction.offset, updateId: r.transaction.updateId, contractId };
}

async function split(owner: string, contractId: string): Promise<number> {
  const r = await simulator<{ completionOffset: number }>('/v2/commands/submit-and-wait', {
    commands: [{ ExerciseCommand: { templateId: IOU, contractId, choice: 'Iou_Split', choiceArgument: { splitAmount: '1.0' } } }],
    commandId: `e2e-updates-split-${Date.now()}-${++commandNo}`,
    actAs: [owner],
  });
  return r.completionOffset;
}

/** Offsets of the updates the participant shows `party` (ACS delta, no topology), straight from the API. */
async function offsetsVisibleTo(party: string): Promise<number[]> {
  const end = (await simulator<{ offset: number }>('/v2/state/ledger-end')).offset;
  const items = await simulator<Array<{ update: Record<string, { value: { offset: number } }> }>>('/v2/updates?limit=1000', {
    beginExclusive: 0,
    endInclusive: end,
    updateFormat: {
      includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: { filtersByParty: { [party]: {} } } },
      includeReassignments: { filtersByParty: { [party]: {} } },
    },
  });
  return items
    .filter((i) => !('OffsetCheckpoint' in i.update))
    .map((i) => must(Object.values(i.update)[0], 'Object.values(i.update)[0]').value.offset);
}

async function openUpdates(page: Page) {
  await page.goto(consoleProc.url);
  await page.getByRole('link', { name: /Updates/ }).click();
  await expect(page.getByTestId('updates')).toBeVisible();
}

async function selectOnlyParty(page: Page, party: string) {
  await page.getByTestId('party-picker').click();
  const popover = page.getByTestId('party-popover');
  await popover.getByRole('searchbox').fill(must(party.split('::')[0], "party.split('::')[0]"));
  await popover
    .locator('label', { hasText: must(party.split('::')[0], "party.split('::')[0]") })
    .first()
    .getByRole('checkbox')
    .check();
  await page.keyboard.press('Escape');
  await page.getByTestId('apply-filter').click();
}

const rowOffsets = async (page: Page) =>
  (await page.getByTestId('update-row').evaluateAll((rows) => rows.map((r) => Number((r as HTMLElement).dataset.offset)))).sort(
    (a, b) => b - a,
  );

test('party filter, event tree, live tail and keyboard navigation', async ({ page }) => {
  const stamp = Date.now();
  const bank = must(
    (await simulator<{ partyDetails: Array<{ party: string }> }>('/v2/parties')).partyDetails.find((p) => p.party.startsWith('Bank::')),
    'the Bank party',
  ).party;
  const carol = await allocate(`Carol${stamp}`);
  const dave = await allocate(`Dave${stamp}`);
  const c1 = await createIou(bank, carol, '10.0');
  await createIou(bank, dave, '20.0');
  const c2 = await createIou(bank, carol, '30.0');

  await openUpdates(page);
  await expect(page.getByTestId('stream-state')).toHaveText(/Live/);
  // Unfiltered: Dave's and Carol's updates are both there.
  await expect(page.locator(`[data-testid=update-row][data-offset="${c2.offset}"]`)).toBeVisible();

  await selectOnlyParty(page, carol);
  await expect(page.getByTestId('filter-summary')).toContainText(`Carol${stamp}`);
  const expected = await offsetsVisibleTo(carol);
  expect(expected).toEqual([c1.offset, c2.offset]);
  await expect.poll(() => rowOffsets(page)).toEqual([...expected].sort((a, b) => b - a));
  for (const text of await page.getByTestId('update-row-parties').allTextContents()) expect(text).toContain(`Carol${stamp}`);
  await expect(page.getByTestId('update-row-parties').filter({ hasText: `Dave${stamp}` })).toHaveCount(0);

  // Live tail: a new update for Carol appears without any click; one for Dave does not.
  const daveLater = await createIou(bank, dave, '5.0');
  const c3 = await createIou(bank, carol, '40.0');
  await expect(page.locator(`[data-testid=update-row][data-offset="${c3.offset}"]`)).toBeVisible();
  await expect(page.locator(`[data-testid=update-row][data-offset="${daveLater.offset}"]`)).toHaveCount(0);

  // Pause holds new updates back; resume delivers them.
  await page.getByTestId('pause-toggle').click();
  await expect(page.getByTestId('stream-state')).toHaveText(/Paused/);
  const c4 = await createIou(bank, carol, '50.0');
  await page.waitForTimeout(500);
  await expect(page.locator(`[data-testid=update-row][data-offset="${c4.offset}"]`)).toHaveCount(0);
  await page.getByTestId('pause-toggle').click();
  await expect(page.locator(`[data-testid=update-row][data-offset="${c4.offset}"]`)).toBeVisible();

  // Keyboard: ↓ selects the newest row, Enter opens it, Esc closes.
  await page.getByTestId('update-list').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('[data-testid=update-row][aria-selected=true]')).toHaveAttribute('data-offset', String(c4.offset));
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('[data-testid=update-row][aria-selected=true]')).toHaveAttribute('data-offset', String(c3.offset));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('detail-offset')).toHaveText(String(c3.offset));
  await expect(page.getByTestId('event')).toHaveCount(1);
  await expect(page.getByTestId('event').first()).toContainText('Created');
  await expect(page.getByTestId('event').first()).toContainText('Demo.Iou:Iou');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('update-detail')).toHaveCount(0);

  // Ledger effects: Carol splits an Iou; its exercise nests the two creates.
  await page.getByTestId('shape').selectOption('LEDGER_EFFECTS');
  await page.getByTestId('apply-filter').click();
  await expect(page.getByTestId('filter-summary')).toContainText('ledger effects');
  const splitOffset = await split(carol, c1.contractId);
  const splitRow = page.locator(`[data-testid=update-row][data-offset="${splitOffset}"]`);
  await expect(splitRow).toBeVisible();
  await expect(splitRow).toContainText('1 exercised · 2 created');
  await splitRow.click();
  await expect(page.getByTestId('detail-offset')).toHaveText(String(splitOffset));
  const events = page.getByTestId('event');
  await expect(events).toHaveCount(3);
  await expect(events.nth(0)).toHaveAttribute('data-kind', 'exercised');
  await expect(events.nth(0)).toHaveAttribute('data-depth', '0');
  await expect(events.nth(0)).toContainText('Iou_Split');
  for (const i of [1, 2]) {
    await expect(events.nth(i)).toHaveAttribute('data-kind', 'created');
    await expect(events.nth(i)).toHaveAttribute('data-depth', '1');
  }
  await expect(page.getByTestId('detail-update-id')).not.toBeEmpty();
  await page.screenshot({ path: 'test/e2e/screenshots/updates.png' });

  await page.getByTestId('tab-json').click();
  await expect(page.getByTestId('detail-json')).toContainText('"ExercisedEvent"');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByTestId('tab-events').click();
  await page.screenshot({ path: 'test/e2e/screenshots/updates-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
});

test('export to NDJSON writes one line per filtered update', async ({ page }) => {
  const stamp = Date.now();
  const bank = must(
    (await simulator<{ partyDetails: Array<{ party: string }> }>('/v2/parties')).partyDetails.find((p) => p.party.startsWith('Bank::')),
    'the Bank party',
  ).party;
  const erin = await allocate(`Erin${stamp}`);
  for (const amount of ['1.0', '2.0', '3.0']) await createIou(bank, erin, amount);

  await openUpdates(page);
  await selectOnlyParty(page, erin);
  await expect.poll(() => page.getByTestId('update-row').count()).toBe(3);

  await page.getByTestId('export-open').click();
  const name = `erin-${stamp}`;
  // A path is refused before anything is sent.
  await page.getByTestId('export-name').fill('../escape');
  await expect(page.getByTestId('export-panel').getByRole('alert')).toContainText('not a path');
  await expect(page.getByTestId('export-start')).toBeDisabled();
  await page.getByTestId('export-name').fill(name);
  // Delivered like every export: a real browser download streamed from the host, then the same notice.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-start').click()]);
  expect(dl.suggestedFilename()).toBe(`${name}.ndjson`);
  const lines = readFileSync(await dl.path(), 'utf8')
    .trim()
    .split('\n');
  expect(lines).toHaveLength((await offsetsVisibleTo(erin)).length);
  for (const line of lines) expect(JSON.stringify(JSON.parse(line))).toContain(erin);
  const notice = page.getByTestId('export-notice').first();
  await expect(notice).toHaveAttribute('data-state', 'done');
  await expect(notice.getByTestId('export-file')).toHaveText(`${name}.ndjson`);
  await expect(notice.getByTestId('export-done')).toContainText('3 lines');
  await expect(notice.getByTestId('export-where')).toHaveText("in your browser's downloads");
  // nothing was written into the host's data directory
  expect(existsSync(`${consoleProc.dataDir}/exports/${name}.ndjson`)).toBe(false);
  await themedScreenshots(page, 'updates-export', 900);
});

test('range, lookup by update id, and a Canton error for an unknown template', async ({ page }) => {
  const stamp = Date.now();
  const bank = must(
    (await simulator<{ partyDetails: Array<{ party: string }> }>('/v2/parties')).partyDetails.find((p) => p.party.startsWith('Bank::')),
    'the Bank party',
  ).party;
  const frank = await allocate(`Frank${stamp}`);
  const first = await createIou(bank, frank, '1.0');
  const second = await createIou(bank, frank, '2.0');

  await openUpdates(page);
  // A party with no updates yet: the empty state says what to do.
  const quiet = await allocate(`Quiet${stamp}`);
  await page.reload();
  await selectOnlyParty(page, quiet);
  await expect(page.getByTestId('updates-empty')).toContainText('new updates appear here as they commit');
  await themedScreenshots(page, 'updates-empty', 900);
  await page.getByRole('button', { name: 'Reset' }).click();

  await page.getByTestId('mode-range').click();
  await page.getByTestId('range-to').fill(String(first.offset));
  await page.getByTestId('range-load').click();
  await expect.poll(async () => (await rowOffsets(page))[0]).toBe(first.offset);
  expect(await rowOffsets(page)).not.toContain(second.offset);

  await page.getByTestId('lookup').fill(second.updateId);
  await page.getByTestId('lookup-go').click();
  await expect(page.getByTestId('detail-offset')).toHaveText(String(second.offset));
  await expect(page.getByTestId('detail-update-id')).toHaveText(second.updateId);

  await page.getByTestId('lookup').fill('no-such-update-id');
  await page.getByTestId('lookup-go').click();
  await expect(page.getByTestId('update-detail').getByTestId('canton-error')).toContainText('UPDATE_NOT_FOUND');

  await page.getByTestId('template-filter').fill('simulator-demo:Nope:Missing');
  await page.getByTestId('apply-filter').click();
  const panel = page.getByTestId('error-panel').first();
  await expect(panel.getByTestId('canton-error')).toContainText('TEMPLATES_OR_INTERFACES_NOT_FOUND');
  await themedScreenshots(page, 'updates-error', 900);
});

test('dashboard shows the latest updates and their rate live', async ({ page }) => {
  const stamp = Date.now();
  const bank = must(
    (await simulator<{ partyDetails: Array<{ party: string }> }>('/v2/parties')).partyDetails.find((p) => p.party.startsWith('Bank::')),
    'the Bank party',
  ).party;
  await page.goto(consoleProc.url);
  const card = page.getByTestId('dashboard-updates');
  await expect(card.getByTestId('recent-updates').locator('li')).toHaveCount(6);
  await expect(card.getByTestId('sparkline')).toBeVisible();
  const gina = await allocate(`Gina${stamp}`);
  const created = await Promise.all([createIou(bank, gina, '1.0'), createIou(bank, gina, '2.0'), createIou(bank, gina, '3.0')]);
  const newest = Math.max(...created.map((c) => c.offset));
  await expect(card.getByTestId('recent-updates').locator('li').first()).toContainText(String(newest));
  await expect(card.getByTestId('recent-updates')).toContainText(`Gina${stamp}`);
  // Four updates (a party allocation and three transactions) within a few seconds show up in the rate.
  await expect
    .poll(async () =>
      Number(
        await card
          .locator('.rate-figures .muted')
          .textContent()
          .then((t) => /(\d+) in the last minute/.exec(t ?? '')?.[1] ?? 0),
      ),
    )
    .toBeGreaterThanOrEqual(4);
  await themedScreenshots(page, 'updates-dashboard', 900);
});
