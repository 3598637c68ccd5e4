/**
 * The `splice-amulet` built-in package: a Daml-like model of Canton Coin (Amulet) executed by the ledger core, so every
 * wallet action is a ledger transaction visible in `/v2/updates`. Module and template names follow Splice
 * (`Splice.Amulet:Amulet`, `Splice.Amulet:LockedAmulet`, `Splice.Round:OpenMiningRound`, `Splice.AmuletRules:AmuletRules`,
 * `Splice.Wallet.TransferOffer:TransferOffer` / `AcceptedTransferOffer`, `Splice.Wallet.Install:WalletAppInstall`,
 * `Splice.DecentralizedSynchronizer:MemberTraffic`); field layouts are simplified (flat expiring amount).
 *
 * Holding fee: an amulet created in round `createdAtRound` with `initialAmount` and `ratePerRound` is worth
 * `max(0, initialAmount - (round - createdAtRound) * ratePerRound)` in `round`.
 */
import type { FieldType, PackageDef, TemplateDef } from '../packages/types.js';
import { metadata } from '../packages/token-standard-types.js';
import { holdingTxMeta } from './token-context.js';
import {
  AMULET_PACKAGE_NAME,
  amuletFields,
  cid,
  cids,
  consumeInputs,
  fmt,
  int,
  newAmulet,
  num,
  numeric,
  parties,
  party,
  roundOf,
  text,
  time,
} from './coin.js';
import { externalPartyTemplates } from './templates-external.js';
import { allocationTemplates } from './templates-allocation.js';
import { allocationRequestTemplates } from './templates-allocation-request.js';
import { amuletRulesTransfer, paymentTemplates } from './templates-payments.js';
import { subscriptionTemplates } from './templates-subscriptions.js';
import { mintingTemplates } from './templates-minting.js';
import { transferInstructionTemplates } from './templates-transfer-instruction.js';
import { amuletExpire, collectRewards, devNetFeatureApp, rewardTemplates } from './templates-rewards.js';
import { amuletHolding, lockedAmuletHolding } from './token-views.js';
import { validatorLicenseTemplates } from './templates-validator-license.js';
import { allocateDevelopmentFundCoupon, developmentFundManagerField, developmentFundTemplates } from './templates-development-fund.js';
import { asText } from '../lf-text.js';

import { AcceptedTransferOffer, TransferOffer, TransferPreapproval } from './templates-offers.js';

export { AMULET_PACKAGE_NAME, effectiveAmount, fmt, MAX_TRANSFER_INPUTS, num } from './coin.js';

/** `AmuletRules_DevNet_TapResult` as Splice's (`AmuletCreateSummary` of the new amulet, optional transaction metadata). */
const devNetTapResult: FieldType = {
  kind: 'Record',
  name: 'Splice.AmuletRules:AmuletRules_DevNet_TapResult',
  fields: [
    {
      name: 'amuletSum',
      type: {
        kind: 'Record',
        name: 'Splice.Amulet:AmuletCreateSummary',
        fields: [
          { name: 'amulet', type: cid('Splice.Amulet:Amulet') },
          { name: 'amuletPrice', type: numeric },
          { name: 'round', type: { kind: 'Record', name: 'Splice.Types:Round', fields: [{ name: 'number', type: int }] } },
        ],
      },
    },
    { name: 'meta', type: { kind: 'Optional', elem: metadata } },
  ],
};

const Amulet: TemplateDef = {
  module: 'Splice.Amulet',
  entity: 'Amulet',
  fields: amuletFields,
  signatories: ['dso', 'owner'],
  observers: [],
  ensureDescription: 'initialAmount > 0',
  ensure: (a) => (num(a.initialAmount) <= 0n ? 'amulet amount must be positive' : undefined),
  implements: [amuletHolding],
  choices: [amuletExpire],
};

const LockedAmulet: TemplateDef = {
  module: 'Splice.Amulet',
  entity: 'LockedAmulet',
  fields: [
    ...amuletFields,
    { name: 'lockHolders', type: parties },
    { name: 'lockExpiresAt', type: time },
    // Splice's TimeLock.optContext (e.g. "transfer to <receiver>"), shown as the Holding view's lock context
    { name: 'lockContext', type: { kind: 'Optional', elem: text } },
  ],
  signatories: ['dso', 'owner'],
  observers: ['lockHolders'],
  ensureDescription: 'initialAmount > 0',
  ensure: (a) => (num(a.initialAmount) <= 0n ? 'locked amount must be positive' : undefined),
  implements: [lockedAmuletHolding],
  choices: [],
};

const OpenMiningRound: TemplateDef = {
  module: 'Splice.Round',
  entity: 'OpenMiningRound',
  fields: [
    { name: 'dso', type: party },
    { name: 'round', type: int },
    { name: 'amuletPrice', type: numeric },
    { name: 'opensAt', type: time },
    { name: 'targetClosesAt', type: time },
    { name: 'holdingFeeRate', type: numeric },
    // reward issuance of the round (CC minted per CC of coupon weight); see templates-rewards.ts
    { name: 'validatorRewardRate', type: numeric },
    { name: 'appRewardRate', type: numeric },
    { name: 'featuredAppRewardRate', type: numeric },
  ],
  signatories: ['dso'],
  observers: [],
  implements: [],
  choices: [],
};

const AmuletRules: TemplateDef = {
  module: 'Splice.AmuletRules',
  entity: 'AmuletRules',
  fields: [{ name: 'dso', type: party }, { name: 'isDevNet', type: { kind: 'Bool' } }, developmentFundManagerField],
  signatories: ['dso'],
  observers: [],
  implements: [],
  choices: [
    {
      name: 'AmuletRules_DevNet_Tap',
      consuming: false,
      argument: [
        { name: 'receiver', type: party },
        { name: 'amount', type: numeric },
        { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') },
      ],
      returnType: devNetTapResult,
      controllers: [{ argument: 'receiver' }],
      description: 'DevNet faucet: mints a new amulet for the receiver',
      body: (ctx) => {
        if (ctx.contract.isDevNet !== true) ctx.fail('tap is only available on DevNet');
        if (num(ctx.arg.amount) <= 0n) ctx.fail('tap amount must be positive');
        const round = roundOf(ctx, ctx.arg.openRound);
        const amulet = newAmulet(ctx, ctx.contract.dso ?? null, ctx.arg.receiver ?? null, num(ctx.arg.amount), round);
        // Splice's result: the created amulet with the round's price, and the token-standard "mint" metadata
        return {
          amuletSum: { amulet, amuletPrice: round.amuletPrice ?? '0', round: { number: asText(round.round) } },
          meta: holdingTxMeta('mint'),
        };
      },
    },
    {
      name: 'AmuletRules_CreateTransferOffer',
      consuming: false,
      argument: [
        { name: 'sender', type: party },
        { name: 'receiver', type: party },
        { name: 'inputs', type: cids('Splice.Amulet:Amulet') },
        { name: 'amount', type: numeric },
        { name: 'description', type: text },
        { name: 'expiresAt', type: time },
        { name: 'trackingId', type: text },
        { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') },
      ],
      returnType: cid('Splice.Wallet.TransferOffer:TransferOffer'),
      controllers: [{ argument: 'sender' }],
      description: 'two-step transfer: archives the inputs, locks the amount (no fee), returns the change, creates the offer',
      body: (ctx) => {
        const a = ctx.arg;
        const amount = num(a.amount);
        if (amount <= 0n) ctx.fail('transfer amount must be positive');
        if (a.sender === a.receiver) ctx.fail('sender and receiver must differ');
        const round = roundOf(ctx, a.openRound);
        const { total } = consumeInputs(ctx, asText(a.sender), a.inputs, round);
        if (total < amount) ctx.fail(`insufficient funds: inputs are worth ${fmt(total)}, the offer needs ${fmt(amount)}`);
        const dso = ctx.contract.dso ?? null;
        const locked = ctx.create('Splice.Amulet:LockedAmulet', {
          dso,
          owner: a.sender ?? null,
          initialAmount: fmt(amount),
          createdAtRound: asText(round.round),
          ratePerRound: round.holdingFeeRate ?? '0',
          lockHolders: [a.receiver ?? null],
          lockExpiresAt: a.expiresAt ?? null,
        });
        if (total > amount) newAmulet(ctx, dso, a.sender ?? null, total - amount, round);
        return ctx.create('Splice.Wallet.TransferOffer:TransferOffer', {
          sender: a.sender ?? null,
          receiver: a.receiver ?? null,
          dso,
          amount: a.amount ?? null,
          description: a.description ?? '',
          expiresAt: a.expiresAt ?? null,
          trackingId: a.trackingId ?? '',
          lockedAmulet: locked,
        });
      },
    },
    devNetFeatureApp,
    collectRewards,
    allocateDevelopmentFundCoupon,
    amuletRulesTransfer,
    {
      name: 'AmuletRules_CreateTransferPreapproval',
      consuming: false,
      argument: [
        { name: 'receiver', type: party },
        { name: 'provider', type: party },
        { name: 'validFrom', type: time },
        { name: 'expiresAt', type: time },
      ],
      returnType: cid('Splice.AmuletRules:TransferPreapproval'),
      controllers: [{ argument: 'receiver' }, { argument: 'provider' }],
      description: 'creates the receiver TransferPreapproval with the provider (the DSO co-signs through the rules)',
      body: (ctx) => {
        const a = ctx.arg;
        if (Date.parse(asText(a.expiresAt)) <= Date.parse(asText(a.validFrom))) ctx.fail('expiresAt must be after validFrom');
        return ctx.create('Splice.AmuletRules:TransferPreapproval', {
          dso: ctx.contract.dso ?? null,
          receiver: a.receiver ?? null,
          provider: a.provider ?? null,
          validFrom: a.validFrom ?? null,
          lastRenewedAt: a.validFrom ?? null,
          expiresAt: a.expiresAt ?? null,
        });
      },
    },
    {
      name: 'AmuletRules_Merge',
      consuming: false,
      argument: [
        { name: 'owner', type: party },
        { name: 'inputs', type: cids('Splice.Amulet:Amulet') },
        { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') },
      ],
      returnType: cid('Splice.Amulet:Amulet'),
      controllers: [{ argument: 'owner' }],
      description: 'merges up to 100 amulets of the owner into one',
      body: (ctx) => {
        const round = roundOf(ctx, ctx.arg.openRound);
        const { total } = consumeInputs(ctx, asText(ctx.arg.owner), ctx.arg.inputs, round);
        if (total <= 0n) ctx.fail('merged amount is zero');
        return newAmulet(ctx, ctx.contract.dso ?? null, ctx.arg.owner ?? null, total, round);
      },
    },
    {
      name: 'AmuletRules_BuyMemberTraffic',
      consuming: false,
      argument: [
        { name: 'buyer', type: party },
        { name: 'inputs', type: cids('Splice.Amulet:Amulet') },
        { name: 'memberId', type: text },
        { name: 'synchronizerId', type: text },
        { name: 'trafficAmount', type: int },
        { name: 'amuletCost', type: numeric },
        { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') },
      ],
      returnType: cid('Splice.DecentralizedSynchronizer:MemberTraffic'),
      controllers: [{ argument: 'buyer' }],
      description: 'burns amuletCost from the inputs (change returned) and records the purchased traffic',
      body: (ctx) => {
        const a = ctx.arg;
        const round = roundOf(ctx, a.openRound);
        const cost = num(a.amuletCost);
        const { total } = consumeInputs(ctx, asText(a.buyer), a.inputs, round);
        if (total < cost) ctx.fail(`insufficient funds: inputs are worth ${fmt(total)}, the traffic costs ${fmt(cost)}`);
        const dso = ctx.contract.dso ?? null;
        if (total > cost) newAmulet(ctx, dso, a.buyer ?? null, total - cost, round);
        return ctx.create('Splice.DecentralizedSynchronizer:MemberTraffic', {
          dso,
          memberId: a.memberId ?? '',
          synchronizerId: a.synchronizerId ?? '',
          totalPurchased: asText(a.trafficAmount),
          amuletSpent: a.amuletCost ?? '0',
        });
      },
    },
  ],
};

const WalletAppInstall: TemplateDef = {
  module: 'Splice.Wallet.Install',
  entity: 'WalletAppInstall',
  fields: [
    { name: 'dsoParty', type: party },
    { name: 'validatorParty', type: party },
    { name: 'endUserName', type: text },
    { name: 'endUserParty', type: party },
  ],
  signatories: ['validatorParty'],
  observers: ['endUserParty'],
  implements: [],
  choices: [],
};

const MemberTraffic: TemplateDef = {
  module: 'Splice.DecentralizedSynchronizer',
  entity: 'MemberTraffic',
  fields: [
    { name: 'dso', type: party },
    { name: 'memberId', type: text },
    { name: 'synchronizerId', type: text },
    { name: 'totalPurchased', type: int },
    { name: 'amuletSpent', type: numeric },
  ],
  signatories: ['dso'],
  observers: [],
  implements: [],
  choices: [],
};

export const amuletPackage: PackageDef = {
  name: AMULET_PACKAGE_NAME,
  version: '0.1.0',
  templates: [
    Amulet,
    LockedAmulet,
    OpenMiningRound,
    AmuletRules,
    TransferPreapproval,
    TransferOffer,
    AcceptedTransferOffer,
    WalletAppInstall,
    MemberTraffic,
    ...externalPartyTemplates,
    ...rewardTemplates,
    ...transferInstructionTemplates,
    ...allocationTemplates,
    ...allocationRequestTemplates,
    ...paymentTemplates,
    ...subscriptionTemplates,
    ...mintingTemplates,
    ...validatorLicenseTemplates,
    ...developmentFundTemplates,
  ],
  interfaces: [],
};
