/**
 * Commands view end to end (browser host + embedded simulator): compose a create from the template
 * definition, submit it and see its completion live, resubmit the same command id and see
 * DUPLICATE_COMMAND plainly, submit asynchronously, edit the argument as JSON validated against the
 * template, and see a Canton error for a missing contract; checked against the simulator's HTTP API.
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
async function apiCompletions(party: string): Promise<Array<{ commandId: string; offset: number }>> {
  const res = await simulator<Array<{ completionResponse: { Completion?: { value: { commandId: string; offset: number } } } }>>(
    '/v2/commands/completions',
    {
      parties: [party],
      beginExclusive: 0,
    },
  );
  return res.flatMap((r) => (r.completionResponse.Completion ? [r.completionResponse.Completion.value] : []));
}

const field = (page: Page, form: string, name: string) => page.locator(`[data-testid=${form}] input[data-field="${name}"]`);

test('compose, submit, see completions live, duplicate command id refused, JSON editor, Canton error', async ({ page }) => {
  const stamp = Date.now();
  const issuer = await allocate(`CmdIssuer${stamp}`);
  const owner = await allocate(`CmdOwner${stamp}`);

  await page.goto(consoleProc.url);
  await page.getByRole('link', { name: /Commands/ }).click();
  await expect(page.getByTestId('commands')).toBeVisible();
  await expect(page.getByTestId('completions-no-party')).toBeVisible();

  await page.getByTestId('cmd-kind').selectOption('create');
  await page.getByTestId('cmd-template').selectOption({ label: 'Demo.Iou:Iou (simulator-demo 1.0.0)' });
  await field(page, 'create-arg-form', 'issuer').fill(issuer);
  await field(page, 'create-arg-form', 'issuer').press('Enter');
  await field(page, 'create-arg-form', 'owner').fill(owner);
  await field(page, 'create-arg-form', 'owner').press('Enter');
  await field(page, 'create-arg-form', 'currency').fill('CHF');
  await field(page, 'create-arg-form', 'amount').fill('42');
  await page.getByTestId('cmd-act-as-input').fill(issuer);
  await page.getByTestId('cmd-act-as-input').press('Enter');
  await expect(page.getByTestId('completions-state')).toHaveText('Live');
  await expect(page.getByTestId('completions-empty')).toBeVisible();
  const commandId = `e2e-${stamp}`;
  await page.getByTestId('cmd-id').fill(commandId);
  await page.getByTestId('cmd-submit').click();
  await expect(page.getByTestId('cmd-result')).toContainText('Committed');
  await expect(page.getByTestId('result-command-id')).toHaveText(commandId);
  await expect(page.getByTestId('result-created')).toHaveCount(1);
  // The completion arrives over the live stream; the simulator agrees.
  const completion = page.locator(`[data-testid=completion][data-command-id="${commandId}"]`);
  await expect(completion).toHaveAttribute('data-status', 'OK');
  const api = await apiCompletions(issuer);
  expect(api.map((c) => c.commandId)).toContain(commandId);
  const offset = must(
    api.find((c) => c.commandId === commandId),
    'api.find((c) => c.commandId === commandId)',
  ).offset;
  await expect(page.getByTestId('result-offset')).toHaveText(String(offset));
  await screenshots(page, 'commands', 1400);

  // Same command id again: DUPLICATE_COMMAND, said plainly; nothing new on the ledger.
  await page.getByTestId('cmd-submit').click();
  await expect(page.getByTestId('cmd-error').getByTestId('canton-error')).toContainText('DUPLICATE_COMMAND');
  await expect(page.getByTestId('cmd-error')).toContainText('Duplicate command: refused');
  await expect(page.getByTestId('cmd-explain')).toContainText('already used');
  expect((await apiCompletions(issuer)).filter((c) => c.commandId === commandId && c.offset !== offset)).toHaveLength(0);
  await screenshots(page, 'commands-duplicate', 1400);

  // A new id, async submit: the outcome arrives as a completion.
  await page.getByTestId('cmd-new-id').click();
  const asyncId = (await page.getByTestId('cmd-id').inputValue()).trim();
  expect(asyncId).not.toBe(commandId);
  await page.getByTestId('variant-async').check();
  await page.getByTestId('cmd-submit').click();
  await expect(page.getByTestId('cmd-result')).toContainText('Accepted for processing');
  await expect(page.locator(`[data-testid=completion][data-command-id="${asyncId}"]`)).toHaveAttribute('data-status', 'OK');

  // JSON editor validated against the template: scale and unknown fields refused before sending.
  await page.getByTestId('create-arg-form').getByTestId('mode-json').click();
  const editor = page.getByTestId('create-arg-form').getByTestId('json-editor');
  await editor.fill(JSON.stringify({ issuer, owner, currency: 'CHF', amount: '1.123456789012', observers: [], colour: 'red' }));
  await expect(page.getByTestId('create-arg-form').getByTestId('json-issues')).toContainText('at most 10 decimal places');
  await expect(page.getByTestId('create-arg-form').getByTestId('json-issues')).toContainText('unknown field “colour”');
  await editor.fill('{ not json');
  await expect(page.getByTestId('create-arg-form').getByTestId('json-error')).toContainText('Not valid JSON');
  await editor.fill(JSON.stringify({ issuer, owner, currency: 'CHF', amount: '7.25', observers: [] }));
  await expect(page.getByTestId('create-arg-form').getByTestId('json-issues')).toHaveCount(0);
  await page.getByTestId('create-arg-form').getByTestId('mode-form').click();
  await expect(field(page, 'create-arg-form', 'amount')).toHaveValue('7.25');

  // A Canton error: exercising a contract that does not exist.
  await page.getByTestId('cmd-kind').selectOption('exercise');
  await page.getByTestId('cmd-choice').selectOption('Iou_Transfer');
  await page.getByTestId('cmd-cid').fill('00' + 'ab'.repeat(32) + 'ca111220' + 'cd'.repeat(32));
  await field(page, 'choice-arg-form', 'newOwner').fill(owner);
  await field(page, 'choice-arg-form', 'newOwner').press('Enter');
  await page.getByTestId('cmd-new-id').click();
  await page.getByTestId('variant-transaction').check();
  await page.getByTestId('cmd-submit').click();
  await expect(page.getByTestId('cmd-error').getByTestId('canton-error')).toContainText('CONTRACT_NOT_FOUND');
});
