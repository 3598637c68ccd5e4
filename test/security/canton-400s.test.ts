/**
 * Issue #13 item 9: inputs Canton refuses with a 400 made the simulator answer 500 — a 10,000-deep createArguments
 * overflowed the stack, a `minLedgerTimeRel` of 1e15 s was an "Invalid time value". Canton's JSON API refuses LF values
 * nested deeper than 110 JSON levels (Daml-LF's 100 plus 10 for the JSON wrappers, `CirceToUJson`) with INVALID_ARGUMENT,
 * and a ledger time beyond the Daml timestamp range with INVALID_ARGUMENT "Can not represent command ledger time …"
 * (`CommandsValidator.validateLedgerTime`). Answers are checked against the reference OpenAPI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allocate,
  call,
  cantonError,
  createIou,
  IOU,
  nextCommandId,
  startTestSim,
  submitRaw,
  type TestSim,
} from '../integration/simulator/helpers.js';
import { ifAssigned } from '../support/if-assigned.js';

let sim: TestSim;
let alice: string;
beforeAll(async () => {
  sim = await startTestSim({ seedDemo: false });
  alice = await allocate(sim.url, 'Alice400');
});
afterAll(async () => {
  await ifAssigned(sim)?.dispose();
});

/** JSON text of `{"a":{"a":…"x"…}}`, `levels` objects deep (built as text: JSON.stringify itself would overflow). */
const deepObject = (levels: number): string => '{"a":'.repeat(levels) + '"x"' + '}'.repeat(levels);
const deepArray = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

/** A submit-and-wait body whose first create argument `issuer` is replaced by `valueText`. */
function createWithIssuer(valueText: string): string {
  const body = { commandId: nextCommandId('deep'), actAs: [alice], commands: [createIou(alice, alice, '1')] };
  const text = JSON.stringify(body);
  return text.replace(`"issuer":"${alice}"`, `"issuer":${valueText}`);
}

const NESTING = 'The submitted request has invalid arguments: JSON nesting exceeds the maximum allowed depth of 110';

describe('deeply nested values → 400 INVALID_ARGUMENT, not a stack overflow', () => {
  it.each([
    ['10,000 nested objects', deepObject(10_000)],
    ['100,000 nested arrays', deepArray(100_000)],
    ['111 levels (one past the limit, counting createArguments as level 1)', deepObject(109)],
  ])('createArguments with %s', async (_name, value) => {
    const r = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', { rawBody: createWithIssuer(value) });
    expect(r.status).toBe(400);
    const err = cantonError(r);
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.cause).toBe(NESTING);
  });

  it('110 levels is within the limit: the value is checked against its type instead', async () => {
    const r = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', { rawBody: createWithIssuer(deepObject(108)) });
    expect(r.status).toBe(400);
    expect(cantonError(r).code).toBe('COMMAND_PREPROCESSING_FAILED');
  });

  it('choiceArgument of an exercise, and the interactive prepare endpoint', async () => {
    const exercise = JSON.stringify({
      commandId: nextCommandId('deep'),
      actAs: [alice],
      commands: [
        { ExerciseCommand: { templateId: IOU, contractId: '00' + 'ab'.repeat(33), choice: 'Iou_Transfer', choiceArgument: 'DEEP' } },
      ],
    }).replace('"DEEP"', deepObject(5_000));
    const r = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', { rawBody: exercise });
    expect(r.status).toBe(400);
    expect(cantonError(r).cause).toBe(NESTING);

    const prepare = JSON.stringify({
      commandId: nextCommandId('deep'),
      actAs: [alice],
      userId: 'participant_admin',
      commands: [createIou(alice, alice, '1')],
    }).replace(`"issuer":"${alice}"`, `"issuer":${deepArray(50_000)}`);
    const p = await call(sim.url, 'POST', '/v2/interactive-submission/prepare', { rawBody: prepare });
    expect(p.status).toBe(400);
    expect(cantonError(p).cause).toBe(NESTING);
  });
});

describe('a ledger time beyond the Daml timestamp range → 400 INVALID_ARGUMENT', () => {
  it.each([1e15, 9e15, Number.MAX_SAFE_INTEGER])('minLedgerTimeRel of %d s', async (seconds) => {
    const r = await submitRaw(sim.url, {
      actAs: [alice],
      minLedgerTimeRel: { seconds, nanos: 0 },
      commands: [createIou(alice, alice, '1')],
    });
    expect(r.status).toBe(400);
    const err = cantonError(r);
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.cause).toMatch(
      /^The submitted request has invalid arguments: Can not represent command ledger time \S+ as a Daml timestamp$/,
    );
  });

  it('1e15 s is rendered as Java renders the instant (year with a sign beyond 9999)', async () => {
    const r = await submitRaw(sim.url, {
      actAs: [alice],
      minLedgerTimeRel: { seconds: 1e15, nanos: 0 },
      commands: [createIou(alice, alice, '1')],
    });
    expect(cantonError(r).cause).toMatch(/ledger time \+316\d{5}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z as/);
  });

  it('seconds beyond what the body decoder takes (1e20) are a 400 decode error, not a 500', async () => {
    const r = await submitRaw(sim.url, {
      actAs: [alice],
      minLedgerTimeRel: { seconds: 1e20, nanos: 0 },
      commands: [createIou(alice, alice, '1')],
    });
    expect(r.status).toBe(400);
    expect(r.text).toContain('minLedgerTimeRel.seconds');
  });

  it('a relative time inside the range but past the tolerance is still the confirmation-time rejection', async () => {
    const r = await submitRaw(sim.url, {
      actAs: [alice],
      minLedgerTimeRel: { seconds: 86_400 * 365, nanos: 0 },
      commands: [createIou(alice, alice, '1')],
    });
    expect(cantonError(r).code).toBe('LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND');
  });
});
