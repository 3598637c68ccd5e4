/**
 * Commands view on a real uploaded DAR (browser host + embedded simulator, whose Daml-LF engine runs the DAR's
 * compiled code): the real `splice-test-token-v1` is uploaded, its TokenRules created from the generated form, and
 * `TransferFactory_Transfer` — a choice the template inherits from the token standard's TransferFactory interface —
 * exercised with its argument edited as JSON validated against the LF types; the result is the transaction's event
 * tree (the interface exercise with the fetch-and-archive of the input holding and the created change and transfer
 * offer), checked against the simulator's HTTP API. A Daml error of the real code comes back as a Canton error.
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
const field = (page: Page, form: string, name: string) => page.locator(`[data-testid=${form}] input[data-field="${name}"]`);
const TOKEN = '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1';

async function addParty(page: Page, picker: string, party: string) {
  await page.getByTestId(`${picker}-input`).fill(party);
  await page.getByTestId(`${picker}-input`).press('Enter');
}

test('exercise an interface choice of a real uploaded DAR from the generated forms; result as an event tree', async ({ page }) => {
  const stamp = Date.now();
  const [admin, alice, bob] = await Promise.all([allocate(`TokAdmin${stamp}`), allocate(`TokAlice${stamp}`), allocate(`TokBob${stamp}`)]);

  await page.goto(consoleProc.url);
  await page.getByRole('link', { name: /^Commands/ }).click();
  await expect(page.getByTestId('commands')).toBeVisible();

  // TokenRules from the generated create form
  await page.getByTestId('cmd-kind').selectOption('create');
  await page
    .getByTestId('cmd-template')
    .selectOption({ label: 'Splice.Testing.Tokens.TestTokenV1:TokenRules (splice-test-token-v1 1.0.0)' });
  await field(page, 'create-arg-form', 'admin').fill(admin);
  await field(page, 'create-arg-form', 'admin').press('Enter');
  await addParty(page, 'cmd-act-as', admin);
  await page.getByTestId('cmd-submit').click();
  await expect(page.getByTestId('cmd-result')).toContainText('Committed');
  await expect(page.getByTestId('result-created')).toHaveCount(1);
  const rules = (
    await simulator<Array<{ contractEntry: { JsActiveContract?: { createdEvent: { contractId: string; templateId: string } } } }>>(
      '/v2/state/active-contracts',
      {
        activeAtOffset: (await simulator<{ offset: number }>('/v2/state/ledger-end')).offset,
        eventFormat: { filtersByParty: { [admin]: {} } },
      },
    )
  )
    .flatMap((e) => (e.contractEntry.JsActiveContract ? [e.contractEntry.JsActiveContract.createdEvent] : []))
    .find((c) => c.templateId.endsWith(':Splice.Testing.Tokens.TestTokenV1:TokenRules'));
  expect(rules).toBeDefined();

  // Alice's holding (set up through the API)
  const holding = { owner: alice, instrumentId: { admin, id: 'TestToken' }, amount: '100.0', lock: null, meta: { values: {} } };
  const h = await simulator<{ transaction: { events: Array<{ CreatedEvent?: { contractId: string } }> } }>(
    '/v2/commands/submit-and-wait-for-transaction',
    {
      commands: {
        commandId: `hold-${stamp}`,
        actAs: [admin, alice],
        commands: [{ CreateCommand: { templateId: `${TOKEN}:Token`, createArguments: { holding } } }],
      },
    },
  );
  const holdingCid = h.transaction.events.find((e) => e.CreatedEvent)?.CreatedEvent?.contractId as string;

  // TransferFactory_Transfer: inherited from the interface, exercised on the rules as Alice (reading as the admin)
  await page.getByTestId('cmd-kind').selectOption('exercise');
  await page
    .getByTestId('cmd-template')
    .selectOption({ label: 'Splice.Testing.Tokens.TestTokenV1:TokenRules (splice-test-token-v1 1.0.0)' });
  await page.getByTestId('cmd-choice').selectOption('TransferFactory_Transfer');
  await page.getByTestId('cmd-cid').fill(rules?.contractId ?? '');
  const argForm = page.getByTestId('choice-arg-form');
  await argForm.getByTestId('mode-json').click();
  const now = Date.now();
  const transfer = {
    sender: alice,
    receiver: bob,
    amount: '10.0',
    instrumentId: { admin, id: 'TestToken' },
    requestedAt: new Date(now - 60_000).toISOString(),
    executeBefore: new Date(now + 3_600_000).toISOString(),
    inputHoldingCids: [holdingCid],
    meta: { values: {} },
  };
  const extraArgs = { context: { values: {} }, meta: { values: {} } };
  // the JSON editor checks the argument against the interface choice's LF types before anything is sent
  await argForm
    .getByTestId('json-editor')
    .fill(JSON.stringify({ expectedAdmin: admin, transfer: { ...transfer, amount: 'ten' }, extraArgs }));
  await expect(argForm.getByTestId('json-issues')).toContainText('amount');
  await argForm.getByTestId('json-editor').fill(JSON.stringify({ expectedAdmin: admin, transfer, extraArgs }));
  await expect(argForm.getByTestId('json-issues')).toHaveCount(0);
  await page
    .getByTestId('cmd-act-as')
    .getByRole('button', { name: `Remove ${admin}` })
    .click();
  await addParty(page, 'cmd-act-as', alice);
  await addParty(page, 'cmd-read-as', admin);
  await page.getByTestId('cmd-new-id').click();
  await page.getByTestId('variant-transaction').check();
  await page.getByTestId('cmd-submit').click();
  await expect(page.getByTestId('cmd-result')).toContainText('Committed');

  // the event tree: the interface exercise at the root, the real code's sub-actions below it
  const tree = page.getByTestId('event-tree');
  await expect(tree).toBeVisible();
  const root = tree.locator('[data-testid=event][data-depth="0"]');
  await expect(root).toHaveCount(1);
  await expect(root).toContainText('TransferFactory_Transfer');
  await expect(tree.locator('[data-testid=event][data-kind="created"]')).not.toHaveCount(0);
  await expect(tree).toContainText('TokenTransferOffer');
  await themedScreenshots(page, 'commands-real-dar', 1400);

  // the same contract again: the input holding is gone — a Canton error, said plainly
  await page.getByTestId('cmd-new-id').click();
  await page.getByTestId('cmd-submit').click();
  await expect(page.getByTestId('cmd-error').getByTestId('canton-error')).toContainText(/CONTRACT_NOT_FOUND|DAML_FAILURE/);
});
