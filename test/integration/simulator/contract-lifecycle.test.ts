import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT,
  IOU,
  IOU_PROPOSAL,
  acs,
  acsCreated,
  allocate,
  call,
  cantonError,
  createIou,
  exercise,
  startTestSim,
  submitRaw,
  submitTx,
  wildcard,
} from './helpers.js';
import type { TestSim } from './helpers.js';

describe('contract state machine (simulator-demo package)', () => {
  let sim: TestSim;
  let bank: string, alice: string, bob: string;
  beforeAll(async () => {
    sim = await startTestSim();
    bank = await allocate(sim.url, 'Bank');
    alice = await allocate(sim.url, 'Alice');
    bob = await allocate(sim.url, 'Bob');
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('creates, transfers, splits and merges Ious; archived contracts cannot be exercised', async () => {
    const c = await submitTx(sim.url, [bank], [createIou(bank, alice, '100')]);
    const iou = c.created[0]?.contractId as string;
    expect(c.created[0]?.createArgument.amount).toBe('100.0000000000');

    const t = await submitTx(sim.url, [alice], [exercise(IOU, iou, 'Iou_Transfer', { newOwner: bob })]);
    const ex = t.events[0]?.ExercisedEvent as { consuming: boolean; lastDescendantNodeId: number; exerciseResult: string };
    expect(ex.consuming).toBe(true);
    expect(ex.lastDescendantNodeId).toBe(1);
    const bobIou = t.created[0]?.contractId as string;
    expect(ex.exerciseResult).toBe(bobIou);
    expect(t.created[0]?.createArgument.owner).toBe(bob);

    // The old Iou is archived: exercising it again fails with CONTRACT_NOT_FOUND.
    const again = await submitRaw(sim.url, { actAs: [alice], commands: [exercise(IOU, iou, 'Iou_Transfer', { newOwner: bob })] });
    expect(again.status).toBe(404);
    expect(cantonError(again).code).toBe('CONTRACT_NOT_FOUND');

    const s = await submitTx(sim.url, [bob], [exercise(IOU, bobIou, 'Iou_Split', { splitAmount: '30.5' })]);
    expect(s.created.map((x) => x.createArgument.amount)).toEqual(['30.5000000000', '69.5000000000']);
    const [a, b] = s.created.map((x) => x.contractId) as [string, string];

    const m = await submitTx(sim.url, [bob], [exercise(IOU, a, 'Iou_Merge', { otherCid: b })]);
    // exercise(a) > exercise(b, Archive) , create(merged)
    const kinds = m.events.map((e) => Object.keys(e)[0]);
    expect(kinds).toEqual(['ExercisedEvent', 'ExercisedEvent', 'CreatedEvent']);
    expect(m.created[0]?.createArgument.amount).toBe('100.0000000000');

    const bobAcs = acsCreated(await acs(sim.url, wildcard(bob)));
    expect(bobAcs.map((x) => x.contractId)).toEqual([m.created[0]?.contractId]);
  });

  it('split must be strictly between 0 and the amount; the failed command changes nothing', async () => {
    const c = await submitTx(sim.url, [bank], [createIou(bank, alice, '10')]);
    const iou = c.created[0]?.contractId as string;
    const before = await acs(sim.url, wildcard(alice));
    const r = await submitRaw(sim.url, { actAs: [alice], commands: [exercise(IOU, iou, 'Iou_Split', { splitAmount: '10' })] });
    expect(r.status).toBe(400);
    expect(cantonError(r).code).toBe('DAML_INTERPRETATION_ERROR');
    expect(await acs(sim.url, wildcard(alice))).toEqual(before);
  });

  it('non-consuming choices leave the contract active', async () => {
    const c = await submitTx(sim.url, [bank], [createIou(bank, alice, '5', 'GBP')]);
    const iou = c.created[0]?.contractId as string;
    const d = await submitTx(sim.url, [alice], [exercise(IOU, iou, 'Iou_Describe')]);
    const ex = d.events[0]?.ExercisedEvent as { consuming: boolean; exerciseResult: string; acsDelta: boolean };
    expect(ex.consuming).toBe(false);
    expect(ex.acsDelta).toBe(false);
    expect(ex.exerciseResult).toContain('5.0000000000 GBP');
    expect(acsCreated(await acs(sim.url, wildcard(alice))).some((x) => x.contractId === iou)).toBe(true);
  });

  it('runs the IouProposal accept workflow', async () => {
    const p = await submitTx(
      sim.url,
      [bank],
      [{ CreateCommand: { templateId: IOU_PROPOSAL, createArguments: { issuer: bank, owner: bob, currency: 'JPY', amount: '7' } } }],
    );
    const proposal = p.created[0]?.contractId as string;
    // Only the owner may accept.
    const wrong = await submitRaw(sim.url, { actAs: [bank], commands: [exercise(IOU_PROPOSAL, proposal, 'IouProposal_Accept')] });
    expect(wrong.status).toBe(400);
    expect(cantonError(wrong).code).toBe('DAML_AUTHORIZATION_ERROR');
    const acc = await submitTx(sim.url, [bob], [exercise(IOU_PROPOSAL, proposal, 'IouProposal_Accept')]);
    expect(acc.created[0]?.templateId).toMatch(/:Demo\.Iou:Iou$/);
    expect(acc.created[0]?.createArgument.currency).toBe('JPY');
  });

  it('CreateAndExercise in one transaction produces transient contracts hidden from the ACS delta', async () => {
    const r = await call(sim.url, 'POST', '/v2/commands/submit-and-wait-for-transaction', {
      body: {
        commands: {
          commandId: `cae-${Date.now()}`,
          actAs: [bank],
          commands: [
            {
              CreateAndExerciseCommand: {
                templateId: IOU,
                createArguments: { issuer: bank, owner: bank, currency: 'USD', amount: '3', observers: [] },
                choice: 'Iou_Transfer',
                choiceArgument: { newOwner: alice },
              },
            },
          ],
        },
        transactionFormat: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: wildcard(bank) },
      },
    });
    expect(r.status).toBe(200);
    const events = (r.json as { transaction: { events: Record<string, { nodeId: number }>[] } }).transaction.events;
    // ACS delta: only the surviving child create (node 2); transient create (0) and its archive (1) are omitted.
    expect(events.map((e) => [Object.keys(e)[0], Object.values(e)[0]?.nodeId])).toEqual([['CreatedEvent', 2]]);
  });

  it('enforces contract keys: unique, exercise by key, not found after archive', async () => {
    const key = { bank, accountId: 'K-1' };
    const a = await submitTx(
      sim.url,
      [bank],
      [{ CreateCommand: { templateId: ACCOUNT, createArguments: { ...key, holder: alice, label: 'x' } } }],
    );
    expect((a.created[0] as unknown as { contractKey: unknown }).contractKey).toEqual(key);
    const dup = await submitRaw(sim.url, {
      actAs: [bank],
      commands: [{ CreateCommand: { templateId: ACCOUNT, createArguments: { ...key, holder: bob, label: 'y' } } }],
    });
    expect(dup.status).toBe(409);
    expect(cantonError(dup).code).toBe('DUPLICATE_CONTRACT_KEY');
    const relabel = await submitTx(
      sim.url,
      [bank],
      [
        {
          ExerciseByKeyCommand: {
            templateId: ACCOUNT,
            contractKey: key,
            choice: 'Account_Relabel',
            choiceArgument: { newLabel: 'renamed' },
          },
        },
      ],
    );
    expect(relabel.created[0]?.createArgument.label).toBe('renamed');
    await submitTx(
      sim.url,
      [bank],
      [{ ExerciseByKeyCommand: { templateId: ACCOUNT, contractKey: key, choice: 'Account_Close', choiceArgument: {} } }],
    );
    const gone = await submitRaw(sim.url, {
      actAs: [bank],
      commands: [{ ExerciseByKeyCommand: { templateId: ACCOUNT, contractKey: key, choice: 'Account_Close', choiceArgument: {} } }],
    });
    expect(gone.status).toBe(404);
    expect(cantonError(gone).code).toBe('CONTRACT_KEY_NOT_FOUND');
  });

  it('validates arguments against field types with COMMAND_PREPROCESSING_FAILED', async () => {
    const cases: unknown[] = [
      { issuer: bank, owner: alice, currency: 'USD', amount: 'lots', observers: [] },
      { issuer: bank, owner: alice, currency: 'USD', amount: '1', observers: 'nobody' },
      { issuer: 'not-a-party', owner: alice, currency: 'USD', amount: '1', observers: [] },
      { issuer: bank, owner: alice, currency: 'USD', amount: '1', observers: [], extra: 1 },
      { issuer: bank, owner: alice, currency: 'USD' },
      'not a record',
    ];
    for (const createArguments of cases) {
      const r = await submitRaw(sim.url, { actAs: [bank], commands: [{ CreateCommand: { templateId: IOU, createArguments } }] });
      expect(r.status, JSON.stringify(createArguments)).toBe(400);
      expect(cantonError(r).code).toBe('COMMAND_PREPROCESSING_FAILED');
    }
  });

  it('requires signatories in actAs and known parties', async () => {
    const r = await submitRaw(sim.url, { actAs: [alice], commands: [createIou(bank, alice, '1')] });
    expect(r.status).toBe(400);
    expect(cantonError(r).code).toBe('DAML_AUTHORIZATION_ERROR');
    const unknown = await submitRaw(sim.url, { actAs: ['Mallory::1220ab'], commands: [createIou(bank, alice, '1')] });
    expect(unknown.status).toBe(404);
    expect(cantonError(unknown).code).toBe('PARTY_NOT_KNOWN_ON_LEDGER');
    const tpl = await submitRaw(sim.url, {
      actAs: [bank],
      commands: [{ CreateCommand: { templateId: '#simulator-demo:Demo.Iou:Nope', createArguments: {} } }],
    });
    expect(tpl.status).toBe(404);
    expect(cantonError(tpl).code).toBe('TEMPLATES_OR_INTERFACES_NOT_FOUND');
  });

  it('hides contracts from parties that are not stakeholders (readAs grants visibility)', async () => {
    const c = await submitTx(sim.url, [bank], [createIou(bank, alice, '9')]);
    const iou = c.created[0]?.contractId as string;
    const r = await submitRaw(sim.url, { actAs: [bob], commands: [exercise(IOU, iou, 'Iou_Transfer', { newOwner: bob })] });
    expect(r.status).toBe(404);
    expect(cantonError(r).code).toBe('CONTRACT_NOT_FOUND');
    // Bob reading as Alice can see it but is still not authorized as the controller.
    const r2 = await submitRaw(sim.url, {
      actAs: [bob],
      readAs: [alice],
      commands: [exercise(IOU, iou, 'Iou_Transfer', { newOwner: bob })],
    });
    expect(r2.status).toBe(400);
    expect(cantonError(r2).code).toBe('DAML_AUTHORIZATION_ERROR');
  });
});
