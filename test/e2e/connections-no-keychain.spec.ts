/**
 * Issue #13 item 11 in the UI: on a machine without a Secret Service the Connections view said "Token stored in OS
 * keychain" for a token that could not be stored there. The console here runs with no keychain at all: the form says
 * the keychain is not available, a save to it fails with the keychain error and lists nothing, and the operator keeps
 * the token in the encrypted secret file instead (new passphrase, typed twice) — then the list says where it is and
 * Test passes against a participant that checks tokens. After a restart the file is locked and the view offers to
 * unlock it.
 */
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { openConnections, themedScreenshots } from '../support/e2e.js';
import { signHs256 } from '../support/oauth2-server.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { ifAssigned } from '../support/if-assigned.js';

const JWT_SECRET = 'e2e-no-keychain-hs256-secret';
const AUDIENCE = 'https://daml.com/jwt/aud/participant/e2e-no-keychain';
const PASSPHRASE = 'a long passphrase for the secret file';
const NO_KEYCHAIN_ENV: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/no-secret-service' };

let consoleProc: ConsoleProcess;
let dataDir: string;
let sim: RunningSimulator;
let simDir: string;

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-no-keychain-'));
  consoleProc = await startConsoleProcess([], { dataDir, env: NO_KEYCHAIN_ENV });
  simDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-no-keychain-sim-'));
  sim = await startSimulator({ dataDir: simDir, port: 0, auth: { mode: 'hs256', secret: JWT_SECRET, audience: AUDIENCE } });
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
  await ifAssigned(sim)?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(simDir, { recursive: true, force: true });
});

async function openConnectionsPage(page: Page) {
  await page.goto(consoleProc.url);
  await openConnections(page);
}

test('without a keychain the token goes to the encrypted secret file, and the view says so', async ({ page }) => {
  const token = signHs256({ sub: 'participant_admin', aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 3600 }, JWT_SECRET);
  await openConnectionsPage(page);
  await page.getByRole('button', { name: 'New remote profile' }).click();
  await page.getByLabel('Name').fill('Token participant');
  await page.getByLabel('Ledger API URL').fill(sim.url);
  await page.getByTestId('profile-auth-mode').selectOption('static');
  await page.getByLabel('Bearer token').fill(token);
  await expect(page.getByTestId('keychain-unavailable')).toContainText('Not available on this machine');

  // the keychain (the default) fails: an error, and no profile claims a stored token
  await page.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.getByRole('alert', { name: 'The profile was not saved' })).toContainText('KEYCHAIN_UNAVAILABLE');
  await expect(page.getByTestId('profile-row').filter({ hasText: 'Token participant' })).toHaveCount(0);

  // the encrypted secret file: a new passphrase, typed twice
  await page.getByTestId('secret-store-file').check();
  await page.getByTestId('secret-file-passphrase').fill(PASSPHRASE);
  await page.getByTestId('secret-file-confirm').fill(PASSPHRASE + ' typo');
  await expect(page.getByText('The two passphrases differ.')).toBeVisible();
  await page.getByTestId('secret-file-confirm').fill(PASSPHRASE);
  await themedScreenshots(page, 'connections-no-keychain-form', 1100);
  await page.getByRole('button', { name: 'Create profile' }).click();
  const row = page.getByTestId('profile-row').filter({ hasText: 'Token participant' });
  await expect(row).toContainText('Token stored in encrypted secret file');
  await expect(page.getByText('Token stored in OS keychain')).toHaveCount(0);

  await row.getByRole('button', { name: /Test connection/ }).click();
  await expect(page.getByTestId('connection-test')).toContainText('participant_admin');
  await expect(page.getByTestId('connection-test')).toContainText('Static token from the encrypted secret file');
  await expect(page.getByText(/from the OS keychain/)).toHaveCount(0);
  await themedScreenshots(page, 'connections-no-keychain', 900);
});

test('after a restart the locked file is offered for unlocking', async ({ page }) => {
  await consoleProc.stop();
  consoleProc = await startConsoleProcess([], { dataDir, env: NO_KEYCHAIN_ENV });
  await openConnectionsPage(page);
  const unlock = page.getByTestId('secret-file-unlock');
  await expect(unlock).toContainText('Token participant');
  await unlock.getByLabel('Passphrase').fill(PASSPHRASE);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock).toHaveCount(0);
  await page
    .getByTestId('profile-row')
    .filter({ hasText: 'Token participant' })
    .getByRole('button', { name: /Test connection/ })
    .click();
  await expect(page.getByTestId('connection-test')).toContainText('participant_admin');
});
