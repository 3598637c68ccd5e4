/**
 * Splice wallet (issue #8): the validator app's wallet for internal users (balance, holdings, transfer offers,
 * one-step transfers through preapprovals, history, traffic, minting/merge delegations, simulator automation) and
 * the external-party wallet, whose transactions go through the console's signing flow. The main side talks to the
 * profile's validator API; the renderer sees only these shapes, never a token or a key.
 */
import { z } from 'zod';
import { IpcErrorSchema } from '../errors.js';
import { EmptyRequest } from './shared.js';
import { RefusalSchema, TransactionSummaryWireSchema, PolicyDecisionWireSchema } from './signing.js';

/** Splice user names (validator `OnboardUserRequest.name` is a ledger API user id). */
export const WALLET_USER_PATTERN = /^[a-zA-Z0-9@^$.!`\-#+'~_|:()]{1,128}$/;
const WalletUser = z
  .string()
  .trim()
  .min(1, 'choose a wallet user')
  .max(128)
  .regex(WALLET_USER_PATTERN, "letters, digits and @^$.!`-#+'~_|:() only");
const PartyId = z
  .string()
  .trim()
  .min(3, 'enter a party id')
  .max(512)
  .regex(/^[^:\s]+::[^\s]+$/, 'a party id looks like hint::fingerprint');
const ContractId = z.string().trim().min(1).max(1024);
/** Amulet amounts: positive decimals with at most 10 fractional digits (Daml `Decimal`). */
export const AMOUNT_PATTERN = /^(?:0|[1-9]\d{0,27})(?:\.\d{1,10})?$/;
const Amount = z
  .string()
  .trim()
  .regex(AMOUNT_PATTERN, 'a positive amount with at most 10 decimals, e.g. 12.5')
  .refine((a) => Number(a) > 0, 'the amount must be greater than zero');
const Description = z.string().max(1000, 'at most 1000 characters').default('');
const Fingerprint = z.string().regex(/^1220[0-9a-f]{64}$/, 'Not a Canton key fingerprint (1220 + 64 hex digits)');
const SessionId = z.uuid();

// ------------------------------------------------------------------ shapes

export const WalletContextSchema = z.object({
  /** The profile has a validator API URL. */
  available: z.boolean(),
  validatorApiUrl: z.string().nullable(),
  /** Demo profile: the console may act as any wallet user (demo tokens); remote: only as its token's user. */
  demo: z.boolean(),
  /** Remote profile: the `sub` of its token (the only wallet user it can open). */
  tokenUser: z.string().nullable(),
  /** Users onboarded to the validator's wallet (`GET /v0/admin/users`), null when the token may not list them. */
  users: z.array(z.string()).nullable(),
  usersError: IpcErrorSchema.nullable(),
  /** The validator operator's wallet user, when known. */
  operatorUser: z.string().nullable(),
  /** Simulator-only automation settings are available (demo profile). */
  automation: z.boolean(),
});
export type WalletContext = z.infer<typeof WalletContextSchema>;

export const WalletBalanceSchema = z.object({ round: z.number().int(), unlocked: z.string(), locked: z.string(), holdingFees: z.string() });
export const HoldingSchema = z.object({
  contractId: z.string(),
  locked: z.boolean(),
  /** Effective amount in the current round (initial amount minus holding fees). */
  amount: z.string(),
  initialAmount: z.string().nullable(),
  feeAccrued: z.string(),
  createdAt: z.string(),
  round: z.number().int(),
});
export type Holding = z.infer<typeof HoldingSchema>;
export const BalanceSampleSchema = z.object({
  at: z.string(),
  /** Unlocked + locked effective amount. */
  total: z.number(),
  /** 'sample' read from the validator; 'history' reconstructed from the transaction history before the first sample. */
  source: z.enum(['sample', 'history']),
});
export type BalanceSample = z.infer<typeof BalanceSampleSchema>;

export const WalletOverviewSchema = z.object({
  user: z.string(),
  partyId: z.string(),
  onboarded: z.boolean(),
  walletInstalled: z.boolean(),
  featuredApp: z.boolean(),
  balance: WalletBalanceSchema.nullable(),
  holdings: z.array(HoldingSchema),
  series: z.array(BalanceSampleSchema),
});
export type WalletOverview = z.infer<typeof WalletOverviewSchema>;

export const HistoryItemSchema = z.object({
  eventId: z.string(),
  date: z.string(),
  type: z.enum(['transfer', 'balance_change', 'notification', 'unknown']),
  /** Choice / amulet operation, e.g. `tap`, `transfer`, `TransferOffer_Withdraw`. */
  operation: z.string(),
  templateId: z.string(),
  sender: z.object({ party: z.string(), amount: z.string() }).nullable(),
  receivers: z.array(z.object({ party: z.string(), amount: z.string() })),
  /** Net change of the wallet user's balance in this item, when the item says it. */
  delta: z.string().nullable(),
  description: z.string().nullable(),
});
export type HistoryItem = z.infer<typeof HistoryItemSchema>;

export const TransferOfferSchema = z.object({
  contractId: z.string(),
  sender: z.string(),
  receiver: z.string(),
  amount: z.string(),
  description: z.string(),
  expiresAt: z.string(),
  trackingId: z.string().nullable(),
  createdAt: z.string(),
  /** 'offer' = waiting for the receiver; 'accepted' = waiting for the sender's automation to deliver. */
  stage: z.enum(['offer', 'accepted']),
});
export type TransferOffer = z.infer<typeof TransferOfferSchema>;

export const OfferStatusSchema = z.object({
  status: z.enum(['created', 'accepted', 'completed', 'failed', 'unknown']),
  failureKind: z.string().nullable(),
  reason: z.string().nullable(),
  contractId: z.string().nullable(),
  transactionId: z.string().nullable(),
});
export type OfferStatus = z.infer<typeof OfferStatusSchema>;

export const TrafficQuoteSchema = z.object({
  trafficBytes: z.number().int(),
  /** Exact decimals (10 fractional digits). */
  costCc: z.string(),
  costUsd: z.string(),
  amuletPriceUsd: z.string(),
  trafficPriceUsdPerMb: z.string(),
  round: z.string(),
  minTopupBytes: z.number().int(),
});
export type TrafficQuote = z.infer<typeof TrafficQuoteSchema>;

/** A request this console sent (offer, traffic purchase) and its live status from the validator. */
export const TrackedRequestSchema = z.object({
  kind: z.enum(['offer', 'traffic']),
  trackingId: z.string(),
  createdAt: z.string(),
  /** Human summary: "42.5 to bob::1220…", "1,000,000 bytes of traffic". */
  summary: z.string(),
  status: OfferStatusSchema,
});
export type TrackedRequest = z.infer<typeof TrackedRequestSchema>;

export const WalletOffersSchema = z.object({
  partyId: z.string(),
  incoming: z.array(TransferOfferSchema),
  outgoing: z.array(TransferOfferSchema),
  tracked: z.array(TrackedRequestSchema),
});
export type WalletOffers = z.infer<typeof WalletOffersSchema>;

export const DelegationSchema = z.object({
  contractId: z.string(),
  beneficiary: z.string(),
  delegate: z.string(),
  expiresAt: z.string(),
  /** Holdings kept after auto-merging (merge automation runs above this count). */
  amuletMergeLimit: z.string(),
  beneficiaryHosted: z.boolean(),
});
/**
 * The user's token-standard `MergeDelegation` (splice-util-token-standard-wallet), read from the participant's ACS:
 * 'active' = the wallet provider may merge the user's holdings; 'proposed' = waiting for the provider to accept.
 */
export const MergeDelegationStatusSchema = z.object({
  status: z.enum(['none', 'proposed', 'active']),
  contractId: z.string().nullable(),
  /** The wallet operator allowed to merge. */
  operator: z.string().nullable(),
});
export type MergeDelegationStatus = z.infer<typeof MergeDelegationStatusSchema>;

export const WalletDelegationsSchema = z.object({
  /** False when the validator does not serve the minting-delegation endpoints (then `error` says why). */
  supported: z.boolean(),
  error: IpcErrorSchema.nullable(),
  delegations: z.array(DelegationSchema),
  proposals: z.array(DelegationSchema),
  holdingCount: z.number().int(),
  /** Null when the ledger could not be read (then `mergeError` says why). */
  merge: MergeDelegationStatusSchema.nullable(),
  mergeError: IpcErrorSchema.nullable(),
});

/**
 * Simulator-only automation configuration (`/v0/sim/automation`), flattened: nested objects become dotted keys
 * (`trafficTopup.targetThroughput`), maps keyed by party (sweeps, auto-accept) are edited as JSON text.
 */
const AutomationValue = z.union([z.boolean(), z.number(), z.string().max(100_000)]);
export const AutomationSettingSchema = z.object({
  key: z.string(),
  kind: z.enum(['boolean', 'number', 'text', 'json']),
  value: AutomationValue,
});
export type AutomationSetting = z.infer<typeof AutomationSettingSchema>;
export const WalletAutomationSchema = z.object({ settings: z.array(AutomationSettingSchema) });

export const ExternalPartyWalletSchema = z.object({
  party: z.string(),
  keys: z.array(z.object({ fingerprint: z.string(), label: z.string() })),
  balance: z
    .object({
      unlocked: z.string(),
      locked: z.string(),
      total: z.string(),
      available: z.string(),
      holdingFees: z.string(),
      round: z.number().int(),
    })
    .nullable(),
  balanceError: IpcErrorSchema.nullable(),
  preapproval: z.object({ contractId: z.string(), expiresAt: z.string().nullable() }).nullable(),
});
export type ExternalPartyWallet = z.infer<typeof ExternalPartyWalletSchema>;

const ExternalVerifiedSchema = z.object({
  status: z.literal('verified'),
  sessionId: z.string(),
  kind: z.enum(['preapproval-setup', 'send']),
  party: z.string(),
  fingerprint: z.string(),
  /** The validator's hex `tx_hash`, which the console recomputed and matched before showing this. */
  txHashHex: z.string(),
  summary: TransactionSummaryWireSchema,
  policy: PolicyDecisionWireSchema,
});
export const ExternalSubmittedSchema = z.object({
  status: z.literal('submitted'),
  kind: z.enum(['preapproval-setup', 'send']),
  updateId: z.string(),
  contractId: z.string().nullable(),
  auditSeq: z.number().int().nullable(),
});

const UserRequest = z.object({ user: WalletUser }).strict();

export const walletChannels = {
  'wallet.context': { request: EmptyRequest, response: WalletContextSchema },
  'wallet.users.onboard': {
    request: z.object({ name: WalletUser, partyId: PartyId.optional() }).strict(),
    response: z.object({ partyId: z.string() }),
  },
  'wallet.overview': { request: UserRequest, response: WalletOverviewSchema },
  'wallet.history': {
    request: z
      .object({
        user: WalletUser,
        beginAfterId: z.string().max(512).nullable().default(null),
        pageSize: z.number().int().min(1).max(200).default(50),
      })
      .strict(),
    response: z.object({ items: z.array(HistoryItemSchema), nextCursor: z.string().nullable() }),
  },
  'wallet.tap': { request: z.object({ user: WalletUser, amount: Amount }).strict(), response: z.object({ contractId: z.string() }) },
  'wallet.offers': { request: UserRequest, response: WalletOffersSchema },
  'wallet.offers.create': {
    request: z
      .object({
        user: WalletUser,
        receiver: PartyId,
        amount: Amount,
        description: Description,
        expiresInMinutes: z
          .number()
          .int()
          .min(1, 'at least one minute')
          .max(60 * 24 * 90, 'at most 90 days')
          .default(60 * 24),
      })
      .strict(),
    response: z.object({ contractId: z.string(), trackingId: z.string() }),
  },
  'wallet.offers.act': {
    request: z.object({ user: WalletUser, contractId: ContractId, action: z.enum(['accept', 'reject', 'withdraw']) }).strict(),
    response: z.object({ acceptedContractId: z.string().nullable() }),
  },
  'wallet.preapproval.create': { request: UserRequest, response: z.object({ contractId: z.string(), created: z.boolean() }) },
  'wallet.preapproval.send': {
    request: z.object({ user: WalletUser, receiver: PartyId, amount: Amount, description: Description }).strict(),
    response: z.object({ deduplicationId: z.string() }),
  },
  'wallet.traffic.buy': {
    request: z
      .object({
        user: WalletUser,
        trafficBytes: z.number().int().min(1, 'at least one byte').max(1e12),
        /** Default: the first synchronizer the participant is connected to. */
        domainId: z.string().trim().max(512).optional(),
        /** Default: the wallet user's own party (traffic goes to the validator hosting it). */
        receivingValidatorParty: PartyId.optional(),
      })
      .strict(),
    response: z.object({ trackingId: z.string(), contractId: z.string() }),
  },
  'wallet.traffic.requests': { request: UserRequest, response: z.object({ requests: z.array(TrackedRequestSchema) }) },
  /** The price of a traffic purchase before it is made (the validator's scan proxy: open round amulet price, AmuletRules fees). */
  'wallet.traffic.quote': {
    request: z.object({ user: WalletUser, trafficBytes: z.number().int().min(1, 'at least one byte').max(1e12) }).strict(),
    response: TrafficQuoteSchema,
  },
  /** The wallet user's own transfer pre-approval (scan proxy lookup by party), or null. */
  'wallet.preapproval.get': {
    request: UserRequest,
    response: z.object({ preapproval: z.object({ contractId: z.string(), expiresAt: z.string().nullable() }).nullable() }),
  },
  'wallet.delegations': { request: UserRequest, response: WalletDelegationsSchema },
  /** Demo simulator only (Splice has no HTTP API for it): propose a merge delegation to the wallet provider, or cancel it. */
  'wallet.mergeDelegation.set': {
    request: z.object({ user: WalletUser, action: z.enum(['propose', 'cancel']) }).strict(),
    response: MergeDelegationStatusSchema,
  },
  'wallet.automation.get': { request: EmptyRequest, response: WalletAutomationSchema },
  'wallet.automation.set': {
    request: z
      .object({
        settings: z
          .array(z.object({ key: z.string().min(1).max(200), value: AutomationValue }).strict())
          .min(1, 'nothing to change')
          .max(50),
      })
      .strict(),
    response: WalletAutomationSchema,
  },

  'wallet.external.parties': { request: EmptyRequest, response: z.object({ parties: z.array(ExternalPartyWalletSchema) }) },
  'wallet.external.preapproval.prepare': {
    request: z.object({ party: PartyId, fingerprint: Fingerprint }).strict(),
    response: z.union([ExternalVerifiedSchema, RefusalSchema]),
  },
  'wallet.external.send.prepare': {
    request: z
      .object({
        party: PartyId,
        fingerprint: Fingerprint,
        receiver: PartyId,
        amount: Amount,
        description: Description,
        expiresInMinutes: z
          .number()
          .int()
          .min(1)
          .max(60 * 24 * 30)
          .default(60 * 24),
        /** The sender's TransferCommand counter (Scan `/v0/transfer-command-counter/{party}`); null = the console's best knowledge. */
        nonce: z.number().int().min(0).nullable().default(null),
      })
      .strict(),
    response: z.union([ExternalVerifiedSchema, RefusalSchema]),
  },
  'wallet.external.confirm': {
    request: z.object({ sessionId: SessionId, blindConfirmation: z.string().max(50).optional() }).strict(),
    response: z.union([ExternalSubmittedSchema, RefusalSchema]),
  },
  'wallet.external.offline.create': {
    request: z
      .object({
        sessionId: SessionId,
        ttlMinutes: z
          .number()
          .int()
          .min(1)
          .max(7 * 24 * 60)
          .default(60),
      })
      .strict(),
    response: z.union([
      z.object({ status: z.literal('created'), requestId: z.string(), fileName: z.string(), text: z.string(), expiresAt: z.string() }),
      RefusalSchema,
    ]),
  },
  'wallet.external.offline.submit': {
    request: z.object({ requestId: z.uuid(), responseText: z.string().min(1, 'The file is empty').max(5_000_000) }).strict(),
    response: z.union([ExternalSubmittedSchema, RefusalSchema]),
  },
  'wallet.external.discard': { request: z.object({ sessionId: SessionId }).strict(), response: z.object({ discarded: z.boolean() }) },
} as const;

export const walletSubscriptions = {
  /** Offers and tracked requests of one wallet user, re-read every `intervalMs` (live status). */
  'wallet.live': {
    params: z.object({ user: WalletUser, intervalMs: z.number().int().min(500).max(60_000).default(2_000) }).strict(),
    event: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), offers: WalletOffersSchema }),
      z.object({ ok: z.literal(false), error: IpcErrorSchema }),
    ]),
  },
} as const;
