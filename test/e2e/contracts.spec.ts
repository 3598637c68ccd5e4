/**
 * Contracts view end to end (browser host + embedded simulator): create an Iou through the form
 * generated from the package's Daml-LF definition, split it and transfer a part, see the new
 * contracts and the old one's life cycle (created → exercised → archived), a rejected split with
 * its Canton error, a reassignment with its counter; every step checked against the simulator's
 * HTTP API.
 */
import { test, expect, type Page } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { themedScreenshots, callSimulator } from '../support/e2e.js';
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

const simulator = <T>(path: string, body?: unknown) => callSimulator<T>(consoleProc, path, body);
const allocate = async (hint: string) =>
  (await simulator<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: hint })).partyDetails.party;

interface ApiContract {
  contractId: string;
  amount: string;
  owner: string;
  synchronizerId: string;
  reassignmentCounter: number;
}
/** Active Ious of a party, through the simulator's own API. */
async function apiIous(party: string): Promise<ApiContract[]> {
  const res = await simulator<{
    activeContracts: Array<{
      contractEntry: {
        JsActiveContract?: {
          createdEvent: { contractId: string; createArgument: { amount: string; owner: string } };
          synchronizerId: string;
          reassignmentCounter: number;
        };
      };
    }>;
  }>('/v2/state/active-contracts-page', {
    eventFormat: {
      filtersByParty: {
        [party]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: '#simulator-demo:Demo.Iou:Iou' } } } }] },
      },
      verbose: true,
    },
    maxPageSize: 1000,
  });
  return res.activeContracts.flatMap((r) => {
    const a = r.contractEntry.JsActiveContract;
    return a
      ? [
          {
            contractId: a.createdEvent.contractId,
            amount: a.createdEvent.createArgument.amount,
            owner: a.createdEvent.createArgument.owner,
            synchronizerId: a.synchronizerId,
            reassignmentCounter: a.reassignmentCounter,
          },
        ]
      : [];
  });
}

async function openContracts(page: Page) {
  await page.goto(consoleProc.url);
  await page.getByRole('link', { name: /Contracts/ }).click();
  await expect(page.getByTestId('contracts')).toBeVisible();
}

const field = (page: Page, form: string, name: string) => page.locator(`[data-testid=${form}] input[data-field="${name}"]`);

test('create an Iou through the generated form, split and transfer it, see the life cycle, a Canton error and a reassignment', async ({
  page,
}) => {
  const stamp = Date.now();
  const issuer = await allocate(`Issuer${stamp}`);
  const owner = await allocate(`Owner${stamp}`);
  const recipient = await allocate(`Recipient${stamp}`);

  await openContracts(page);
  // Empty state for a party that has nothing yet.
  await expect(page.getByTestId('acs-parties-none')).toHaveText(/Any party/);
  await page.getByTestId('acs-parties-input').fill(recipient);
  await page.getByTestId('acs-parties-input').press('Enter');
  await page.getByTestId('acs-load').click();
  await expect(page.getByTestId('acs-empty')).toContainText('No contract matches');

  // Create through the form generated from the Daml-LF template definition.
  await page.getByTestId('create-template').selectOption({ label: 'Demo.Iou:Iou' });
  await page.getByTestId('contract-new').click();
  const form = page.getByTestId('create-form');
  await expect(form).toBeVisible();
  await expect(form.getByText('Numeric 10')).toBeVisible();
  await expect(form.getByText('[Party]')).toBeVisible();
  await field(page, 'create-form', 'issuer').fill(issuer);
  await field(page, 'create-form', 'issuer').press('Enter');
  await field(page, 'create-form', 'owner').fill(owner);
  await field(page, 'create-form', 'owner').press('Enter');
  await field(page, 'create-form', 'currency').fill('USD');
  await field(page, 'create-form', 'amount').fill('100.123456789012');
  await page.getByTestId('act-as-input').fill(issuer);
  await page.getByTestId('act-as-input').press('Enter');
  await page.getByTestId('action-submit').click();
  // Numeric scale validation: refused before anything is sent.
  await expect(form.getByText('at most 10 decimal places (Numeric 10)')).toBeVisible();
  await expect(page.getByTestId('form-invalid')).toBeVisible();
  expect(await apiIous(issuer)).toHaveLength(0);
  await field(page, 'create-form', 'amount').fill('100.5');
  await screenshots(page, 'contracts-create', 1000);
  await page.getByTestId('action-submit').click();
  await expect(page.getByTestId('contracts-notice')).toContainText('Created Demo.Iou:Iou');
  await expect(page.getByTestId('detail-status')).toHaveText('Active');
  const original = must(await page.getByTestId('detail-cid').textContent(), "page.getByTestId('detail-cid').textContent()").trim();
  const api1 = await apiIous(issuer);
  expect(api1.map((c) => c.contractId)).toEqual([original]);
  expect(must(api1[0], 'api1[0]').amount).toBe('100.5000000000');
  await expect(page.getByTestId('detail-arguments')).toContainText('USD');
  await expect(page.getByTestId('detail-arguments')).toContainText('100.5');

  // Split it (as the owner, the controller).
  await page.locator('[data-testid=choice-button][data-choice=Iou_Split]').click();
  await expect(page.getByTestId('exercise-form')).toBeVisible();
  await field(page, 'exercise-form', 'splitAmount').fill('30');
  await expect(page.getByTestId('exercise-form').getByTestId('act-as')).toContainText(`Owner${stamp}`);
  await page.getByTestId('action-submit').click();
  await expect(page.getByTestId('contracts-notice')).toContainText('Exercised Iou_Split');
  await expect(page.getByTestId('contracts-notice')).toContainText('2 new contracts');
  // The old contract's life cycle: created → exercised (Iou_Split) → archived.
  await expect(page.getByTestId('detail-status')).toHaveText('Archived');
  const entries = page.getByTestId('timeline-entry');
  await expect(entries).toHaveCount(3);
  await expect(entries.nth(0)).toHaveAttribute('data-kind', 'created');
  await expect(entries.nth(1)).toHaveAttribute('data-kind', 'exercised');
  await expect(entries.nth(1)).toHaveAttribute('data-choice', 'Iou_Split');
  await expect(entries.nth(2)).toHaveAttribute('data-kind', 'archived');
  await expect(page.getByTestId('timeline-created')).toHaveCount(2);
  const api2 = await apiIous(issuer);
  expect(api2.map((c) => c.amount).sort()).toEqual(['30.0000000000', '70.5000000000']);
  expect(api2.some((c) => c.contractId === original)).toBe(false);
  const archived = await simulator<{ archived?: { archivedEvent: { offset: number } } }>('/v2/events/events-by-contract-id', {
    contractId: original,
    eventFormat: { filtersByParty: { [issuer]: { cumulative: [] } }, verbose: true },
  });
  await expect(entries.nth(2).getByTestId('timeline-offset')).toHaveText(
    String(must(archived.archived, 'archived.archived').archivedEvent.offset),
  );
  // The new contracts are in the list, filtered by several parties, a template and an interface together.
  await page.getByTestId('acs-parties-input').fill(owner);
  await page.getByTestId('acs-parties-input').press('Enter');
  await page.getByTestId('acs-shapes-choice').selectOption({ label: 'Demo.Iou:Iou (simulator-demo 1.0.0)' });
  await page.getByTestId('acs-shapes-add').click();
  await page.getByTestId('acs-shapes-choice').selectOption({ label: 'Demo.Asset:Asset (interface)' });
  await page.getByTestId('acs-shapes-add').click();
  await expect(page.getByTestId('acs-shapes-chip')).toHaveCount(2);
  await page.getByTestId('acs-load').click();
  await expect(page.getByTestId('contract-row')).toHaveCount(2);
  // The issuer alone with only the interface: the same two Ious, seen through Asset.
  await page.getByRole('button', { name: `Remove ${recipient}` }).click();
  await page.getByRole('button', { name: `Remove ${owner}` }).click();
  await page.getByTestId('acs-parties-input').fill(issuer);
  await page.getByTestId('acs-parties-input').press('Enter');
  await page.getByRole('button', { name: 'Remove Demo.Iou:Iou (simulator-demo 1.0.0)' }).click();
  await page.getByTestId('acs-load').click();
  await expect(page.getByTestId('contract-row')).toHaveCount(2);
  await expect(page.getByTestId('acs-progress')).toHaveCount(0);
  await expect(page.locator('[data-testid=contract-row][data-cid="' + must(api2[0], 'api2[0]').contractId + '"]')).toBeVisible();
  await screenshots(page, 'contracts', 1300);

  // Open the 30 part from the timeline and transfer it.
  const thirty = must(
    api2.find((c) => c.amount === '30.0000000000'),
    "api2.find((c) => c.amount === '30.0000000000')",
  );
  const rest = must(
    api2.find((c) => c.amount === '70.5000000000'),
    "api2.find((c) => c.amount === '70.5000000000')",
  );
  await page.locator('[data-testid=timeline-created]', { hasText: thirty.contractId.slice(-4) }).click();
  await expect(page.getByTestId('detail-cid')).toHaveText(thirty.contractId);
  await page.locator('[data-testid=choice-button][data-choice=Iou_Transfer]').click();
  await field(page, 'exercise-form', 'newOwner').fill(recipient);
  await field(page, 'exercise-form', 'newOwner').press('Enter');
  await page.getByTestId('action-submit').click();
  await expect(page.getByTestId('contracts-notice')).toContainText('Exercised Iou_Transfer');
  await expect(page.getByTestId('detail-status')).toHaveText('Archived');
  await expect(page.getByTestId('timeline-entry').nth(1)).toHaveAttribute('data-choice', 'Iou_Transfer');
  const api3 = await apiIous(recipient);
  expect(api3).toHaveLength(1);
  expect(must(api3[0], 'api3[0]').owner).toBe(recipient);
  expect(must(api3[0], 'api3[0]').amount).toBe('30.0000000000');

  // A bad argument: splitting more than the amount is refused by the template, shown with its Canton code.
  await page.getByTestId('cid-lookup').fill(rest.contractId);
  await page.getByTestId('cid-open').click();
  await expect(page.getByTestId('detail-cid')).toHaveText(rest.contractId);
  await page.locator('[data-testid=choice-button][data-choice=Iou_Split]').click();
  await field(page, 'exercise-form', 'splitAmount').fill('1000');
  await page.getByTestId('action-submit').click();
  const err = page.getByTestId('exercise-form').getByTestId('canton-error');
  await expect(err).toBeVisible();
  await expect(err).toContainText('DAML_INTERPRETATION_ERROR');
  await expect(err).toContainText('splitAmount must be > 0');
  await screenshots(page, 'contracts-error', 1300);
  expect((await apiIous(issuer)).map((c) => c.contractId).sort()).toEqual([rest.contractId, must(api3[0], 'api3[0]').contractId].sort());
  await page.getByRole('button', { name: 'Cancel' }).click();

  // Reassign the rest to the other synchronizer: counter 0 → 1.
  await expect(page.getByTestId('detail-counter')).toHaveText('counter 0');
  await page.getByTestId('reassign-button').click();
  await page.getByTestId('reassign-submitter').selectOption(issuer);
  await page.getByTestId('reassign-submit').click();
  await expect(page.getByTestId('contracts-notice')).toContainText('reassignment counter 1');
  await expect(page.getByTestId('detail-counter')).toHaveText('counter 1');
  await expect(page.locator('[data-testid=timeline-entry][data-kind=unassigned]')).toBeVisible();
  await expect(page.locator('[data-testid=timeline-entry][data-kind=assigned]')).toBeVisible();
  const moved = must(
    (await apiIous(issuer)).find((c) => c.contractId === rest.contractId),
    "the moved Iou among the issuer's",
  );
  expect(moved.reassignmentCounter).toBe(1);
  expect(moved.synchronizerId).not.toBe(must(api2[0], 'api2[0]').synchronizerId);
});

test('keyboard: the create form is reachable and cancellable without a mouse', async ({ page }) => {
  await openContracts(page);
  await page.getByTestId('create-template').selectOption({ label: 'Demo.Iou:IouProposal' });
  await page.getByTestId('contract-new').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('create-form')).toBeVisible();
  await expect(field(page, 'create-form', 'issuer')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('create-form')).toHaveCount(0);
  await expect(page.getByTestId('detail-empty')).toBeVisible();
});
