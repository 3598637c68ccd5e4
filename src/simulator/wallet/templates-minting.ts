/**
 * Minting delegations (`Splice.Wallet.MintingDelegation`, names as in Splice): a beneficiary (typically an external
 * party hosted on this validator) proposes that a wallet user of the validator (the delegate) mints its rewards; the
 * delegate accepts (`MintingDelegationProposal_Accept`, replacing an earlier delegation of the same beneficiary) or
 * rejects; the delegate's automation then mints the beneficiary's closed-round reward coupons and merges its amulets
 * down to `amuletMergeLimit` (`MintingDelegation_Mint`, `MintingDelegation_Merge`) until `expiresAt`; the delegate
 * can terminate it (`MintingDelegation_Reject`).
 *
 * Simplifications: the delegation's fields are flat (Splice nests them in `delegation`), minting covers validator and
 * app reward coupons (the coupon kinds this simulator issues), expiry is checked by the automation.
 */
import type { LfValue } from '../model.js';
import type { FieldDef, TemplateDef } from '../packages/types.js';
import { cid, cids, int, party, time } from './coin.js';
import { asText } from '../lf-text.js';

export const MINTING_QN = {
  proposal: 'Splice.Wallet.MintingDelegation:MintingDelegationProposal',
  delegation: 'Splice.Wallet.MintingDelegation:MintingDelegation',
} as const;

const fields: FieldDef[] = [
  { name: 'beneficiary', type: party },
  { name: 'delegate', type: party },
  { name: 'dso', type: party },
  { name: 'expiresAt', type: time },
  { name: 'amuletMergeLimit', type: int },
];
const roundArg: FieldDef = { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') };
const rulesArg: FieldDef = { name: 'amuletRules', type: cid('Splice.AmuletRules:AmuletRules') };
const pick = (c: Record<string, LfValue>) => Object.fromEntries(fields.map((f) => [f.name, c[f.name] ?? null]));

const MintingDelegationProposal: TemplateDef = {
  module: 'Splice.Wallet.MintingDelegation',
  entity: 'MintingDelegationProposal',
  fields,
  signatories: ['beneficiary'],
  observers: ['delegate'],
  ensureDescription: 'amuletMergeLimit ≥ 1',
  ensure: (a) => (BigInt(asText(a.amuletMergeLimit ?? '0')) < 1n ? 'amuletMergeLimit must be at least 1' : undefined),
  implements: [],
  choices: [
    {
      name: 'MintingDelegationProposal_Accept',
      consuming: true,
      argument: [{ name: 'existingDelegationCid', type: { kind: 'Optional', elem: cid(MINTING_QN.delegation) } }],
      returnType: cid(MINTING_QN.delegation),
      controllers: [{ contract: 'delegate' }],
      description: 'the delegate accepts (an existing delegation of the same beneficiary is replaced)',
      body: (ctx) => {
        const existing = ctx.arg.existingDelegationCid;
        if (existing !== null && existing !== undefined) {
          const d = ctx.fetch(asText(existing), MINTING_QN.delegation);
          if (d.beneficiary !== ctx.contract.beneficiary) ctx.fail('the existing delegation is for another beneficiary');
          ctx.exercise(asText(existing), 'Archive', {});
        }
        return ctx.create(MINTING_QN.delegation, pick(ctx.contract));
      },
    },
    {
      name: 'MintingDelegationProposal_Reject',
      consuming: true,
      argument: [],
      returnType: { kind: 'Unit' },
      controllers: [{ contract: 'delegate' }],
      description: 'the delegate declines',
      body: () => ({}),
    },
  ],
};

const MintingDelegation: TemplateDef = {
  module: 'Splice.Wallet.MintingDelegation',
  entity: 'MintingDelegation',
  fields,
  signatories: ['beneficiary', 'delegate'],
  observers: [],
  implements: [],
  choices: [
    {
      name: 'MintingDelegation_Mint',
      consuming: false,
      argument: [
        rulesArg,
        { name: 'validatorRights', type: cids('Splice.Amulet:ValidatorRight') },
        { name: 'validatorRewardCoupons', type: cids('Splice.Amulet:ValidatorRewardCoupon') },
        { name: 'appRewardCoupons', type: cids('Splice.Amulet:AppRewardCoupon') },
        roundArg,
      ],
      returnType: { kind: 'Optional', elem: cid('Splice.Amulet:Amulet') },
      controllers: [{ contract: 'delegate' }],
      description: 'the delegate mints the beneficiary’s closed-round reward coupons into an amulet of the beneficiary',
      body: (ctx) =>
        ctx.exercise(asText(ctx.arg.amuletRules), 'AmuletRules_CollectRewards', {
          beneficiary: ctx.contract.beneficiary ?? null,
          validatorRights: ctx.arg.validatorRights ?? [],
          validatorRewardCoupons: ctx.arg.validatorRewardCoupons ?? [],
          appRewardCoupons: ctx.arg.appRewardCoupons ?? [],
          openRound: ctx.arg.openRound ?? null,
        }),
    },
    {
      name: 'MintingDelegation_Merge',
      consuming: false,
      argument: [rulesArg, { name: 'inputs', type: cids('Splice.Amulet:Amulet') }, roundArg],
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ contract: 'delegate' }],
      description: 'the delegate merges the beneficiary’s amulets (at most 100 inputs)',
      body: (ctx) =>
        ctx.exercise(asText(ctx.arg.amuletRules), 'AmuletRules_Merge', {
          owner: ctx.contract.beneficiary ?? null,
          inputs: ctx.arg.inputs ?? [],
          openRound: ctx.arg.openRound ?? null,
        }),
    },
    {
      name: 'MintingDelegation_Reject',
      consuming: true,
      argument: [],
      returnType: { kind: 'Unit' },
      controllers: [{ contract: 'delegate' }],
      description: 'the delegate terminates the delegation',
      body: () => ({}),
    },
  ],
};

export const mintingTemplates: TemplateDef[] = [MintingDelegationProposal, MintingDelegation];
