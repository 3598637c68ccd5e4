/**
 * App payments (`Splice.Wallet.Payment`, names as in Splice). An app provider and the payment's receivers create an
 * `AppPaymentRequest` for a wallet user (the sender) on the ledger; the sender's wallet accepts it
 * (`AppPaymentRequest_Accept`: the total is locked to the provider through `AmuletRules_Transfer`, `AcceptedAppPayment`
 * created) or rejects it; the provider withdraws a request, collects an accepted payment (`AcceptedAppPayment_Collect`:
 * each receiver gets its amount) or rejects it (`AcceptedAppPayment_Reject`: the funds return to the sender).
 *
 * `AmuletRules_Transfer` is a simplified form of Splice's transfer: inputs (unlocked amulets of the sender and locked
 * amulets whose lock holders act), outputs (receiver, amount, optional lock), the change to the sender; the DSO's
 * authority comes from the rules contract, the receivers' from the acting parties.
 *
 * Simplifications: amounts are in Amulet only (Splice's `PaymentAmount` also allows USD); the payment context is the
 * open round; holding fees accrued while locked reduce the last receivers' shares; no reward coupons are issued for
 * payments; deadlines are checked by the app.
 */
import type { LfValue } from '../model.js';
import type { ChoiceContext, ChoiceDef, FieldDef, FieldType, LfRecord, TemplateDef } from '../packages/types.js';
import { cid, cids, effectiveAmount, fmt, int64, newAmulet, num, numeric, party, parties, roundOf, text, time } from './coin.js';
import { asText } from '../lf-text.js';

export const PAYMENT_QN = {
  request: 'Splice.Wallet.Payment:AppPaymentRequest',
  accepted: 'Splice.Wallet.Payment:AcceptedAppPayment',
} as const;

const receiverAmount: FieldType = {
  kind: 'Record',
  name: 'Splice.Wallet.Payment:ReceiverAmuletAmount',
  fields: [
    { name: 'receiver', type: party },
    { name: 'amuletAmount', type: numeric },
  ],
};
const receiverAmounts: FieldType = { kind: 'List', elem: receiverAmount };
const roundArg: FieldDef = { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') };

const transferOutput: FieldType = {
  kind: 'Record',
  name: 'Splice.AmuletRules:TransferOutput',
  fields: [
    { name: 'receiver', type: party },
    { name: 'amount', type: numeric },
    {
      name: 'lock',
      type: {
        kind: 'Optional',
        elem: {
          kind: 'Record',
          name: 'Splice.Expiry:TimeLock',
          fields: [
            { name: 'holders', type: parties },
            { name: 'expiresAt', type: time },
          ],
        },
      },
    },
  ],
};

const rows = (v: LfValue | undefined): LfRecord[] => (v as LfRecord[] | null) ?? [];
const totalOf = (amounts: LfValue | undefined): bigint => rows(amounts).reduce((s, r) => s + num(r.amuletAmount), 0n);

/** `AmuletRules_Transfer` (simplified, see the module comment): returns the created outputs' contract ids, in order. */
export const amuletRulesTransfer: ChoiceDef = {
  name: 'AmuletRules_Transfer',
  consuming: false,
  argument: [
    { name: 'sender', type: party },
    { name: 'inputs', type: cids('Splice.Amulet:Amulet') },
    { name: 'lockedInputs', type: cids('Splice.Amulet:LockedAmulet') },
    { name: 'outputs', type: { kind: 'List', elem: transferOutput } },
    { name: 'actors', type: parties },
    roundArg,
  ],
  returnType: { kind: 'List', elem: { kind: 'ContractId' } },
  controllers: [{ argument: 'sender' }, { argument: 'actors' }],
  description: 'archives the sender’s inputs (locked ones only with their lock holders acting), creates the outputs and returns the change',
  body: (ctx) => {
    const a = ctx.arg;
    const sender = asText(a.sender);
    const dso = ctx.contract.dso ?? null;
    const round = roundOf(ctx, a.openRound);
    const actors = new Set(((a.actors as LfValue[] | null) ?? []).map(String));
    let available = 0n;
    const spend = (cidValue: LfValue, template: 'Splice.Amulet:Amulet' | 'Splice.Amulet:LockedAmulet'): void => {
      const c = ctx.fetch(asText(cidValue), template);
      if (c.owner !== sender) ctx.fail(`input ${asText(cidValue)} is not owned by ${sender}`);
      if (template === 'Splice.Amulet:LockedAmulet' && ((c.lockHolders as LfValue[] | null) ?? []).some((h) => !actors.has(asText(h))))
        ctx.fail(`the lock holders of ${asText(cidValue)} must act to spend it`);
      available += effectiveAmount(c, int64(round.round)).effective;
      ctx.exercise(asText(cidValue), 'Archive', {});
    };
    const inputs = (a.inputs as LfValue[] | null) ?? [];
    const locked = (a.lockedInputs as LfValue[] | null) ?? [];
    if (inputs.length + locked.length === 0) ctx.fail('at least one input is required');
    if (inputs.length + locked.length > 100) ctx.fail('a transfer takes at most 100 inputs');
    for (const i of inputs) spend(i, 'Splice.Amulet:Amulet');
    for (const l of locked) spend(l, 'Splice.Amulet:LockedAmulet');
    const outputs = rows(a.outputs);
    const needed = outputs.reduce((s, o) => s + num(o.amount), 0n);
    if (available < needed) ctx.fail(`insufficient funds: inputs are worth ${fmt(available)}, the outputs need ${fmt(needed)}`);
    const created = outputs.map((o) => {
      const lock = o.lock as LfRecord | null;
      if (num(o.amount) <= 0n) ctx.fail('output amounts must be positive');
      return lock
        ? ctx.create('Splice.Amulet:LockedAmulet', {
            dso,
            owner: o.receiver ?? null,
            initialAmount: fmt(num(o.amount)),
            createdAtRound: asText(round.round),
            ratePerRound: round.holdingFeeRate ?? '0',
            lockHolders: lock.holders ?? [],
            lockExpiresAt: lock.expiresAt ?? null,
          })
        : newAmulet(ctx, dso, o.receiver ?? null, num(o.amount), round);
    });
    if (available > needed) newAmulet(ctx, dso, sender, available - needed, round);
    return created;
  },
};

const AppPaymentRequest: TemplateDef = {
  module: 'Splice.Wallet.Payment',
  entity: 'AppPaymentRequest',
  fields: [
    { name: 'sender', type: party },
    { name: 'receiverAmounts', type: receiverAmounts },
    { name: 'receivers', type: parties },
    { name: 'provider', type: party },
    { name: 'dso', type: party },
    { name: 'expiresAt', type: time },
    { name: 'description', type: text },
  ],
  signatories: ['provider', 'receivers'],
  observers: ['sender'],
  ensureDescription: 'at least one receiver, positive amounts, receivers listed in receivers',
  ensure: (a) => {
    const rs = rows(a.receiverAmounts);
    if (rs.length === 0) return 'a payment request needs at least one receiver';
    if (rs.some((r) => num(r.amuletAmount) <= 0n)) return 'payment amounts must be positive';
    const listed = new Set(((a.receivers as LfValue[] | null) ?? []).map(String));
    if (rs.some((r) => !listed.has(asText(r.receiver)))) return 'every receiver must be listed in receivers (they sign the request)';
    return undefined;
  },
  implements: [],
  choices: [
    {
      name: 'AppPaymentRequest_Accept',
      consuming: true,
      argument: [
        { name: 'inputs', type: cids('Splice.Amulet:Amulet') },
        { name: 'amuletRules', type: cid('Splice.AmuletRules:AmuletRules') },
        roundArg,
      ],
      returnType: cid(PAYMENT_QN.accepted),
      controllers: [{ contract: 'sender' }],
      description: 'the sender pays: the total is locked to the provider (change returned) and the payment accepted',
      body: (ctx) => {
        const c = ctx.contract;
        const rules = ctx.fetch(asText(ctx.arg.amuletRules), 'Splice.AmuletRules:AmuletRules');
        if (rules.dso !== c.dso) ctx.fail('the AmuletRules are not the request’s DSO');
        const created = ctx.exercise(asText(ctx.arg.amuletRules), 'AmuletRules_Transfer', {
          sender: c.sender ?? null,
          inputs: ctx.arg.inputs ?? [],
          lockedInputs: [],
          actors: [],
          outputs: [
            {
              receiver: c.sender ?? null,
              amount: fmt(totalOf(c.receiverAmounts)),
              lock: { holders: [c.provider ?? null], expiresAt: c.expiresAt ?? null },
            },
          ],
          openRound: ctx.arg.openRound ?? null,
        }) as LfValue[];
        return ctx.create(PAYMENT_QN.accepted, {
          sender: c.sender ?? null,
          amuletReceiverAmounts: c.receiverAmounts ?? [],
          receivers: c.receivers ?? [],
          provider: c.provider ?? null,
          dso: c.dso ?? null,
          lockedAmulet: created[0] ?? null,
          amuletRules: ctx.arg.amuletRules ?? null,
        });
      },
    },
    {
      name: 'AppPaymentRequest_Reject',
      consuming: true,
      argument: [],
      returnType: { kind: 'Unit' },
      controllers: [{ contract: 'sender' }],
      description: 'the sender declines to pay',
      body: () => ({}),
    },
    {
      name: 'AppPaymentRequest_Withdraw',
      consuming: true,
      argument: [],
      returnType: { kind: 'Unit' },
      controllers: [{ contract: 'provider' }],
      description: 'the provider withdraws its request',
      body: () => ({}),
    },
  ],
};

/** Exercises AmuletRules_Transfer spending the payment's locked amulet with the provider (lock holder) acting. */
function spendLocked(ctx: ChoiceContext, outputs: LfRecord[]): LfValue[] {
  const c = ctx.contract;
  return ctx.exercise(asText(c.amuletRules), 'AmuletRules_Transfer', {
    sender: c.sender ?? null,
    inputs: [],
    lockedInputs: [c.lockedAmulet ?? null],
    actors: [c.provider ?? null, ...((c.receivers as LfValue[] | null) ?? [])],
    outputs,
    openRound: ctx.arg.openRound ?? null,
  }) as LfValue[];
}

const AcceptedAppPayment: TemplateDef = {
  module: 'Splice.Wallet.Payment',
  entity: 'AcceptedAppPayment',
  fields: [
    { name: 'sender', type: party },
    { name: 'amuletReceiverAmounts', type: receiverAmounts },
    { name: 'receivers', type: parties },
    { name: 'provider', type: party },
    { name: 'dso', type: party },
    { name: 'lockedAmulet', type: cid('Splice.Amulet:LockedAmulet') },
    { name: 'amuletRules', type: cid('Splice.AmuletRules:AmuletRules') },
  ],
  signatories: ['sender', 'provider', 'receivers'],
  observers: [],
  implements: [],
  choices: [
    {
      name: 'AcceptedAppPayment_Collect',
      consuming: true,
      argument: [roundArg],
      returnType: { kind: 'List', elem: { kind: 'ContractId' } },
      controllers: [{ contract: 'provider' }],
      description: 'the provider collects: each receiver gets its amount (less the holding fee accrued while locked, last receivers first)',
      body: (ctx) => {
        const c = ctx.contract;
        const round = roundOf(ctx, ctx.arg.openRound);
        let remaining = effectiveAmount(ctx.fetch(asText(c.lockedAmulet), 'Splice.Amulet:LockedAmulet'), int64(round.round)).effective;
        const outputs = rows(c.amuletReceiverAmounts).flatMap((r) => {
          const amount = num(r.amuletAmount) < remaining ? num(r.amuletAmount) : remaining;
          remaining -= amount;
          return amount > 0n ? [{ receiver: r.receiver ?? null, amount: fmt(amount), lock: null }] : [];
        });
        if (outputs.length === 0) ctx.fail('the locked amount has been consumed by holding fees');
        return spendLocked(ctx, outputs);
      },
    },
    {
      name: 'AcceptedAppPayment_Reject',
      consuming: true,
      argument: [roundArg],
      returnType: { kind: 'List', elem: { kind: 'ContractId' } },
      controllers: [{ contract: 'provider' }],
      description: 'the provider refuses the payment: the funds return to the sender',
      body: (ctx) => spendLocked(ctx, []),
    },
  ],
};

export const paymentTemplates: TemplateDef[] = [AppPaymentRequest, AcceptedAppPayment];
