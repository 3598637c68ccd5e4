/**
 * Subscriptions (`Splice.Wallet.Subscriptions`, names as in Splice). A provider and receiver create a
 * `SubscriptionRequest` for a wallet user (the sender); the wallet accepts it and pays the first period
 * (`SubscriptionRequest_AcceptAndMakePayment`: the amount is locked to the provider) → `SubscriptionInitialPayment`;
 * the provider collects it (`SubscriptionInitialPayment_Collect`: the receiver is paid, `Subscription` and
 * `SubscriptionIdleState` created) or rejects it (funds back). While idle, the sender's automation pays each period
 * when it is due (`SubscriptionIdleState_MakePayment` → `SubscriptionPayment`, collected by the provider with
 * `SubscriptionPayment_Collect` → idle again with the next due date); the sender cancels with
 * `SubscriptionIdleState_CancelSubscription`.
 *
 * Simplifications: the subscription data is flat (Splice nests `subscriptionData` / `payData`), amounts are in
 * Amulet, the interval is in microseconds, and due dates are computed by the app (choice bodies see no ledger time).
 */
import type { LfValue } from '../model.js';
import type { ChoiceContext, FieldDef, LfRecord, TemplateDef } from '../packages/types.js';
import { cid, cids, effectiveAmount, fmt, int, int64, num, numeric, party, roundOf, text, time } from './coin.js';
import { asText } from '../lf-text.js';

export const SUB_QN = {
  request: 'Splice.Wallet.Subscriptions:SubscriptionRequest',
  initial: 'Splice.Wallet.Subscriptions:SubscriptionInitialPayment',
  subscription: 'Splice.Wallet.Subscriptions:Subscription',
  idle: 'Splice.Wallet.Subscriptions:SubscriptionIdleState',
  payment: 'Splice.Wallet.Subscriptions:SubscriptionPayment',
} as const;

const dataFields: FieldDef[] = [
  { name: 'sender', type: party },
  { name: 'receiver', type: party },
  { name: 'provider', type: party },
  { name: 'dso', type: party },
  { name: 'description', type: text },
  { name: 'paymentAmount', type: numeric },
  { name: 'paymentIntervalMicros', type: int },
];
const data = (c: LfRecord): LfRecord => Object.fromEntries(dataFields.map((f) => [f.name, c[f.name] ?? null]));
const signatories = ['sender', 'receiver', 'provider'];
const roundArg: FieldDef = { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') };
const rulesArg: FieldDef = { name: 'amuletRules', type: cid('Splice.AmuletRules:AmuletRules') };

/** Locks the period's amount of the sender to the provider (AmuletRules_Transfer); returns the locked amulet. */
function lockPayment(ctx: ChoiceContext, expiresAt: LfValue): LfValue {
  const c = ctx.contract;
  const created = ctx.exercise(asText(ctx.arg.amuletRules), 'AmuletRules_Transfer', {
    sender: c.sender ?? null,
    inputs: ctx.arg.inputs ?? [],
    lockedInputs: [],
    actors: [],
    outputs: [{ receiver: c.sender ?? null, amount: fmt(num(c.paymentAmount)), lock: { holders: [c.provider ?? null], expiresAt } }],
    openRound: ctx.arg.openRound ?? null,
  }) as LfValue[];
  return created[0] ?? null;
}

/** Spends the locked amulet: the receiver gets the amount (less the fee accrued while locked) or, on refusal, the sender. */
function spendLocked(ctx: ChoiceContext, payReceiver: boolean): void {
  const c = ctx.contract;
  const round = roundOf(ctx, ctx.arg.openRound);
  const value = effectiveAmount(ctx.fetch(asText(c.lockedAmulet), 'Splice.Amulet:LockedAmulet'), int64(round.round)).effective;
  const amount = num(c.paymentAmount) < value ? num(c.paymentAmount) : value;
  ctx.exercise(asText(c.amuletRules), 'AmuletRules_Transfer', {
    sender: c.sender ?? null,
    inputs: [],
    lockedInputs: [c.lockedAmulet ?? null],
    actors: [c.provider ?? null, c.receiver ?? null],
    outputs: payReceiver && amount > 0n ? [{ receiver: c.receiver ?? null, amount: fmt(amount), lock: null }] : [],
    openRound: ctx.arg.openRound ?? null,
  });
}

const lockedFields: FieldDef[] = [...dataFields, { name: 'lockedAmulet', type: cid('Splice.Amulet:LockedAmulet') }, rulesArg];

const SubscriptionRequest: TemplateDef = {
  module: 'Splice.Wallet.Subscriptions',
  entity: 'SubscriptionRequest',
  fields: dataFields,
  signatories: ['receiver', 'provider'],
  observers: ['sender'],
  ensureDescription: 'a positive amount and interval',
  ensure: (a) =>
    num(a.paymentAmount) <= 0n
      ? 'paymentAmount must be positive'
      : int64(a.paymentIntervalMicros) <= 0n
        ? 'paymentIntervalMicros must be positive'
        : undefined,
  implements: [],
  choices: [
    {
      name: 'SubscriptionRequest_AcceptAndMakePayment',
      consuming: true,
      argument: [{ name: 'inputs', type: cids('Splice.Amulet:Amulet') }, rulesArg, roundArg, { name: 'lockExpiresAt', type: time }],
      returnType: cid(SUB_QN.initial),
      controllers: [{ contract: 'sender' }],
      description: 'the sender subscribes and pays the first period (locked to the provider)',
      body: (ctx) => {
        const lockedAmulet = lockPayment(ctx, ctx.arg.lockExpiresAt ?? null);
        return ctx.create(SUB_QN.initial, { ...data(ctx.contract), lockedAmulet, amuletRules: ctx.arg.amuletRules ?? null });
      },
    },
    {
      name: 'SubscriptionRequest_Reject',
      consuming: true,
      argument: [],
      returnType: { kind: 'Unit' },
      controllers: [{ contract: 'sender' }],
      description: 'the sender declines',
      body: () => ({}),
    },
    {
      name: 'SubscriptionRequest_Withdraw',
      consuming: true,
      argument: [],
      returnType: { kind: 'Unit' },
      controllers: [{ contract: 'provider' }],
      description: 'the provider withdraws the request',
      body: () => ({}),
    },
  ],
};

const SubscriptionInitialPayment: TemplateDef = {
  module: 'Splice.Wallet.Subscriptions',
  entity: 'SubscriptionInitialPayment',
  fields: lockedFields,
  signatories,
  observers: [],
  implements: [],
  choices: [
    {
      name: 'SubscriptionInitialPayment_Collect',
      consuming: true,
      argument: [roundArg, { name: 'nextPaymentDueAt', type: time }],
      returnType: cid(SUB_QN.subscription),
      controllers: [{ contract: 'provider' }],
      description: 'the provider collects the first payment: the receiver is paid, the subscription starts idle',
      body: (ctx) => {
        spendLocked(ctx, true);
        const d = data(ctx.contract);
        const subscription = ctx.create(SUB_QN.subscription, d);
        ctx.create(SUB_QN.idle, {
          ...d,
          subscription,
          nextPaymentDueAt: ctx.arg.nextPaymentDueAt ?? null,
          amuletRules: ctx.contract.amuletRules ?? null,
        });
        return subscription;
      },
    },
    {
      name: 'SubscriptionInitialPayment_Reject',
      consuming: true,
      argument: [roundArg],
      returnType: { kind: 'Unit' },
      controllers: [{ contract: 'provider' }],
      description: 'the provider refuses: the first payment returns to the sender',
      body: (ctx) => {
        spendLocked(ctx, false);
        return {};
      },
    },
  ],
};

const Subscription: TemplateDef = {
  module: 'Splice.Wallet.Subscriptions',
  entity: 'Subscription',
  fields: dataFields,
  signatories,
  observers: [],
  implements: [],
  choices: [],
};

const SubscriptionIdleState: TemplateDef = {
  module: 'Splice.Wallet.Subscriptions',
  entity: 'SubscriptionIdleState',
  fields: [...dataFields, { name: 'subscription', type: cid(SUB_QN.subscription) }, { name: 'nextPaymentDueAt', type: time }, rulesArg],
  signatories,
  observers: [],
  implements: [],
  choices: [
    {
      name: 'SubscriptionIdleState_MakePayment',
      consuming: true,
      argument: [{ name: 'inputs', type: cids('Splice.Amulet:Amulet') }, rulesArg, roundArg, { name: 'lockExpiresAt', type: time }],
      returnType: cid(SUB_QN.payment),
      controllers: [{ contract: 'sender' }],
      description: 'the sender pays the next period (locked to the provider)',
      body: (ctx) => {
        const c = ctx.contract;
        const lockedAmulet = lockPayment(ctx, ctx.arg.lockExpiresAt ?? null);
        return ctx.create(SUB_QN.payment, {
          ...data(c),
          subscription: c.subscription ?? null,
          thisPaymentDueAt: c.nextPaymentDueAt ?? null,
          lockedAmulet,
          amuletRules: ctx.arg.amuletRules ?? null,
        });
      },
    },
    {
      name: 'SubscriptionIdleState_CancelSubscription',
      consuming: true,
      argument: [],
      returnType: { kind: 'Unit' },
      controllers: [{ contract: 'sender' }],
      description: 'the sender ends the subscription',
      body: (ctx) => {
        ctx.exercise(asText(ctx.contract.subscription), 'Archive', {});
        return {};
      },
    },
  ],
};

const SubscriptionPayment: TemplateDef = {
  module: 'Splice.Wallet.Subscriptions',
  entity: 'SubscriptionPayment',
  fields: [
    ...dataFields,
    { name: 'subscription', type: cid(SUB_QN.subscription) },
    { name: 'thisPaymentDueAt', type: time },
    { name: 'lockedAmulet', type: cid('Splice.Amulet:LockedAmulet') },
    rulesArg,
  ],
  signatories,
  observers: [],
  implements: [],
  choices: [
    {
      name: 'SubscriptionPayment_Collect',
      consuming: true,
      argument: [roundArg, { name: 'nextPaymentDueAt', type: time }],
      returnType: cid(SUB_QN.idle),
      controllers: [{ contract: 'provider' }],
      description: 'the provider collects the period: the receiver is paid, the subscription is idle until the next due date',
      body: (ctx) => {
        spendLocked(ctx, true);
        const c = ctx.contract;
        return ctx.create(SUB_QN.idle, {
          ...data(c),
          subscription: c.subscription ?? null,
          nextPaymentDueAt: ctx.arg.nextPaymentDueAt ?? null,
          amuletRules: c.amuletRules ?? null,
        });
      },
    },
  ],
};

export const subscriptionTemplates: TemplateDef[] = [
  SubscriptionRequest,
  SubscriptionInitialPayment,
  Subscription,
  SubscriptionIdleState,
  SubscriptionPayment,
];
