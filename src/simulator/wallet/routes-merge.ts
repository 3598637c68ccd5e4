/**
 * Simulator-specific merge-delegation endpoints (Splice has no HTTP API for them: wallets create the contracts on the
 * ledger). The wallet user's party proposes a `MergeDelegation` to the validator, whose automation accepts it and
 * from then on merges the user's holdings in batches (`automation.ts`).
 *
 * - `GET /v0/sim/merge-delegation` → `{ status: "none" | "proposed" | "active", contract_id? }`
 * - `POST /v0/sim/merge-delegation` → proposes (idempotent) and returns the status after the automation ran
 * - `DELETE /v0/sim/merge-delegation` → the owner cancels its active delegation (404 when there is none)
 */
import type { RequestCtx } from '../router.js';
import type { WalletApp } from './app.js';
import { WalletError } from './app.js';
import type { AddRoute } from './http.js';
import { ok } from './http.js';
import { MERGE_PACKAGE_NAME, MERGE_QN } from './merge-delegation.js';
import { args } from './names.js';

type MergeStatus = { status: 'none' | 'proposed' | 'active'; contract_id?: string };

function statusOf(app: WalletApp, party: string): MergeStatus {
  const mine = (qn: string) =>
    app.mergeContracts(party, qn).find((c) => args(c).owner === party && args(c).delegate === app.validatorParty);
  const active = mine(MERGE_QN.delegation);
  if (active) return { status: 'active', contract_id: active.contractId };
  const proposed = mine(MERGE_QN.proposal);
  return proposed ? { status: 'proposed', contract_id: proposed.contractId } : { status: 'none' };
}

export function registerMergeDelegationRoutes(add: AddRoute, user: (ctx: RequestCtx) => string, app: WalletApp): void {
  add('GET', '/v0/sim/merge-delegation', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    return ok(statusOf(app, party));
  });
  add('POST', '/v0/sim/merge-delegation', (ctx) => {
    const party = app.partyOf(user(ctx));
    if (statusOf(app, party).status === 'none') {
      const res = app.submit(
        [party],
        [
          {
            CreateCommand: {
              templateId: `#${MERGE_PACKAGE_NAME}:${MERGE_QN.proposal}`,
              createArguments: { owner: party, delegate: app.validatorParty },
            },
          },
        ],
      );
      app.log(
        [party],
        {
          transaction_type: 'notification',
          choice: 'Create',
          template: MERGE_QN.proposal,
          event_id: res.updateId,
          details: 'Merge delegation proposed to the wallet provider',
        },
        res,
      );
    }
    app.runAutomation();
    return ok(statusOf(app, party));
  });
  add('DELETE', '/v0/sim/merge-delegation', (ctx) => {
    const party = app.partyOf(user(ctx));
    const s = statusOf(app, party);
    if (s.status !== 'active' || !s.contract_id) throw new WalletError(404, `${party} has no active merge delegation`);
    const r = app.exercise([party], MERGE_QN.delegation, s.contract_id, 'MergeDelegation_Cancel', {}, MERGE_PACKAGE_NAME);
    app.log(
      [party],
      {
        transaction_type: 'notification',
        choice: 'MergeDelegation_Cancel',
        template: MERGE_QN.delegation,
        event_id: r.res.updateId,
        details: 'Merge delegation cancelled',
      },
      r.res,
    );
    return ok(statusOf(app, party));
  });
}
