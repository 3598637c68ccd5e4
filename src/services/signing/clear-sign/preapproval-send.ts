/**
 * A Canton Coin transfer to a party with a transfer pre-approval: `TransferPreapproval_Send` (Splice), exercised by
 * the sender on the receiver's pre-approval. The receiver and provider are read from the pre-approval contract, an
 * input contract of the transaction (covered by the V2 hash).
 */
import { field, numericOf, optionalOf, partyOf, textOf } from '../daml-value.js';
import { actsAlone, defineRecogniser, notClear, ok, row, amountText } from './registry.js';

export const PREAPPROVAL_SEND = 'TransferPreapproval_Send';

export interface PreapprovalSendClearSign {
  kind: 'preapproval-send';
  sender: string;
  receiver: string;
  provider: string | null;
  amount: string;
  memo: string | null;
  preapprovalCid: string;
}

export const preapprovalSend = defineRecogniser<PreapprovalSendClearSign>({
  kind: 'preapproval-send',
  matchers: [
    (root, ctx) => {
      if (root.kind !== 'exercise') return null;
      const e = root.exercise;
      if (
        e.choiceId !== PREAPPROVAL_SEND ||
        e.templateId?.moduleName !== 'Splice.AmuletRules' ||
        e.templateId.entityName !== 'TransferPreapproval'
      )
        return null;
      const sender = partyOf(field(e.chosenValue, 'sender'));
      const amount = numericOf(field(e.chosenValue, 'amount'));
      const preapproval = ctx.inputs.get(e.contractId)?.argument;
      const receiver = partyOf(field(preapproval, 'receiver'));
      if (!sender || !amount) return notClear('A pre-approved transfer with missing fields cannot be clear-signed');
      if (!receiver) return notClear('The pre-approval’s receiver is not readable from its contract; it cannot be clear-signed');
      if (sender !== ctx.signingParty) return notClear(`The transfer’s sender ${sender} is not the signing party`);
      if (!actsAlone(e, ctx.signingParty)) return notClear(`The transfer is exercised by ${e.actingParties.join(', ')}`);
      return ok({
        kind: 'preapproval-send',
        sender,
        receiver,
        provider: partyOf(field(preapproval, 'provider')),
        amount,
        memo: textOf(optionalOf(field(e.chosenValue, 'description'))),
        preapprovalCid: e.contractId,
      });
    },
  ],
  counterparties: (c) => [c.receiver],
  amounts: (c) => [{ path: 'amount', value: c.amount }],
  headline: (c) =>
    `Transfer ${amountText(c.amount)} Canton Coin from ${c.sender} to ${c.receiver} (pre-approved)${c.memo ? ` (memo: ${c.memo})` : ''}`,
  wire: (c) => ({
    title: 'Canton Coin transfer (pre-approved)',
    fields: [
      row.party('From', c.sender),
      row.party('To', c.receiver),
      row.amount('Amount', c.amount, 'CC'),
      row.party('Pre-approval provider', c.provider),
      row.text('Memo', c.memo),
      row.contract('Pre-approval', c.preapprovalCid),
    ],
  }),
});
