/**
 * Amulet allocations (wallet-internal v0 `allocateAmulet`, `listAmuletAllocations`, `withdrawAmuletAllocation`): the
 * user's party allocates a transfer leg of a settlement to its executor through the DSO's AllocationFactory
 * (`AllocationFactory_Allocate` with the real arguments and the registry's choice context, `templates-allocation.ts`),
 * lists the allocations it is the sender of, and withdraws them (`Allocation_Withdraw`). The executor settles an
 * allocation on the ledger (`Allocation_ExecuteTransfer`), not through the wallet API.
 */
import { z } from 'zod';
import { microsToIso } from '../clock.js';
import type { LfRecord } from '../packages/types.js';
import type { RequestCtx } from '../router.js';
import type { WalletApp } from './app.js';
import { WalletError } from './app.js';
import { fmt, num } from './coin.js';
import type { AddRoute } from './http.js';
import { ok, parsedBody } from './http.js';
import { args, T } from './names.js';
import { TOKEN_STANDARD } from '../packages/token-standard-types.js';
import { extraArgsOf } from './routes-token-transfers.js';
import { ALLOCATION_QN } from './templates-allocation.js';
import { AMULET_INSTRUMENT_ID } from './token-context.js';
import { AmuletTokenRegistry } from './token-registry.js';

const textMap = z.record(z.string(), z.string());
const AllocateSchema = z.object({
  settlement: z.object({
    executor: z.string().min(1),
    settlement_ref: z.object({ id: z.string(), cid: z.string().optional() }),
    requested_at: z.number().int(),
    allocate_before: z.number().int(),
    settle_before: z.number().int(),
    meta: textMap.optional(),
  }),
  transfer_leg_id: z.string(),
  transfer_leg: z.object({
    receiver: z.string().min(1),
    amount: z.string().regex(/^\d+(\.\d{1,10})?$/, 'a positive decimal'),
    meta: textMap.optional(),
  }),
});

const legSender = (c: Parameters<typeof args>[0]): unknown => ((args(c).allocation as LfRecord).transferLeg as LfRecord).sender;

export function registerAllocationRoutes(add: AddRoute, user: (ctx: RequestCtx) => string, app: WalletApp): void {
  const registry = new AmuletTokenRegistry(app);
  add('POST', '/v0/allocations', async (ctx) => {
    const sender = app.partyOf(user(ctx));
    const req = await parsedBody(ctx, AllocateSchema);
    app.runAutomation();
    const s = req.settlement;
    for (const p of [s.executor, req.transfer_leg.receiver]) if (!app.knownParty(p)) throw new WalletError(400, `Unknown party ${p}`);
    const now = app.nowMicros();
    if (BigInt(s.allocate_before) <= now) throw new WalletError(400, 'allocate_before has passed');
    if (s.settle_before < s.allocate_before) throw new WalletError(400, 'settle_before must not be before allocate_before');
    const amount = num(req.transfer_leg.amount);
    if (amount <= 0n) throw new WalletError(400, 'transfer_leg.amount must be positive');
    const inputs = app.selectInputs(sender, amount);
    const allocation: LfRecord = {
      settlement: {
        executor: s.executor,
        settlementRef: { id: s.settlement_ref.id, cid: s.settlement_ref.cid ?? null },
        requestedAt: microsToIso(BigInt(s.requested_at)),
        allocateBefore: microsToIso(BigInt(s.allocate_before)),
        settleBefore: microsToIso(BigInt(s.settle_before)),
        meta: { values: s.meta ?? {} },
      },
      transferLegId: req.transfer_leg_id,
      transferLeg: {
        sender,
        receiver: req.transfer_leg.receiver,
        amount: fmt(amount),
        instrumentId: { admin: app.dso, id: AMULET_INSTRUMENT_ID },
        meta: { values: req.transfer_leg.meta ?? {} },
      },
    };
    const choiceArgs: LfRecord = {
      expectedAdmin: app.dso,
      allocation,
      requestedAt: microsToIso(now),
      inputHoldingCids: inputs,
      extraArgs: { context: { values: {} }, meta: { values: {} } },
    };
    const factory = registry.allocationFactory(choiceArgs, false);
    const r = app.exerciseInterface([sender, app.dso], TOKEN_STANDARD.allocationFactory, factory.factoryId, 'AllocationFactory_Allocate', {
      ...choiceArgs,
      extraArgs: extraArgsOf(factory.choiceContext),
    });
    const out = r.result as { output: { value: { allocationCid?: string } }; senderChangeCids: string[] };
    const change = out.senderChangeCids;
    app.log(
      [sender],
      {
        transaction_type: 'balance_change',
        choice: 'AllocationFactory_Allocate',
        template: T.externalRules,
        amulet_operation: 'allocate',
        event_id: r.res.updateId,
        receivers: [{ party: sender, amount: `-${fmt(amount)}` }],
      },
      r.res,
    );
    return ok({ output: { allocation_cid: String(out.output.value.allocationCid) }, sender_change_cids: change, meta: {} });
  });

  add('GET', '/v0/allocations', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    const mine = app.contracts(party, ALLOCATION_QN).filter((c) => legSender(c) === party);
    return ok({ allocations: mine.map((c) => ({ contract: app.contractJson(c) })) });
  });

  add('POST', '/v0/allocations/{contract_id}/withdraw', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    const c = app.contracts(party, ALLOCATION_QN).find((x) => x.contractId === ctx.params.contract_id);
    if (!c) throw new WalletError(404, `No allocation ${ctx.params.contract_id ?? ''} visible to ${party}`);
    if (legSender(c) !== party) throw new WalletError(403, 'Only the sender can withdraw an allocation');
    const context = registry.lockedContext('AmuletAllocation', c.contractId, false, false);
    const r = app.exerciseInterface([party], TOKEN_STANDARD.allocation, c.contractId, 'Allocation_Withdraw', {
      extraArgs: extraArgsOf(context),
    });
    const out = r.result as { senderHoldingCids: string[] };
    app.log(
      [party],
      {
        transaction_type: 'notification',
        choice: 'Allocation_Withdraw',
        template: ALLOCATION_QN,
        event_id: r.res.updateId,
        details: 'Allocation withdrawn; locked funds returned',
      },
      r.res,
    );
    return ok({ sender_holding_cids: out.senderHoldingCids, meta: {} });
  });
}
