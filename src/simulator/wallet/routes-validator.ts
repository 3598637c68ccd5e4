/**
 * Further validator-internal and wallet-internal endpoints: `getValidatorUserInfo` (public), `register` (self-onboarding
 * of the JWT's subject), `featureSupport`, and the operator's view of the TransferPreapprovals it provides
 * (`listTransferPreapprovals`, `lookupTransferPreapprovalByParty`, `cancelTransferPreapprovalByParty`).
 */
import type { RequestCtx } from '../router.js';
import type { WalletApp } from './app.js';
import { WalletError } from './app.js';
import type { AddRoute } from './http.js';
import { empty, ok } from './http.js';
import { args, T } from './names.js';
import { asText } from '../lf-text.js';

export function registerValidatorInfoRoutes(
  add: AddRoute,
  user: (ctx: RequestCtx) => string,
  admin: (ctx: RequestCtx) => void,
  app: WalletApp,
): void {
  add('GET', '/v0/validator-user', () => {
    app.init();
    return ok({
      party_id: app.validatorParty,
      user_name: app.config.validatorWalletUser,
      featured: app.featuredAppRightOf(app.validatorParty) !== undefined,
    });
  });
  add('POST', '/v0/register', (ctx) => ok({ party_id: app.onboard(user(ctx)) }));
  // what this validator's wallet serves: token-standard (v0) transfers; preapproval sends take a description
  add('GET', '/v0/feature-support', () => ok({ token_standard: true, transfer_preapproval_description: true }));

  const provided = () => app.contracts(app.validatorParty, T.preapproval).filter((c) => args(c).provider === app.validatorParty);
  const byParty = (party: string) => {
    const c = provided().find((x) => args(x).receiver === party);
    if (!c) throw new WalletError(404, `No TransferPreapproval provided by this validator for ${party}`);
    return c;
  };
  add('GET', '/v0/admin/transfer-preapprovals', (ctx) => {
    admin(ctx);
    app.runAutomation();
    return ok({ contracts: provided().map((c) => ({ contract: app.contractJson(c), domain_id: c.synchronizerId })) });
  });
  add('GET', '/v0/admin/transfer-preapprovals/by-party/{receiver-party}', (ctx) => {
    admin(ctx);
    app.runAutomation();
    const c = byParty(ctx.params['receiver-party'] ?? '');
    return ok({ transfer_preapproval: { contract: app.contractJson(c), domain_id: c.synchronizerId } });
  });
  add('DELETE', '/v0/admin/transfer-preapprovals/by-party/{receiver-party}', (ctx) => {
    admin(ctx);
    const c = byParty(ctx.params['receiver-party'] ?? '');
    const r = app.exercise([app.validatorParty], T.preapproval, c.contractId, 'TransferPreapproval_Cancel', { p: app.validatorParty });
    app.log(
      [asText(args(c).receiver)],
      {
        transaction_type: 'notification',
        choice: 'TransferPreapproval_Cancel',
        template: T.preapproval,
        event_id: r.res.updateId,
        details: 'Transfer preapproval cancelled by its provider',
      },
      r.res,
    );
    return empty();
  });
}
