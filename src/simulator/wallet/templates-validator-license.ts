/**
 * Validator liveness and SV reward templates of `splice-amulet` (names as in Splice):
 *
 * - `Splice.ValidatorLicense:ValidatorLicense` (signatory the DSO, observer the validator): the validator's licence,
 *   created for the simulator's validator at setup. Its non-consuming
 *   `ValidatorLicense_RecordValidatorLivenessActivity` (controller the validator) creates a
 *   `ValidatorLivenessActivityRecord` for the given open round, at most one per round (the validator's automation calls
 *   it once per open round, as Splice's validator does); `ValidatorLicense_ReceiveFaucetCoupon` is the older form that
 *   creates a `ValidatorFaucetCoupon` instead (same rule). Both record `lastActiveAt` on the licence (consuming: the
 *   licence is recreated with the new time, as in Splice).
 * - `Splice.ValidatorLicense:ValidatorFaucetCoupon` / `ValidatorLivenessActivityRecord` (dso, validator, round;
 *   signatory the DSO, observer the validator).
 * - `Splice.Amulet:SvRewardCoupon` (dso, sv, beneficiary, round, weight; signatory the DSO, observers sv and
 *   beneficiary): issued by an SV's automation. The simulator runs no SV, so only the DSO itself (through the Ledger
 *   API) creates them.
 *
 * Simplifications: the licence has no sponsor / metadata / faucet state fields, the round is passed as a contract id of
 * the open round (the round number is read from it), and the "once per round" rule is checked by the wallet
 * automation (Splice checks it against the licence's faucet state).
 */
import type { ChoiceDef, FieldDef, TemplateDef } from '../packages/types.js';
import { cid, int, party, roundOf, time } from './coin.js';
import { asText } from '../lf-text.js';

export const LICENSE_QN = {
  license: 'Splice.ValidatorLicense:ValidatorLicense',
  faucetCoupon: 'Splice.ValidatorLicense:ValidatorFaucetCoupon',
  livenessRecord: 'Splice.ValidatorLicense:ValidatorLivenessActivityRecord',
  svRewardCoupon: 'Splice.Amulet:SvRewardCoupon',
} as const;

const dsoValidatorRound: FieldDef[] = [
  { name: 'dso', type: party },
  { name: 'validator', type: party },
  { name: 'round', type: int },
];

/** A choice of the licence that records activity in the open round by creating a `qn` contract. */
function recordChoice(name: string, qn: string, description: string): ChoiceDef {
  return {
    name,
    consuming: true,
    argument: [{ name: 'openRound', type: cid('Splice.Round:OpenMiningRound') }],
    returnType: cid(qn),
    controllers: [{ contract: 'validator' }],
    description,
    body: (ctx) => {
      const round = roundOf(ctx, ctx.arg.openRound);
      const dso = ctx.contract.dso ?? null;
      const validator = ctx.contract.validator ?? null;
      ctx.create(LICENSE_QN.license, { dso, validator, lastActiveAt: round.opensAt ?? null });
      return ctx.create(qn, { dso, validator, round: asText(round.round) });
    },
  };
}

const ValidatorLicense: TemplateDef = {
  module: 'Splice.ValidatorLicense',
  entity: 'ValidatorLicense',
  fields: [
    { name: 'dso', type: party },
    { name: 'validator', type: party },
    { name: 'lastActiveAt', type: { kind: 'Optional', elem: time } },
  ],
  signatories: ['dso'],
  observers: ['validator'],
  implements: [],
  choices: [
    recordChoice(
      'ValidatorLicense_RecordValidatorLivenessActivity',
      LICENSE_QN.livenessRecord,
      'the validator records its liveness in the open round',
    ),
    recordChoice(
      'ValidatorLicense_ReceiveFaucetCoupon',
      LICENSE_QN.faucetCoupon,
      'the validator receives its faucet coupon for the open round (pre-liveness-record form)',
    ),
  ],
};

const record = (entity: string): TemplateDef => ({
  module: 'Splice.ValidatorLicense',
  entity,
  fields: dsoValidatorRound,
  signatories: ['dso'],
  observers: ['validator'],
  implements: [],
  choices: [],
});

const SvRewardCoupon: TemplateDef = {
  module: 'Splice.Amulet',
  entity: 'SvRewardCoupon',
  fields: [
    { name: 'dso', type: party },
    { name: 'sv', type: party },
    { name: 'beneficiary', type: party },
    { name: 'round', type: int },
    { name: 'weight', type: int },
  ],
  signatories: ['dso'],
  observers: ['sv', 'beneficiary'],
  implements: [],
  choices: [],
};

export const validatorLicenseTemplates: TemplateDef[] = [
  ValidatorLicense,
  record('ValidatorFaucetCoupon'),
  record('ValidatorLivenessActivityRecord'),
  SvRewardCoupon,
];
