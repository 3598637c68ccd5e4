/**
 * Token-standard allocations of the coin: `AllocationFactory_Allocate` on `ExternalPartyAmuletRules` (the DSO's
 * AllocationFactory) archives the sender's inputs, locks the leg's amount (lock holder: the DSO, until `settleBefore`)
 * and creates `Splice.AmuletAllocation:AmuletAllocation`, which implements the Allocation V1 interface. The executor
 * settles it with `Allocation_ExecuteTransfer` (executor, sender and receiver authorize, as in the token standard: the
 * receiver gets the amount); the sender takes it back with `Allocation_Withdraw`; `Allocation_Cancel` (executor, sender
 * and receiver) also returns the funds.
 *
 * Simplifications as for transfer instructions: template choices named like the interface choices, `dso` / `sender` /
 * `receiver` / `executor` repeated as top-level fields, the open round passed explicitly, deadline checks in the app.
 */
import type { LfValue } from '../model.js';
import type { ChoiceContext, ChoiceDef, FieldDef, LfRecord, TemplateDef } from '../packages/types.js';
import { allocationSpecification, TOKEN_STANDARD } from '../packages/token-standard.js';
import { cid, cids, consumeInputs, effectiveAmount, fmt, int64, newAmulet, num, party, roundOf } from './coin.js';
import { AMULET_INSTRUMENT_ID } from './token-views.js';

export const ALLOCATION_QN = 'Splice.AmuletAllocation:AmuletAllocation';
const roundArg: FieldDef = { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') };

/** Archives the allocation's locked amulet and gives its value to `to`. */
function release(ctx: ChoiceContext, to: LfValue): LfValue {
  const round = roundOf(ctx, ctx.arg.openRound);
  const locked = ctx.fetch(String(ctx.contract.lockedAmulet), 'Splice.Amulet:LockedAmulet');
  ctx.exercise(String(ctx.contract.lockedAmulet), 'Archive', {});
  return newAmulet(ctx, ctx.contract.dso ?? null, to, effectiveAmount(locked, int64(round.round)).effective, round);
}

const AmuletAllocation: TemplateDef = {
  module: 'Splice.AmuletAllocation',
  entity: 'AmuletAllocation',
  fields: [
    { name: 'dso', type: party },
    { name: 'sender', type: party },
    { name: 'receiver', type: party },
    { name: 'executor', type: party },
    { name: 'lockedAmulet', type: cid('Splice.Amulet:LockedAmulet') },
    { name: 'allocation', type: allocationSpecification },
  ],
  signatories: ['dso', 'sender'],
  observers: ['executor'],
  implements: [
    {
      interface: TOKEN_STANDARD.allocation,
      view: (a) => ({ allocation: a.allocation ?? null, holdingCids: [a.lockedAmulet ?? null], meta: { values: {} } }),
    },
  ],
  choices: [
    {
      name: 'Allocation_ExecuteTransfer',
      consuming: true,
      argument: [roundArg],
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ contract: 'executor' }, { contract: 'sender' }, { contract: 'receiver' }],
      description: 'the executor settles the leg: the receiver gets the allocated amount',
      body: (ctx) => release(ctx, ctx.contract.receiver ?? null),
    },
    {
      name: 'Allocation_Withdraw',
      consuming: true,
      argument: [roundArg],
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ contract: 'sender' }],
      description: 'the sender withdraws the allocation: the funds return to it',
      body: (ctx) => release(ctx, ctx.contract.sender ?? null),
    },
    {
      name: 'Allocation_Cancel',
      consuming: true,
      argument: [roundArg],
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ contract: 'executor' }, { contract: 'sender' }, { contract: 'receiver' }],
      description: 'the settlement is cancelled: the funds return to the sender',
      body: (ctx) => release(ctx, ctx.contract.sender ?? null),
    },
  ],
};

/** `AllocationFactory_Allocate` of `ExternalPartyAmuletRules` (see the module comment). */
export const allocationFactoryAllocate: ChoiceDef = {
  name: 'AllocationFactory_Allocate',
  consuming: false,
  argument: [
    { name: 'expectedAdmin', type: party },
    { name: 'sender', type: party },
    { name: 'allocation', type: allocationSpecification },
    { name: 'inputHoldingCids', type: cids('Splice.Amulet:Amulet') },
    roundArg,
  ],
  returnType: cid(ALLOCATION_QN),
  controllers: [{ argument: 'sender' }],
  description: 'locks the transfer leg’s amount from the sender’s holdings for the settlement’s executor',
  body: (ctx) => {
    const dso = ctx.contract.dso ?? null;
    const spec = ctx.arg.allocation as LfRecord;
    const leg = spec.transferLeg as LfRecord;
    const settlement = spec.settlement as LfRecord;
    const instrument = leg.instrumentId as LfRecord;
    if (ctx.arg.expectedAdmin !== dso)
      ctx.fail(`expectedAdmin ${String(ctx.arg.expectedAdmin)} is not the instrument admin ${String(dso)}`);
    if (leg.sender !== ctx.arg.sender) ctx.fail('the transfer leg’s sender is not the submitting sender');
    if (instrument.admin !== dso || instrument.id !== AMULET_INSTRUMENT_ID)
      ctx.fail(`unsupported instrument ${String(instrument.admin)}/${String(instrument.id)}`);
    const amount = num(leg.amount);
    if (amount <= 0n) ctx.fail('Amount must be positive');
    const round = roundOf(ctx, ctx.arg.openRound);
    const { total } = consumeInputs(ctx, String(leg.sender), ctx.arg.inputHoldingCids, round);
    if (total < amount) ctx.fail(`insufficient funds: inputs are worth ${fmt(total)}, the allocation needs ${fmt(amount)}`);
    const lockedAmulet = ctx.create('Splice.Amulet:LockedAmulet', {
      dso,
      owner: leg.sender ?? null,
      initialAmount: fmt(amount),
      createdAtRound: String(round.round),
      ratePerRound: round.holdingFeeRate ?? '0',
      lockHolders: [dso],
      lockExpiresAt: settlement.settleBefore ?? null,
    });
    if (total > amount) newAmulet(ctx, dso, leg.sender ?? null, total - amount, round);
    return ctx.create(ALLOCATION_QN, {
      dso,
      sender: leg.sender ?? null,
      receiver: leg.receiver ?? null,
      executor: settlement.executor ?? null,
      lockedAmulet,
      allocation: spec,
    });
  },
};

export const allocationTemplates: TemplateDef[] = [AmuletAllocation];
