/**
 * Token-standard allocations of the coin, as Splice's Amulet implements them (V1):
 *
 * - `AllocationFactory_Allocate` on `ExternalPartyAmuletRules` (real arguments `{ expectedAdmin, allocation,
 *   requestedAt, inputHoldingCids, extraArgs }`, result `AllocationInstructionResult`): checks the admin, the
 *   instrument, a positive amount, `requestedAt` ≤ ledger time < `allocateBefore` ≤ `settleBefore`; locks the leg's
 *   amount plus the holding fees it accrues until `settleBefore` (holder: the DSO, context "allocation for <settlement
 *   id>") and creates `AmuletAllocation` at once (output `AllocationInstructionResult_Completed`).
 * - `AmuletAllocation { lockedAmulet, allocation, expiresAt }` (signatories: the admin and the sender, observer: the
 *   executor) implements Allocation: `Allocation_ExecuteTransfer` (executor, sender and receiver — the token standard's
 *   `allocationControllers` — before `settleBefore`) pays exactly the amount to the receiver and the rest back to the
 *   sender; `Allocation_Withdraw` (sender) and `Allocation_Cancel` (the three) return the funds.
 */
import type { LfValue } from '../model.js';
import type { ChoiceContext, LfRecord, TemplateDef } from '../packages/types.js';
import { allocationSpecification, TOKEN_STANDARD } from '../packages/token-standard-types.js';
import { cid, num, time } from './coin.js';
import { lockForTwoStep, settleLocked } from './templates-transfer-instruction.js';
import {
  assertDeadlineExceeded,
  assertWithinDeadline,
  checkAmuletRules,
  contextBool,
  CTX,
  emptyMetadata,
  holdingTxMeta,
  openRoundFromContext,
  requireAmuletInstrument,
  requireExpectedAdmin,
} from './token-context.js';
import { asText } from '../lf-text.js';

export const ALLOCATION_QN = 'Splice.AmuletAllocation:AmuletAllocation';

/** `AllocationFactory_Allocate`, the body of ExternalPartyAmuletRules' AllocationFactory implementation. */
export function amuletAllocationFactoryAllocate(ctx: ChoiceContext): LfValue {
  const dso = ctx.contract.dso ?? null;
  const spec = ctx.arg.allocation as LfRecord;
  const leg = spec.transferLeg as LfRecord;
  const settlement = spec.settlement as LfRecord;
  requireExpectedAdmin(ctx, ctx.arg.expectedAdmin, dso);
  requireAmuletInstrument(ctx, leg.instrumentId, dso);
  const amount = num(leg.amount);
  if (amount <= 0n) ctx.fail('Amount must be positive');
  assertDeadlineExceeded(ctx, 'requestedAt', ctx.arg.requestedAt);
  assertWithinDeadline(ctx, 'allocation.settlement.allocateBefore', settlement.allocateBefore);
  if (Date.parse(asText(settlement.allocateBefore)) > Date.parse(asText(settlement.settleBefore)))
    ctx.fail('allocation.settlement.allocateBefore must not be after allocation.settlement.settleBefore');
  checkAmuletRules(ctx, dso);
  const round = openRoundFromContext(ctx, dso);
  const settlementRef = settlement.settlementRef as LfRecord;
  const { lockedAmulet, changeCids, fees } = lockForTwoStep(ctx, {
    dso,
    sender: asText(leg.sender),
    amount,
    inputs: ctx.arg.inputHoldingCids,
    expiresAt: settlement.settleBefore ?? null,
    lockContext: `allocation for ${asText(settlementRef.id)}`,
    round,
  });
  const allocationCid = ctx.create(ALLOCATION_QN, { lockedAmulet, allocation: spec, expiresAt: settlement.settleBefore ?? null });
  return {
    output: { tag: 'AllocationInstructionResult_Completed', value: { allocationCid } },
    senderChangeCids: changeCids,
    meta: holdingTxMeta('merge-split', { burned: fees }),
  };
}

const legOf = (ctx: ChoiceContext): LfRecord => (ctx.contract.allocation as LfRecord).transferLeg as LfRecord;

/** Returns the allocated funds to the sender (withdraw, cancel). */
function release(ctx: ChoiceContext): LfValue {
  const leg = legOf(ctx);
  const dso = (leg.instrumentId as LfRecord).admin ?? null;
  if (contextBool(ctx, CTX.expireLock) === false) return { senderHoldingCids: [], meta: emptyMetadata() };
  const r = settleLocked(ctx, {
    dso,
    sender: asText(leg.sender),
    lockedAmulet: ctx.contract.lockedAmulet ?? null,
    round: openRoundFromContext(ctx, dso),
  });
  return { senderHoldingCids: r.senderCids, meta: holdingTxMeta('unlock', { burned: r.fees }) };
}

const AmuletAllocation: TemplateDef = {
  module: 'Splice.AmuletAllocation',
  entity: 'AmuletAllocation',
  fields: [
    { name: 'lockedAmulet', type: cid('Splice.Amulet:LockedAmulet') },
    { name: 'allocation', type: allocationSpecification },
    { name: 'expiresAt', type: { kind: 'Optional', elem: time } },
  ],
  signatories: ['allocation.transferLeg.instrumentId.admin', 'allocation.transferLeg.sender'],
  observers: ['allocation.settlement.executor'],
  implements: [
    {
      interface: TOKEN_STANDARD.allocation,
      view: (a) => ({ allocation: a.allocation ?? null, holdingCids: [a.lockedAmulet ?? null], meta: emptyMetadata() }),
      choices: {
        Allocation_ExecuteTransfer: (ctx) => {
          const leg = legOf(ctx);
          const dso = (leg.instrumentId as LfRecord).admin ?? null;
          const settlement = (ctx.contract.allocation as LfRecord).settlement as LfRecord;
          assertWithinDeadline(ctx, 'allocation.settlement.settleBefore', settlement.settleBefore);
          const r = settleLocked(ctx, {
            dso,
            sender: asText(leg.sender),
            lockedAmulet: ctx.contract.lockedAmulet ?? null,
            payTo: { receiver: leg.receiver ?? null, amount: num(leg.amount) },
            round: openRoundFromContext(ctx, dso),
          });
          return {
            senderHoldingCids: r.senderCids,
            receiverHoldingCids: r.receiverCids,
            meta: holdingTxMeta('transfer', { sender: asText(leg.sender), burned: r.fees }),
          };
        },
        Allocation_Withdraw: release,
        Allocation_Cancel: release,
      },
    },
  ],
  choices: [],
};

export const allocationTemplates: TemplateDef[] = [AmuletAllocation];
