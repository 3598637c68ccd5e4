/**
 * Parties view end to end: allocate a party with annotations, see it in the list and the details,
 * edit its annotations (checked through the simulator's HTTP API), a concurrent edit refused
 * plainly, search, and the external badge for a party in its own namespace.
 */
import { test, expect, type Page } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { themedScreenshots, simulatorUrl } from '../support/e2e.js';
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
async function simulator<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(simUrl() + path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    ...(init.body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) } : {}),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
type Details = { partyDetails: Array<{ party: string; localMetadata: { resourceVersion: string; annotations: Record<string, string> } }> };
const details = async (party: string) =>
  must((await simulator<Details>(`/v2/parties/${encodeURIComponent(party)}`)).partyDetails[0], `details of ${party}`);
/**
 * Annotations as the participant holds them. Per the spec an update removes a key sent with an empty
 * value; the embedded simulator currently stores it with the empty value instead, so those are skipped.
 */
const annotationsOf = async (party: string) =>
  Object.fromEntries(Object.entries((await details(party)).localMetadata.annotations).filter(([, v]) => v !== ''));

async function openParties(page: Page) {
  await page.goto(consoleProc.url);
  await page.getByRole('link', { name: /Parties/ }).click();
  await expect(page.getByTestId('parties')).toBeVisible();
}

test('allocate a party with annotations, edit them, and see a concurrent change refused', async ({ page }) => {
  const hint = `Treasury${Date.now()}`;
  await openParties(page);
  await expect(page.getByTestId('party-detail')).toContainText('No party selected');

  await page.getByTestId('party-allocate-open').click();
  await expect(page.locator('#party-hint')).toBeFocused();
  await page.keyboard.type(hint);
  const form = page.getByTestId('party-allocate-form');
  await form.getByRole('button', { name: 'Add annotation' }).click();
  await form.getByLabel('Annotation 1 key').fill('example.com/team');
  await form.getByLabel('Annotation 1 value').fill('treasury');
  await form.getByRole('button', { name: 'Add annotation' }).click();
  await form.getByLabel('Annotation 2 key').fill('cost-center');
  await form.getByLabel('Annotation 2 value').fill('42');
  await page.getByTestId('party-allocate').click();

  await expect(page.getByTestId('parties-notice')).toContainText(`Allocated ${hint}::`);
  const party = must(await page.getByTestId('party-detail-id').textContent(), "page.getByTestId('party-detail-id').textContent()");
  expect(party).toMatch(new RegExp(`^${hint}::1220[0-9a-f]{64}$`));
  expect(await annotationsOf(party)).toEqual({ 'example.com/team': 'treasury', 'cost-center': '42' });
  await expect(page.locator(`[data-testid=party-row][data-party="${party}"]`)).toContainText('Local');
  await expect(page.getByTestId('party-detail-external')).toHaveText('No');

  // Edit: change one value, remove the other, add one.
  const editor = page.getByTestId('party-annotations');
  await expect(editor.getByTestId('annotation-row')).toHaveCount(2);
  await editor.getByLabel('Annotation 2 value').fill('treasury-emea');
  await editor.getByRole('button', { name: 'Remove annotation cost-center' }).click();
  await editor.getByRole('button', { name: 'Add annotation' }).click();
  await editor.getByLabel('Annotation 2 key').fill('owner');
  await editor.getByLabel('Annotation 2 value').fill('alice');
  await page.getByTestId('party-save').click();
  await expect(page.getByTestId('parties-notice')).toContainText(`Saved the annotations of ${hint}`);
  expect(await annotationsOf(party)).toEqual({ 'example.com/team': 'treasury-emea', owner: 'alice' });

  await screenshots(page, 'parties', 900);

  // Someone else edits the party meanwhile: the console's save is refused and says so; Retry reloads.
  const current = await details(party);
  await simulator(`/v2/parties/${encodeURIComponent(party)}`, {
    method: 'PATCH',
    body: {
      partyDetails: {
        party,
        localMetadata: {
          resourceVersion: current.localMetadata.resourceVersion,
          annotations: { owner: 'bob', 'example.com/team': 'treasury-emea' },
        },
      },
      updateMask: { paths: ['local_metadata.annotations'], unknownFields: { fields: {} } },
    },
  });
  await editor.getByLabel('Annotation 2 value').fill('carol');
  await page.getByTestId('party-save').click();
  const error = page.getByTestId('party-save-error');
  await expect(error).toContainText('changed by someone else');
  await expect(error.getByTestId('canton-error')).toBeVisible();
  await screenshots(page, 'parties-conflict', 1100);
  expect((await annotationsOf(party)).owner).toBe('bob');
  await error.getByRole('button', { name: 'Retry' }).click();
  await expect(editor.getByLabel('Annotation 2 value')).toHaveValue('bob');
  await expect(page.getByTestId('party-save-error')).toHaveCount(0);

  // Search goes to the participant (filter-party) and says when nothing matches.
  await page.getByTestId('party-search').fill(hint);
  await expect(page.getByTestId('party-row')).toHaveCount(1);
  await page.getByTestId('party-search').fill(`${hint}-nothing`);
  await expect(page.getByTestId('parties-empty')).toContainText('No party matches');
});

test('a party in its own namespace is marked external', async ({ page }) => {
  // An external party as the signing flow would create it: generate-topology, sign the multi-hash, allocate.
  const { generateKeyPairSync, createHash, sign } = await import('node:crypto');
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  const purpose = Buffer.alloc(4);
  purpose.writeUInt32BE(12);
  const fingerprint = `1220${createHash('sha256')
    .update(Buffer.concat([purpose, spki.subarray(12)]))
    .digest('hex')}`;
  const sync = must(
    (await simulator<{ connectedSynchronizers: Array<{ synchronizerId: string }> }>('/v2/state/connected-synchronizers'))
      .connectedSynchronizers[0],
    'a connected synchronizer',
  ).synchronizerId;
  const hint = `Cold${Date.now()}`;
  const gen = await simulator<{ partyId: string; topologyTransactions: string[]; multiHash: string }>(
    '/v2/parties/external/generate-topology',
    {
      body: {
        synchronizer: sync,
        partyHint: hint,
        publicKey: {
          format: 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO',
          keyData: spki.toString('base64'),
          keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
        },
      },
    },
  );
  await simulator('/v2/parties/external/allocate', {
    body: {
      synchronizer: sync,
      onboardingTransactions: gen.topologyTransactions.map((transaction) => ({ transaction })),
      multiHashSignatures: [
        {
          format: 'SIGNATURE_FORMAT_RAW',
          signature: sign(null, Buffer.from(gen.multiHash, 'base64'), privateKey).toString('base64'),
          signedBy: fingerprint,
          signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
        },
      ],
    },
  });

  await openParties(page);
  await page.getByTestId('party-search').fill(hint);
  const row = page.locator(`[data-testid=party-row][data-party="${gen.partyId}"]`);
  await expect(row.getByTestId('external-badge')).toBeVisible();
  await row.getByRole('button', { name: `Show party ${gen.partyId}` }).press('Enter');
  await expect(page.getByTestId('party-detail-external')).toContainText('in its own namespace');
});
