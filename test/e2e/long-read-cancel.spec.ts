/**
 * A long read cancelled from the UI (issue #7): the participant (the embedded simulator behind a
 * proxy that passes answers on slowly) is reading the active contract set or a range of updates; the operator clicks
 * Cancel, sees “Cancelled”, the console's connection to the participant is closed mid-answer, and
 * the view keeps working.
 */
import { test, expect as baseExpect } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { simulatorUrl, switchProfile, themedScreenshots } from '../support/e2e.js';
import { withConsoleClient } from '../support/console-ipc.js';
import { startSlowParticipant, type SlowParticipant } from '../support/slow-participant.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

// Every wait below is on a condition; the timeouts are backstops sized for a loaded 2-core machine.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

let consoleProc: ConsoleProcess;
let slow: SlowParticipant;

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
  // The simulator's URL line can follow "Console ready" on the other stream.
  await expect.poll(() => /Embedded simulator \(demo mode\)/.test(consoleProc.output())).toBe(true);
  // The first 400 bytes of a slowed answer arrive, then the participant stalls until the console hangs up: the
  // cancel never races the answer's end, however loaded the machine is.
  slow = await startSlowParticipant(simulatorUrl(consoleProc), {
    slow: (p) => p.startsWith('/v2/state/active-contracts') || p.startsWith('/v2/updates?'),
    bytesPerTick: 200,
    tickMs: 200,
    holdAfterBytes: 400,
  });
  // Set-up only: a profile for the slow participant (the Connections view is tested elsewhere).
  await withConsoleClient(consoleProc, (client) => client.call('profiles.save', { name: 'Slow participant', ledgerApiUrl: slow.url }));
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
  await ifAssigned(slow)?.close();
});

test('cancel a long active-contract read: Cancelled is shown, the participant request is aborted, the view stays usable', async ({
  page,
}) => {
  await page.goto(consoleProc.url);
  await switchProfile(page, 'Slow participant');
  const before = slow.reads.length;
  await page.getByRole('link', { name: /Contracts/ }).click();

  await expect(page.getByTestId('acs-progress')).toContainText('Reading the active contract set');
  // The latest one: the read Cancel stops (a read begun before the profile switch landed would be superseded).
  const acsRead = () => slow.reads.slice(before).findLast((r) => r.url.startsWith('/v2/state/active-contracts'));
  // the participant's first bytes: a condition, with a generous backstop for a loaded machine
  await expect.poll(() => acsRead()?.bytesSent ?? 0, { timeout: 45_000 }).toBeGreaterThan(0);
  const read = must(acsRead(), 'acsRead()');

  await page.getByTestId('acs-cancel').click();
  await expect(page.getByTestId('acs-cancelled')).toContainText('Cancelled');
  await expect(page.getByTestId('acs-progress')).toHaveCount(0);
  // The console dropped its request to the participant before the answer was complete.
  await expect.poll(() => read.closedEarly, { timeout: 30_000 }).toBe(true);
  expect(read.completed).toBe(false);

  // The view responds at once: the filter is editable and another panel opens.
  await page.getByTestId('acs-offset').fill('3');
  await expect(page.getByTestId('acs-offset')).toHaveValue('3');
  await page.getByTestId('contract-new').click();
  await expect(page.getByTestId('create-form')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).last().click();
  await page.getByTestId('acs-offset').fill('');
  await themedScreenshots(page, 'contracts-cancelled', 700);

  // Run again starts a fresh read (and shows its progress).
  await page.getByTestId('acs-again').click();
  await expect(page.getByTestId('acs-progress')).toBeVisible();
  await page.getByTestId('acs-cancel').click();
  await expect(page.getByTestId('acs-cancelled')).toBeVisible();
});

test('cancel a long update-range read in the Updates view; Run again reads it anew', async ({ page }) => {
  await page.goto(consoleProc.url);
  await switchProfile(page, 'Slow participant');
  await page.getByRole('link', { name: /Updates/ }).click();
  await expect(page.getByTestId('mode-range')).toBeVisible();

  const before = slow.reads.length;
  await page.getByTestId('mode-range').click();
  await expect(page.getByTestId('range-progress')).toContainText('Reading the updates in this range');
  await expect
    .poll(() => slow.reads.slice(before).findLast((r) => r.url.startsWith('/v2/updates?'))?.bytesSent ?? 0, { timeout: 45_000 })
    .toBeGreaterThan(0);
  const read = must(
    slow.reads.slice(before).findLast((r) => r.url.startsWith('/v2/updates?')),
    'the held /v2/updates read',
  );

  await page.getByTestId('range-cancel').click();
  await expect(page.getByTestId('range-cancelled')).toContainText('Cancelled');
  await expect.poll(() => read.closedEarly, { timeout: 30_000 }).toBe(true);
  expect(read.completed).toBe(false);
  // Still responsive: back to the live tail and to Range again.
  await page.getByTestId('mode-live').click();
  await expect(page.getByTestId('range-cancelled')).toHaveCount(0);
  await page.getByTestId('mode-range').click();
  await expect(page.getByTestId('range-progress')).toBeVisible();
  await page.getByTestId('range-cancel').click();
  await expect(page.getByTestId('range-cancelled')).toBeVisible();
  await themedScreenshots(page, 'updates-cancelled', 600);
  const reads = slow.reads.length;
  await page.getByTestId('range-again').click();
  await expect(page.getByTestId('range-progress')).toBeVisible();
  await expect.poll(() => slow.reads.length, { timeout: 30_000 }).toBeGreaterThan(reads);
  await page.getByTestId('range-cancel').click();
  await expect(page.getByTestId('range-cancelled')).toBeVisible();
});
