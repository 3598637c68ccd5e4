/**
 * Ledger rules of the Daml-LF engine through the Ledger API, on packages built with `src/daml-lf` (the v1 / v2
 * fixtures of `dars-helpers`: template Assets:Asset, signatory issuer, observers owner and watchers, Archive; v2 adds
 * an Optional field `memo` at the end): authorization as Canton checks it (spec "Update interpretation": create needs
 * every signatory, exercise every controller), a contract consumed earlier in the same transaction
 * (CONTRACT_NOT_ACTIVE), visibility (CONTRACT_NOT_FOUND), and smart-contract upgrading — package preference by name,
 * a v1 contract run by v2 code (missing trailing Optional = None), a v2 contract run by v1 code (downgrade: allowed
 * when the extra field is None, INTERPRETATION_UPGRADE_ERROR_TRANSLATION_FAILED when it is Some).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocate, call, cantonError, nextCommandId, startTestSim, submitTx, type TestSim } from '../simulator/helpers.js';
import { fixtures, postBytes, type Fixtures } from '../simulator/dars-helpers.js';

describe('Daml-LF engine: authorization, activeness, visibility and upgrades', () => {
  let sim: TestSim;
  let F: Fixtures;
  let bank: string, alice: string, carol: string;
  const byName = '#dar-test-assets:Assets:Asset';
  const v1 = () => `${F.v1.mainPackageId}:Assets:Asset`;
  const v2 = () => `${F.v2.mainPackageId}:Assets:Asset`;
  const asset = (extra: Record<string, unknown> = {}) => ({
    issuer: bank,
    owner: alice,
    amount: '1',
    tags: [],
    note: null,
    color: 'Red',
    meta: { label: 'm', score: 1 },
    detail: { tag: 'None_', value: {} },
    watchers: [],
    ...extra,
  });
  const create = async (templateId: string, args: Record<string, unknown>) =>
    (await submitTx(sim.url, [bank], [{ CreateCommand: { templateId, createArguments: args } }])).created[0] as {
      contractId: string;
      templateId: string;
    };
  const archive = (templateId: string, contractId: string) => ({
    ExerciseCommand: { templateId, contractId, choice: 'Archive', choiceArgument: {} },
  });
  const submit = (actAs: string[], commands: unknown[]) =>
    call(sim.url, 'POST', '/v2/commands/submit-and-wait', { body: { commandId: nextCommandId('rules'), actAs, commands } });

  beforeAll(async () => {
    sim = await startTestSim();
    F = fixtures();
    expect((await postBytes(sim.url, '/v2/dars', F.v1.bytes)).status).toBe(200);
    [bank, alice, carol] = await Promise.all([allocate(sim.url, 'bank'), allocate(sim.url, 'alice'), allocate(sim.url, 'carol')]);
  }, 60_000);
  afterAll(async () => sim.dispose());

  it('create without the authority of every signatory: DAML_AUTHORIZATION_ERROR', async () => {
    const r = await submit([alice], [{ CreateCommand: { templateId: byName, createArguments: asset() } }]);
    expect(r.status).toBe(400);
    const e = cantonError(r);
    expect(e.code).toBe('DAML_AUTHORIZATION_ERROR');
    expect(e.cause).toContain(bank);
  });

  it('exercise by a stakeholder who is not a controller: DAML_AUTHORIZATION_ERROR; by a non-stakeholder: CONTRACT_NOT_FOUND', async () => {
    const c = await create(byName, asset());
    const byOwner = await submit([alice], [archive(byName, c.contractId)]);
    expect(byOwner.status).toBe(400);
    expect(cantonError(byOwner).code).toBe('DAML_AUTHORIZATION_ERROR');
    const byStranger = await submit([carol], [archive(byName, c.contractId)]);
    expect(byStranger.status).toBe(404);
    expect(cantonError(byStranger).code).toBe('CONTRACT_NOT_FOUND');
  });

  it('a contract consumed earlier in the same transaction: CONTRACT_NOT_ACTIVE, and nothing is committed', async () => {
    const c = await create(byName, asset());
    const r = await submit([bank], [archive(byName, c.contractId), archive(byName, c.contractId)]);
    expect(r.status).toBe(404);
    const e = cantonError(r);
    expect(e.code).toBe('CONTRACT_NOT_ACTIVE');
    expect(e.cause).toContain(c.contractId);
    // the failed transaction archived nothing: the contract can still be archived once
    expect((await submit([bank], [archive(byName, c.contractId)])).status).toBe(200);
  });

  it('upgrades: a v1 contract exercised through the package name after v2 is uploaded runs v2 code', async () => {
    const old = await create(v1(), asset());
    expect(old.templateId).toBe(v1());
    expect((await postBytes(sim.url, '/v2/dars', F.v2.bytes)).status).toBe(200);
    const tx = await submitTx(sim.url, [bank], [archive(byName, old.contractId)]);
    const ex = tx.events.find((e) => 'ExercisedEvent' in e)?.ExercisedEvent as { templateId: string; consuming: boolean };
    expect(ex.consuming).toBe(true);
    expect(ex.templateId).toBe(v2());
    // and #name now creates v2 contracts, the new Optional field accepted
    expect((await create(byName, asset({ memo: 'v2' }))).templateId).toBe(v2());
  });

  it('downgrades: v1 code may run a v2 contract whose extra field is None, not one where it is Some', async () => {
    const none = await create(v2(), asset({ memo: null }));
    expect((await submit([bank], [archive(v1(), none.contractId)])).status).toBe(200);

    const some = await create(v2(), asset({ memo: 'kept' }));
    const r = await submit([bank], [archive(v1(), some.contractId)]);
    expect(r.status).toBe(400);
    const e = cantonError(r);
    expect(e.code).toBe('INTERPRETATION_UPGRADE_ERROR_TRANSLATION_FAILED');
    expect(e.errorCategory).toBe(8);
    expect(e.cause).toBe(
      `Interpretation error: Error: Translation of contract ${some.contractId} to a value of type ` +
        `Assets:Asset@${F.v1.mainPackageId.slice(0, 8)} fails. Reason: Type-checking fails  Found an optional contract ` +
        'field with a value of Some at index 9, may not be dropped during downgrading.  Expected type: Assets:Asset',
    );
    // v2 code still archives it
    expect((await submit([bank], [archive(v2(), some.contractId)])).status).toBe(200);
  });
});
