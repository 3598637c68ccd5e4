/**
 * A profile form opened while an earlier save is still under way stays open when that save completes: the save
 * closes only the form it came from. The console's answer to `profiles.save` is held back on the IPC WebSocket
 * (Playwright proxies it) until the second form is open.
 */
import { test, expect } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { openConnections } from '../support/e2e.js';
import { ifAssigned } from '../support/if-assigned.js';

let consoleProc: ConsoleProcess;

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
});

test('a form opened while a save is under way stays open when the save completes', async ({ page }) => {
  let holdSaves = false;
  const saveIds = new Set<number>();
  const held: (() => void)[] = [];
  await page.routeWebSocket(/\/ipc\?/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      if (typeof message === 'string') {
        const frame = JSON.parse(message) as { type?: string; id?: number; channel?: string };
        if (holdSaves && frame.type === 'invoke' && frame.channel === 'profiles.save' && frame.id !== undefined) saveIds.add(frame.id);
      }
      server.send(message);
    });
    server.onMessage((message) => {
      if (typeof message === 'string') {
        const frame = JSON.parse(message) as { type?: string; id?: number };
        if (frame.type === 'result' && frame.id !== undefined && saveIds.has(frame.id)) {
          held.push(() => ws.send(message));
          return;
        }
      }
      ws.send(message);
    });
  });

  await page.goto(consoleProc.url);
  await expect(page.getByTestId('participant-id')).toBeVisible();
  await openConnections(page);
  await page.getByRole('button', { name: 'New remote profile' }).click();
  await page.getByLabel('Name').fill('Staging node');
  await page.getByLabel('Ledger API URL').fill('http://127.0.0.1:9');
  await page.getByRole('button', { name: 'Create profile' }).click();
  const row = page.getByTestId('profile-row').filter({ hasText: 'Staging node' });
  await expect(row).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create profile' })).toHaveCount(0);

  // Save a rename, but hold the console's answer back.
  holdSaves = true;
  await page.getByRole('button', { name: 'Edit profile Staging node' }).click();
  await page.getByLabel('Name').fill('Staging node 2');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(() => held.length).toBe(1);

  // Meanwhile the operator opens the profile's form again (it starts over, as each opening does).
  await page.getByRole('button', { name: 'Edit profile Staging node' }).click();
  await expect(page.getByLabel('Name')).toHaveValue('Staging node');
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeEnabled();

  holdSaves = false;
  for (const release of held.splice(0)) release();
  await expect(page.getByText('Saved profile “Staging node 2”.')).toBeVisible();
  await expect(page.getByTestId('profile-row').filter({ hasText: 'Staging node 2' })).toBeVisible();
  // The form opened after the save is still there.
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('Staging node');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
});
