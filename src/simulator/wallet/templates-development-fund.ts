/**
 * The development fund of `splice-amulet` (names as in Splice): the DSO issues the fund's share of each round as an
 * `UnclaimedDevelopmentFundCoupon` (dso, amount); the fund manager named on `AmuletRules` (`developmentFundManager`)
 * allocates part of the pool to a beneficiary with `AmuletRules_AllocateDevelopmentFundCoupon` — consuming unclaimed
 * coupons, creating a `DevelopmentFundCoupon` (dso, beneficiary, fundManager, amount, expiresAt, reason) and returning
 * the rest as a new unclaimed coupon. The coupon ends in one of four ways, each returning its amount to the pool except
 * a claim: `DevelopmentFundCoupon_Withdraw {reason}` (fund manager), `DevelopmentFundCoupon_Reject {reason}`
 * (beneficiary), `DevelopmentFundCoupon_DsoExpire` (DSO, once `expiresAt` passed) and `DevelopmentFundCoupon_Claim`
 * (beneficiary: a new amulet of the amount).
 *
 * Simplifications: Splice's beneficiary claims a coupon by passing it as a transfer input (`AmuletRules_Transfer`);
 * here the simulator-specific `DevelopmentFundCoupon_Claim` mints it directly. Expiry is checked by the automation
 * (the interpreter has no ledger time), the manager check reads `AmuletRules.developmentFundManager`.
 */
import type { ChoiceDef, FieldType, TemplateDef } from '../packages/types.js';
import { cid, cids, fmt, newAmulet, num, numeric, party, roundOf, text, time } from './coin.js';
import { asText } from '../lf-text.js';

export const DEV_FUND_QN = {
  unclaimed: 'Splice.Amulet:UnclaimedDevelopmentFundCoupon',
  coupon: 'Splice.Amulet:DevelopmentFundCoupon',
} as const;

/** The AmuletRules field naming the fund manager (None: no fund manager, allocation refused). */
export const developmentFundManagerField = { name: 'developmentFundManager', type: { kind: 'Optional', elem: party } as FieldType };

const UnclaimedDevelopmentFundCoupon: TemplateDef = {
  module: 'Splice.Amulet',
  entity: 'UnclaimedDevelopmentFundCoupon',
  fields: [
    { name: 'dso', type: party },
    { name: 'amount', type: numeric },
  ],
  signatories: ['dso'],
  observers: [],
  ensureDescription: 'amount > 0',
  ensure: (a) => (num(a.amount) <= 0n ? 'unclaimed development fund amount must be positive' : undefined),
  implements: [],
  choices: [],
};

/** A choice ending the coupon that returns its amount to the pool (the new unclaimed coupon's id). */
function backToPool(name: string, controller: string, withReason: boolean, description: string): ChoiceDef {
  return {
    name,
    consuming: true,
    argument: withReason ? [{ name: 'reason', type: text }] : [],
    returnType: cid(DEV_FUND_QN.unclaimed),
    controllers: [{ contract: controller }],
    description,
    body: (ctx) => ctx.create(DEV_FUND_QN.unclaimed, { dso: ctx.contract.dso ?? null, amount: ctx.contract.amount ?? null }),
  };
}

const DevelopmentFundCoupon: TemplateDef = {
  module: 'Splice.Amulet',
  entity: 'DevelopmentFundCoupon',
  fields: [
    { name: 'dso', type: party },
    { name: 'beneficiary', type: party },
    { name: 'fundManager', type: party },
    { name: 'amount', type: numeric },
    { name: 'expiresAt', type: time },
    { name: 'reason', type: text },
  ],
  signatories: ['dso'],
  observers: ['beneficiary', 'fundManager'],
  ensureDescription: 'amount > 0',
  ensure: (a) => (num(a.amount) <= 0n ? 'development fund coupon amount must be positive' : undefined),
  implements: [],
  choices: [
    backToPool(
      'DevelopmentFundCoupon_Withdraw',
      'fundManager',
      true,
      'the fund manager withdraws the coupon: its amount returns to the pool',
    ),
    backToPool('DevelopmentFundCoupon_Reject', 'beneficiary', true, 'the beneficiary rejects the coupon: its amount returns to the pool'),
    backToPool(
      'DevelopmentFundCoupon_DsoExpire',
      'dso',
      false,
      'the DSO expires the coupon after expiresAt: its amount returns to the pool',
    ),
    {
      name: 'DevelopmentFundCoupon_Claim',
      consuming: true,
      argument: [{ name: 'openRound', type: cid('Splice.Round:OpenMiningRound') }],
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ contract: 'beneficiary' }],
      description: 'the beneficiary claims the coupon: a new amulet of its amount',
      body: (ctx) =>
        newAmulet(
          ctx,
          ctx.contract.dso ?? null,
          ctx.contract.beneficiary ?? null,
          num(ctx.contract.amount),
          roundOf(ctx, ctx.arg.openRound),
        ),
    },
  ],
};

/** `AmuletRules_AllocateDevelopmentFundCoupon` (see the module comment). */
export const allocateDevelopmentFundCoupon: ChoiceDef = {
  name: 'AmuletRules_AllocateDevelopmentFundCoupon',
  consuming: false,
  argument: [
    { name: 'unclaimedDevelopmentFundCouponCids', type: cids(DEV_FUND_QN.unclaimed) },
    { name: 'beneficiary', type: party },
    { name: 'amount', type: numeric },
    { name: 'expiresAt', type: time },
    { name: 'reason', type: text },
    { name: 'fundManager', type: party },
  ],
  returnType: {
    kind: 'Record',
    name: 'Splice.AmuletRules:AmuletRules_AllocateDevelopmentFundCouponResult',
    fields: [
      { name: 'developmentFundCouponCid', type: cid(DEV_FUND_QN.coupon) },
      { name: 'optUnclaimedDevelopmentFundCouponCid', type: { kind: 'Optional', elem: cid(DEV_FUND_QN.unclaimed) } },
    ],
  },
  controllers: [{ argument: 'fundManager' }],
  description: 'the fund manager allocates part of the unclaimed development fund to a beneficiary',
  body: (ctx) => {
    const a = ctx.arg;
    const dso = ctx.contract.dso ?? null;
    const manager = ctx.contract.developmentFundManager;
    if (manager === undefined || manager === null) ctx.fail('no development fund manager is configured on AmuletRules');
    if (manager !== a.fundManager) ctx.fail(`${asText(a.fundManager)} is not the development fund manager`);
    const amount = num(a.amount);
    if (amount <= 0n) ctx.fail('amount must be positive');
    let total = 0n;
    for (const c of (a.unclaimedDevelopmentFundCouponCids as string[] | null) ?? []) {
      total += num(ctx.fetch(c, DEV_FUND_QN.unclaimed).amount);
      ctx.exercise(c, 'Archive', {});
    }
    if (total < amount) ctx.fail(`the unclaimed coupons hold ${fmt(total)}, the allocation needs ${fmt(amount)}`);
    const coupon = ctx.create(DEV_FUND_QN.coupon, {
      dso,
      beneficiary: a.beneficiary ?? null,
      fundManager: a.fundManager ?? null,
      amount: fmt(amount),
      expiresAt: a.expiresAt ?? null,
      reason: a.reason ?? null,
    });
    const rest = total > amount ? ctx.create(DEV_FUND_QN.unclaimed, { dso, amount: fmt(total - amount) }) : null;
    return { developmentFundCouponCid: coupon, optUnclaimedDevelopmentFundCouponCid: rest };
  },
};

export const developmentFundTemplates: TemplateDef[] = [UnclaimedDevelopmentFundCoupon, DevelopmentFundCoupon];
