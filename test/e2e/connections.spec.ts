import { test, expect } from '@playwright/test';
import { Entry } from '@napi-rs/keyring';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { openConnections, themedScreenshots } from '../support/e2e.js';
import { signHs256, startOAuth2Server, type RunningOAuth2Server } from '../support/oauth2-server.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

// A second participant that requires HS256 JWTs, and the identity provider whose tokens it accepts.
const JWT_SECRET = 'e2e-shared-hs256-secret-for-sim-and-idp';
const AUDIENCE = 'https://daml.com/jwt/aud/participant/e2e-jwt';
const CLIENT_SECRET = 'e2e-oauth2-client-secret-93ab';
const OPS_USER = 'ops-user';

let consoleProc: ConsoleProcess;
let jwtSim: RunningSimulator;
let jwtSimDir: string;
let idp: RunningOAuth2Server;
let opsParty: string;

async function simAdmin<T>(p: string, body: unknown): Promise<T> {
  const token = signHs256({ sub: 'participant_admin', aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 }, JWT_SECRET);
  const res = await fetch(jwtSim.url + p, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${p}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
  jwtSimDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-jwt-sim-'));
  jwtSim = await startSimulator({ dataDir: jwtSimDir, port: 0, auth: { mode: 'hs256', secret: JWT_SECRET, audience: AUDIENCE } });
  idp = await startOAuth2Server({
    clients: { 'operator-console': { secret: CLIENT_SECRET, subject: OPS_USER } },
    signingSecret: JWT_SECRET,
  });
  opsParty = (await simAdmin<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: 'Operations' })).partyDetails.party;
  await simAdmin('/v2/users', {
    user: { id: OPS_USER, primaryParty: opsParty, isDeactivated: false, identityProviderId: '' },
    rights: [
      { kind: { ParticipantAdmin: { value: {} } } },
      { kind: { CanActAs: { value: { party: opsParty } } } },
      { kind: { CanReadAs: { value: { party: opsParty } } } },
    ],
  });
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
  await ifAssigned(jwtSim)?.close();
  await ifAssigned(idp)?.close();
  if (jwtSimDir) rmSync(jwtSimDir, { recursive: true, force: true });
});

const TOKEN = 'e2e-secret-bearer-token-5f1c';

test('an operator adds a remote participant with a token, uses it, sees the structured error, and removes it', async ({ page }) => {
  await page.goto(consoleProc.url);
  await expect(page.getByTestId('participant-id')).toBeVisible();
  await openConnections(page);
  await expect(page.getByTestId('profile-row')).toHaveCount(1);
  await expect(page.getByTestId('profile-row').first()).toContainText('Embedded simulator');

  // Bad input: specific field errors, nothing saved.
  await page.getByRole('button', { name: 'New remote profile' }).click();
  await page.getByLabel('Ledger API URL').fill('ftp://participant');
  await page.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.locator('#profile-ledger-url-error, .field-error').first()).toBeVisible();
  await expect(page.getByTestId('profile-row')).toHaveCount(1);

  await page.getByLabel('Name').fill('Unreachable node');
  await page.getByLabel('Ledger API URL').fill('http://127.0.0.1:9');
  await page.getByLabel('Mode').selectOption('static');
  await page.getByLabel(/Bearer token/).fill(TOKEN);
  await page.getByRole('button', { name: 'Create profile' }).click();
  const row = page.getByTestId('profile-row').filter({ hasText: 'Unreachable node' });
  await expect(row).toContainText('Token stored in OS keychain');
  const profileId = await row.getAttribute('data-profile-id');
  expect(profileId).toBeTruthy();
  // The token went to the real OS keychain and is not shown anywhere on the page.
  expect(new Entry(consoleProc.keychainService, `profile:${profileId}:bearer-token`).getPassword()).toBe(TOKEN);
  expect(await page.content()).not.toContain(TOKEN);
  await page.screenshot({ path: 'test/e2e/screenshots/connections.png', fullPage: true });

  await page.getByRole('button', { name: 'Use profile Unreachable node' }).click();
  await expect(row).toContainText('Active');
  await page
    .getByRole('link', { name: /Dashboard/ })
    .or(page.getByRole('button', { name: /Dashboard/ }))
    .first()
    .click();
  await expect(page.getByTestId('error-code').first()).toHaveText('UNREACHABLE');
  await page.screenshot({ path: 'test/e2e/screenshots/dashboard-unreachable.png', fullPage: true });

  // Back to the demo profile from the top bar.
  await page.getByLabel('Connection profile').selectOption({ label: 'Demo — embedded simulator' });
  await expect(page.getByTestId('participant-id')).toContainText('PAR::');

  await openConnections(page);
  // Remove the stored token: the profile falls back to no authentication and the keychain entry goes.
  await page.getByRole('button', { name: 'Edit profile Unreachable node' }).click();
  await expect(page.getByTestId('profile-token-stored')).toContainText('Stored in OS keychain');
  await page.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByLabel('Mode')).toHaveValue('none');
  await expect(page.getByText('Saving deletes the stored bearer token from the OS keychain.')).toBeVisible();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(row).toContainText('No authentication');
  expect(new Entry(consoleProc.keychainService, `profile:${profileId}:bearer-token`).getPassword()).toBeNull();

  await page.getByRole('button', { name: 'Delete profile Unreachable node' }).click();
  await page.getByRole('group', { name: 'Confirm deletion of Unreachable node' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('profile-row')).toHaveCount(1);
  expect(new Entry(consoleProc.keychainService, `profile:${profileId}:bearer-token`).getPassword()).toBeNull();
});

test('an operator adds an OAuth2 client-credentials profile, tests it against a JWT participant and uses it', async ({ page }) => {
  await page.goto(consoleProc.url);
  await expect(page.getByTestId('participant-id')).toBeVisible();
  await openConnections(page);

  await page.getByRole('button', { name: 'New remote profile' }).click();
  await page.getByLabel('Name').fill('JWT participant');
  await page.getByLabel('Ledger API URL').fill(jwtSim.url);
  await page.getByLabel('Mode').selectOption('oauth2-client-credentials');
  await page.getByLabel('Token endpoint URL').fill(idp.tokenUrl);
  await page.getByLabel('Client ID').fill('operator-console');
  await page.getByLabel('Client secret').fill(CLIENT_SECRET);
  await page.getByLabel(/Audience/).fill(AUDIENCE);
  await page.getByLabel(/Scope/).fill('daml_ledger_api');
  await themedScreenshots(page, 'connections-oauth-form', 1100);

  // Missing client secret: a field error, nothing saved.
  await page.getByLabel('Client secret').fill('');
  await page.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.locator('#profile-client-secret-error')).toHaveText('a client secret is required');
  await expect(page.getByTestId('profile-row')).toHaveCount(1);
  await page.getByLabel('Client secret').fill(CLIENT_SECRET);
  await page.getByRole('button', { name: 'Create profile' }).click();

  const row = page.getByTestId('profile-row').filter({ hasText: 'JWT participant' });
  await expect(row).toContainText('OAuth2 client credentials');
  await expect(row).toContainText('operator-console');
  await expect(row).toContainText('Client secret stored in OS keychain');
  const profileId = await row.getAttribute('data-profile-id');
  expect(profileId).toBeTruthy();
  expect(new Entry(consoleProc.keychainService, `profile:${profileId}:oauth2-client-secret`).getPassword()).toBe(CLIENT_SECRET);
  expect(await page.content()).not.toContain(CLIENT_SECRET);

  // Test connection: token from the endpoint, the participant reached with it, the user and its rights.
  const before = idp.requests.length;
  await page.getByRole('button', { name: 'Test connection JWT participant' }).click();
  const result = page.getByTestId('connection-test');
  await expect(result.getByTestId('connection-test-verdict')).toHaveText('Connected');
  await expect(result.getByTestId('test-step-token')).toHaveAttribute('data-status', 'ok');
  await expect(result.getByTestId('test-step-token')).toContainText(
    /Obtained from the token endpoint \(client secret from the OS keychain\) · expires .+ \(in (59|60) min\)/,
  );
  await expect(result.getByTestId('test-step-ledger')).toContainText('Reachable · API version 3.');
  await expect(result.getByTestId('test-step-user')).toContainText(`${OPS_USER} · primary party ${opsParty}`);
  await expect(result.getByTestId('test-step-rights')).toContainText('Participant admin · act as 1 party · read as 1 party');
  expect(idp.requests.slice(before)).toEqual([
    expect.objectContaining({ clientId: 'operator-console', audience: AUDIENCE, scope: 'daml_ledger_api', outcome: 'issued' }),
  ]);
  expect(await page.content()).not.toContain(
    must(must(idp.issued.at(-1), 'idp.issued.at(-1)').split('.')[2], "idp.issued.at(-1).split('.')[2]"),
  );
  await themedScreenshots(page, 'connections-oauth-test', 900);

  // Editing shows the secret only as stored; the rest of the configuration is prefilled.
  await page.getByRole('button', { name: 'Edit profile JWT participant' }).click();
  await expect(page.getByLabel('Mode')).toHaveValue('oauth2-client-credentials');
  await expect(page.getByLabel('Token endpoint URL')).toHaveValue(idp.tokenUrl);
  await expect(page.getByTestId('profile-client-secret-stored')).toContainText('Stored in OS keychain');
  await themedScreenshots(page, 'connections-oauth-edit', 1100);
  await page.getByRole('button', { name: 'Save changes' }).click();
  // the row said so before the save too: wait for the save itself (the form closes)
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await expect(row).toContainText('Client secret stored in OS keychain');

  // A wrong secret: the test says which step failed and why.
  await page.getByRole('button', { name: 'Edit profile JWT participant' }).click();
  await page.getByRole('button', { name: 'Replace client secret' }).click();
  await page.getByLabel('Client secret').fill('not-the-secret');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Test connection JWT participant' }).click();
  await expect(result.getByTestId('connection-test-verdict')).toHaveText('Failed');
  await expect(result.getByTestId('test-step-token')).toHaveAttribute('data-status', 'failed');
  await expect(result.getByTestId('test-step-token').getByTestId('error-code')).toHaveText('AUTH_FAILED');
  await expect(result.getByTestId('test-step-token')).toContainText('invalid_client');
  await expect(result.getByTestId('test-step-ledger')).toHaveAttribute('data-status', 'skipped');
  await themedScreenshots(page, 'connections-oauth-test-failed', 1000);
  expect(await page.content()).not.toContain('not-the-secret');

  // Back to the right secret, then use the profile: the dashboard shows the JWT participant.
  await page.getByRole('button', { name: 'Edit profile JWT participant' }).click();
  await page.getByRole('button', { name: 'Replace client secret' }).click();
  await page.getByLabel('Client secret').fill(CLIENT_SECRET);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Use profile JWT participant' }).click();
  await expect(row).toContainText('Active');
  await page
    .getByRole('link', { name: /Dashboard/ })
    .or(page.getByRole('button', { name: /Dashboard/ }))
    .first()
    .click();
  await expect(page.getByTestId('participant-id')).toContainText(jwtSim.participantId);

  await page.getByLabel('Connection profile').selectOption({ label: 'Demo — embedded simulator' });
  await openConnections(page);
  await page.getByRole('button', { name: 'Delete profile JWT participant' }).click();
  await page.getByRole('group', { name: 'Confirm deletion of JWT participant' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('profile-row')).toHaveCount(1);
  expect(new Entry(consoleProc.keychainService, `profile:${profileId}:oauth2-client-secret`).getPassword()).toBeNull();
});
