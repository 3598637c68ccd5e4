/**
 * Wallet-internal endpoints for rewards and featured-app rights: `selfGrantFeatureAppRight` (DevNet self-grant
 * through `AmuletRules_DevNet_FeatureApp`), `cancelFeaturedAppRights` (`FeaturedAppRight_Cancel`),
 * `listAppRewardCoupons` (coupons the user's party is the provider of) and `listValidatorRewardCoupons` (coupons
 * whose user is the user's party). The coupons come from transfers; the automation collects them once their round
 * has closed (`automation.ts`). Also `listValidatorFaucetCoupons` / `listValidatorLivenessActivityRecords` (whose
 * validator is the user's party: the validator operator's wallet; records come from the liveness automation) and
 * `listSvRewardCoupons` (whose beneficiary is the user's party), see `templates-validator-license.ts`.
 */
import type { RequestCtx } from '../router.js';
import type { WalletApp } from './app.js';
import type { AddRoute } from './http.js';
import { empty, ok } from './http.js';
import { args, T } from './names.js';
import { LICENSE_QN } from './templates-validator-license.js';
import { asText } from '../lf-text.js';

const MAX_LISTED = 1000; // the spec's "Includes only up to 1000 elements"

export function registerRewardRoutes(add: AddRoute, user: (ctx: RequestCtx) => string, app: WalletApp): void {
  add('POST', '/v0/wallet/self-grant-feature-app-right', (ctx) => {
    const party = app.partyOf(user(ctx));
    const existing = app.featuredAppRightOf(party);
    if (existing) return ok({ contract_id: existing.contractId });
    const r = app.exercise([party, app.dso], T.rules, app.rules(), 'AmuletRules_DevNet_FeatureApp', { provider: party });
    app.log(
      [party],
      {
        transaction_type: 'notification',
        choice: 'AmuletRules_DevNet_FeatureApp',
        template: T.rules,
        event_id: r.res.updateId,
        details: 'Featured app right granted',
      },
      r.res,
    );
    return ok({ contract_id: asText(r.result) });
  });
  add('DELETE', '/v0/wallet/cancel-featured-app-rights', (ctx) => {
    const party = app.partyOf(user(ctx));
    for (const c of app.contracts(party, T.featured).filter((x) => args(x).provider === party)) {
      const r = app.exercise([party], T.featured, c.contractId, 'FeaturedAppRight_Cancel', {});
      app.log(
        [party],
        {
          transaction_type: 'notification',
          choice: 'FeaturedAppRight_Cancel',
          template: T.featured,
          event_id: r.res.updateId,
          details: 'Featured app right cancelled',
        },
        r.res,
      );
    }
    return empty();
  });
  add('GET', '/v0/wallet/app-reward-coupons', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    const coupons = app
      .contracts(party, T.appCoupon)
      .filter((c) => args(c).provider === party)
      .slice(0, MAX_LISTED);
    return ok({ app_reward_coupons: coupons.map((c) => app.contractJson(c)) });
  });
  add('GET', '/v0/wallet/validator-reward-coupons', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    const coupons = app
      .contracts(party, T.validatorCoupon)
      .filter((c) => args(c).user === party)
      .slice(0, MAX_LISTED);
    return ok({ validator_reward_coupons: coupons.map((c) => app.contractJson(c)) });
  });

  const listed = (qn: string, role: string, key: string): void =>
    add('GET', `/v0/wallet/${key.replaceAll('_', '-')}`, (ctx) => {
      const party = app.partyOf(user(ctx));
      app.runAutomation();
      const found = app
        .contracts(party, qn)
        .filter((c) => args(c)[role] === party)
        .slice(0, MAX_LISTED);
      return ok({ [key]: found.map((c) => app.contractJson(c)) });
    });
  listed(LICENSE_QN.faucetCoupon, 'validator', 'validator_faucet_coupons');
  listed(LICENSE_QN.livenessRecord, 'validator', 'validator_liveness_activity_records');
  listed(LICENSE_QN.svRewardCoupon, 'beneficiary', 'sv_reward_coupons');
}
