/**
 * Token-standard transfers of the coin, as Splice's Amulet implements them:
 *
 * - `TransferFactory_Transfer` on `ExternalPartyAmuletRules` (the DSO's TransferFactory; real arguments
 *   `{ expectedAdmin, transfer, extraArgs }`, result `TransferInstructionResult`): checks the admin, the instrument
 *   (`{ admin: dso, id: "Amulet" }`), a positive amount, `requestedAt` ≤ ledger time < `executeBefore`, at least one
 *   input holding; reads the open round (and an optional `transfer-preapproval`, `featured-app-right`) from the choice
 *   context. A self-transfer, or a transfer to a receiver whose `TransferPreapproval` is in the context, completes at
 *   once (one step: `TransferPreapproval_SendV2`); otherwise the amount plus the holding fees it accrues until
 *   `executeBefore` is locked in a `LockedAmulet` (holder: the DSO, expiring at `executeBefore`, context
 *   "transfer to <receiver>"), the change returns to the sender, and an `AmuletTransferInstruction` is pending.
 * - `AmuletTransferInstruction { lockedAmulet, transfer }` (signatories: the admin and the sender, observer: the
 *   receiver) implements TransferInstruction: `Accept` (receiver, before `executeBefore`) unlocks and pays exactly the
 *   amount to the receiver (the rest back to the sender, reward coupons issued); `Reject` (receiver) and `Withdraw`
 *   (sender) return the locked funds to the sender; `Update` (the admin, only after `executeBefore`, no extra actors)
 *   expires it the same way. With `expire-lock = false` in the context (the locked amulet already expired) nothing is
 *   returned. Results carry Splice's transaction metadata.
 */
import type { LfValue } from '../model.js';
import type { ChoiceContext, LfRecord, TemplateDef } from '../packages/types.js';
import { TOKEN_STANDARD, transferRecord } from '../packages/token-standard-types.js';
import { cid, consumeInputs, effectiveAmount, fmt, int64, newAmulet, num } from './coin.js';
import { issueRewardCoupons } from './templates-rewards.js';
import {
  assertDeadlineExceeded,
  assertWithinDeadline,
  checkAmuletRules,
  contextBool,
  contextCid,
  CTX,
  emptyMetadata,
  holdingTxMeta,
  openRoundFromContext,
  reasonOf,
  requireAmuletInstrument,
  requireExpectedAdmin,
} from './token-context.js';
import { asText } from '../lf-text.js';

export const TRANSFER_INSTRUCTION_QN = 'Splice.AmuletTransferInstruction:AmuletTransferInstruction';
const LOCKED = 'Splice.Amulet:LockedAmulet';

const completed = (receiverHoldingCids: LfValue[]): LfRecord => ({
  tag: 'TransferInstructionResult_Completed',
  value: { receiverHoldingCids },
});
const failed = (): LfRecord => ({ tag: 'TransferInstructionResult_Failed', value: {} });

/** Rounds from the open round until `t` (at least one), from the round's duration. */
function roundsUntil(round: LfRecord, t: LfValue | undefined, now: string): bigint {
  const duration = Date.parse(asText(round.targetClosesAt)) - Date.parse(asText(round.opensAt));
  const left = Date.parse(asText(t)) - Date.parse(now);
  if (!(duration > 0) || !(left > 0)) return 1n;
  return BigInt(Math.ceil(left / duration)) + 1n;
}

/**
 * Locks `amount` plus the holding fees it accrues until `expiresAt` for a two-step transfer (Splice's
 * `prepareTwoStepTransfer`); returns the locked amulet, the sender's change and the fees burnt from the inputs.
 */
export function lockForTwoStep(
  ctx: ChoiceContext,
  p: {
    dso: LfValue;
    sender: string;
    amount: bigint;
    inputs: LfValue | undefined;
    expiresAt: LfValue;
    lockContext: string;
    round: LfRecord;
  },
): { lockedAmulet: string; changeCids: string[]; fees: bigint } {
  const { total, fees } = consumeInputs(ctx, p.sender, p.inputs, p.round);
  const reserve = num(p.round.holdingFeeRate) * roundsUntil(p.round, p.expiresAt, ctx.ledgerTime);
  const wanted = p.amount + reserve;
  if (total < p.amount) ctx.fail(`insufficient funds: inputs are worth ${fmt(total)}, the transfer needs ${fmt(p.amount)}`);
  const locked = total < wanted ? total : wanted;
  const lockedAmulet = ctx.create(LOCKED, {
    dso: p.dso,
    owner: p.sender,
    initialAmount: fmt(locked),
    createdAtRound: asText(p.round.round),
    ratePerRound: p.round.holdingFeeRate ?? '0',
    lockHolders: [p.dso],
    lockExpiresAt: p.expiresAt,
    lockContext: p.lockContext,
  });
  const changeCids = total > locked ? [newAmulet(ctx, p.dso, p.sender, total - locked, p.round)] : [];
  return { lockedAmulet, changeCids, fees };
}

/** Unlocks a two-step transfer's locked amulet: `payTo` gets `amount` (at most its value), the sender the rest. */
export function settleLocked(
  ctx: ChoiceContext,
  p: { dso: LfValue; sender: string; lockedAmulet: LfValue; payTo?: { receiver: LfValue; amount: bigint }; round: LfRecord },
): { receiverCids: string[]; senderCids: string[]; fees: bigint } {
  const locked = ctx.fetch(asText(p.lockedAmulet), LOCKED);
  ctx.exercise(asText(p.lockedAmulet), 'Archive', {});
  const { effective, fee } = effectiveAmount(locked, int64(p.round.round));
  const pay = p.payTo ? (p.payTo.amount < effective ? p.payTo.amount : effective) : 0n;
  const receiverCids = p.payTo && pay > 0n ? [newAmulet(ctx, p.dso, p.payTo.receiver, pay, p.round)] : [];
  const senderCids = effective > pay ? [newAmulet(ctx, p.dso, p.sender, effective - pay, p.round)] : [];
  return { receiverCids, senderCids, fees: fee };
}

/** `TransferFactory_Transfer`, the body of ExternalPartyAmuletRules' TransferFactory implementation. */
export function amuletTransferFactoryTransfer(ctx: ChoiceContext): LfValue {
  const dso = ctx.contract.dso ?? null;
  const t = ctx.arg.transfer as LfRecord;
  const sender = asText(t.sender);
  requireExpectedAdmin(ctx, ctx.arg.expectedAdmin, dso);
  requireAmuletInstrument(ctx, t.instrumentId, dso);
  const amount = num(t.amount);
  if (amount <= 0n) ctx.fail('Amount must be positive');
  assertDeadlineExceeded(ctx, 'transfer.requestedAt', t.requestedAt);
  assertWithinDeadline(ctx, 'transfer.executeBefore', t.executeBefore);
  if (((t.inputHoldingCids as LfValue[] | null) ?? []).length === 0) ctx.fail('At least one holding must be provided');
  checkAmuletRules(ctx, dso);
  const round = openRoundFromContext(ctx, dso);
  const reason = reasonOf(t.meta);
  const preapproval = contextCid(ctx, CTX.preapproval, false);

  if (t.receiver === t.sender || preapproval !== undefined) {
    // one step: a self-transfer, or through the receiver's preapproval
    if (preapproval !== undefined && t.receiver !== t.sender) {
      const p = ctx.fetch(preapproval, 'Splice.AmuletRules:TransferPreapproval');
      if (p.receiver !== t.receiver || p.dso !== dso) ctx.fail(`the transfer preapproval ${preapproval} is not the receiver's`);
      const r = ctx.exercise(preapproval, 'TransferPreapproval_SendV2', {
        sender,
        inputs: t.inputHoldingCids ?? [],
        amount: fmt(amount),
        description: reason ?? null,
        meta: t.meta ?? null,
        openRound: contextCid(ctx, CTX.openRound, true),
        featuredAppRight: contextCid(ctx, CTX.featuredAppRight, false) ?? null,
      }) as LfRecord;
      return {
        output: completed([r.receiverAmulet ?? null]),
        senderChangeCids: r.senderChangeAmulet ? [r.senderChangeAmulet] : [],
        meta: r.meta ?? emptyMetadata(),
      };
    }
    const { total, fees } = consumeInputs(ctx, sender, t.inputHoldingCids, round);
    if (total < amount) ctx.fail(`insufficient funds: inputs are worth ${fmt(total)}, the transfer needs ${fmt(amount)}`);
    const receiverCid = newAmulet(ctx, dso, sender, amount, round);
    const change = total > amount ? [newAmulet(ctx, dso, sender, total - amount, round)] : [];
    return { output: completed([receiverCid]), senderChangeCids: change, meta: holdingTxMeta('merge-split', { reason, burned: fees }) };
  }

  // two steps: lock, and a pending instruction for the receiver
  const { lockedAmulet, changeCids, fees } = lockForTwoStep(ctx, {
    dso,
    sender,
    amount,
    inputs: t.inputHoldingCids,
    expiresAt: t.executeBefore ?? null,
    lockContext: `transfer to ${asText(t.receiver)}`,
    round,
  });
  const transferInstructionCid = ctx.create(TRANSFER_INSTRUCTION_QN, {
    lockedAmulet,
    transfer: { ...t, inputHoldingCids: [lockedAmulet] },
  });
  return {
    output: { tag: 'TransferInstructionResult_Pending', value: { transferInstructionCid } },
    senderChangeCids: changeCids,
    meta: holdingTxMeta('merge-split', { reason, burned: fees }),
  };
}

/** Returns the locked funds of an instruction to its sender (reject, withdraw, expiry). */
function abort(ctx: ChoiceContext): LfValue {
  const t = ctx.contract.transfer as LfRecord;
  const dso = (t.instrumentId as LfRecord).admin ?? null;
  if (contextBool(ctx, CTX.expireLock) === false) return { output: failed(), senderChangeCids: [], meta: emptyMetadata() };
  const round = openRoundFromContext(ctx, dso);
  const r = settleLocked(ctx, { dso, sender: asText(t.sender), lockedAmulet: ctx.contract.lockedAmulet ?? null, round });
  return { output: failed(), senderChangeCids: r.senderCids, meta: holdingTxMeta('unlock', { burned: r.fees }) };
}

const AmuletTransferInstruction: TemplateDef = {
  module: 'Splice.AmuletTransferInstruction',
  entity: 'AmuletTransferInstruction',
  fields: [
    { name: 'lockedAmulet', type: cid(LOCKED) },
    { name: 'transfer', type: transferRecord },
  ],
  signatories: ['transfer.instrumentId.admin', 'transfer.sender'],
  observers: ['transfer.receiver'],
  implements: [
    {
      interface: TOKEN_STANDARD.transferInstruction,
      view: (a) => ({
        originalInstructionCid: null,
        transfer: a.transfer ?? null,
        status: { tag: 'TransferPendingReceiverAcceptance', value: {} },
        meta: emptyMetadata(),
      }),
      choices: {
        TransferInstruction_Accept: (ctx) => {
          const t = ctx.contract.transfer as LfRecord;
          const dso = (t.instrumentId as LfRecord).admin ?? null;
          assertWithinDeadline(ctx, 'Transfer.executeBefore', t.executeBefore);
          const round = openRoundFromContext(ctx, dso);
          const amount = num(t.amount);
          const r = settleLocked(ctx, {
            dso,
            sender: asText(t.sender),
            lockedAmulet: ctx.contract.lockedAmulet ?? null,
            payTo: { receiver: t.receiver ?? null, amount },
            round,
          });
          issueRewardCoupons(ctx, dso, t.sender ?? null, amount, round, contextCid(ctx, CTX.featuredAppRight, false));
          return {
            output: completed(r.receiverCids),
            senderChangeCids: r.senderCids,
            meta: holdingTxMeta('transfer', { reason: reasonOf(t.meta), sender: asText(t.sender), burned: r.fees }),
          };
        },
        TransferInstruction_Reject: abort,
        TransferInstruction_Withdraw: abort,
        TransferInstruction_Update: (ctx) => {
          if (((ctx.arg.extraActors as LfValue[] | null) ?? []).length > 0) ctx.fail('No extra actors on transfer expiry');
          assertDeadlineExceeded(ctx, 'Transfer.executeBefore', (ctx.contract.transfer as LfRecord).executeBefore);
          return abort(ctx);
        },
      },
    },
  ],
  choices: [],
};

export const transferInstructionTemplates: TemplateDef[] = [AmuletTransferInstruction];
