/**
 * `splice-amulet` templates for externally signed (external-party) wallets, named as in Splice so the console's
 * clear-signing recogniser sees the real choice names:
 *
 * - `Splice.AmuletRules:ExternalPartySetupProposal` — the validator proposes; the external party accepts with
 *   `ExternalPartySetupProposal_Accept` (a transaction it signs), which creates its `Splice.Amulet:ValidatorRight` and,
 *   through `AmuletRules_CreateTransferPreapproval`, its `TransferPreapproval` (provider: the validator).
 * - `Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules` — the DSO-signed rules an external sender exercises
 *   `ExternalPartyAmuletRules_CreateTransferCommand` on (its signature covers only that).
 * - `Splice.ExternalPartyAmuletRules:TransferCommand` — a one-time delegation; the delegate (the DSO's automation)
 *   executes it with `TransferCommand_Send` through the receiver's preapproval, ordered and deduplicated by the
 *   sender's `TransferCommandCounter` nonce (a nonce below the counter fails but is consumed, one above it aborts so the
 *   command can be retried later, as in Splice).
 *
 * Simplifications: the payment context is just the open round, preapprovals are free (no fee burnt), and the
 * results are flat records.
 */
import type { LfValue } from '../model.js';
import type { ChoiceContext, FieldType, TemplateDef } from '../packages/types.js';
import { cid, cids, effectiveAmount, int, int64, num, numeric, party, text, time } from './coin.js';
import { externalRulesFactories } from './token-views.js';
import { asText } from '../lf-text.js';

const optional = (elem: FieldType): FieldType => ({ kind: 'Optional', elem });

const AcceptResult: FieldType = {
  kind: 'Record',
  name: 'Splice.AmuletRules:ExternalPartySetupProposal_AcceptResult',
  fields: [
    { name: 'validatorRightCid', type: cid('Splice.Amulet:ValidatorRight') },
    { name: 'transferPreapprovalCid', type: cid('Splice.AmuletRules:TransferPreapproval') },
  ],
};

const CreateTransferCommandResult: FieldType = {
  kind: 'Record',
  name: 'Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules_CreateTransferCommandResult',
  fields: [{ name: 'transferCommandCid', type: cid('Splice.ExternalPartyAmuletRules:TransferCommand') }],
};

const SendResult: FieldType = {
  kind: 'Record',
  name: 'Splice.ExternalPartyAmuletRules:TransferCommand_SendResult',
  fields: [
    { name: 'succeeded', type: { kind: 'Bool' } },
    { name: 'failureReason', type: optional(text) },
    { name: 'receiverAmulet', type: optional(cid('Splice.Amulet:Amulet')) },
    { name: 'sender', type: party },
    { name: 'nonce', type: int },
  ],
};

const ValidatorRight: TemplateDef = {
  module: 'Splice.Amulet',
  entity: 'ValidatorRight',
  fields: [
    { name: 'dso', type: party },
    { name: 'user', type: party },
    { name: 'validator', type: party },
  ],
  signatories: ['user', 'validator'],
  observers: [],
  implements: [],
  choices: [],
};

const ExternalPartySetupProposal: TemplateDef = {
  module: 'Splice.AmuletRules',
  entity: 'ExternalPartySetupProposal',
  fields: [
    { name: 'validator', type: party },
    { name: 'user', type: party },
    { name: 'dso', type: party },
    { name: 'preapprovalExpiresAt', type: time },
  ],
  signatories: ['validator'],
  observers: ['user'],
  implements: [],
  choices: [
    {
      name: 'ExternalPartySetupProposal_Accept',
      consuming: true,
      argument: [
        { name: 'amuletRules', type: cid('Splice.AmuletRules:AmuletRules') },
        { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') },
      ],
      returnType: AcceptResult,
      controllers: [{ contract: 'user' }],
      description: 'the external party accepts: creates its ValidatorRight and its TransferPreapproval (provider: the validator)',
      body: (ctx) => {
        const c = ctx.contract;
        const rules = ctx.fetch(asText(ctx.arg.amuletRules), 'Splice.AmuletRules:AmuletRules');
        if (rules.dso !== c.dso) ctx.fail(`AmuletRules of ${asText(rules.dso)} given, the proposal expects dso ${asText(c.dso)}`);
        const validatorRightCid = ctx.create('Splice.Amulet:ValidatorRight', {
          dso: c.dso ?? null,
          user: c.user ?? null,
          validator: c.validator ?? null,
        });
        const transferPreapprovalCid = ctx.exercise(asText(ctx.arg.amuletRules), 'AmuletRules_CreateTransferPreapproval', {
          receiver: c.user ?? null,
          provider: c.validator ?? null,
          // choice bodies see no ledger time: the preapproval is valid from the open round's start
          validFrom: ctx.fetch(asText(ctx.arg.openRound), 'Splice.Round:OpenMiningRound').opensAt ?? null,
          expiresAt: c.preapprovalExpiresAt ?? null,
        });
        return { validatorRightCid, transferPreapprovalCid };
      },
    },
    {
      name: 'ExternalPartySetupProposal_Reject',
      consuming: true,
      argument: [],
      returnType: { kind: 'Unit' },
      controllers: [{ contract: 'user' }],
      description: 'the external party declines the proposal',
      body: () => ({}),
    },
  ],
};

const ExternalPartyAmuletRules: TemplateDef = {
  module: 'Splice.ExternalPartyAmuletRules',
  entity: 'ExternalPartyAmuletRules',
  fields: [{ name: 'dso', type: party }],
  signatories: ['dso'],
  observers: [],
  implements: externalRulesFactories,
  choices: [
    {
      name: 'ExternalPartyAmuletRules_CreateTransferCommand',
      consuming: false,
      argument: [
        { name: 'sender', type: party },
        { name: 'receiver', type: party },
        { name: 'delegate', type: party },
        { name: 'amount', type: numeric },
        { name: 'expiresAt', type: time },
        { name: 'nonce', type: int },
        { name: 'description', type: optional(text) },
        { name: 'expectedDso', type: optional(party) },
      ],
      returnType: CreateTransferCommandResult,
      controllers: [{ argument: 'sender' }],
      description: 'the external sender delegates one transfer (amount, receiver, nonce) to the delegate',
      body: (ctx) => {
        const a = ctx.arg;
        if (a.expectedDso !== ctx.contract.dso)
          ctx.fail(`expectedDso ${asText(a.expectedDso)} does not match the dso party ${asText(ctx.contract.dso)}`);
        if (num(a.amount) <= 0n) ctx.fail('transfer amount must be positive');
        if (int64(a.nonce) < 0n) ctx.fail('nonce must not be negative');
        const transferCommandCid = ctx.create('Splice.ExternalPartyAmuletRules:TransferCommand', {
          dso: ctx.contract.dso ?? null,
          sender: a.sender ?? null,
          receiver: a.receiver ?? null,
          delegate: a.delegate ?? null,
          amount: a.amount ?? null,
          expiresAt: a.expiresAt ?? null,
          nonce: a.nonce ?? null,
          description: a.description ?? null,
        });
        return { transferCommandCid };
      },
    },
  ],
};

const TransferCommandCounter: TemplateDef = {
  module: 'Splice.ExternalPartyAmuletRules',
  entity: 'TransferCommandCounter',
  fields: [
    { name: 'dso', type: party },
    { name: 'sender', type: party },
    { name: 'nextNonce', type: int },
  ],
  signatories: ['dso'],
  observers: ['sender'],
  implements: [],
  choices: [],
};

const failure = (ctx: ChoiceContext, reason: string): LfValue => ({
  succeeded: false,
  failureReason: reason,
  receiverAmulet: null,
  sender: ctx.contract.sender ?? null,
  nonce: ctx.contract.nonce ?? null,
});

const TransferCommand: TemplateDef = {
  module: 'Splice.ExternalPartyAmuletRules',
  entity: 'TransferCommand',
  fields: [
    { name: 'dso', type: party },
    { name: 'sender', type: party },
    { name: 'receiver', type: party },
    { name: 'delegate', type: party },
    { name: 'amount', type: numeric },
    { name: 'expiresAt', type: time },
    { name: 'nonce', type: int },
    { name: 'description', type: optional(text) },
  ],
  signatories: ['sender', 'dso'],
  observers: ['delegate'],
  implements: [],
  choices: [
    {
      name: 'TransferCommand_Send',
      consuming: true,
      argument: [
        { name: 'inputs', type: cids('Splice.Amulet:Amulet') },
        { name: 'transferPreapprovalCidO', type: optional(cid('Splice.AmuletRules:TransferPreapproval')) },
        { name: 'transferCounterCid', type: cid('Splice.ExternalPartyAmuletRules:TransferCommandCounter') },
        { name: 'openRound', type: cid('Splice.Round:OpenMiningRound') },
      ],
      returnType: SendResult,
      controllers: [{ contract: 'delegate' }],
      description: 'the delegate executes the transfer through the receiver preapproval; the nonce is spent whether or not funds move',
      body: (ctx) => {
        const c = ctx.contract;
        const counter = ctx.fetch(asText(ctx.arg.transferCounterCid), 'Splice.ExternalPartyAmuletRules:TransferCommandCounter');
        if (counter.sender !== c.sender || counter.dso !== c.dso) ctx.fail('the transfer counter belongs to another sender');
        const next = int64(counter.nextNonce);
        const nonce = int64(c.nonce);
        if (next > nonce) return failure(ctx, `Expected nonce ${nonce} is smaller than current counter ${next}`);
        if (next < nonce) ctx.fail(`Expected nonce ${nonce} is bigger than current counter ${next}`);
        ctx.exercise(asText(ctx.arg.transferCounterCid), 'Archive', {});
        ctx.create('Splice.ExternalPartyAmuletRules:TransferCommandCounter', {
          dso: c.dso ?? null,
          sender: c.sender ?? null,
          nextNonce: String(next + 1n),
        });
        const preapproval = ctx.arg.transferPreapprovalCidO;
        if (preapproval === null || preapproval === undefined)
          return failure(ctx, `No TransferPreapproval for receiver ${asText(c.receiver)}`);
        const p = ctx.fetch(asText(preapproval), 'Splice.AmuletRules:TransferPreapproval');
        if (p.receiver !== c.receiver || p.dso !== c.dso) ctx.fail('the transfer preapproval is not the receiver’s');
        // funds are checked before the inputs are consumed so that an under-funded command fails without moving anything
        const round = ctx.fetch(asText(ctx.arg.openRound), 'Splice.Round:OpenMiningRound');
        const inputs = (ctx.arg.inputs as LfValue[] | null) ?? [];
        let available = 0n;
        for (const i of inputs) available += effectiveAmount(ctx.fetch(asText(i), 'Splice.Amulet:Amulet'), int64(round.round)).effective;
        if (inputs.length === 0 || available < num(c.amount))
          return failure(ctx, `Insufficient funds: the inputs are worth ${available}, the transfer needs ${asText(c.amount)}`);
        const receiverAmulet = ctx.exercise(asText(preapproval), 'TransferPreapproval_Send', {
          sender: c.sender ?? null,
          inputs,
          amount: c.amount ?? null,
          description: c.description ?? null,
          openRound: ctx.arg.openRound ?? null,
        });
        return { succeeded: true, failureReason: null, receiverAmulet, sender: c.sender ?? null, nonce: c.nonce ?? null };
      },
    },
    {
      name: 'TransferCommand_Withdraw',
      consuming: true,
      argument: [],
      returnType: { kind: 'Unit' },
      controllers: [{ contract: 'sender' }],
      description: 'the sender withdraws the delegation before it is executed',
      body: () => ({}),
    },
    {
      name: 'TransferCommand_Expire',
      consuming: true,
      argument: [{ name: 'p', type: party }],
      returnType: { kind: 'Unit' },
      controllers: [{ argument: 'p' }],
      // the simulator's choice bodies see no ledger time: the expiry automation checks expiresAt before exercising
      description: 'a stakeholder archives the command after expiresAt',
      body: (ctx) => {
        const c = ctx.contract;
        if (![c.sender, c.dso, c.delegate].includes(ctx.arg.p ?? null)) ctx.fail('Controller is a stakeholder');
        return {};
      },
    },
  ],
};

export const externalPartyTemplates: TemplateDef[] = [
  ValidatorRight,
  ExternalPartySetupProposal,
  ExternalPartyAmuletRules,
  TransferCommandCounter,
  TransferCommand,
];
