/**
 * App payments of the wallet user (wallet-internal `listAppPaymentRequests`, `getAppPaymentRequest`,
 * `acceptAppPaymentRequest`, `rejectAppPaymentRequest`, `listAcceptedAppPayments`): requests addressed to the user's
 * party (created by apps on the ledger) are listed, accepted (funds locked to the provider, `templates-payments.ts`)
 * or rejected; accepted payments stay listed until the provider collects or rejects them.
 */
import type { ContractRow } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import type { RequestCtx } from '../router.js';
import type { WalletApp } from './app.js';
import { num } from './coin.js';
import type { AddRoute } from './http.js';
import { empty, ok } from './http.js';
import { args } from './names.js';
import { PAYMENT_QN } from './templates-payments.js';
import { WalletError } from './types.js';
import { asText } from '../lf-text.js';

export function registerPaymentRoutes(add: AddRoute, user: (ctx: RequestCtx) => string, app: WalletApp): void {
  const withState = (c: ContractRow) => ({ contract: app.contractJson(c), domain_id: c.synchronizerId });
  const requestsOf = (party: string) => app.contracts(party, PAYMENT_QN.request).filter((c) => args(c).sender === party);
  const requestFor = (party: string, cid: string): ContractRow => {
    const c = requestsOf(party).find((x) => x.contractId === cid);
    if (!c) throw new WalletError(404, `No app payment request ${cid} for ${party}`);
    return c;
  };

  add('GET', '/v0/wallet/app-payment-requests', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    return ok({ payment_requests: requestsOf(party).map(withState) });
  });
  add('GET', '/v0/wallet/app-payment-requests/{contract_id}', (ctx) => {
    const party = app.partyOf(user(ctx));
    return ok(withState(requestFor(party, ctx.params.contract_id ?? '')));
  });
  add('POST', '/v0/wallet/app-payment-requests/{contract_id}/accept', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    const c = requestFor(party, ctx.params.contract_id ?? '');
    const a = args(c);
    if (BigInt(Date.parse(asText(a.expiresAt))) * 1000n <= app.nowMicros()) throw new WalletError(400, 'The payment request has expired');
    const total = ((a.receiverAmounts as LfRecord[] | null) ?? []).reduce((s, r) => s + num(r.amuletAmount), 0n);
    const inputs = app.selectInputs(party, total);
    const r = app.exercise([party, app.dso], PAYMENT_QN.request, c.contractId, 'AppPaymentRequest_Accept', {
      inputs,
      amuletRules: app.rules(),
      openRound: app.openRound().cid,
    });
    app.log(
      [party],
      {
        transaction_type: 'notification',
        choice: 'AppPaymentRequest_Accept',
        template: PAYMENT_QN.request,
        event_id: r.res.updateId,
        details: `App payment to ${asText(a.provider)} accepted: ${asText(a.description)} (funds locked until the provider collects)`,
      },
      r.res,
    );
    return ok({ accepted_payment_contract_id: asText(r.result) });
  });
  add('POST', '/v0/wallet/app-payment-requests/{contract_id}/reject', (ctx) => {
    const party = app.partyOf(user(ctx));
    const c = requestFor(party, ctx.params.contract_id ?? '');
    const r = app.exercise([party], PAYMENT_QN.request, c.contractId, 'AppPaymentRequest_Reject', {});
    app.log(
      [party],
      {
        transaction_type: 'notification',
        choice: 'AppPaymentRequest_Reject',
        template: PAYMENT_QN.request,
        event_id: r.res.updateId,
        details: 'App payment request rejected',
      },
      r.res,
    );
    return empty();
  });
  add('GET', '/v0/wallet/accepted-app-payments', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    return ok({
      accepted_app_payments: app
        .contracts(party, PAYMENT_QN.accepted)
        .filter((c) => args(c).sender === party)
        .map(withState),
    });
  });
}
