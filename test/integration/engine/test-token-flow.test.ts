/**
 * Real Daml code end to end through the Ledger API: the reference DAR `splice-test-token-v1` (a real token-standard
 * implementation, ../shared/reference/dars) is uploaded to a simulator and its complete flow runs on the Daml-LF
 * engine: rules and holdings are created, `TransferFactory_Transfer` is exercised through the TransferFactory
 * interface with Splice's real argument shapes (the rules disclosed to the sender, as a registry does), the receiver
 * accepts the resulting instruction through the TransferInstruction interface, and the holdings and their Holding
 * interface views are read back. Every answer is checked against the reference OpenAPI.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePreparedTransaction, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import {
  allocate,
  call,
  cantonError,
  newExternalKey,
  nextCommandId,
  onboardExternal,
  referenceDir,
  signBase64,
  startTestSim,
  type ExternalKey,
  type TestSim,
} from '../simulator/helpers.js';
import { postBytes } from '../simulator/dars-helpers.js';
import { HOLDING_INTERFACE, interfaceViewsAt } from '../../support/acs-by-interface.js';

const TOKEN = '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1';
const TRANSFER_FACTORY = '#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferFactory';
const TRANSFER_INSTRUCTION = '#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferInstruction';
const noExtraArgs = { context: { values: {} }, meta: { values: {} } };

type Ev = Record<string, Record<string, unknown>>;

describe('splice-test-token-v1 on the Daml-LF engine', () => {
  let sim: TestSim;
  let admin: string, alice: string, bob: string;
  let rulesCid: string, rulesBlob: string, rulesTemplateId: string;

  const submit = async (actAs: string[], commands: unknown[], extra: Record<string, unknown> = {}) => {
    const r = await call(sim.url, 'POST', '/v2/commands/submit-and-wait-for-transaction', {
      body: {
        commands: { commandId: nextCommandId('tok'), actAs, commands, ...extra },
        transactionFormat: {
          transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
          eventFormat: { filtersByParty: Object.fromEntries(actAs.map((p) => [p, {}])) },
        },
      },
    });
    return r;
  };
  const events = (r: { json: unknown }): Ev[] => (r.json as { transaction: { events: Ev[] } }).transaction.events;
  const created = (r: { json: unknown }) => events(r).flatMap((e) => (e.CreatedEvent ? [e.CreatedEvent] : []));
  const holdingOf = (owner: string, amount: string) => ({
    owner,
    instrumentId: { admin, id: 'TestToken' },
    amount,
    lock: null,
    meta: { values: {} },
  });

  beforeAll(async () => {
    sim = await startTestSim();
    const up = await postBytes(
      sim.url,
      '/v2/packages',
      new Uint8Array(readFileSync(path.join(referenceDir, 'dars/splice-test-token-v1-1.0.0.dar'))),
    );
    expect(up.status, up.text).toBe(200);
    [admin, alice, bob] = await Promise.all([allocate(sim.url, 'admin'), allocate(sim.url, 'alice'), allocate(sim.url, 'bob')]);
    const r = await submit([admin], [{ CreateCommand: { templateId: `${TOKEN}:TokenRules`, createArguments: { admin } } }]);
    expect(r.status, r.text).toBe(200);
    rulesCid = created(r)[0]?.contractId as string;
    const ev = await call(sim.url, 'POST', '/v2/events/events-by-contract-id', {
      body: {
        contractId: rulesCid,
        eventFormat: {
          filtersByParty: {
            [admin]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] },
          },
        },
      },
    });
    const ce = (ev.json as { created: { createdEvent: { createdEventBlob: string; templateId: string } } }).created.createdEvent;
    rulesBlob = ce.createdEventBlob;
    rulesTemplateId = ce.templateId;
  });
  afterAll(async () => sim.dispose());

  it('creates holdings with the signatories the real template computes', async () => {
    const r = await submit(
      [admin, alice],
      [{ CreateCommand: { templateId: `${TOKEN}:Token`, createArguments: { holding: holdingOf(alice, '100.0') } } }],
    );
    expect(r.status, r.text).toBe(200);
    const c = created(r)[0] as Record<string, unknown>;
    expect(c.templateId).toMatch(/^[0-9a-f]{64}:Splice\.Testing\.Tokens\.TestTokenV1:Token$/);
    expect(c.createArgument).toEqual({ holding: { ...holdingOf(alice, '100.0000000000') } });
    expect([...(c.signatories as string[])].sort()).toEqual([admin, alice].sort());
  });

  it('TransferFactory_Transfer through the interface, then TransferInstruction_Accept by the receiver', async () => {
    const h = await submit(
      [admin, alice],
      [{ CreateCommand: { templateId: `${TOKEN}:Token`, createArguments: { holding: holdingOf(alice, '100.0') } } }],
    );
    const holdingCid = created(h)[0]?.contractId as string;
    const now = Date.now();
    const transfer = {
      sender: alice,
      receiver: bob,
      amount: '10.0',
      instrumentId: { admin, id: 'TestToken' },
      requestedAt: new Date(now - 1000).toISOString(),
      executeBefore: new Date(now + 3_600_000).toISOString(),
      inputHoldingCids: [holdingCid],
      meta: { values: {} },
    };
    const disclosed = [{ contractId: rulesCid, createdEventBlob: rulesBlob, templateId: rulesTemplateId, synchronizerId: '' }];
    const t = await submit(
      [alice],
      [
        {
          ExerciseCommand: {
            templateId: TRANSFER_FACTORY,
            contractId: rulesCid,
            choice: 'TransferFactory_Transfer',
            choiceArgument: { expectedAdmin: admin, transfer, extraArgs: noExtraArgs },
          },
        },
      ],
      { disclosedContracts: disclosed },
    );
    expect(t.status, t.text).toBe(200);
    const root = events(t)[0]?.ExercisedEvent as Record<string, unknown>;
    expect(root.choice).toBe('TransferFactory_Transfer');
    expect(root.interfaceId).toMatch(/:Splice\.Api\.Token\.TransferInstructionV1:TransferFactory$/);
    expect(root.consuming).toBe(false);
    const result = root.exerciseResult as {
      output: { tag: string; value: { transferInstructionCid: string } };
      senderChangeCids: string[];
    };
    expect(result.output.tag).toBe('TransferInstructionResult_Pending');
    // the input holding is archived, the sender gets 90 back, and the instruction holds the 10 being transferred
    const archived = events(t)
      .filter((e) => e.ExercisedEvent?.consuming === true)
      .map((e) => e.ExercisedEvent?.contractId);
    expect(archived).toContain(holdingCid);
    const newContracts = created(t);
    const change = newContracts.find((c) => c.contractId === result.senderChangeCids[0]);
    expect((change?.createArgument as { holding: { amount: string } }).holding.amount).toBe('90.0000000000');
    const offer = newContracts.find((c) => c.contractId === result.output.value.transferInstructionCid);
    expect(offer?.templateId).toMatch(/:Splice\.Testing\.Tokens\.TestTokenV1:TokenTransferOffer$/);

    const a = await submit(
      [bob],
      [
        {
          ExerciseCommand: {
            templateId: TRANSFER_INSTRUCTION,
            contractId: result.output.value.transferInstructionCid,
            choice: 'TransferInstruction_Accept',
            choiceArgument: { extraArgs: noExtraArgs },
          },
        },
      ],
      {
        disclosedContracts: disclosed,
      },
    );
    expect(a.status, a.text).toBe(200);
    const acc = events(a)[0]?.ExercisedEvent as Record<string, unknown>;
    expect(acc.consuming).toBe(true);
    const out = (acc.exerciseResult as { output: { tag: string; value: { receiverHoldingCids: string[] } } }).output;
    expect(out.tag).toBe('TransferInstructionResult_Completed');
    const bobHolding = created(a).find((c) => c.contractId === out.value.receiverHoldingCids[0]);
    expect((bobHolding?.createArgument as { holding: { owner: string; amount: string } }).holding).toMatchObject({
      owner: bob,
      amount: '10.0000000000',
    });

    // Bob's holdings through the Holding interface, with the views the real instances compute
    const views = await interfaceViewsAt(
      (p, body) => call(sim.url, 'POST', p, { body }),
      bob,
      HOLDING_INTERFACE,
      (a.json as { transaction: { offset: number } }).transaction.offset,
    );
    expect(views).toHaveLength(1);
    expect(views[0]?.viewStatus.code).toBe(0);
    expect(views[0]?.viewValue).toMatchObject({ owner: bob, amount: '10.0000000000', instrumentId: { admin, id: 'TestToken' } });
  });

  it('Daml errors of the real code come back as Canton errors (wrong expected admin → DAML_FAILURE with the Daml message)', async () => {
    const h = await submit(
      [admin, alice],
      [{ CreateCommand: { templateId: `${TOKEN}:Token`, createArguments: { holding: holdingOf(alice, '5.0') } } }],
    );
    const transfer = {
      sender: alice,
      receiver: bob,
      amount: '1.0',
      instrumentId: { admin, id: 'TestToken' },
      requestedAt: new Date(Date.now() - 1000).toISOString(),
      executeBefore: new Date(Date.now() + 3_600_000).toISOString(),
      inputHoldingCids: [created(h)[0]?.contractId],
      meta: { values: {} },
    };
    const r = await submit(
      [alice],
      [
        {
          ExerciseCommand: {
            templateId: TRANSFER_FACTORY,
            contractId: rulesCid,
            choice: 'TransferFactory_Transfer',
            choiceArgument: { expectedAdmin: bob, transfer, extraArgs: noExtraArgs },
          },
        },
      ],
      {
        disclosedContracts: [{ contractId: rulesCid, createdEventBlob: rulesBlob }],
      },
    );
    expect(r.status).toBe(400);
    const e = cantonError(r);
    expect(e.code).toBe('DAML_FAILURE');
    expect(e.cause).toMatch(/^Interpretation error: Error: User failure: UNHANDLED_EXCEPTION\/[\w.]+:\w+ \(error category 9\): /);
  });

  it(
    'an external party transfers by interactive submission: prepared with real node values, ' +
      'V2 hash recomputed by core-tx-visualizer, executed once signed',
    async () => {
      const sync = (
        (await call(sim.url, 'GET', '/v2/state/connected-synchronizers')).json as { connectedSynchronizers: { synchronizerId: string }[] }
      ).connectedSynchronizers[0]?.synchronizerId as string;
      const key: ExternalKey = newExternalKey();
      const ext = await onboardExternal(sim.url, sync, 'token-ext', key);
      const signed = (hash: string) => ({
        signatures: [
          {
            party: ext,
            signatures: [
              {
                format: 'SIGNATURE_FORMAT_RAW',
                signature: signBase64(key, hash),
                signedBy: key.fingerprint,
                signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
              },
            ],
          },
        ],
      });
      const prepareAndExecute = async (commands: unknown[], actAs: string[], extra: Record<string, unknown> = {}) => {
        const prep = await call(sim.url, 'POST', '/v2/interactive-submission/prepare', {
          body: { commandId: nextCommandId('ext'), actAs, commands, ...extra },
        });
        expect(prep.status, prep.text).toBe(200);
        const p = prep.json as { preparedTransaction: string; preparedTransactionHash: string };
        const decoded = decodePreparedTransaction(p.preparedTransaction);
        expect(await hashPreparedTransaction(decoded, 'base64')).toBe(p.preparedTransactionHash);
        const done = await call(sim.url, 'POST', '/v2/interactive-submission/executeAndWaitForTransaction', {
          body: {
            preparedTransaction: p.preparedTransaction,
            partySignatures: signed(p.preparedTransactionHash),
            hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
            submissionId: nextCommandId('sub'),
            deduplicationPeriod: { Empty: {} },
          },
        });
        expect(done.status, done.text).toBe(200);
        return { decoded, tx: (done.json as { transaction: { events: Ev[] } }).transaction };
      };
      const h = await prepareAndExecute(
        [{ CreateCommand: { templateId: `${TOKEN}:Token`, createArguments: { holding: holdingOf(ext, '50.0') } } }],
        [admin, ext],
      );
      const holdingCid = h.tx.events.flatMap((e) => (e.CreatedEvent ? [e.CreatedEvent.contractId as string] : []))[0] as string;
      const transfer = {
        sender: ext,
        receiver: bob,
        amount: '20.0',
        instrumentId: { admin, id: 'TestToken' },
        requestedAt: new Date(Date.now() - 1000).toISOString(),
        executeBefore: new Date(Date.now() + 3_600_000).toISOString(),
        inputHoldingCids: [holdingCid],
        meta: { values: {} },
      };
      const t = await prepareAndExecute(
        [
          {
            ExerciseCommand: {
              templateId: TRANSFER_FACTORY,
              contractId: rulesCid,
              choice: 'TransferFactory_Transfer',
              choiceArgument: { expectedAdmin: admin, transfer, extraArgs: noExtraArgs },
            },
          },
        ],
        [ext],
        { disclosedContracts: [{ contractId: rulesCid, createdEventBlob: rulesBlob, templateId: rulesTemplateId, synchronizerId: sync }] },
      );
      // the prepared root is the interface exercise, with the choice argument as a typed record of the API package
      const root = t.decoded.transaction?.nodes[0]?.versionedNode;
      const ex = root?.oneofKind === 'v1' && root.v1.nodeType.oneofKind === 'exercise' ? root.v1.nodeType.exercise : undefined;
      expect(ex?.choiceId).toBe('TransferFactory_Transfer');
      expect(ex?.interfaceId?.entityName).toBe('TransferFactory');
      const chosen = ex?.chosenValue?.sum;
      expect(chosen?.oneofKind === 'record' ? chosen.record.recordId?.entityName : undefined).toBe('TransferFactory_Transfer');
      expect(chosen?.oneofKind === 'record' ? chosen.record.fields.map((f) => f.label) : []).toEqual([
        'expectedAdmin',
        'transfer',
        'extraArgs',
      ]);
      const res = ex?.exerciseResult?.sum;
      const output = res?.oneofKind === 'record' ? res.record.fields.find((f) => f.label === 'output')?.value?.sum : undefined;
      expect(output?.oneofKind === 'variant' ? output.variant.constructor : undefined).toBe('TransferInstructionResult_Pending');
      // committed: the sender's change (30) and the instruction are active contracts now
      const amounts = t.tx.events.flatMap((e) =>
        e.CreatedEvent ? [(e.CreatedEvent.createArgument as { holding?: { amount: string } }).holding?.amount] : [],
      );
      expect(amounts).toContain('30.0000000000');
    },
  );

  it('without the disclosed rules the sender cannot see them: CONTRACT_NOT_FOUND', async () => {
    const r = await submit(
      [alice],
      [
        {
          ExerciseCommand: {
            templateId: TRANSFER_FACTORY,
            contractId: rulesCid,
            choice: 'TransferFactory_PublicFetch',
            choiceArgument: { expectedAdmin: admin, actor: alice },
          },
        },
      ],
    );
    expect(r.status).toBe(404);
    expect(cantonError(r).code).toBe('CONTRACT_NOT_FOUND');
  });
});
