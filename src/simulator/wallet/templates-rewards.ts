/**
 * Reward and featured-app templates of `splice-amulet` (names as in Splice): `Splice.Amulet:ValidatorRewardCoupon`
 * (user = the sender of a transfer; collected by the validator hosting that user, proven by its `ValidatorRight`),
 * `Splice.Amulet:AppRewardCoupon` (provider = the sender; `featured` when it holds a `FeaturedAppRight`) and
 * `Splice.Amulet:FeaturedAppRight`. Coupons are issued by the transfer choices (`issueRewardCoupons`), weighted by the
 * transferred amount, for the round of the transfer.
 *
 * Simplification: Splice mints rewards inside `AmuletRules_Transfer` from coupons of an *issuing* round with that
 * round's issuance; here `AmuletRules_CollectRewards` (simulator-specific) mints once a coupon's round has closed,
 * at the reward rates (CC per CC of coupon weight) carried by the current open round.
 */
import type { LfValue } from '../model.js';
import type { ChoiceContext, ChoiceDef, FieldType, LfRecord, TemplateDef } from '../packages/types.js';
import { cid, cids, fmt, int, int64, newAmulet, num, numeric, party } from './coin.js';
import { asText } from '../lf-text.js';

const bool: FieldType = { kind: 'Bool' };

const ValidatorRewardCoupon: TemplateDef = {
  module: 'Splice.Amulet',
  entity: 'ValidatorRewardCoupon',
  fields: [
    { name: 'dso', type: party },
    { name: 'user', type: party },
    { name: 'amount', type: numeric },
    { name: 'round', type: int },
  ],
  signatories: ['dso'],
  observers: ['user'],
  implements: [],
  choices: [],
};

const AppRewardCoupon: TemplateDef = {
  module: 'Splice.Amulet',
  entity: 'AppRewardCoupon',
  fields: [
    { name: 'dso', type: party },
    { name: 'provider', type: party },
    { name: 'featured', type: bool },
    { name: 'amount', type: numeric },
    { name: 'round', type: int },
  ],
  signatories: ['dso'],
  observers: ['provider'],
  implements: [],
  choices: [],
};

const FeaturedAppRight: TemplateDef = {
  module: 'Splice.Amulet',
  entity: 'FeaturedAppRight',
  fields: [
    { name: 'dso', type: party },
    { name: 'provider', type: party },
  ],
  signatories: ['dso'],
  observers: ['provider'],
  implements: [],
  choices: [
    {
      name: 'FeaturedAppRight_Cancel',
      consuming: true,
      argument: [],
      returnType: { kind: 'Unit' },
      controllers: [{ contract: 'provider' }],
      description: 'the provider gives up its featured status',
      body: () => ({}),
    },
    {
      name: 'FeaturedAppRight_Withdraw',
      consuming: true,
      argument: [],
      returnType: { kind: 'Unit' },
      controllers: [{ contract: 'dso' }],
      description: 'the DSO withdraws the featured status',
      body: () => ({}),
    },
  ],
};

export const rewardTemplates: TemplateDef[] = [ValidatorRewardCoupon, AppRewardCoupon, FeaturedAppRight];

/** Argument a transfer choice takes to mark its app reward as featured. */
export const featuredAppRightArg = {
  name: 'featuredAppRight',
  type: { kind: 'Optional', elem: cid('Splice.Amulet:FeaturedAppRight') } as FieldType,
};

/** Creates the validator and app reward coupons of a transfer of `amount` by `sender` in `round` (needs dso authority). */
export function issueRewardCoupons(
  ctx: ChoiceContext,
  dso: LfValue,
  sender: LfValue,
  amount: bigint,
  round: LfRecord,
  featuredAppRight: LfValue | undefined,
): void {
  let featured = false;
  if (featuredAppRight !== null && featuredAppRight !== undefined) {
    const right = ctx.fetch(asText(featuredAppRight), 'Splice.Amulet:FeaturedAppRight');
    if (right.provider !== sender || right.dso !== dso) ctx.fail('the featured app right is not the provider’s');
    featured = true;
  }
  const r = asText(round.round);
  ctx.create('Splice.Amulet:ValidatorRewardCoupon', { dso, user: sender, amount: fmt(amount), round: r });
  ctx.create('Splice.Amulet:AppRewardCoupon', { dso, provider: sender, featured, amount: fmt(amount), round: r });
}

/** `AmuletRules_DevNet_FeatureApp` (DevNet self-grant, as in Splice) — the provider gets a FeaturedAppRight. */
export const devNetFeatureApp: ChoiceDef = {
  name: 'AmuletRules_DevNet_FeatureApp',
  consuming: false,
  argument: [{ name: 'provider', type: party }],
  returnType: cid('Splice.Amulet:FeaturedAppRight'),
  controllers: [{ argument: 'provider' }],
  description: 'DevNet: the provider grants itself a FeaturedAppRight',
  body: (ctx) => {
    if (ctx.contract.isDevNet !== true) ctx.fail('self-granting featured app rights is only available on DevNet');
    return ctx.create('Splice.Amulet:FeaturedAppRight', { dso: ctx.contract.dso ?? null, provider: ctx.arg.provider ?? null });
  },
};

/** Simulator-specific: mints the rewards of closed-round coupons to the beneficiary (see the module comment). */
export const collectRewards: ChoiceDef = {
  name: 'AmuletRules_CollectRewards',
  consuming: false,
  argument: [
    { name: 'beneficiary', type: party },
    { name: 'validatorRights', type: cids('Splice.Amulet:ValidatorRight') },
    { name: 'validatorRewardCoupons', type: cids('Splice.Amulet:ValidatorRewardCoupon') },
    { name: 'appRewardCoupons', type: cids('Splice.Amulet:AppRewardCoupon') },
    { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') },
  ],
  returnType: { kind: 'Optional', elem: cid('Splice.Amulet:Amulet') },
  controllers: [{ argument: 'beneficiary' }],
  description: 'collects closed-round validator and app reward coupons of the beneficiary into one new amulet',
  body: (ctx) => {
    const a = ctx.arg;
    const round = ctx.fetch(asText(a.openRound), 'Splice.Round:OpenMiningRound');
    const current = int64(round.round);
    const hosted = new Set(
      ((a.validatorRights as LfValue[] | null) ?? []).map((r) => {
        const right = ctx.fetch(asText(r), 'Splice.Amulet:ValidatorRight');
        if (right.validator !== a.beneficiary) ctx.fail(`ValidatorRight ${asText(r)} names another validator`);
        return asText(right.user);
      }),
    );
    const scale = 10_000_000_000n;
    let minted = 0n;
    for (const c of (a.validatorRewardCoupons as LfValue[] | null) ?? []) {
      const coupon = ctx.fetch(asText(c), 'Splice.Amulet:ValidatorRewardCoupon');
      if (!hosted.has(asText(coupon.user))) ctx.fail(`the beneficiary does not host ${asText(coupon.user)} (no ValidatorRight)`);
      if (int64(coupon.round) >= current) ctx.fail(`coupon ${asText(c)} is for round ${asText(coupon.round)}, which has not closed`);
      minted += (num(coupon.amount) * num(round.validatorRewardRate)) / scale;
      ctx.exercise(asText(c), 'Archive', {});
    }
    for (const c of (a.appRewardCoupons as LfValue[] | null) ?? []) {
      const coupon = ctx.fetch(asText(c), 'Splice.Amulet:AppRewardCoupon');
      if (coupon.provider !== a.beneficiary) ctx.fail(`app reward coupon ${asText(c)} belongs to ${asText(coupon.provider)}`);
      if (int64(coupon.round) >= current) ctx.fail(`coupon ${asText(c)} is for round ${asText(coupon.round)}, which has not closed`);
      minted += (num(coupon.amount) * num(coupon.featured === true ? round.featuredAppRewardRate : round.appRewardRate)) / scale;
      ctx.exercise(asText(c), 'Archive', {});
    }
    return minted > 0n ? newAmulet(ctx, ctx.contract.dso ?? null, a.beneficiary ?? null, minted, round) : null;
  },
};

/** `Amulet_Expire`: the DSO archives a dust amulet whose accrued holding fee has reached its amount. */
export const amuletExpire: ChoiceDef = {
  name: 'Amulet_Expire',
  consuming: true,
  argument: [{ name: 'roundCid', type: cid('Splice.Round:OpenMiningRound') }],
  returnType: { kind: 'Unit' },
  controllers: [{ contract: 'dso' }],
  description: 'expires a dust amulet (holding fees accrued ≥ its amount)',
  body: (ctx) => {
    const round = ctx.fetch(asText(ctx.arg.roundCid), 'Splice.Round:OpenMiningRound');
    const elapsed = int64(round.round) - int64(ctx.contract.createdAtRound);
    if (elapsed * num(ctx.contract.ratePerRound) < num(ctx.contract.initialAmount))
      ctx.fail('the amulet is not expired: its amount exceeds the accrued holding fee');
    return {};
  },
};
