/**
 * A long read cancelled from the UI (issue #7): the participant (the embedded simulator behind a
 * proxy that passes answers on slowly) is reading the active contract set; the operator clicks
 * Cancel, sees “Cancelled”, the console's connection to the participant is closed mid-answer, and
 * the view keeps working.
 */
import { test, expect } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { simulatorUrl, themedScreenshots } from '../support/e2e.js';
import { withConsoleClient } from '../support/console-ipc.js';
import { startSlowParticipant, type SlowParticipant } from '../support/slow-participant.js';

let consoleProc: ConsoleProcess;
let slow: SlowParticipant;

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
  // About 1 KiB a second: the demo's active contract set takes many seconds to arrive.
  slow = await startSlowParticipant(simulatorUrl(consoleProc), { slow: (p) => p.startsWith('/v2/state/active-contracts'), bytesPerTick: 200, tickMs: 200 });
  // Set-up only: a profile for the slow participant (the Connections view is tested elsewhere).
  await withConsoleClient(consoleProc, (client) => client.call('profiles.save', { name: 'Slow participant', ledgerApiUrl: slow.url }));
});
test.afterAll(async () => {
  await consoleProc?.stop();
  await slow?.close();
});

test('cancel a long active-contract read: Cancelled is shown, the participant request is aborted, the view stays usable', async ({ page }) => {
  await page.goto(consoleProc.url);
  await page.getByLabel('Connection profile').selectOption({ label: 'Slow participant' });
  await page.getByRole('link', { name: /Contracts/ }).click();

  const before = slow.reads.length;
  await expect(page.getByTestId('acs-progress')).toContainText('Reading the active contract set');
  await expect.poll(() => slow.reads.length).toBeGreaterThan(before);
  const read = slow.reads.at(-1)!;
  await expect.poll(() => read.bytesSent).toBeGreaterThan(0);

  await page.getByTestId('acs-cancel').click();
  await expect(page.getByTestId('acs-cancelled')).toContainText('Cancelled');
  await expect(page.getByTestId('acs-progress')).toHaveCount(0);
  // The console dropped its request to the participant before the answer was complete.
  await expect.poll(() => read.closedEarly).toBe(true);
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
