/**
 * Validator liveness and SV rewards over real HTTP with static time, validated against the Splice specs: the
 * validator's automation records one ValidatorLivenessActivityRecord per open round (a ledger transaction exercising
 * ValidatorLicense_RecordValidatorLivenessActivity), listed in the operator's wallet; a faucet coupon received for a
 * round (ValidatorLicense_ReceiveFaucetCoupon, here submitted through the Ledger API) is listed (the automation records
 * no second entry for a round); SvRewardCoupons (created by the DSO through the Ledger API: the simulator runs no SV) are listed for
 * their beneficiary only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acs, acsCreated, submitTx } from './helpers.js';
import { advance, onboard, OPERATOR, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
let alice: string;
let operatorParty: string;
let dso: string;
const ROUND = 600;
type Contract = { template_id: string; contract_id: string; payload: Record<string, unknown> };

beforeAll(async () => {
  sim = await startTestSim({ staticTime: true, settings: { wallet: { backgroundIntervalSeconds: 0 } } as never });
  base = sim.url;
  alice = await onboard(base, 'alice');
  operatorParty = (await wok(base, undefined, 'GET', '/v0/validator-user')).party_id as string;
  dso = `DSO::${operatorParty.split('::')[1] ?? ''}`;
});
afterAll(async () => {
  await sim.dispose();
});

const records = async (user: string) =>
  (await wok(base, user, 'GET', '/v0/wallet/validator-liveness-activity-records')).validator_liveness_activity_records as Contract[];
const faucet = async (user: string) =>
  (await wok(base, user, 'GET', '/v0/wallet/validator-faucet-coupons')).validator_faucet_coupons as Contract[];
const svCoupons = async (user: string) => (await wok(base, user, 'GET', '/v0/wallet/sv-reward-coupons')).sv_reward_coupons as Contract[];
const currentRound = async () => Number((await wok(base, OPERATOR, 'GET', '/v0/wallet/balance')).round);

describe('validator liveness activity records', () => {
  it('one record per open round, created by the validator automation; only the validator’s wallet lists them', async () => {
    const first = await records(OPERATOR);
    expect(first).toHaveLength(1);
    expect(first[0]?.template_id).toMatch(/:Splice\.ValidatorLicense:ValidatorLivenessActivityRecord$/);
    expect(first[0]?.payload).toMatchObject({ dso, validator: operatorParty, round: String(await currentRound()) });
    expect(await records(OPERATOR)).toHaveLength(1); // not again in the same round
    await advance(base, ROUND);
    const second = await records(OPERATOR);
    expect(second.map((r) => Number(r.payload.round)).sort()).toEqual([(await currentRound()) - 1, await currentRound()]);
    expect(await records('alice')).toEqual([]);
    expect((await wcall(base, 'nobody-here', 'GET', '/v0/wallet/validator-liveness-activity-records')).status).toBe(404);
    // on the ledger: the licence (DSO signatory, validator observer) and the exercised choice
    const active = acsCreated(await acs(base, { filtersByParty: { [operatorParty]: {} }, verbose: false }));
    expect(active.filter((c) => c.templateId.endsWith(':Splice.ValidatorLicense:ValidatorLicense'))).toHaveLength(1);
  });

  it('a faucet coupon received through the licence (Ledger API) is listed for the validator only', async () => {
    const before = (await records(OPERATOR)).length; // the automation has recorded the current round
    const find = async (party: string, suffix: string) =>
      acsCreated(await acs(base, { filtersByParty: { [party]: {} }, verbose: false })).find((c) => c.templateId.endsWith(suffix));
    const licence = await find(operatorParty, ':Splice.ValidatorLicense:ValidatorLicense');
    const openRound = await find(dso, ':Splice.Round:OpenMiningRound');
    const tx = await submitTx(
      base,
      [operatorParty],
      [
        {
          ExerciseCommand: {
            templateId: '#splice-amulet:Splice.ValidatorLicense:ValidatorLicense',
            contractId: licence?.contractId,
            choice: 'ValidatorLicense_ReceiveFaucetCoupon',
            choiceArgument: { openRound: openRound?.contractId },
          },
        },
      ],
    );
    expect(tx.created.map((c) => c.templateId.split(':').slice(1).join(':')).sort()).toEqual([
      'Splice.ValidatorLicense:ValidatorFaucetCoupon',
      'Splice.ValidatorLicense:ValidatorLicense',
    ]);
    const coupons = await faucet(OPERATOR);
    expect(coupons).toHaveLength(1);
    expect(coupons[0]?.template_id).toMatch(/:Splice\.ValidatorLicense:ValidatorFaucetCoupon$/);
    expect(coupons[0]?.payload).toMatchObject({ dso, validator: operatorParty, round: String(await currentRound()) });
    expect(await records(OPERATOR)).toHaveLength(before);
    expect(await faucet('alice')).toEqual([]);
    // only the validator (controller) can exercise it
    const other = await fetch(`${base}/v2/commands/submit-and-wait`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        commandId: `faucet-${Date.now()}`,
        actAs: [alice],
        commands: [
          {
            ExerciseCommand: {
              templateId: '#splice-amulet:Splice.ValidatorLicense:ValidatorLicense',
              contractId: (await find(operatorParty, ':Splice.ValidatorLicense:ValidatorLicense'))?.contractId,
              choice: 'ValidatorLicense_ReceiveFaucetCoupon',
              choiceArgument: { openRound: openRound?.contractId },
            },
          },
        ],
      }),
    });
    expect(other.status).toBeGreaterThanOrEqual(400);
    expect(await faucet(OPERATOR)).toHaveLength(1);
  });
});

describe('SV reward coupons', () => {
  it('are listed for their beneficiary only', async () => {
    expect(await svCoupons('alice')).toEqual([]);
    const round = String(await currentRound());
    await submitTx(
      base,
      [dso],
      [
        {
          CreateCommand: {
            templateId: '#splice-amulet:Splice.Amulet:SvRewardCoupon',
            createArguments: { dso, sv: operatorParty, beneficiary: alice, round, weight: '10' },
          },
        },
      ],
    );
    const listed = await svCoupons('alice');
    expect(listed).toHaveLength(1);
    expect(listed[0]?.template_id).toMatch(/:Splice\.Amulet:SvRewardCoupon$/);
    expect(listed[0]?.payload).toMatchObject({ dso, sv: operatorParty, beneficiary: alice, round, weight: '10' });
    expect(await svCoupons(OPERATOR)).toEqual([]); // the SV sees it, but it is not the beneficiary
  });
});
