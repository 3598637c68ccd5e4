/**
 * Contracts and commands services against the real simulator: packages decoded from LF, ACS pages, timelines, submit
 * variants, dedup, completions, reassignment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { LedgerClient } from '../../src/services/ledger-client.js';
import { ConsoleError } from '../../src/ipc/errors.js';
import { SubmitRequestSchema, type CompletionRow, type SubmitRequest } from '../../src/ipc/contract.js';
import { loadCatalog } from '../../src/services/ledger/templates.js';
import { fetchActiveContracts, fetchContractDetail } from '../../src/services/ledger/contracts.js';
import { listSynchronizers, reassignContract } from '../../src/services/ledger/reassign.js';
import { submitCommands } from '../../src/services/ledger/commands.js';
import { openCompletionStream } from '../../src/services/ledger/completions-stream.js';
import { must } from '../support/must.js';

let sim: RunningSimulator;
let dir: string;
let client: LedgerClient;
let issuer: string;
let owner: string;
const IOU = '#simulator-demo:Demo.Iou:Iou';
let n = 0;

async function allocate(hint: string): Promise<string> {
  const res = await fetch(sim.url + '/v2/parties', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ partyIdHint: hint }),
  });
  return ((await res.json()) as { partyDetails: { party: string } }).partyDetails.party;
}
const submit = (r: SubmitRequest) => submitCommands(client, SubmitRequestSchema.parse(r));
const createIou = (amount: string, variant: SubmitRequest['variant'] = 'transaction', commandId = `it-${++n}-${Date.now()}`) =>
  submit({
    commands: [{ kind: 'create', templateId: IOU, createArguments: { issuer, owner, currency: 'USD', amount, observers: [] } }],
    actAs: [issuer],
    commandId,
    variant,
  });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'contracts-it-'));
  sim = await startSimulator({ dataDir: dir, port: 0 });
  client = new LedgerClient({ baseUrl: sim.url });
  issuer = await allocate('ItIssuer');
  owner = await allocate('ItOwner');
});
afterAll(async () => {
  // unassigned when beforeAll failed before starting it
  await (sim as RunningSimulator | undefined)?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('template catalog', () => {
  it('decodes the participant packages (Daml-LF archives) into template and choice definitions', async () => {
    const { catalog } = await loadCatalog(client);
    expect(catalog.problems).toEqual([]);
    const iou = must(
      catalog.templates.find((t) => t.qualifiedName === 'Demo.Iou:Iou'),
      'the Iou template',
    );
    expect(iou.nameRef).toBe(IOU);
    expect(iou.argument.kind === 'record' && iou.argument.fields.map((f) => [f.name, f.type.kind])).toEqual([
      ['issuer', 'party'],
      ['owner', 'party'],
      ['currency', 'text'],
      ['amount', 'numeric'],
      ['observers', 'list'],
    ]);
    expect(iou.choices.map((c) => c.name)).toEqual(expect.arrayContaining(['Iou_Transfer', 'Iou_Split', 'Archive']));
    const account = must(
      catalog.templates.find((t) => t.qualifiedName === 'Demo.Account:Account'),
      'the Account template',
    );
    expect(account.key?.kind).toBe('record');
    expect(catalog.interfaces.map((i) => i.qualifiedName)).toContain('Demo.Asset:Asset');
  });
});

describe('commands and contracts', () => {
  it('creates with each submit variant, pages the ACS, and refuses a duplicate command id', async () => {
    const tx = await createIou('1');
    expect(tx.createdContractIds).toHaveLength(1);
    expect(tx.events[0]).toMatchObject({ kind: 'created' });
    const tree = await createIou('2', 'transaction-tree');
    expect(tree.createdContractIds).toHaveLength(1);
    const plain = await createIou('3', 'submit-and-wait', 'dup-id-1');
    expect(plain.updateId).toBeTruthy();
    expect(plain.offset).toBeGreaterThan(0);
    await createIou('4', 'async');
    const dup = await createIou('5', 'submit-and-wait', 'dup-id-1').catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(ConsoleError);
    expect((dup as ConsoleError).canton?.code).toBe('DUPLICATE_COMMAND');

    const page1 = await fetchActiveContracts(client, {
      parties: [owner],
      templates: [IOU],
      interfaces: [],
      activeAtOffset: null,
      pageSize: 2,
      pageToken: null,
    });
    expect(page1.items).toHaveLength(2);
    expect(page1.nextPageToken).toBeTruthy();
    const page2 = await fetchActiveContracts(client, {
      parties: [owner],
      templates: [IOU],
      interfaces: [],
      activeAtOffset: null,
      pageSize: 2,
      pageToken: page1.nextPageToken,
    });
    expect([...page1.items, ...page2.items].map((c) => c.argument && (c.argument as { amount: string }).amount).sort()).toEqual([
      '1.0000000000',
      '2.0000000000',
      '3.0000000000',
      '4.0000000000',
    ]);
    // At an earlier offset only the first contract was active.
    const early = await fetchActiveContracts(client, {
      parties: [owner],
      templates: [IOU],
      interfaces: [],
      activeAtOffset: must(tx.offset, 'the transaction offset'),
      pageSize: 50,
      pageToken: null,
    });
    expect(early.items.map((c) => c.contractId)).toEqual(tx.createdContractIds);
  });

  it('shows a contract life cycle: created → exercised → archived, with the new contracts', async () => {
    const created = await createIou('100');
    const cid = must(created.createdContractIds[0], 'the created contract');
    const split = await submit({
      commands: [{ kind: 'exercise', templateId: IOU, contractId: cid, choice: 'Iou_Split', choiceArgument: { splitAmount: '40' } }],
      actAs: [owner],
      commandId: `split-${Date.now()}`,
    });
    expect(split.createdContractIds).toHaveLength(2);
    expect(split.archivedContractIds).toContain(cid);
    const d = await fetchContractDetail(client, cid, []);
    expect(d.active).toBe(false);
    expect(d.timeline.map((e) => e.kind)).toEqual(['created', 'exercised', 'archived']);
    expect(d.timeline[1]).toMatchObject({ choice: 'Iou_Split', consuming: true, offset: split.offset, actingParties: [owner] });
    expect(
      must(d.timeline[1], 'the second timeline entry')
        .createdContracts.map((c) => c.contractId)
        .sort(),
    ).toEqual([...split.createdContractIds].sort());
    const fresh = await fetchContractDetail(client, must(split.createdContractIds[0], 'a split contract'), [owner]);
    expect(fresh.active).toBe(true);
    expect(fresh.timeline.map((e) => e.kind)).toEqual(['created']);
    const missing = await fetchContractDetail(client, '00' + 'ef'.repeat(33), []).catch((e: unknown) => e);
    expect((missing as ConsoleError).canton?.code).toMatch(/NOT_FOUND/);
  });

  it('reassigns a contract (unassign → assign) and reports the counter', async () => {
    const cid = must((await createIou('9')).createdContractIds[0], 'the created IOU');
    const syncs = await listSynchronizers(client);
    expect(syncs.length).toBeGreaterThanOrEqual(2);
    const before = await fetchContractDetail(client, cid, []);
    const target = must(
      syncs.find((s) => s.synchronizerId !== before.contract.synchronizerId),
      'another synchronizer',
    ).synchronizerId;
    const r = await reassignContract(client, {
      contractId: cid,
      submitter: issuer,
      source: must(before.contract.synchronizerId, 'the contract synchronizer'),
      target,
      reassignmentId: '',
      step: 'both',
    });
    expect(r.counter).toBe(1);
    const after = await fetchContractDetail(client, cid, []);
    expect(after.contract).toMatchObject({ synchronizerId: target, reassignmentCounter: 1, state: 'active' });
    expect(after.timeline.map((e) => e.kind)).toEqual(['created', 'unassigned', 'assigned']);
  });

  it('streams completions live, including refused duplicates', async () => {
    const rows: CompletionRow[] = [];
    const end = (await client.ledgerEnd()).offset ?? 0;
    let opened!: () => void;
    const open = new Promise<void>((r) => (opened = r));
    const h = openCompletionStream({
      baseUrl: sim.url,
      token: null,
      request: { parties: [issuer], beginExclusive: end },
      onOpen: () => opened(),
      onCompletion: (c) => rows.push(c),
      onError: (e) => {
        throw e;
      },
      onEnd: () => {},
    });
    await open;
    const id = `live-${Date.now()}`;
    await createIou('5', 'async', id);
    for (let i = 0; i < 50 && !rows.some((r) => r.commandId === id); i++) await new Promise((r) => setTimeout(r, 50));
    h.close();
    expect(rows.find((r) => r.commandId === id)).toMatchObject({ statusCode: 0, cantonCode: null, actAs: [issuer] });
  });
});
