/**
 * Accepting a validator's `ExternalPartySetupProposal` (Splice): the external party takes up its validator's offer,
 * which creates its `TransferPreapproval` (incoming Canton Coin transfers accepted, provider: the validator) and its
 * `ValidatorRight`. What is accepted is read from the proposal contract itself, an input contract of the transaction
 * (covered by the V2 hash); without it nothing is clear-signed.
 */
import { field, partyOf, timestampOf } from '../daml-value.js';
import { actsAlone, defineRecogniser, notClear, ok, row } from './registry.js';

export const SETUP_MODULE = 'Splice.AmuletRules';
export const SETUP_TEMPLATE = 'ExternalPartySetupProposal';
export const SETUP_ACCEPT = 'ExternalPartySetupProposal_Accept';

export interface PreapprovalSetupClearSign {
  kind: 'preapproval-setup';
  user: string;
  validator: string;
  dso: string | null;
  preapprovalExpiresAt: string | null;
  proposalCid: string;
}

export const preapprovalSetup = defineRecogniser<PreapprovalSetupClearSign>({
  kind: 'preapproval-setup',
  matchers: [
    (root, ctx) => {
      if (root.kind !== 'exercise') return null;
      const e = root.exercise;
      if (e.choiceId !== SETUP_ACCEPT || e.templateId?.moduleName !== SETUP_MODULE || e.templateId.entityName !== SETUP_TEMPLATE)
        return null;
      if (!actsAlone(e, ctx.signingParty)) return notClear(`The setup proposal is accepted by ${e.actingParties.join(', ')}`);
      const proposal = ctx.inputs.get(e.contractId)?.argument;
      const user = partyOf(field(proposal, 'user'));
      const validator = partyOf(field(proposal, 'validator'));
      if (!user || !validator)
        return notClear('The setup proposal’s user and validator are not readable from its contract; it cannot be clear-signed');
      if (user !== ctx.signingParty) return notClear(`The setup proposal is for ${user}, not the signing party`);
      return ok({
        kind: 'preapproval-setup',
        user,
        validator,
        dso: partyOf(field(proposal, 'dso')),
        preapprovalExpiresAt: timestampOf(field(proposal, 'preapprovalExpiresAt')),
        proposalCid: e.contractId,
      });
    },
  ],
  counterparties: (c) => [c.validator],
  amounts: () => [],
  headline: (c) =>
    `Accept the wallet setup of validator ${c.validator}: pre-approve incoming Canton Coin transfers to ${c.user}${
      c.preapprovalExpiresAt ? ` until ${c.preapprovalExpiresAt}` : ''
    }`,
  wire: (c) => ({
    title: 'Transfer pre-approval setup',
    fields: [
      row.party('Receiver (you)', c.user),
      row.party('Provider (validator)', c.validator),
      row.text('Asset', 'Canton Coin (Amulet)'),
      row.timestamp('Pre-approval expires', c.preapprovalExpiresAt),
      row.party('DSO', c.dso),
      row.contract('Setup proposal', c.proposalCid),
    ],
  }),
});
