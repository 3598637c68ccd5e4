/** A Canton Coin transfer by an external party: `ExternalPartyAmuletRules_CreateTransferCommand` (Splice). */
import { field, int64Of, numericOf, optionalOf, partyOf, textOf, timestampOf } from '../daml-value.js';
import { defineRecogniser, notClear, ok, row, amountText } from './registry.js';

export const AMULET_TRANSFER_MODULE = 'Splice.ExternalPartyAmuletRules';
export const AMULET_TRANSFER_CHOICE = 'ExternalPartyAmuletRules_CreateTransferCommand';

export interface AmuletTransferClearSign {
  kind: 'amulet-transfer';
  sender: string;
  receiver: string;
  delegate: string;
  amount: string;
  instrument: { admin: string | null; id: 'Amulet' };
  memo: string | null;
  expiresAt: string | null;
  nonce: string | null;
}

export const amuletTransfer = defineRecogniser<AmuletTransferClearSign>({
  kind: 'amulet-transfer',
  matchers: [
    (root, ctx) => {
      if (root.kind !== 'exercise') return null;
      const e = root.exercise;
      if (e.choiceId !== AMULET_TRANSFER_CHOICE || e.templateId?.moduleName !== AMULET_TRANSFER_MODULE) return null;
      const args = e.chosenValue;
      const sender = partyOf(field(args, 'sender'));
      const receiver = partyOf(field(args, 'receiver'));
      const delegate = partyOf(field(args, 'delegate'));
      const amount = numericOf(field(args, 'amount'));
      if (!sender || !receiver || !delegate || !amount)
        return notClear('A Canton Coin transfer with missing fields cannot be clear-signed');
      const warnings: string[] = [];
      if (sender !== ctx.signingParty) warnings.push(`The transfer’s sender ${sender} is not the signing party`);
      if (!e.actingParties.every((p) => p === ctx.signingParty))
        warnings.push(`The transfer is exercised by ${e.actingParties.join(', ')}`);
      if (warnings.length > 0) return notClear(...warnings);
      return ok({
        kind: 'amulet-transfer',
        sender,
        receiver,
        delegate,
        amount,
        instrument: { admin: partyOf(optionalOf(field(args, 'expectedDso'))) ?? e.signatories[0] ?? null, id: 'Amulet' },
        memo: textOf(optionalOf(field(args, 'description'))),
        expiresAt: timestampOf(field(args, 'expiresAt')),
        nonce: int64Of(field(args, 'nonce')),
      });
    },
  ],
  counterparties: (c) => [c.receiver],
  amounts: (c) => [{ path: 'amount', value: c.amount }],
  headline: (c) =>
    `Transfer ${amountText(c.amount)} Canton Coin from ${c.sender} to ${c.receiver} via ${c.delegate}${c.memo ? ` (memo: ${c.memo})` : ''}`,
  wire: (c) => ({
    title: 'Canton Coin transfer',
    fields: [
      row.party('From', c.sender),
      row.party('To', c.receiver),
      row.amount('Amount', c.amount, 'CC'),
      row.party('Delegate', c.delegate),
      row.text('Memo', c.memo),
      row.timestamp('Expires', c.expiresAt),
      row.text('Nonce', c.nonce),
    ],
  }),
});
