/**
 * Subscriptions of the wallet user (wallet-internal `listSubscriptionRequests`, `getSubscriptionRequest`,
 * `acceptSubscriptionRequest`, `rejectSubscriptionRequest`, `cancelSubscriptionRequest`,
 * `listSubscriptionInitialPayments`, `listSubscriptions`), over `templates-subscriptions.ts`. `cancelSubscriptionRequest`
 * (DELETE on a subscription-request path) takes the id of an idle subscription state and cancels the subscription, as
 * the Splice wallet UI uses it; the sender's automation pays due periods (`automation.ts`).
 */
import { microsToIso } from '../clock.js';
import type { ContractRow } from '../model.js';
import type { RequestCtx } from '../router.js';
import type { WalletApp } from './app.js';
import { num } from './coin.js';
import type { AddRoute } from './http.js';
import { empty, ok } from './http.js';
import { args } from './names.js';
import { SUB_QN } from './templates-subscriptions.js';
import { WalletError } from './types.js';
import { asText } from '../lf-text.js';

export function registerSubscriptionRoutes(add: AddRoute, user: (ctx: RequestCtx) => string, app: WalletApp): void {
  const mine = (party: string, qn: string) => app.contracts(party, qn).filter((c) => args(c).sender === party);
  const requestFor = (party: string, cid: string): ContractRow => {
    const c = mine(party, SUB_QN.request).find((x) => x.contractId === cid);
    if (!c) throw new WalletError(404, `No subscription request ${cid} for ${party}`);
    return c;
  };

  add('GET', '/v0/wallet/subscription-requests', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    return ok({ subscription_requests: mine(party, SUB_QN.request).map((c) => app.contractJson(c)) });
  });
  add('GET', '/v0/wallet/subscription-requests/{contract_id}', (ctx) =>
    ok(app.contractJson(requestFor(app.partyOf(user(ctx)), ctx.params.contract_id ?? ''))),
  );
  add('POST', '/v0/wallet/subscription-requests/{contract_id}/accept', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    const c = requestFor(party, ctx.params.contract_id ?? '');
    const a = args(c);
    const inputs = app.selectInputs(party, num(a.paymentAmount));
    const now = app.nowMicros();
    const r = app.exercise([party, app.dso], SUB_QN.request, c.contractId, 'SubscriptionRequest_AcceptAndMakePayment', {
      inputs,
      amuletRules: app.rules(),
      openRound: app.openRound().cid,
      lockExpiresAt: microsToIso(now + BigInt(asText(a.paymentIntervalMicros))),
    });
    app.log(
      [party],
      {
        transaction_type: 'notification',
        choice: 'SubscriptionRequest_AcceptAndMakePayment',
        template: SUB_QN.request,
        event_id: r.res.updateId,
        details: `Subscribed to ${asText(a.description)} (first payment locked to ${asText(a.provider)})`,
      },
      r.res,
    );
    return ok({ initial_payment_contract_id: asText(r.result) });
  });
  add('POST', '/v0/wallet/subscription-requests/{contract_id}/reject', (ctx) => {
    const party = app.partyOf(user(ctx));
    const c = requestFor(party, ctx.params.contract_id ?? '');
    const r = app.exercise([party], SUB_QN.request, c.contractId, 'SubscriptionRequest_Reject', {});
    app.log(
      [party],
      {
        transaction_type: 'notification',
        choice: 'SubscriptionRequest_Reject',
        template: SUB_QN.request,
        event_id: r.res.updateId,
        details: 'Subscription request rejected',
      },
      r.res,
    );
    return empty();
  });
  add('DELETE', '/v0/wallet/subscription-requests/{contract_id}', (ctx) => {
    const party = app.partyOf(user(ctx));
    const idle = mine(party, SUB_QN.idle).find((x) => x.contractId === ctx.params.contract_id);
    if (!idle) throw new WalletError(404, `No idle subscription state ${ctx.params.contract_id ?? ''} of ${party}`);
    const r = app.exercise([party], SUB_QN.idle, idle.contractId, 'SubscriptionIdleState_CancelSubscription', {});
    app.log(
      [party],
      {
        transaction_type: 'notification',
        choice: 'SubscriptionIdleState_CancelSubscription',
        template: SUB_QN.idle,
        event_id: r.res.updateId,
        details: 'Subscription cancelled',
      },
      r.res,
    );
    return empty();
  });
  add('GET', '/v0/wallet/subscription-initial-payments', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    return ok({ initial_payments: mine(party, SUB_QN.initial).map((c) => app.contractJson(c)) });
  });
  add('GET', '/v0/wallet/subscriptions', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    const idle = mine(party, SUB_QN.idle);
    const paying = mine(party, SUB_QN.payment);
    const subscriptions = mine(party, SUB_QN.subscription).flatMap((s) => {
      const i = idle.find((x) => args(x).subscription === s.contractId);
      const p = paying.find((x) => args(x).subscription === s.contractId);
      const state = i ? { idle: app.contractJson(i) } : p ? { payment: app.contractJson(p) } : undefined;
      return state ? [{ subscription: app.contractJson(s), state }] : [];
    });
    return ok({ subscriptions });
  });
}
