/** Creating a Splice `TransferPreapprovalProposal`: the signer pre-approves incoming Canton Coin transfers. */
import { field, optionalOf, partyOf } from '../daml-value.js';
import { defineRecogniser, notClear, ok, row } from './registry.js';

export const PREAPPROVAL_MODULE = 'Splice.Wallet.TransferPreapproval';
export const PREAPPROVAL_TEMPLATE = 'TransferPreapprovalProposal';

export interface TransferPreapprovalProposalClearSign {
  kind: 'transfer-preapproval-proposal';
  receiver: string;
  provider: string;
  asset: string;
  expectedDso: string | null;
}

export const transferPreapprovalProposal = defineRecogniser<TransferPreapprovalProposalClearSign>({
  kind: 'transfer-preapproval-proposal',
  matchers: [
    (root, ctx) => {
      if (root.kind !== 'create') return null;
      const c = root.create;
      if (c.templateId?.moduleName !== PREAPPROVAL_MODULE || c.templateId.entityName !== PREAPPROVAL_TEMPLATE) return null;
      const receiver = partyOf(field(c.argument, 'receiver'));
      const provider = partyOf(field(c.argument, 'provider'));
      if (!receiver || !provider) return notClear('A preapproval proposal with missing fields cannot be clear-signed');
      if (receiver !== ctx.signingParty) return notClear(`The preapproval is for ${receiver}, not the signing party`);
      return ok({
        kind: 'transfer-preapproval-proposal',
        receiver,
        provider,
        asset: 'Canton Coin (Amulet)',
        expectedDso: partyOf(optionalOf(field(c.argument, 'expectedDso'))),
      });
    },
  ],
  counterparties: (c) => [c.provider],
  amounts: () => [],
  headline: (c) => `Pre-approve incoming ${c.asset} transfers to ${c.receiver}, operated by ${c.provider}`,
  wire: (c) => ({
    title: 'Transfer pre-approval',
    fields: [
      row.party('Receiver', c.receiver),
      row.party('Provider', c.provider),
      row.text('Asset', c.asset),
      row.party('DSO', c.expectedDso),
    ],
  }),
});
