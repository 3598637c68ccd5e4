/**
 * `TransferPreapproval_SendV2`: the one-step transfer through a receiver's preapproval that the token-standard
 * TransferFactory uses (Splice's choice of that name). The preapproval's signatories (receiver, provider, DSO) authorize
 * the receiver's new amulet. Simplified shapes: the payment context is the open round and an optional featured-app
 * right, the inputs are amulets, the result `{ receiverAmulet, senderChangeAmulet, meta }` (Splice returns its
 * `TransferResult`).
 */
import type { ChoiceDef, FieldType } from '../packages/types.js';
import { metadata } from '../packages/token-standard-types.js';
import { cid, cids, consumeInputs, fmt, newAmulet, num, numeric, party, roundOf, text } from './coin.js';
import { featuredAppRightArg, issueRewardCoupons } from './templates-rewards.js';
import { holdingTxMeta, reasonOf } from './token-context.js';
import { asText } from '../lf-text.js';

const optional = (elem: FieldType): FieldType => ({ kind: 'Optional', elem });

const SendV2Result: FieldType = {
  kind: 'Record',
  name: 'Splice.AmuletRules:TransferPreapproval_SendV2Result',
  fields: [
    { name: 'receiverAmulet', type: cid('Splice.Amulet:Amulet') },
    { name: 'senderChangeAmulet', type: optional(cid('Splice.Amulet:Amulet')) },
    { name: 'meta', type: metadata },
  ],
};

export const transferPreapprovalSendV2: ChoiceDef = {
  name: 'TransferPreapproval_SendV2',
  consuming: false,
  argument: [
    { name: 'sender', type: party },
    { name: 'inputs', type: cids('Splice.Amulet:Amulet') },
    { name: 'amount', type: numeric },
    { name: 'description', type: optional(text) },
    { name: 'meta', type: optional(metadata) },
    { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') },
    featuredAppRightArg,
  ],
  returnType: SendV2Result,
  controllers: [{ argument: 'sender' }],
  description: 'one-step transfer through the receiver’s preapproval, with change and transaction metadata',
  body: (ctx) => {
    const a = ctx.arg;
    const amount = num(a.amount);
    if (amount <= 0n) ctx.fail('transfer amount must be positive');
    if (a.sender === ctx.contract.receiver) ctx.fail('sender and receiver must differ');
    const round = roundOf(ctx, a.openRound);
    const { total, fees } = consumeInputs(ctx, asText(a.sender), a.inputs, round);
    if (total < amount) ctx.fail(`insufficient funds: inputs are worth ${fmt(total)}, the transfer needs ${fmt(amount)}`);
    const dso = ctx.contract.dso ?? null;
    const receiverAmulet = newAmulet(ctx, dso, ctx.contract.receiver ?? null, amount, round);
    const senderChangeAmulet = total > amount ? newAmulet(ctx, dso, a.sender ?? null, total - amount, round) : null;
    issueRewardCoupons(ctx, dso, a.sender ?? null, amount, round, a.featuredAppRight);
    const reason = typeof a.description === 'string' ? a.description : reasonOf(a.meta);
    return { receiverAmulet, senderChangeAmulet, meta: holdingTxMeta('transfer', { reason, sender: asText(a.sender), burned: fees }) };
  },
};
