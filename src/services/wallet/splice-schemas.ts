/**
 * zod schemas of the validator app's answers, transcribed from the Splice OpenAPI files
 * (validator-internal.yaml, wallet-internal.yaml, wallet-external.yaml, common-*.yaml). Required fields are
 * required here too; fields the specs do not declare are stripped, so newer validators still parse and nothing
 * undeclared reaches the renderer.
 */
import { z } from 'zod';

/** common-external.yaml `ErrorResponse`. */
export const SpliceErrorSchema = z.object({ error: z.string() });

/** common-external.yaml `Contract`. */
export const SpliceContractSchema = z.object({
  template_id: z.string(),
  contract_id: z.string(),
  payload: z.record(z.string(), z.unknown()),
  created_event_blob: z.string(),
  created_at: z.string(),
});
export type SpliceContract = z.infer<typeof SpliceContractSchema>;

/** common-internal.yaml `ContractWithState`. */
export const ContractWithStateSchema = z.object({ contract: SpliceContractSchema, domain_id: z.string().optional() });

/** scan-proxy.yaml `GetTransferPreapprovalsByPartyResponse`. */
export const PreapprovalByPartySchema = z.object({ transfer_preapproval: ContractWithStateSchema });

// ------------------------------------------------------------------ validator-internal.yaml

export const OnboardUserResponseSchema = z.object({ party_id: z.string() });
export const ListUsersResponseSchema = z.object({ usernames: z.array(z.string()) });
export const CreateExternalPartySetupProposalResponseSchema = z.object({ contract_id: z.string() });
export const ListExternalPartySetupProposalsResponseSchema = z.object({ contracts: z.array(ContractWithStateSchema) });
/** Also `PrepareTransferPreapprovalSendResponse` minus its contract-id prefix. */
export const PrepareAcceptExternalPartySetupProposalResponseSchema = z.object({
  transaction: z.string().min(1),
  tx_hash: z.string().regex(/^[0-9a-fA-F]+$/, 'tx_hash must be hex'),
  hashing_details: z.string().optional(),
});
export const SubmitAcceptExternalPartySetupProposalResponseSchema = z.object({
  transfer_preapproval_contract_id: z.string(),
  update_id: z.string(),
});
export const PrepareTransferPreapprovalSendResponseSchema = PrepareAcceptExternalPartySetupProposalResponseSchema.extend({
  transfer_command_contract_id_prefix: z.string(),
});
export const SubmitTransferPreapprovalSendResponseSchema = z.object({ update_id: z.string() });
export const ExternalPartyBalanceResponseSchema = z.object({
  party_id: z.string(),
  total_unlocked_coin: z.string(),
  total_locked_coin: z.string(),
  total_coin_holdings: z.string(),
  accumulated_holding_fees_unlocked: z.string(),
  accumulated_holding_fees_locked: z.string(),
  accumulated_holding_fees_total: z.string(),
  total_available_coin: z.string(),
  computed_as_of_round: z.number().int(),
});

// ------------------------------------------------------------------ wallet-internal.yaml

export const UserStatusResponseSchema = z.object({
  party_id: z.string(),
  user_onboarded: z.boolean(),
  user_wallet_installed: z.boolean(),
  has_featured_app_right: z.boolean(),
});
export const GetBalanceResponseSchema = z.object({
  round: z.number().int(),
  effective_unlocked_qty: z.string(),
  effective_locked_qty: z.string(),
  total_holding_fees: z.string(),
});
export const AmuletPositionSchema = z.object({
  contract: ContractWithStateSchema,
  round: z.number().int(),
  accrued_holding_fee: z.string(),
  effective_amount: z.string(),
});
export const ListAmuletsResponseSchema = z.object({
  amulets: z.array(AmuletPositionSchema),
  locked_amulets: z.array(AmuletPositionSchema),
});
export const TapResponseSchema = z.object({ contract_id: z.string() });

const PartyAndAmountSchema = z.object({ party: z.string(), amount: z.string() });
const TransactionSubtypeSchema = z.object({
  template_id: z.string(),
  choice: z.string(),
  amulet_operation: z.string().optional(),
  interface_id: z.string().optional(),
});
const BaseItem = {
  transaction_subtype: TransactionSubtypeSchema,
  event_id: z.string(),
  date: z.string(),
};
/** `ListTransactionsResponseItem`: oneOf with discriminator `transaction_type`. */
export const ListTransactionsResponseItemSchema = z.discriminatedUnion('transaction_type', [
  z.object({
    transaction_type: z.literal('transfer'),
    ...BaseItem,
    sender: PartyAndAmountSchema,
    receivers: z.array(PartyAndAmountSchema),
    holding_fees: z.string(),
    app_rewards_used: z.string(),
    validator_rewards_used: z.string(),
    sv_rewards_used: z.string(),
    development_fund_coupons_used: z.string(),
    description: z.string().optional(),
  }),
  z.object({ transaction_type: z.literal('balance_change'), ...BaseItem, receivers: z.array(PartyAndAmountSchema) }),
  z.object({ transaction_type: z.literal('notification'), ...BaseItem, details: z.string() }),
  z.object({ transaction_type: z.literal('unknown'), ...BaseItem }),
]);
export type ListTransactionsResponseItem = z.infer<typeof ListTransactionsResponseItemSchema>;
export const ListTransactionsResponseSchema = z.object({ items: z.array(ListTransactionsResponseItemSchema) });

export const AcceptTransferOfferResponseSchema = z.object({ accepted_offer_contract_id: z.string() });
export const ListAcceptedTransferOffersResponseSchema = z.object({ accepted_offers: z.array(SpliceContractSchema) });
export const CreateTransferPreapprovalResponseSchema = z.object({ transfer_preapproval_contract_id: z.string() });

const MintingDelegationWithStatusSchema = z.object({ contract: SpliceContractSchema, beneficiary_hosted: z.boolean() });
export const ListMintingDelegationsResponseSchema = z.object({
  delegations: z.array(MintingDelegationWithStatusSchema),
  next_page_token: z.number().int().nullish(),
});
export const ListMintingDelegationProposalsResponseSchema = z.object({
  proposals: z.array(MintingDelegationWithStatusSchema),
  next_page_token: z.number().int().nullish(),
});

// ------------------------------------------------------------------ wallet-external.yaml

export const CreateTransferOfferResponseSchema = z.object({ offer_contract_id: z.string() });
export const ListTransferOffersResponseSchema = z.object({ offers: z.array(SpliceContractSchema) });
/** `GetTransferOfferStatusResponse`: oneOf with discriminator `status`. */
export const GetTransferOfferStatusResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('created'), transaction_id: z.string(), contract_id: z.string() }),
  z.object({ status: z.literal('accepted'), transaction_id: z.string(), contract_id: z.string() }),
  z.object({ status: z.literal('completed'), transaction_id: z.string(), contract_id: z.string() }),
  z.object({
    status: z.literal('failed'),
    failure_kind: z.enum(['expired', 'rejected', 'withdrawn']),
    withdrawn_reason: z.string().optional(),
  }),
]);
export type GetTransferOfferStatusResponse = z.infer<typeof GetTransferOfferStatusResponseSchema>;
export const CreateBuyTrafficRequestResponseSchema = z.object({ request_contract_id: z.string() });
export const GetBuyTrafficRequestStatusResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('created') }),
  z.object({ status: z.literal('completed'), transaction_id: z.string() }),
  z.object({ status: z.literal('failed'), failure_reason: z.enum(['expired', 'rejected']), rejection_reason: z.string().optional() }),
]);
export type GetBuyTrafficRequestStatusResponse = z.infer<typeof GetBuyTrafficRequestStatusResponseSchema>;

// ------------------------------------------------------------------ payloads of the Splice templates shown in the views

/** `Splice.Wallet.TransferOffer:TransferOffer` and `AcceptedTransferOffer` (the fields the views show). */
export const TransferOfferPayloadSchema = z.object({
  sender: z.string(),
  receiver: z.string(),
  amount: z.union([z.string(), z.object({ amount: z.string() })]),
  description: z.string().optional(),
  expiresAt: z.string(),
  trackingId: z.string().optional(),
});
/**
 * Initial amount of an `Amulet` / `LockedAmulet` payload. Splice nests it (`amount.initialAmount`, and under `amulet`
 * for a locked one); simpler ledgers (the embedded simulator) keep it flat. Null when neither layout is present.
 */
export function amuletInitialAmount(payload: Record<string, unknown>): string | null {
  const Amount = z.object({ initialAmount: z.string() });
  const layouts = [payload, payload.amount, (payload.amulet as Record<string, unknown> | undefined)?.amount, payload.amulet];
  for (const l of layouts) {
    const r = Amount.safeParse(l);
    if (r.success) return r.data.initialAmount;
  }
  return null;
}
export const MintingDelegationPayloadSchema = z.object({
  beneficiary: z.string(),
  delegate: z.string(),
  expiresAt: z.string(),
  amuletMergeLimit: z.union([z.string(), z.number()]),
});
