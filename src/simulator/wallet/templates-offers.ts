/**
 * Transfer offers and preapprovals of `splice-amulet` (`Splice.Wallet.TransferOffer`, `Splice.AmuletRules:TransferPreapproval`):
 * the wallet's two ways to pay another party, as part of the built-in amulet package (package.ts).
 */
import type { FieldDef, TemplateDef } from '../packages/types.js';
import {
  cid,
  cids,
  consumeInputs,
  effectiveAmount,
  fmt,
  newAmulet,
  num,
  numeric,
  offerFields,
  party,
  roundOf,
  text,
  time,
  unlock,
} from './coin.js';
import { transferPreapprovalSendV2 } from './preapproval-send.js';
import { featuredAppRightArg, issueRewardCoupons } from './templates-rewards.js';
import { asText } from '../lf-text.js';

const unlockArg: FieldDef[] = [{ name: 'openRound', type: cid('Splice.Round:OpenMiningRound') }];

export const TransferOffer: TemplateDef = {
  module: 'Splice.Wallet.TransferOffer',
  entity: 'TransferOffer',
  fields: offerFields,
  signatories: ['sender', 'dso'],
  observers: ['receiver'],
  implements: [],
  choices: [
    {
      name: 'TransferOffer_Accept',
      consuming: true,
      argument: [],
      returnType: cid('Splice.Wallet.TransferOffer:AcceptedTransferOffer'),
      controllers: [{ contract: 'receiver' }],
      description: 'the receiver accepts; the sender wallet automation completes the accepted offer',
      body: (ctx) => ctx.create('Splice.Wallet.TransferOffer:AcceptedTransferOffer', { ...ctx.contract }),
    },
    {
      name: 'TransferOffer_Reject',
      consuming: true,
      argument: unlockArg,
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ contract: 'receiver' }],
      description: 'the receiver rejects; the locked amulet returns to the sender',
      body: (ctx) => unlock(ctx, ctx.contract.lockedAmulet, ctx.arg.openRound),
    },
    {
      name: 'TransferOffer_Withdraw',
      consuming: true,
      argument: [...unlockArg, { name: 'reason', type: text }],
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ contract: 'sender' }],
      description: 'the sender withdraws; the locked amulet returns to the sender',
      body: (ctx) => unlock(ctx, ctx.contract.lockedAmulet, ctx.arg.openRound),
    },
    {
      name: 'TransferOffer_Expire',
      consuming: true,
      argument: unlockArg,
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ contract: 'dso' }],
      description: 'expiry automation (after expiresAt); the locked amulet returns to the sender',
      body: (ctx) => unlock(ctx, ctx.contract.lockedAmulet, ctx.arg.openRound),
    },
  ],
};

export const AcceptedTransferOffer: TemplateDef = {
  module: 'Splice.Wallet.TransferOffer',
  entity: 'AcceptedTransferOffer',
  fields: offerFields,
  signatories: ['sender', 'receiver', 'dso'],
  observers: [],
  implements: [],
  choices: [
    {
      name: 'AcceptedTransferOffer_Complete',
      consuming: true,
      argument: [...unlockArg, featuredAppRightArg],
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ contract: 'sender' }],
      description:
        'delivers the locked amount to the receiver (no fee on two-step transfers); the ' +
        'holding fee accrued while locked is borne by the sender; issues reward coupons',
      body: (ctx) => {
        const round = roundOf(ctx, ctx.arg.openRound);
        const l = ctx.fetch(asText(ctx.contract.lockedAmulet), 'Splice.Amulet:LockedAmulet');
        ctx.exercise(asText(ctx.contract.lockedAmulet), 'Archive', {});
        issueRewardCoupons(
          ctx,
          ctx.contract.dso ?? null,
          ctx.contract.sender ?? null,
          num(ctx.contract.amount),
          round,
          ctx.arg.featuredAppRight,
        );
        return newAmulet(
          ctx,
          ctx.contract.dso ?? null,
          ctx.contract.receiver ?? null,
          effectiveAmount(l, BigInt(asText(round.round))).effective,
          round,
        );
      },
    },
    {
      name: 'AcceptedTransferOffer_Expire',
      consuming: true,
      argument: unlockArg,
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ contract: 'dso' }],
      description: 'expiry automation: the locked amulet returns to the sender',
      body: (ctx) => unlock(ctx, ctx.contract.lockedAmulet, ctx.arg.openRound),
    },
  ],
};

export const TransferPreapproval: TemplateDef = {
  module: 'Splice.AmuletRules',
  entity: 'TransferPreapproval',
  fields: [
    { name: 'dso', type: party },
    { name: 'receiver', type: party },
    { name: 'provider', type: party },
    { name: 'validFrom', type: time },
    { name: 'lastRenewedAt', type: time },
    { name: 'expiresAt', type: time },
  ],
  signatories: ['receiver', 'provider', 'dso'],
  observers: [],
  implements: [],
  choices: [
    {
      name: 'TransferPreapproval_Renew',
      consuming: true,
      argument: [
        { name: 'renewedAt', type: time },
        { name: 'newExpiresAt', type: time },
      ],
      returnType: cid('Splice.AmuletRules:TransferPreapproval'),
      controllers: [{ contract: 'provider' }],
      description: 'the provider extends the preapproval (its automation renews it before it expires)',
      body: (ctx) => {
        if (Date.parse(asText(ctx.arg.newExpiresAt)) <= Date.parse(asText(ctx.contract.expiresAt)))
          ctx.fail('newExpiresAt must be after the current expiresAt');
        return ctx.create('Splice.AmuletRules:TransferPreapproval', {
          ...ctx.contract,
          lastRenewedAt: ctx.arg.renewedAt ?? null,
          expiresAt: ctx.arg.newExpiresAt ?? null,
        });
      },
    },
    {
      name: 'TransferPreapproval_Cancel',
      consuming: true,
      argument: [{ name: 'p', type: party }],
      returnType: { kind: 'Unit' },
      controllers: [{ argument: 'p' }],
      description: 'the receiver or the provider cancels the preapproval',
      body: (ctx) => {
        if (ctx.arg.p !== ctx.contract.receiver && ctx.arg.p !== ctx.contract.provider)
          ctx.fail('only the receiver or the provider can cancel a preapproval');
        return {};
      },
    },
    {
      name: 'TransferPreapproval_Send',
      consuming: false,
      argument: [
        { name: 'sender', type: party },
        { name: 'inputs', type: cids('Splice.Amulet:Amulet') },
        { name: 'amount', type: numeric },
        { name: 'description', type: { kind: 'Optional', elem: text } },
        { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') },
        featuredAppRightArg,
      ],
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ argument: 'sender' }],
      description: 'one-step transfer to a receiver that pre-approved incoming transfers (≤ 100 inputs, change to the sender)',
      body: (ctx) => {
        const a = ctx.arg;
        const amount = num(a.amount);
        if (amount <= 0n) ctx.fail('transfer amount must be positive');
        if (a.sender === ctx.contract.receiver) ctx.fail('sender and receiver must differ');
        const round = roundOf(ctx, a.openRound);
        const { total } = consumeInputs(ctx, asText(a.sender), a.inputs, round);
        if (total < amount) ctx.fail(`insufficient funds: inputs are worth ${fmt(total)}, the transfer needs ${fmt(amount)}`);
        const dso = ctx.contract.dso ?? null;
        if (total > amount) newAmulet(ctx, dso, a.sender ?? null, total - amount, round);
        issueRewardCoupons(ctx, dso, a.sender ?? null, amount, round, a.featuredAppRight);
        return newAmulet(ctx, dso, ctx.contract.receiver ?? null, amount, round);
      },
    },
    transferPreapprovalSendV2,
  ],
};
