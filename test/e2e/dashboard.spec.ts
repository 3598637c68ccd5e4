import { test, expect } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { callSimulator, themedScreenshots } from '../support/e2e.js';
import { ifAssigned } from '../support/if-assigned.js';

let consoleProc: ConsoleProcess;

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
});

const simulator = (path: string, body?: unknown) => callSimulator<unknown>(consoleProc, path, body);

test('dashboard shows live data from the embedded simulator', async ({ page }) => {
  const participant = (await simulator('/v2/parties/participant-id')) as { participantId: string };
  const version = (await simulator('/v2/version')) as { version: string };

  await page.goto(consoleProc.url);
  await expect(page.getByTestId('participant-id')).toHaveText(participant.participantId);
  await expect(page.getByTestId('api-version')).toContainText(version.version);
  await expect(page.getByTestId('health-live')).toContainText(/live/i);
  await expect(page.getByTestId('health-ready')).toContainText(/ready/i);
  await expect(page.getByTestId('synchronizers')).toContainText('global');
  // Live: a new update on the participant shows up without any click.
  const before = ((await simulator('/v2/state/ledger-end')) as { offset: number }).offset;
  await expect(page.getByTestId('ledger-end')).toHaveText(String(before));
  await simulator('/v2/parties', { partyIdHint: `Live${Date.now()}`, identityProviderId: '' });
  const after = ((await simulator('/v2/state/ledger-end')) as { offset: number }).offset;
  expect(after).toBeGreaterThan(before);
  await expect(page.getByTestId('ledger-end')).toHaveText(String(after));
  // The token is removed from the visible URL once read.
  expect(page.url()).not.toContain('token=');
  await themedScreenshots(page, 'dashboard', 900);
});

test('a wrong token is refused and the page says how to connect', async ({ page }) => {
  await page.goto(`${consoleProc.origin}/#token=wrong-token`);
  await expect(page.getByText(/Console ready: http:\/\/127\.0\.0\.1:PORT\/#token=/)).toBeVisible();
  await expect(page.getByTestId('participant-id')).toHaveCount(0);
  await page.screenshot({ path: 'test/e2e/screenshots/refused.png' });
});
