/**
 * Token-standard two-step transfers of the coin: `Splice.AmuletTransferInstruction:AmuletTransferInstruction`, created by
 * `TransferFactory_Transfer` on `ExternalPartyAmuletRules` (the DSO's TransferFactory). The sender's inputs are archived,
 * the amount is locked in a `LockedAmulet` (lock holder: the DSO, until `executeBefore`) and the change returned; the
 * receiver accepts (`TransferInstruction_Accept`: a new amulet for the receiver, reward coupons issued) or rejects, or
 * the sender withdraws (both unlock the funds back to the sender). The instruction implements the token-standard
 * TransferInstruction interface (status `TransferPendingReceiverAcceptance`).
 *
 * Simplifications: the choices are template choices named after the interface choices (the interface declares
 * none); `dso`, `sender` and `receiver` are repeated as top-level fields (the simulator's signatories name fields);
 * `TransferFactory_Transfer` takes the sender and the open round explicitly instead of `extraArgs`; the ledger-time
 * checks of `requestedAt` / `executeBefore` are made by the wallet app before it submits.
 */
import type { LfValue } from '../model.js';
import type { ChoiceDef, FieldDef, LfRecord, TemplateDef } from '../packages/types.js';
import { TOKEN_STANDARD, transferRecord } from '../packages/token-standard.js';
import { cid, consumeInputs, effectiveAmount, fmt, int64, newAmulet, num, party, roundOf } from './coin.js';
import { featuredAppRightArg, issueRewardCoupons } from './templates-rewards.js';
import { AMULET_INSTRUMENT_ID } from './token-views.js';

const QN = 'Splice.AmuletTransferInstruction:AmuletTransferInstruction';
const roundArg: FieldDef = { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') };

/** Unlocks the instruction's locked amulet to `to`; returns the new amulet. */
function release(ctx: Parameters<ChoiceDef['body']>[0], to: LfValue, coupons: boolean): LfValue {
  const round = roundOf(ctx, ctx.arg.openRound);
  const locked = ctx.fetch(String(ctx.contract.lockedAmulet), 'Splice.Amulet:LockedAmulet');
  ctx.exercise(String(ctx.contract.lockedAmulet), 'Archive', {});
  const amount = effectiveAmount(locked, int64(round.round)).effective;
  if (coupons)
    issueRewardCoupons(
      ctx,
      ctx.contract.dso ?? null,
      ctx.contract.sender ?? null,
      num((ctx.contract.transfer as LfRecord).amount),
      round,
      ctx.arg.featuredAppRight,
    );
  return newAmulet(ctx, ctx.contract.dso ?? null, to, amount, round);
}

const AmuletTransferInstruction: TemplateDef = {
  module: 'Splice.AmuletTransferInstruction',
  entity: 'AmuletTransferInstruction',
  fields: [
    { name: 'dso', type: party },
    { name: 'sender', type: party },
    { name: 'receiver', type: party },
    { name: 'lockedAmulet', type: cid('Splice.Amulet:LockedAmulet') },
    { name: 'transfer', type: transferRecord },
  ],
  signatories: ['dso', 'sender'],
  observers: ['receiver'],
  implements: [
    {
      interface: TOKEN_STANDARD.transferInstruction,
      view: (a) => ({
        originalInstructionCid: null,
        transfer: a.transfer ?? null,
        status: { tag: 'TransferPendingReceiverAcceptance', value: {} },
        meta: { values: {} },
      }),
    },
  ],
  choices: [
    {
      name: 'TransferInstruction_Accept',
      consuming: true,
      argument: [roundArg, featuredAppRightArg],
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ contract: 'receiver' }],
      description: 'the receiver accepts: the locked amount becomes its holding',
      body: (ctx) => release(ctx, ctx.contract.receiver ?? null, true),
    },
    {
      name: 'TransferInstruction_Reject',
      consuming: true,
      argument: [roundArg],
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ contract: 'receiver' }],
      description: 'the receiver rejects: the funds return to the sender',
      body: (ctx) => release(ctx, ctx.contract.sender ?? null, false),
    },
    {
      name: 'TransferInstruction_Withdraw',
      consuming: true,
      argument: [roundArg],
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ contract: 'sender' }],
      description: 'the sender withdraws: the funds return to the sender',
      body: (ctx) => release(ctx, ctx.contract.sender ?? null, false),
    },
  ],
};

/** `TransferFactory_Transfer` of `ExternalPartyAmuletRules` (see the module comment). */
export const transferFactoryTransfer: ChoiceDef = {
  name: 'TransferFactory_Transfer',
  consuming: false,
  argument: [{ name: 'expectedAdmin', type: party }, { name: 'sender', type: party }, { name: 'transfer', type: transferRecord }, roundArg],
  returnType: cid(QN),
  controllers: [{ argument: 'sender' }],
  description: 'locks the amount from the sender’s input holdings and creates the transfer instruction for the receiver',
  body: (ctx) => {
    const dso = ctx.contract.dso ?? null;
    const t = ctx.arg.transfer as LfRecord;
    const instrument = t.instrumentId as LfRecord;
    if (ctx.arg.expectedAdmin !== dso)
      ctx.fail(`expectedAdmin ${String(ctx.arg.expectedAdmin)} is not the instrument admin ${String(dso)}`);
    if (t.sender !== ctx.arg.sender) ctx.fail('the transfer’s sender is not the submitting sender');
    if (instrument.admin !== dso || instrument.id !== AMULET_INSTRUMENT_ID)
      ctx.fail(`unsupported instrument ${String(instrument.admin)}/${String(instrument.id)}`);
    if (t.sender === t.receiver) ctx.fail('self-transfers are not two-step transfers');
    const amount = num(t.amount);
    if (amount <= 0n) ctx.fail('Amount must be positive');
    const round = roundOf(ctx, ctx.arg.openRound);
    const { total } = consumeInputs(ctx, String(t.sender), t.inputHoldingCids, round);
    if (total < amount) ctx.fail(`insufficient funds: inputs are worth ${fmt(total)}, the transfer needs ${fmt(amount)}`);
    const lockedAmulet = ctx.create('Splice.Amulet:LockedAmulet', {
      dso,
      owner: t.sender ?? null,
      initialAmount: fmt(amount),
      createdAtRound: String(round.round),
      ratePerRound: round.holdingFeeRate ?? '0',
      lockHolders: [dso],
      lockExpiresAt: t.executeBefore ?? null,
    });
    if (total > amount) newAmulet(ctx, dso, t.sender ?? null, total - amount, round);
    return ctx.create(QN, { dso, sender: t.sender ?? null, receiver: t.receiver ?? null, lockedAmulet, transfer: t });
  },
};

export const TRANSFER_INSTRUCTION_QN = QN;
export const transferInstructionTemplates: TemplateDef[] = [AmuletTransferInstruction];
