/**
 * Users view end to end (browser host + embedded simulator): create a user, grant rights of several
 * kinds (checked on screen and through the simulator's HTTP API), revoke one, edit, move it to an
 * identity provider, delete it.
 */
import { test, expect, type Page } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { themedScreenshots, simulatorUrl, callSimulator } from '../support/e2e.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

let consoleProc: ConsoleProcess;

const screenshots = themedScreenshots;

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
});

const simUrl = () => simulatorUrl(consoleProc);
const simulator = <T>(path: string, body?: unknown) => callSimulator<T>(consoleProc, path, body);
const allocate = async (hint: string) =>
  (await simulator<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: hint })).partyDetails.party;
const apiRights = async (userId: string) =>
  (await simulator<{ rights: Array<{ kind: Record<string, { value: { party?: string } }> }> }>(`/v2/users/${userId}/rights`)).rights
    .map((r) => {
      const [kind, v] = must(Object.entries(r.kind)[0], 'Object.entries(r.kind)[0]');
      return v.value.party ? `${kind}:${v.value.party}` : kind;
    })
    .sort();

async function openView(page: Page, name: RegExp, testid: string) {
  await page.goto(consoleProc.url);
  await page.getByRole('link', { name }).click();
  await expect(page.getByTestId(testid)).toBeVisible();
}

async function grant(page: Page, kindLabel: string, party?: string) {
  await page.getByTestId('right-kind').selectOption({ label: kindLabel });
  if (party !== undefined) {
    await page.getByTestId('right-party').fill(party);
    await page.getByTestId('right-party').press('Enter');
  }
  await page.getByTestId('grant-right').click();
}

test('create a user, grant and revoke rights, edit, move to an identity provider, delete', async ({ page }) => {
  const stamp = Date.now();
  const userId = `ops-${stamp}`;
  const party = await allocate(`Erin${stamp}`);
  await simulator('/v2/idps', {
    identityProviderConfig: {
      identityProviderId: `corp-${stamp}`,
      issuer: `https://login.example.com/${stamp}`,
      jwksUrl: 'https://login.example.com/jwks',
    },
  });

  await openView(page, /Users/, 'users');
  await page.getByTestId('user-new').click();
  await expect(page.locator('#user-id')).toBeFocused();
  await page.keyboard.type(userId);
  await page.locator('#user-primary').fill(party);
  await page.locator('#user-primary').press('Enter');
  await page.getByTestId('user-create').click();
  await expect(page.getByTestId('users-notice')).toContainText(`Created user “${userId}”`);
  await expect(page.locator(`[data-testid=user-row][data-user="${userId}"]`)).toBeVisible();
  await expect(page.getByTestId('rights-empty')).toBeVisible();

  // Keyboard: ↓/↑ walk the list, Enter opens a user.
  await page.getByRole('button', { name: `Show user ${userId}` }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('button', { name: 'Show user participant_admin' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('user-detail-id')).toHaveText('participant_admin');
  await expect(page.locator('[data-testid=right-row][data-kind=ParticipantAdmin]')).toBeVisible();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('user-detail-id')).toHaveText(userId);

  await grant(page, 'Act as', party);
  await expect(page.getByTestId('users-notice')).toContainText('Granted Act as');
  await grant(page, 'Read as', party);
  await grant(page, 'Execute as', party);
  await grant(page, 'Read as any party');
  await grant(page, 'Identity provider admin');
  const rows = page.getByTestId('right-row');
  await expect(rows).toHaveCount(5);
  const screenRights = async () =>
    // the callback runs in the page, where `must` does not exist: it returns the raw attributes
    (await rows.evaluateAll((els) => els.map((e) => ({ kind: (e as HTMLElement).dataset.kind, party: (e as HTMLElement).dataset.party }))))
      .map(({ kind, party }) => {
        const k = must(kind, "a right row's data-kind");
        return party ? `${k}:${party}` : k;
      })
      .sort();
  const expected = [
    `CanActAs:${party}`,
    `CanExecuteAs:${party}`,
    `CanReadAs:${party}`,
    'CanReadAsAnyParty',
    'IdentityProviderAdmin',
  ].sort();
  expect(await screenRights()).toEqual(expected);
  expect(await apiRights(userId)).toEqual(expected);

  await screenshots(page, 'users', 1200);

  // A party right without a party is refused in the form, before any call.
  await page.getByTestId('right-kind').selectOption({ label: 'Act as' });
  await page.getByTestId('right-party').fill('');
  await page.getByTestId('grant-right').click();
  await expect(page.getByRole('alert').filter({ hasText: 'Act as needs a party' })).toBeVisible();

  // Revoke Read as: asks first, then the row disappears on screen and on the participant.
  const readAs = page.locator(`[data-testid=right-row][data-kind=CanReadAs]`);
  await readAs.getByRole('button', { name: 'Revoke' }).click();
  await expect(readAs.getByRole('button', { name: 'Revoke' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('users-notice')).toContainText('Revoked Read as');
  await expect(rows).toHaveCount(4);
  expect(await apiRights(userId)).toEqual(expected.filter((r) => !r.startsWith('CanReadAs:')));

  // Edit: deactivate and annotate.
  await page.getByTestId('user-edit-deactivated').check();
  await page.getByTestId('user-edit-annotations').getByRole('button', { name: 'Add annotation' }).click();
  await page.getByLabel('Annotation 1 key').fill('owner');
  await page.getByLabel('Annotation 1 value').fill('treasury');
  await page.getByTestId('user-save').click();
  await expect(page.getByTestId('users-notice')).toContainText(`Saved user “${userId}”`);
  const user = await simulator<{ user: { isDeactivated: boolean; metadata: { annotations: Record<string, string> } } }>(
    `/v2/users/${userId}`,
  );
  expect(user.user.isDeactivated).toBe(true);
  expect(user.user.metadata.annotations).toEqual({ owner: 'treasury' });
  await expect(page.locator(`[data-testid=user-row][data-user="${userId}"]`)).toContainText('Deactivated');

  // Move to the identity provider.
  await page.getByTestId('user-move-target').selectOption(`corp-${stamp}`);
  await page.getByTestId('user-move').click();
  await expect(page.getByTestId('user-detail-idp')).toHaveText(`corp-${stamp}`);
  await expect(page.locator(`[data-testid=user-row][data-user="${userId}"]`).getByTestId('user-row-idp')).toHaveText(`corp-${stamp}`);
  expect((await simulator<{ user: { identityProviderId: string } }>(`/v2/users/${userId}`)).user.identityProviderId).toBe(`corp-${stamp}`);

  // Delete, with confirmation; Escape backs out first.
  await page.getByTestId('user-delete').click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('user-delete')).toBeFocused();
  await page.getByTestId('user-delete').click();
  await page.getByTestId('user-delete-confirm').getByRole('button', { name: 'Delete user' }).click();
  await expect(page.getByTestId('users-notice')).toContainText(`Deleted user “${userId}”`);
  await expect(page.locator(`[data-testid=user-row][data-user="${userId}"]`)).toHaveCount(0);
  const res = await fetch(`${simUrl()}/v2/users/${userId}`);
  expect(res.status).toBe(404);
});

test('creating a duplicate user shows the Canton error', async ({ page }) => {
  await openView(page, /Users/, 'users');
  await page.getByTestId('user-new').click();
  await page.locator('#user-id').fill('participant_admin');
  await page.getByTestId('user-create').click();
  const panel = page.getByTestId('user-create-form').getByTestId('error-panel');
  await expect(panel.getByTestId('canton-error')).toContainText('USER_ALREADY_EXISTS');
  await page.locator('#user-id').fill('Not Valid');
  await page.getByTestId('user-create').click();
  await expect(page.locator('#user-id-msg')).toContainText('lower-case letters');
});

test('search the users by id, primary party and identity provider, from the keyboard', async ({ page }) => {
  const stamp = Date.now();
  const idp = `search-idp-${stamp}`;
  const party = await allocate(`Searchy${stamp}`);
  await simulator('/v2/idps', {
    identityProviderConfig: {
      identityProviderId: idp,
      issuer: `https://idp.example.com/${stamp}`,
      jwksUrl: 'https://idp.example.com/jwks',
    },
  });
  await simulator('/v2/users', { user: { id: `finder-${stamp}`, primaryParty: party, isDeactivated: false, identityProviderId: '' } });
  await simulator('/v2/users', { user: { id: `other-${stamp}`, primaryParty: '', isDeactivated: false, identityProviderId: idp } });

  await openView(page, /Users/, 'users');
  const visible = () => page.getByTestId('user-row').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.user));
  await expect(page.locator(`[data-testid=user-row][data-user="finder-${stamp}"]`)).toBeVisible();

  const search = page.getByTestId('user-search');
  await search.focus();
  await page.keyboard.type(`finder-${stamp}`);
  await expect.poll(visible).toEqual([`finder-${stamp}`]);
  await expect(page.getByTestId('users-count')).toHaveText(/^1 of \d+$/);

  // By primary party (its hint) and by identity provider.
  await search.fill(`Searchy${stamp}`);
  await expect.poll(visible).toEqual([`finder-${stamp}`]);
  await search.fill(idp);
  await expect.poll(visible).toEqual([`other-${stamp}`]);

  // ↓ moves from the search into the list, Enter opens the user.
  await search.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('button', { name: `Show user other-${stamp}` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('user-detail-idp')).toHaveText(idp);

  // No match says so and offers to clear; Escape in the box clears too.
  await search.fill(`nobody-${stamp}`);
  await expect(page.getByTestId('users-no-match')).toContainText(`nobody-${stamp}`);
  await screenshots(page, 'users-search', 700);
  await search.focus();
  await page.keyboard.press('Escape');
  await expect(search).toHaveValue('');
  await expect(page.locator(`[data-testid=user-row][data-user="finder-${stamp}"]`)).toBeVisible();
});
