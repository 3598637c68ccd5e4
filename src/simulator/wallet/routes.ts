/**
 * Validator app HTTP API under `/api/validator` (the base of the Splice specs' `servers`): validator admin
 * (`/v0/admin/users`), wallet internal and wallet external endpoints. Errors use the Splice `ErrorResponse` shape
 * `{ "error": "..." }`.
 */
import { jwtSubject } from '../../common/jwt.js';
import { microsToIso } from '../clock.js';
import type { SimContext } from '../context.js';
import type { LedgerWriter } from '../ledger.js';
import type { RequestCtx, Router } from '../router.js';
import { z } from 'zod';
import { empty, ok, parsedBody, wrap } from './http.js';
import type { AddRoute } from './http.js';
import { fmt } from './package.js';
import type { WalletConfig } from './app.js';
import { WalletApp, WalletError } from './app.js';
import { LAST_TOPUP_KEY } from './automation.js';
import { setBackgroundAutomationTarget } from './background.js';
import { ExternalPartyWallet } from './external-party.js';
import { registerExternalPartyRoutes } from './routes-external-party.js';
import { registerMergeDelegationRoutes } from './routes-merge.js';
import { registerAllocationRoutes } from './routes-allocations.js';
import { registerAllocationRequestRoutes } from './routes-allocation-requests.js';
import { registerPaymentRoutes } from './routes-payments.js';
import { registerMintingRoutes } from './routes-minting.js';
import { registerRewardRoutes } from './routes-rewards.js';
import { registerSubscriptionRoutes } from './routes-subscriptions.js';
import { registerTokenTransferRoutes } from './routes-token-transfers.js';
import { registerRegistryRoutes } from './routes-registry.js';
import { registerValidatorInfoRoutes } from './routes-validator.js';
import { registerScanProxyRoutes } from './routes-scan-proxy.js';
import { registerParticipantRoutes } from './routes-participant.js';
import { registerDevelopmentFundRoutes } from './routes-development-fund.js';
import { DevelopmentFund } from './development-fund.js';

export const VALIDATOR_BASE = '/api/validator';

const micros = z.number().int();
const OnboardUserSchema = z.object({ name: z.string(), party_id: z.string().optional(), createPartyIfMissing: z.boolean().optional() });
const TapSchema = z.object({ amount: z.string(), command_id: z.string().optional() });
const ListTransactionsSchema = z.object({ page_size: z.number().int(), begin_after_id: z.string().optional() });
const PreapprovalSendSchema = z.object({
  receiver_party_id: z.string(),
  amount: z.string(),
  deduplication_id: z.string(),
  description: z.string().optional(),
});
const CreateOfferSchema = z.object({
  receiver_party_id: z.string(),
  amount: z.string(),
  description: z.string(),
  expires_at: micros,
  tracking_id: z.string(),
});
const BuyTrafficSchema = z.object({
  receiving_validator_party_id: z.string(),
  domain_id: z.string(),
  traffic_amount: z.number().int(),
  tracking_id: z.string(),
  expires_at: micros,
});
/** The simulator's own automation settings: app.setAutomationConfig checks them. */
const AutomationSettingsSchema = z.record(z.string(), z.unknown());

/**
 * The wallet user: `sub` of the bearer JWT. In the JWT auth modes the token was verified by the server
 * (auth.ts: signature, exp/nbf, audience/scope, issuer) and its outcome is in `ctx.auth`; in demo mode
 * (`none`) it is decoded, not verified. Missing or invalid → 401.
 */
function walletUser(ctx: RequestCtx): string {
  if (ctx.auth.mode === 'jwt') {
    if (!ctx.auth.result.ok) throw new WalletError(401, ctx.auth.result.error.message);
    return ctx.auth.result.userId;
  }
  const h = ctx.req.headers.authorization;
  if (h === undefined || h.trim() === '') throw new WalletError(401, 'Authorization header with a bearer JWT is required');
  const m = /^Bearer\s+(\S+)$/i.exec(h.trim());
  const sub = m?.[1] === undefined ? null : jwtSubject(m[1]);
  if (sub === null) throw new WalletError(401, 'The bearer token is not a JWT with a subject (sub)');
  return sub;
}

export function registerValidatorRoutes(
  router: Router,
  sim: SimContext,
  writer: LedgerWriter,
  config: Partial<WalletConfig> = {},
): WalletApp {
  // `settings.wallet` (startSimulator({ settings: { wallet: {...} } })) overrides the defaults; `config` overrides both
  const fromSettings = (sim.settings as unknown as { wallet?: Partial<WalletConfig> }).wallet ?? {};
  const app = new WalletApp(sim, writer, { ...fromSettings, ...config });
  setBackgroundAutomationTarget(sim, app);
  const add: AddRoute = (method, path, h) => router.add(method, VALIDATOR_BASE + path, wrap(h));
  const admin = (ctx: RequestCtx): void => {
    const u = walletUser(ctx);
    if (u !== app.config.validatorWalletUser)
      throw new WalletError(403, `User ${u} is not the validator operator (${app.config.validatorWalletUser})`);
  };

  // --- validator admin ---
  add('POST', '/v0/admin/users', async (ctx) => {
    admin(ctx);
    const b = await parsedBody(ctx, OnboardUserSchema);
    return ok({ party_id: app.onboard(b.name, b.party_id, b.createPartyIfMissing ?? false) });
  });
  add('GET', '/v0/admin/users', (ctx) => {
    admin(ctx);
    return ok({ usernames: app.listUsers() });
  });
  add('POST', '/v0/admin/users/offboard', (ctx) => {
    admin(ctx);
    const username = ctx.query.get('username');
    if (!username) throw new WalletError(400, "Missing required query parameter 'username'");
    app.offboard(username);
    return empty();
  });

  registerExternalPartyRoutes(add, admin, new ExternalPartyWallet(sim, writer, app));
  registerRewardRoutes(add, walletUser, app);
  registerValidatorInfoRoutes(add, walletUser, admin, app);
  registerParticipantRoutes(add, admin, sim);
  registerDevelopmentFundRoutes(add, walletUser, app, new DevelopmentFund(sim, app));
  registerMergeDelegationRoutes(add, walletUser, app);
  registerTokenTransferRoutes(add, walletUser, app);
  registerRegistryRoutes(add, walletUser, app);
  registerScanProxyRoutes(add, walletUser, app, sim);
  registerAllocationRoutes(add, walletUser, app);
  registerAllocationRequestRoutes(add, walletUser, app);
  registerPaymentRoutes(add, walletUser, app);
  registerSubscriptionRoutes(add, walletUser, app);
  registerMintingRoutes(add, walletUser, app);

  // --- simulator-specific: the automation settings (see automation-config.ts) ---
  add('GET', '/v0/sim/automation', (ctx) => {
    admin(ctx);
    return ok(app.automationConfig());
  });
  add('GET', '/v0/sim/traffic', (ctx) => {
    admin(ctx);
    app.runAutomation();
    const t = app.traffic();
    const last = sim.store.meta.get(LAST_TOPUP_KEY);
    return ok({
      purchased_bytes: t.purchased,
      consumed_bytes: t.consumed,
      extra_bytes: t.extra,
      last_topup_at: last ? microsToIso(BigInt(last)) : null,
    });
  });
  add('PUT', '/v0/sim/automation', async (ctx) => {
    admin(ctx);
    const updated = app.setAutomationConfig(await parsedBody(ctx, AutomationSettingsSchema));
    app.runAutomation();
    return ok(updated);
  });

  // --- wallet internal ---
  add('GET', '/v0/wallet/user-status', (ctx) => {
    const u = walletUser(ctx);
    const onboarded = app.isOnboarded(u);
    const party = onboarded ? app.partyOf(u) : '';
    return ok({
      party_id: party,
      user_onboarded: onboarded,
      user_wallet_installed: onboarded,
      has_featured_app_right: onboarded && app.featuredAppRightOf(party) !== undefined,
    });
  });
  add('GET', '/v0/wallet/balance', (ctx) => {
    const party = app.partyOf(walletUser(ctx));
    app.runAutomation();
    const b = app.balance(party);
    return ok({
      round: Number(b.round),
      effective_unlocked_qty: fmt(b.unlocked),
      effective_locked_qty: fmt(b.locked),
      total_holding_fees: fmt(b.fees),
    });
  });
  add('GET', '/v0/wallet/amulets', (ctx) => {
    const party = app.partyOf(walletUser(ctx));
    app.runAutomation();
    const p = app.positions(party);
    const pos = (x: (typeof p.amulets)[number]) => ({
      contract: { contract: app.contractJson(x.c), domain_id: x.c.synchronizerId },
      round: Number(p.round),
      accrued_holding_fee: fmt(x.fee),
      effective_amount: fmt(x.effective),
    });
    return ok({ amulets: p.amulets.map(pos), locked_amulets: p.locked.map(pos) });
  });
  add('POST', '/v0/wallet/tap', async (ctx) => {
    const u = walletUser(ctx);
    const b = await parsedBody(ctx, TapSchema);
    return ok({ contract_id: app.tap(u, b.amount) });
  });
  add('POST', '/v0/wallet/transactions', async (ctx) => {
    const u = walletUser(ctx);
    const b = await parsedBody(ctx, ListTransactionsSchema);
    return ok({ items: app.transactions(u, b.page_size, b.begin_after_id) });
  });
  add('POST', '/v0/wallet/transfer-offers/{contract_id}/accept', (ctx) =>
    ok({ accepted_offer_contract_id: app.offers.accept(walletUser(ctx), ctx.params.contract_id ?? '') }),
  );
  add('POST', '/v0/wallet/transfer-offers/{contract_id}/reject', (ctx) => {
    app.offers.reject(walletUser(ctx), ctx.params.contract_id ?? '');
    return empty();
  });
  add('POST', '/v0/wallet/transfer-offers/{contract_id}/withdraw', (ctx) => {
    app.offers.withdraw(walletUser(ctx), ctx.params.contract_id ?? '');
    return empty();
  });
  add('GET', '/v0/wallet/accepted-transfer-offers', (ctx) => ok({ accepted_offers: app.offers.listAccepted(walletUser(ctx)) }));

  add('POST', '/v0/wallet/transfer-preapproval', (ctx) => {
    const r = app.createPreapproval(walletUser(ctx));
    return { status: r.created ? 200 : 409, json: { transfer_preapproval_contract_id: r.cid } };
  });
  add('POST', '/v0/wallet/transfer-preapproval/send', async (ctx) => {
    const u = walletUser(ctx);
    const { description, ...b } = await parsedBody(ctx, PreapprovalSendSchema);
    app.preapprovalSend(u, { ...b, ...(description === undefined ? {} : { description }) });
    return empty();
  });

  // --- wallet external ---
  add('POST', '/v0/wallet/transfer-offers', async (ctx) => {
    const u = walletUser(ctx);
    const cid = app.offers.createOffer(u, await parsedBody(ctx, CreateOfferSchema));
    return ok({ offer_contract_id: cid });
  });
  add('GET', '/v0/wallet/transfer-offers', (ctx) => ok({ offers: app.offers.listOffers(walletUser(ctx)) }));
  add('POST', '/v0/wallet/transfer-offers/{tracking_id}/status', (ctx) =>
    ok(app.offers.offerStatus(walletUser(ctx), ctx.params.tracking_id ?? '')),
  );
  add('POST', '/v0/wallet/buy-traffic-requests', async (ctx) => {
    const u = walletUser(ctx);
    const cid = app.buyTraffic(u, await parsedBody(ctx, BuyTrafficSchema));
    return ok({ request_contract_id: cid });
  });
  add('POST', '/v0/wallet/buy-traffic-requests/{tracking_id}/status', (ctx) =>
    ok(app.trafficStatus(walletUser(ctx), ctx.params.tracking_id ?? '')),
  );
  return app;
}
