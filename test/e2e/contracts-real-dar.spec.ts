/**
 * Contracts view on a real uploaded DAR (browser host + embedded simulator, whose Daml-LF engine runs the DAR's
 * compiled code): the real `splice-test-token-v1` is uploaded, its TokenRules created from the form generated from the
 * LF types, `TransferFactory_Transfer` — inherited from the token standard's TransferFactory interface — exercised on
 * the rules from the contract's choice list, and the resulting transfer offer accepted by the receiver through
 * `TransferInstruction_Accept`. Each committed transaction is shown as its event tree; the outcome is checked against
 * the simulator's HTTP API.
 */
import { test, expect, type Page } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { callSimulator, themedScreenshots, uploadReferenceDar } from '../support/e2e.js';

let consoleProc: ConsoleProcess;

test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
  await uploadReferenceDar(consoleProc, 'splice-test-token-v1-1.0.0.dar');
});
test.afterAll(async () => {
  await consoleProc.stop();
});

const simulator = <T>(p: string, body?: unknown) => callSimulator<T>(consoleProc, p, body);
const allocate = async (hint: string) =>
  (await simulator<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: hint })).partyDetails.party;
const TOKEN = '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1';

/** Replaces the parties of an action form's picker (`act-as` / `read-as`) with `parties`. */
async function setParties(page: Page, form: string, picker: string, parties: string[]) {
  const box = page.getByTestId(form).getByTestId(picker);
  for (const remove of await box.getByRole('button', { name: /^Remove / }).all()) await remove.click();
  for (const p of parties) {
    await box.getByTestId(`${picker}-input`).fill(p);
    await box.getByTestId(`${picker}-input`).press('Enter');
  }
}

/** Bob's TestToken holdings (owner, amount) through the simulator's API. */
async function holdingsOf(party: string): Promise<string[]> {
  const end = await simulator<{ offset: number }>('/v2/state/ledger-end');
  const acs = await simulator<
    Array<{ contractEntry: { JsActiveContract?: { createdEvent: { templateId: string; createArgument: unknown } } } }>
  >('/v2/state/active-contracts', { activeAtOffset: end.offset, eventFormat: { filtersByParty: { [party]: {} } } });
  return acs
    .flatMap((e) => (e.contractEntry.JsActiveContract ? [e.contractEntry.JsActiveContract.createdEvent] : []))
    .filter((c) => c.templateId.endsWith(':Splice.Testing.Tokens.TestTokenV1:Token'))
    .map((c) => {
      const h = (c.createArgument as { holding: { owner: string; amount: string } }).holding;
      return `${h.owner === party ? 'own' : 'other'} ${h.amount}`;
    });
}

test('exercise interface choices of a real uploaded DAR from the Contracts view; each result as an event tree', async ({ page }) => {
  const stamp = Date.now();
  const [admin, alice, bob] = await Promise.all([allocate(`CtAdmin${stamp}`), allocate(`CtAlice${stamp}`), allocate(`CtBob${stamp}`)]);
  const holding = { owner: alice, instrumentId: { admin, id: 'TestToken' }, amount: '100.0', lock: null, meta: { values: {} } };
  const h = await simulator<{ transaction: { events: Array<{ CreatedEvent?: { contractId: string } }> } }>(
    '/v2/commands/submit-and-wait-for-transaction',
    {
      commands: {
        commandId: `ct-hold-${stamp}`,
        actAs: [admin, alice],
        commands: [{ CreateCommand: { templateId: `${TOKEN}:Token`, createArguments: { holding } } }],
      },
    },
  );
  const holdingCid = h.transaction.events.find((e) => e.CreatedEvent)?.CreatedEvent?.contractId as string;

  await page.goto(consoleProc.url);
  await page.getByRole('link', { name: /Contracts/ }).click();
  await expect(page.getByTestId('contracts')).toBeVisible();

  // TokenRules from the form generated from the real template's LF type
  await page.getByTestId('create-template').selectOption({ label: 'Splice.Testing.Tokens.TestTokenV1:TokenRules' });
  await page.getByTestId('contract-new').click();
  await page.locator('[data-testid=create-form] input[data-field="admin"]').fill(admin);
  await page.locator('[data-testid=create-form] input[data-field="admin"]').press('Enter');
  await setParties(page, 'create-form', 'act-as', [admin]);
  await page.getByTestId('action-submit').click();
  await expect(page.getByTestId('contracts-notice')).toContainText('Created Splice.Testing.Tokens.TestTokenV1:TokenRules');
  await expect(page.getByTestId('contracts-result-tx').getByTestId('event-tree')).toContainText('TokenRules');

  // TransferFactory_Transfer from the rules' choice list (an interface choice), as Alice reading as the admin
  await expect(page.getByTestId('detail-status')).toHaveText('Active');
  // the template's own Archive and the two interfaces' Archive choices are told apart by their interface
  const archives = page.locator('[data-testid=choice-button][data-choice=Archive]');
  await expect(archives).toHaveText(['Archive', 'Archive (AllocationFactory)', 'Archive (TransferFactory)']);
  await archives.first().scrollIntoViewIfNeeded();
  await themedScreenshots(page, 'contracts-real-dar-choices', 900);
  await page.locator('[data-testid=choice-button][data-choice=TransferFactory_Transfer]').click();
  const form = page.getByTestId('exercise-form');
  await expect(form).toBeVisible();
  await form.getByTestId('mode-json').click();
  const now = Date.now();
  const transfer = {
    sender: alice,
    receiver: bob,
    amount: '25.5',
    instrumentId: { admin, id: 'TestToken' },
    requestedAt: new Date(now - 60_000).toISOString(),
    executeBefore: new Date(now + 3_600_000).toISOString(),
    inputHoldingCids: [holdingCid],
    meta: { values: {} },
  };
  const extraArgs = { context: { values: {} }, meta: { values: {} } };
  await form.getByTestId('json-editor').fill(JSON.stringify({ expectedAdmin: admin, transfer, extraArgs }));
  await expect(form.getByTestId('json-issues')).toHaveCount(0);
  await setParties(page, 'exercise-form', 'act-as', [alice]);
  await setParties(page, 'exercise-form', 'read-as', [admin]);
  await page.getByTestId('action-submit').click();
  await expect(page.getByTestId('contracts-notice')).toContainText('Exercised TransferFactory_Transfer');
  const tree = page.getByTestId('contracts-result-tx').getByTestId('event-tree');
  const root = tree.locator('[data-testid=event][data-depth="0"]');
  await expect(root).toHaveCount(1);
  await expect(root).toContainText('TransferFactory_Transfer');
  await expect(tree).toContainText('TokenTransferOffer');
  await expect(tree.locator('[data-testid=event][data-kind="created"]')).toHaveCount(2);
  await page.getByTestId('contracts-notice').scrollIntoViewIfNeeded();
  await themedScreenshots(page, 'contracts-real-dar-transfer', 1500);

  // the offer, opened from the notice, accepted by Bob through the TransferInstruction interface
  const created = await page.getByTestId('notice-cid').count();
  expect(created).toBe(2);
  let opened = false;
  for (let i = 0; i < created && !opened; i++) {
    await page.getByTestId('notice-cid').nth(i).click();
    await expect(page.getByTestId('detail-status')).toHaveText('Active');
    opened = (await page.locator('[data-testid=choice-button][data-choice=TransferInstruction_Accept]').count()) === 1;
  }
  expect(opened).toBe(true);
  await page.locator('[data-testid=choice-button][data-choice=TransferInstruction_Accept]').click();
  // the generated form of the interface choice's argument (ExtraArgs: empty context and metadata maps) as it opens
  await expect(form.getByTestId('form-invalid')).toHaveCount(0);
  await setParties(page, 'exercise-form', 'act-as', [bob]);
  await setParties(page, 'exercise-form', 'read-as', [admin]);
  await form.scrollIntoViewIfNeeded();
  await themedScreenshots(page, 'contracts-real-dar-accept-form', 1000);
  await page.getByTestId('action-submit').click();
  await expect(page.getByTestId('contracts-notice')).toContainText('Exercised TransferInstruction_Accept');
  await expect(tree.locator('[data-testid=event][data-depth="0"]')).toContainText('TransferInstruction_Accept');
  await expect(page.getByTestId('detail-status')).toHaveText('Archived');
  await page.getByTestId('contracts-notice').scrollIntoViewIfNeeded();
  await themedScreenshots(page, 'contracts-real-dar-accept', 1500);
  expect(await holdingsOf(bob)).toEqual(['own 25.5000000000']);
});
