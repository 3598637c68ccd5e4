/**
 * Ledger-core fidelity: descendingOrder rules, failed completions of async submissions, disclosed
 * contracts, minLedgerTime and interface choices (interactive execution of exactly the prepared transaction:
 * interactive-submission.test.ts). Every answer is validated against the spec (helpers.call / asyncapi schemas).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  ASSET,
  IOU,
  IOU_PROPOSAL,
  allocate,
  asyncApi,
  call,
  cantonError,
  createIou,
  exercise,
  ledgerEnd,
  nextCommandId,
  startTestSim,
  submitTx,
  updates,
  wildcard,
  wsText,
} from './helpers.js';
import type { TestSim } from './helpers.js';

/** Collects every message of a WebSocket stream until it closes. */
function wsAll(base: string, path: string, request: unknown, timeoutMs = 5000): Promise<{ messages: unknown[]; code: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + path, ['daml.ws.auth']);
    const messages: unknown[] = [];
    const t = setTimeout(() => {
      ws.terminate();
      reject(new Error(`timeout; got ${JSON.stringify(messages).slice(0, 300)}`));
    }, timeoutMs);
    ws.on('open', () => ws.send(JSON.stringify(request)));
    ws.on('message', (d) => messages.push(JSON.parse(wsText(d))));
    ws.on('close', (code) => {
      clearTimeout(t);
      resolve({ messages, code });
    });
    ws.on('error', reject);
  });
}

const ledgerEffects = (...parties: string[]) => ({
  includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS', eventFormat: wildcard(...parties) },
});

describe('ledger fidelity', () => {
  let sim: TestSim;
  let bank: string, alice: string, carol: string;
  beforeAll(async () => {
    sim = await startTestSim({ staticTime: true });
    bank = await allocate(sim.url, 'Bank');
    alice = await allocate(sim.url, 'Alice');
    carol = await allocate(sim.url, 'Carol');
  });
  afterAll(async () => {
    await sim.dispose();
  });

  const now = async (): Promise<string> =>
    ((await call(sim.url, 'GET', '/simulator/admin/time', { validate: false })).json as { now: string }).now;
  const advance = (seconds: number) => call(sim.url, 'POST', '/simulator/admin/time/advance', { body: { seconds }, validate: false });
  const plusSeconds = (iso: string, s: number): string => {
    const [base, frac] = iso.replace('Z', '').split('.');
    return `${new Date(Date.parse(`${base}Z`) + s * 1000).toISOString().slice(0, 19)}.${frac}Z`;
  };

  // the spec: "If not specified, the descending_order must not be selected"; Canton's code: DESCENDING_ORDER_MISSING_END
  it(
    'descendingOrder on /v2/updates needs endInclusive ' + '(spec: "If not specified, the descending_order must not be selected")',
    async () => {
      await submitTx(sim.url, [bank], [createIou(bank, alice, '1')]);
      await submitTx(sim.url, [bank], [createIou(bank, alice, '2')]);
      const end = await ledgerEnd(sim.url);
      const bad = await updates(sim.url, { beginExclusive: 0, descendingOrder: true, updateFormat: ledgerEffects(alice) });
      expect(bad.status).toBe(400);
      expect(cantonError(bad).code).toBe('DESCENDING_ORDER_MISSING_END');
      const badTrees = await updates(sim.url, { beginExclusive: 0, descendingOrder: true, filter: wildcard(alice) }, '/v2/updates/trees');
      expect(cantonError(badTrees).code).toBe('DESCENDING_ORDER_MISSING_END');

      const good = await updates(sim.url, {
        beginExclusive: 0,
        endInclusive: end,
        descendingOrder: true,
        updateFormat: ledgerEffects(alice),
      });
      expect(good.status).toBe(200);
      const offsets = (good.json as { update: { Transaction: { value: { offset: number } } } }[]).map(
        (u) => u.update.Transaction.value.offset,
      );
      expect(offsets.length).toBeGreaterThanOrEqual(2);
      expect(offsets).toEqual([...offsets].sort((a, b) => b - a));

      // the WebSocket stream: an error without endInclusive, descending and closing with it
      const wsBad = await wsAll(sim.url, '/v2/updates', { beginExclusive: 0, descendingOrder: true, updateFormat: ledgerEffects(alice) });
      expect(asyncApi().schema('JsCantonError')(wsBad.messages[0])).toBe(true);
      expect((wsBad.messages[0] as { code: string }).code).toBe('DESCENDING_ORDER_MISSING_END');
      const wsGood = await wsAll(sim.url, '/v2/updates', {
        beginExclusive: 0,
        endInclusive: end,
        descendingOrder: true,
        updateFormat: ledgerEffects(alice),
      });
      expect(wsGood.code).toBe(1000);
      const v = asyncApi().schema('JsGetUpdatesResponse');
      for (const m of wsGood.messages) expect(v(m), JSON.stringify(v.errors)).toBe(true);
      expect(
        wsGood.messages.map((m) => (m as { update: { Transaction: { value: { offset: number } } } }).update.Transaction.value.offset),
      ).toEqual(offsets);
    },
  );

  it('a failed async submission completes with its Canton status at its own offset; the update stream skips that offset', async () => {
    const iou = (await submitTx(sim.url, [bank], [createIou(bank, alice, '3')])).created[0]?.contractId as string;
    await submitTx(sim.url, [bank], [exercise(IOU, iou, 'Archive')]);
    const begin = await ledgerEnd(sim.url);
    const commandId = nextCommandId('rejected');
    // accepted (decoded, parties known, not a duplicate) …
    const r = await call(sim.url, 'POST', '/v2/commands/async/submit', {
      body: { commandId, actAs: [alice], submissionId: 'sub-rej', commands: [exercise(IOU, iou, 'Iou_Transfer', { newOwner: carol })] },
    });
    expect(r.status).toBe(200);
    // … and rejected: the ledger end moved by one, no update exists there
    const rejectedAt = await ledgerEnd(sim.url);
    expect(rejectedAt).toBe(begin + 1);
    const byOffset = await call(sim.url, 'POST', '/v2/updates/update-by-offset', {
      body: {
        offset: rejectedAt,
        updateFormat: { ...ledgerEffects(alice, bank, carol), includeTopologyEvents: { includeParticipantAuthorizationEvents: {} } },
      },
    });
    expect(cantonError(byOffset).code).toBe('UPDATE_NOT_FOUND');

    // the completion: HTTP list and WebSocket stream
    const list = await call(sim.url, 'POST', '/v2/commands/completions', { body: { parties: [alice], beginExclusive: begin } });
    expect(list.status).toBe(200);
    const completion = (list.json as { completionResponse: { Completion?: { value: Record<string, unknown> } } }[])[0]?.completionResponse
      .Completion?.value;
    expect(completion).toMatchObject({ commandId, offset: rejectedAt, actAs: [alice], submissionId: 'sub-rej' });
    const status = completion?.status as { code: number; message: string };
    expect(status.code).toBe(5); // NOT_FOUND
    expect(status.message).toMatch(/^CONTRACT_NOT_FOUND\(11,/);
    expect(completion?.updateId).toBe(''); // proto3 string: printed empty for a rejection

    const ws = new WebSocket(sim.url.replace(/^http/, 'ws') + '/v2/commands/completions', ['daml.ws.auth']);
    const first = await new Promise<unknown>((resolve, reject) => {
      ws.on('open', () => ws.send(JSON.stringify({ parties: [alice], beginExclusive: begin })));
      ws.on('message', (d) => resolve(JSON.parse(wsText(d))));
      ws.on('error', reject);
    });
    ws.close();
    expect(asyncApi().schema('CompletionStreamResponse')(first)).toBe(true);
    expect(
      (first as { completionResponse: { Completion: { value: { status: { code: number } } } } }).completionResponse.Completion.value.status
        .code,
    ).toBe(5);

    // the next transaction's offset skips the rejection; the stream from `begin` has no element for it
    const next = await submitTx(sim.url, [bank], [createIou(bank, alice, '4')]);
    expect(next.offset).toBe(rejectedAt + 1);
    const ups = await updates(sim.url, {
      beginExclusive: begin,
      endInclusive: next.offset,
      updateFormat: ledgerEffects(alice, bank, carol),
    });
    const seen = (ups.json as { update: Record<string, { value: { offset: number } }> }[]).map(
      (u) => Object.values(u.update)[0]?.value.offset,
    );
    expect(seen).toEqual([next.offset]);

    // a rejected command is not deduplicated: submitting it again (now valid) succeeds
    const fresh = (await submitTx(sim.url, [bank], [createIou(bank, alice, '5')])).created[0]?.contractId as string;
    const retry = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: { commandId, actAs: [alice], commands: [exercise(IOU, fresh, 'Iou_Transfer', { newOwner: carol })] },
    });
    expect(retry.status).toBe(200);
    // synchronous validation failures are still answered directly and consume no offset
    const end = await ledgerEnd(sim.url);
    const unknownParty = await call(sim.url, 'POST', '/v2/commands/async/submit', {
      body: { commandId: nextCommandId(), actAs: ['Nobody::1220aa'], commands: [createIou(bank, alice, '1')] },
    });
    expect(cantonError(unknownParty).code).toBe('PARTY_NOT_KNOWN_ON_LEDGER');
    expect(await ledgerEnd(sim.url)).toBe(end);
  });

  it('exercises a choice through an interface id; the event names the interface', async () => {
    const iou = (await submitTx(sim.url, [bank], [createIou(bank, alice, '7', 'CHF')])).created[0]?.contractId as string;
    const tx = await submitTx(sim.url, [alice], [exercise(ASSET, iou, 'Asset_Describe', { viewer: alice })]);
    const ev = tx.events[0]?.ExercisedEvent as { interfaceId: string; templateId: string; exerciseResult: string; choice: string };
    expect(ev.choice).toBe('Asset_Describe');
    expect(ev.interfaceId).toMatch(/^[0-9a-f]{64}:Demo\.Asset:Asset$/);
    expect(ev.templateId).toMatch(/:Demo\.Iou:Iou$/);
    // README "Interface choices": "the choice sees the interface view" (Asset's description is "<amount> <currency>")
    expect(ev.exerciseResult).toBe(`7.0000000000 CHF (7.0000000000) owned by ${alice}`);
    // a template choice name through the interface is unknown; a non-implementing contract is refused
    const wrongChoice = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: { commandId: nextCommandId(), actAs: [alice], commands: [exercise(ASSET, iou, 'Iou_Transfer', { newOwner: carol })] },
    });
    expect(cantonError(wrongChoice).code).toBe('COMMAND_PREPROCESSING_FAILED');
    const proposal = (
      await submitTx(
        sim.url,
        [bank],
        [{ CreateCommand: { templateId: IOU_PROPOSAL, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '1' } } }],
      )
    ).created[0]?.contractId as string;
    const notImpl = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: { commandId: nextCommandId(), actAs: [alice], commands: [exercise(ASSET, proposal, 'Asset_Describe', { viewer: alice })] },
    });
    expect(cantonError(notImpl).code).toBe('DAML_INTERPRETATION_ERROR');
  });

  it('disclosed contracts let a non-stakeholder use a contract; a modified blob is refused', async () => {
    const iou = (await submitTx(sim.url, [bank], [createIou(bank, alice, '9')])).created[0]?.contractId as string;
    const cmd = exercise(ASSET, iou, 'Asset_Describe', { viewer: carol });
    const hidden = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: { commandId: nextCommandId(), actAs: [carol], commands: [cmd] },
    });
    expect(cantonError(hidden).code).toBe('CONTRACT_NOT_FOUND');
    // Alice shares the contract (created event blob) with Carol off-ledger
    const byId = await call(sim.url, 'POST', '/v2/contracts/contract-by-id', { body: { contractId: iou, queryingParties: [alice] } });
    const blob = (byId.json as { createdEvent: { createdEventBlob: string; templateId: string } }).createdEvent;
    const disclosed = { contractId: iou, templateId: blob.templateId, createdEventBlob: blob.createdEventBlob };
    const tx = await submitTx(sim.url, [carol], [cmd], { disclosedContracts: [disclosed] });
    const ev = tx.events[0]?.ExercisedEvent as { witnessParties: string[]; exerciseResult: string };
    expect(ev.witnessParties).toEqual([carol]);
    expect(ev.exerciseResult).toContain(alice);

    const tampered = Buffer.from(
      Buffer.from(blob.createdEventBlob, 'base64').toString('utf8').replace('9.0000000000', '99.0000000000'),
    ).toString('base64');
    const bad = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: {
        commandId: nextCommandId(),
        actAs: [carol],
        commands: [cmd],
        disclosedContracts: [{ ...disclosed, createdEventBlob: tampered }],
      },
    });
    expect(cantonError(bad).code).toBe('INVALID_ARGUMENT');
    // disclosure does not authorize: Carol cannot transfer Alice's Iou
    const steal = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: {
        commandId: nextCommandId(),
        actAs: [carol],
        commands: [exercise(IOU, iou, 'Iou_Transfer', { newOwner: carol })],
        disclosedContracts: [disclosed],
      },
    });
    expect(cantonError(steal).code).toBe('DAML_AUTHORIZATION_ERROR');
  });

  it('honours minLedgerTimeAbs / minLedgerTimeRel with static time', async () => {
    const t0 = await now();
    const abs = plusSeconds(t0, 30);
    const a = await call(sim.url, 'POST', '/v2/commands/submit-and-wait-for-transaction', {
      body: { commands: { commandId: nextCommandId(), actAs: [bank], commands: [createIou(bank, alice, '1')], minLedgerTimeAbs: abs } },
    });
    expect(a.status).toBe(200);
    const ta = (a.json as { transaction: { effectiveAt: string; recordTime: string; events: { CreatedEvent: { createdAt: string } }[] } })
      .transaction;
    expect(ta.effectiveAt).toBe(abs);
    expect(ta.recordTime).toBe(t0);
    expect(ta.events[0]?.CreatedEvent.createdAt).toBe(abs);

    const rel = await call(sim.url, 'POST', '/v2/commands/submit-and-wait-for-transaction', {
      body: {
        commands: {
          commandId: nextCommandId(),
          actAs: [bank],
          commands: [createIou(bank, alice, '1')],
          minLedgerTimeRel: { seconds: 10, nanos: 0 },
        },
      },
    });
    expect((rel.json as { transaction: { effectiveAt: string } }).transaction.effectiveAt).toBe(plusSeconds(t0, 10));

    const both = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: {
        commandId: nextCommandId(),
        actAs: [bank],
        commands: [createIou(bank, alice, '1')],
        minLedgerTimeAbs: abs,
        minLedgerTimeRel: { seconds: 1, nanos: 0 },
      },
    });
    expect(cantonError(both).code).toBe('INVALID_ARGUMENT');

    // beyond the ledger-time / record-time tolerance (60 s): refused until the clock gets there
    const far = plusSeconds(t0, 7200);
    const body = { commandId: nextCommandId('far'), actAs: [bank], commands: [createIou(bank, alice, '1')], minLedgerTimeAbs: far };
    const early = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', { body });
    expect(early.status).toBe(400);
    expect(cantonError(early).code).toBe('LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND');
    await advance(7200);
    const later = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', { body });
    expect(later.status).toBe(200);
  });
});
