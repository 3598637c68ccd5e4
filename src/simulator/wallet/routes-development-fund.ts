/**
 * Development fund endpoints (wallet-internal `allocateDevelopmentFundCoupon`, `listActiveDevelopmentFundCoupons`,
 * `listDevelopmentFundCouponHistory`, `withdrawDevelopmentFundCoupon`) for the fund manager; see
 * `development-fund.ts`. A user that is not the fund manager gets an empty list / history and 403 for changes.
 */
import { z } from 'zod';
import type { RequestCtx } from '../router.js';
import type { WalletApp } from './app.js';
import { WalletError } from './app.js';
import { num } from './coin.js';
import type { DevelopmentFund } from './development-fund.js';
import type { AddRoute } from './http.js';
import { ok, parsedBody } from './http.js';

const MAX_LISTED = 1000; // the spec's "Includes only up to 1000 elements"
const amount = z.string().regex(/^\d+(\.\d{1,10})?$/, 'a positive decimal with at most 10 fractional digits');
const AllocateSchema = z.object({ beneficiary: z.string().min(1), amount, expiresAt: z.number().int(), reason: z.string() });
const WithdrawSchema = z.object({ reason: z.string() });
const intParam = (ctx: RequestCtx, name: string, required: boolean, min: number): number | undefined => {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') {
    if (required) throw new WalletError(400, `Missing required query parameter '${name}'`);
    return undefined;
  }
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < min)
    throw new WalletError(400, `Query parameter '${name}' must be an integer ≥ ${min}`);
  return Number(raw);
};

export function registerDevelopmentFundRoutes(
  add: AddRoute,
  user: (ctx: RequestCtx) => string,
  app: WalletApp,
  fund: DevelopmentFund,
): void {
  add('POST', '/v0/wallet/development-fund-coupons/allocate', async (ctx) => {
    const party = app.partyOf(user(ctx));
    const req = await parsedBody(ctx, AllocateSchema);
    app.runAutomation();
    const r = fund.allocate(party, {
      beneficiary: req.beneficiary,
      amount: num(req.amount),
      expiresAtMicros: BigInt(req.expiresAt),
      reason: req.reason,
    });
    return ok({
      development_fund_coupon_contract_id: r.coupon,
      ...(r.unclaimed !== undefined ? { unclaimed_development_fund_coupon_contract_id: r.unclaimed } : {}),
    });
  });
  add('GET', '/v0/wallet/development-fund-coupons', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    return ok({
      active_development_fund_coupons: fund
        .active(party)
        .slice(0, MAX_LISTED)
        .map((c) => app.contractJson(c)),
    });
  });
  add('GET', '/v0/wallet/development-fund-coupons/history', (ctx) => {
    const party = app.partyOf(user(ctx));
    const limit = intParam(ctx, 'limit', true, 1) as number;
    const after = intParam(ctx, 'after', false, 0) ?? 0;
    app.runAutomation();
    const h = fund.history(party, after, Math.min(limit, MAX_LISTED));
    return ok({ development_fund_coupon_history: h.items, ...(h.next !== undefined ? { next_page_token: h.next } : {}) });
  });
  add('POST', '/v0/wallet/development-fund-coupons/{contract_id}/withdraw', async (ctx) => {
    const party = app.partyOf(user(ctx));
    const req = await parsedBody(ctx, WithdrawSchema);
    app.runAutomation();
    return ok({ unclaimed_development_fund_coupon_contract_id: fund.withdraw(party, ctx.params.contract_id ?? '', req.reason) });
  });
}
