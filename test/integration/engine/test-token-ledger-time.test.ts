/**
 * `getTime` under the ledger-time bounds, through the real `splice-test-token-v1` (../shared/reference/dars) on the
 * Daml-LF engine: the ledger time of a submission is its record time raised to `minLedgerTimeRel` (at most the
 * ledger/record time tolerance, 60 s, later), and the real `TransferFactory_Transfer` compares it with the transfer's
 * `requestedAt` and `executeBefore`. The same command fails while `requestedAt` is still in the future and succeeds
 * once the submission asks for a ledger time past it; a ledger time past `executeBefore` makes the real code refuse.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocate, call, cantonError, nextCommandId, referenceDir, startTestSim, type TestSim } from '../simulator/helpers.js';
import { postBytes } from '../simulator/dars-helpers.js';

const TOKEN = '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1';
const TRANSFER_FACTORY = '#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferFactory';
type Ev = Record<string, Record<string, unknown>>;

describe('splice-test-token-v1: getTime is the ledger time the submission asked for', () => {
  let sim: TestSim;
  let admin: string, alice: string, bob: string;
  let rules: { contractId: string; createdEventBlob: string };

  const submit = (actAs: string[], commands: unknown[], extra: Record<string, unknown> = {}) =>
    call(sim.url, 'POST', '/v2/commands/submit-and-wait-for-transaction', {
      body: { commands: { commandId: nextCommandId('lt'), actAs, commands, ...extra } },
    });
  const created = (r: { json: unknown }) =>
    (r.json as { transaction: { events: Ev[] } }).transaction.events.flatMap((e) => (e.CreatedEvent ? [e.CreatedEvent] : []));
  const holding = async (amount: string): Promise<string> => {
    const holdingArg = { owner: alice, instrumentId: { admin, id: 'TestToken' }, amount, lock: null, meta: { values: {} } };
    const r = await submit([admin, alice], [{ CreateCommand: { templateId: `${TOKEN}:Token`, createArguments: { holding: holdingArg } } }]);
    expect(r.status, r.text).toBe(200);
    return created(r)[0]?.contractId as string;
  };
  /** TransferFactory_Transfer of 1 from Alice to Bob, with `requestedAt` / `executeBefore` relative to now (ms). */
  const transfer = async (requestedIn: number, expiresIn: number, minLedgerTimeRel?: { seconds: number; nanos: number }) => {
    // The holding first: `now` is taken just before the submission, so only the submission itself eats the margins.
    const input = await holding('5.0');
    const now = Date.now();
    const t = {
      sender: alice,
      receiver: bob,
      amount: '1.0',
      instrumentId: { admin, id: 'TestToken' },
      requestedAt: new Date(now + requestedIn).toISOString(),
      executeBefore: new Date(now + expiresIn).toISOString(),
      inputHoldingCids: [input],
      meta: { values: {} },
    };
    const choiceArgument = { expectedAdmin: admin, transfer: t, extraArgs: { context: { values: {} }, meta: { values: {} } } };
    return submit(
      [alice],
      [
        {
          ExerciseCommand: {
            templateId: TRANSFER_FACTORY,
            contractId: rules.contractId,
            choice: 'TransferFactory_Transfer',
            choiceArgument,
          },
        },
      ],
      { disclosedContracts: [rules], ...(minLedgerTimeRel ? { minLedgerTimeRel } : {}) },
    );
  };

  beforeAll(async () => {
    sim = await startTestSim();
    const dar = new Uint8Array(readFileSync(path.join(referenceDir, 'dars/splice-test-token-v1-1.0.0.dar')));
    expect((await postBytes(sim.url, '/v2/packages', dar)).status).toBe(200);
    [admin, alice, bob] = await Promise.all([allocate(sim.url, 'lt-admin'), allocate(sim.url, 'lt-alice'), allocate(sim.url, 'lt-bob')]);
    const r = await submit([admin], [{ CreateCommand: { templateId: `${TOKEN}:TokenRules`, createArguments: { admin } } }]);
    expect(r.status, r.text).toBe(200);
    const contractId = created(r)[0]?.contractId as string;
    const ev = await call(sim.url, 'POST', '/v2/events/events-by-contract-id', {
      body: {
        contractId,
        eventFormat: {
          filtersByParty: {
            [admin]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] },
          },
        },
      },
    });
    rules = {
      contractId,
      createdEventBlob: (ev.json as { created: { createdEvent: { createdEventBlob: string } } }).created.createdEvent.createdEventBlob,
    };
  }, 120_000);
  afterAll(async () => sim.dispose());

  it('a transfer requested 20 s from now is refused at the record time and runs at a ledger time 30 s later', async () => {
    const early = await transfer(20_000, 58_000);
    expect(early.status).toBe(400);
    const e = cantonError(early);
    expect(e.code).toBe('DAML_FAILURE');
    expect(e.cause).toContain('requestedAt');

    const before = Date.now();
    const later = await transfer(20_000, 58_000, { seconds: 30, nanos: 0 });
    expect(later.status, later.text).toBe(200);
    const effectiveAt = Date.parse((later.json as { transaction: { effectiveAt: string } }).transaction.effectiveAt);
    expect(effectiveAt).toBeGreaterThanOrEqual(before + 30_000);
  });

  it('a ledger time past executeBefore makes the real code refuse the transfer', async () => {
    const r = await transfer(-1_000, 30_000, { seconds: 59, nanos: 0 });
    expect(r.status).toBe(400);
    const e = cantonError(r);
    expect(e.code).toBe('DAML_FAILURE');
    expect(e.cause).toContain('executeBefore');
  });

  it('a ledger time more than the tolerance (60 s) after the record time is refused before interpretation', async () => {
    const r = await transfer(-1_000, 3_600_000, { seconds: 61, nanos: 0 });
    expect(r.status).toBe(400);
    expect(cantonError(r).code).toBe('LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND');
  });
});
