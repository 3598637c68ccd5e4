/**
 * Token-standard allocation requests (wallet-internal `listAllocationRequests`, `rejectAllocationRequest`,
 * `rejectAllocationRequestV2`): the user's party lists the AllocationRequest contracts (V1 interface) where it is a
 * sender or receiver of a transfer leg of the DSO's instrument, and rejects one by exercising the interface choice
 * `AllocationRequest_Reject` as itself (a ledger transaction, visible in the update stream). The simulator serves V1
 * requests only, so the V2 path rejects the same V1 contracts.
 */
import { z } from 'zod';
import type { ContractRow } from '../model.js';
import { allocationRequestLegParties } from '../packages/token-standard.js';
import { TOKEN_STANDARD } from '../packages/token-standard-types.js';
import type { RequestCtx } from '../router.js';
import type { WalletApp } from './app.js';
import { WalletError } from './app.js';
import type { AddRoute } from './http.js';
import { ok } from './http.js';
import { args } from './names.js';
import { ALLOCATION_REQUEST_QN } from './templates-allocation-request.js';

/** The reject endpoints take no body: an empty body or `{}` only. */
const NoBody = z.object({}).strict();

async function requireNoBody(ctx: RequestCtx): Promise<void> {
  const text = (await ctx.body()).trim();
  if (text === '') return;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new WalletError(400, 'The request body is not valid JSON');
  }
  if (!NoBody.safeParse(v).success) throw new WalletError(400, 'The request takes no body (send none or {})');
}

/** The `#package-name:Module:Entity` parts of the AllocationRequest V1 interface id. */
function interfaceRef(): { packageName: string; qn: string } {
  const m = /^#([^:]+):(.+)$/.exec(TOKEN_STANDARD.allocationRequest);
  if (!m) throw new Error(`unexpected interface id ${TOKEN_STANDARD.allocationRequest}`);
  return { packageName: m[1] as string, qn: m[2] as string };
}

/** Requests visible to `party` where it is in a transfer leg of an instrument administered by the DSO. */
function requestsOf(app: WalletApp, party: string): ContractRow[] {
  return app.contracts(party, ALLOCATION_REQUEST_QN).filter((c) => {
    const legs = Object.values((args(c).transferLegs ?? {}) as Record<string, { instrumentId?: { admin?: unknown } }>);
    return allocationRequestLegParties(args(c)).includes(party) && legs.some((l) => l.instrumentId?.admin === app.dso);
  });
}

export function registerAllocationRequestRoutes(add: AddRoute, user: (ctx: RequestCtx) => string, app: WalletApp): void {
  add('GET', '/v0/wallet/token-standard/allocation-requests', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    return ok({ allocation_requests: requestsOf(app, party).map((c) => ({ contract: app.contractJson(c) })) });
  });

  const reject = async (ctx: RequestCtx) => {
    const party = app.partyOf(user(ctx));
    await requireNoBody(ctx);
    const id = ctx.params.contract_id ?? '';
    const c = requestsOf(app, party).find((x) => x.contractId === id);
    if (!c) throw new WalletError(404, `No allocation request ${id} for ${party}`);
    const { packageName, qn } = interfaceRef();
    const extraArgs = { context: { values: {} }, meta: { values: {} } };
    const r = app.exercise([party], qn, c.contractId, 'AllocationRequest_Reject', { actor: party, extraArgs }, packageName);
    app.log(
      [party],
      {
        transaction_type: 'notification',
        choice: 'AllocationRequest_Reject',
        template: ALLOCATION_REQUEST_QN,
        event_id: r.res.updateId,
        details: 'Allocation request rejected',
      },
      r.res,
    );
    const meta = ((r.result ?? {}) as { meta?: { values?: Record<string, string> } }).meta?.values ?? {};
    return ok({ meta });
  };
  add('POST', '/v0/wallet/token-standard/allocation-requests/{contract_id}/reject', reject);
  add('POST', '/v2/wallet/token-standard/allocation-requests/{contract_id}/reject', reject);
}
