/**
 * The internal-user wallet against a Splice validator app: every operation is one or a few calls of the validator's
 * wallet / admin API (shapes from the Splice OpenAPI files), mapped to the console's wire shapes. The wallet user is
 * the `sub` of the bearer token: in demo mode a demo token per user (demo-token.ts), otherwise the profile's token.
 */
import { randomUUID } from 'node:crypto';
import { ConsoleError, toIpcError } from '../../ipc/errors.js';
import type {
  BalanceSample,
  HistoryItem,
  Holding,
  OfferStatus,
  Profile,
  TrackedRequest,
  TrafficQuote,
  TransferOffer,
  WalletContext,
  WalletOffers,
  WalletOverview,
} from '../../ipc/contract.js';
import type { LedgerClient } from '../ledger-client.js';
import { jwtSubject } from '../../common/jwt.js';
import { mintDemoToken } from './demo-token.js';
import { formatDecimal, parseDecimal } from '../../common/decimal.js';
import {
  AcceptTransferOfferResponseSchema,
  amuletInitialAmount,
  CreateBuyTrafficRequestResponseSchema,
  CreateTransferOfferResponseSchema,
  CreateTransferPreapprovalResponseSchema,
  GetBalanceResponseSchema,
  GetBuyTrafficRequestStatusResponseSchema,
  GetTransferOfferStatusResponseSchema,
  ListAcceptedTransferOffersResponseSchema,
  ListAmuletsResponseSchema,
  ListMintingDelegationProposalsResponseSchema,
  ListMintingDelegationsResponseSchema,
  ListTransactionsResponseSchema,
  ListTransferOffersResponseSchema,
  ListUsersResponseSchema,
  MintingDelegationPayloadSchema,
  OnboardUserResponseSchema,
  TapResponseSchema,
  PreapprovalByPartySchema,
  TransferOfferPayloadSchema,
  UserStatusResponseSchema,
  type ListTransactionsResponseItem,
  type SpliceContract,
} from './splice-schemas.js';
import { z } from 'zod';
import { ValidatorClient } from './validator-client.js';
import { quote, trafficPrice } from './traffic-price.js';
import { demoOnly, mergeDelegationStatus, setSimMergeDelegation } from './merge-delegation.js';
import type { WalletStore } from './wallet-store.js';

export interface WalletDeps {
  /** The active connection profile. */
  profile: () => Profile;
  /** The profile's bearer token and its refresh after a 401 (remote profiles), never sent to the renderer. */
  profileToken: (profileId: string) => Promise<string | null>;
  refreshProfileToken: (profileId: string, rejected: string) => Promise<string | null>;
  /** The active profile's participant (connected synchronizers for traffic purchases). */
  ledger: () => LedgerClient;
  store: WalletStore;
  /** Demo mode: the embedded validator's operator user (its admin endpoints need that user's token). */
  demoOperatorUser: string | null;
}

/** Amulet amounts are Daml Numeric 10. */
const SCALE = 10;
/** History entries read to reconstruct the chart before the first sample. */
const BACKFILL_ITEMS = 200;
/** Tracked requests whose status is re-read on each refresh. */
const LIVE_TRACKED = 20;
const EmptyResponse = z.object({}).loose();

export class WalletService {
  constructor(private readonly d: WalletDeps) {}

  // ------------------------------------------------------------------ clients

  private validatorUrl(p: Profile): string {
    if (!p.validatorApiUrl)
      throw new ConsoleError('NOT_FOUND', `The connection profile “${p.name}” has no validator API URL: add one under Connections`);
    return p.validatorApiUrl;
  }

  private remoteClient(baseUrl: string, profileId: string): ValidatorClient {
    return new ValidatorClient({
      baseUrl,
      getToken: () => this.d.profileToken(profileId),
      onUnauthorized: (rejected) => this.d.refreshProfileToken(profileId, rejected),
    });
  }

  /** A client that acts as wallet user `user`. */
  async userClient(user: string): Promise<{ profile: Profile; client: ValidatorClient }> {
    const profile = this.d.profile();
    const baseUrl = this.validatorUrl(profile);
    if (profile.kind === 'demo')
      return { profile, client: new ValidatorClient({ baseUrl, getToken: () => Promise.resolve(mintDemoToken(user)) }) };
    const token = await this.d.profileToken(profile.id);
    const sub = token ? jwtSubject(token) : null;
    if (sub !== user) {
      throw new ConsoleError(
        'FORBIDDEN',
        sub
          ? `The token of “${profile.name}” opens the wallet of user ${sub} only, not ${user}`
          : `The connection profile “${profile.name}” has no JWT whose subject is a wallet user: add a token under Connections`,
      );
    }
    return { profile, client: this.remoteClient(baseUrl, profile.id) };
  }

  /** A client for `/v0/admin/*`: the validator operator (demo) or whoever the profile's token is. */
  adminClient(): ValidatorClient {
    const profile = this.d.profile();
    const baseUrl = this.validatorUrl(profile);
    const operator = this.d.demoOperatorUser;
    if (profile.kind === 'demo' && operator)
      return new ValidatorClient({ baseUrl, getToken: () => Promise.resolve(mintDemoToken(operator)) });
    return this.remoteClient(baseUrl, profile.id);
  }

  // ------------------------------------------------------------------ users

  async context(): Promise<WalletContext> {
    const profile = this.d.profile();
    const demo = profile.kind === 'demo';
    const base = {
      validatorApiUrl: profile.validatorApiUrl,
      demo,
      operatorUser: demo ? this.d.demoOperatorUser : null,
      automation: demo,
    };
    if (!profile.validatorApiUrl) return { ...base, available: false, tokenUser: null, users: null, usersError: null };
    const token = demo ? null : await this.d.profileToken(profile.id);
    const tokenUser = token ? jwtSubject(token) : null;
    try {
      const r = await this.adminClient().get('/v0/admin/users', ListUsersResponseSchema);
      return { ...base, available: true, tokenUser, users: [...r.usernames].sort(), usersError: null };
    } catch (err) {
      return { ...base, available: true, tokenUser, users: null, usersError: toIpcError(err) };
    }
  }

  async onboard(name: string, partyId?: string): Promise<{ partyId: string }> {
    const r = await this.adminClient().post(
      '/v0/admin/users',
      { name, ...(partyId ? { party_id: partyId, createPartyIfMissing: false } : {}) },
      OnboardUserResponseSchema,
    );
    return { partyId: r.party_id };
  }

  // ------------------------------------------------------------------ balance, holdings, history

  async overview(user: string): Promise<WalletOverview> {
    const { profile, client } = await this.userClient(user);
    const status = await client.get('/v0/wallet/user-status', UserStatusResponseSchema);
    const base = {
      user,
      partyId: status.party_id,
      onboarded: status.user_onboarded,
      walletInstalled: status.user_wallet_installed,
      featuredApp: status.has_featured_app_right,
    };
    if (!status.user_onboarded) return { ...base, balance: null, holdings: [], series: [] };
    const [balance, amulets] = await Promise.all([
      client.get('/v0/wallet/balance', GetBalanceResponseSchema),
      client.get('/v0/wallet/amulets', ListAmuletsResponseSchema),
    ]);
    const holdings: Holding[] = [
      ...amulets.amulets.map((a) => holding(a, false)),
      ...amulets.locked_amulets.map((a) => holding(a, true)),
    ].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    if (!this.d.store.hasSamples(profile.id, user)) {
      // First look at this wallet: reconstruct earlier balances from the history so the chart starts with a past.
      const items = (await client.post('/v0/wallet/transactions', { page_size: BACKFILL_ITEMS }, ListTransactionsResponseSchema)).items;
      this.d.store.backfill(
        profile.id,
        user,
        reconstruct(items, status.party_id, balance.effective_unlocked_qty, balance.effective_locked_qty),
      );
    }
    this.d.store.record(profile.id, user, {
      at: new Date().toISOString(),
      unlocked: balance.effective_unlocked_qty,
      locked: balance.effective_locked_qty,
    });
    const series: BalanceSample[] = this.d.store.samples(profile.id, user).map((s) => ({
      at: s.at,
      total: Number(
        formatDecimal((parseDecimal(s.unlocked, SCALE, 'truncate') ?? 0n) + (parseDecimal(s.locked, SCALE, 'truncate') ?? 0n), SCALE),
      ),
      source: s.source,
    }));
    return {
      ...base,
      balance: {
        round: balance.round,
        unlocked: balance.effective_unlocked_qty,
        locked: balance.effective_locked_qty,
        holdingFees: balance.total_holding_fees,
      },
      holdings,
      series,
    };
  }

  async history(user: string, beginAfterId: string | null, pageSize: number): Promise<{ items: HistoryItem[]; nextCursor: string | null }> {
    const { client } = await this.userClient(user);
    const party = (await client.get('/v0/wallet/user-status', UserStatusResponseSchema)).party_id;
    const r = await client.post(
      '/v0/wallet/transactions',
      { page_size: pageSize, ...(beginAfterId ? { begin_after_id: beginAfterId } : {}) },
      ListTransactionsResponseSchema,
    );
    const items = r.items.map((i) => historyItem(i, party));
    return { items, nextCursor: items.length === pageSize ? (items.at(-1)?.eventId ?? null) : null };
  }

  /** DevNet faucet (`/v0/wallet/tap`): only validators of a DevNet (and the simulator) accept it. */
  async tap(user: string, amount: string): Promise<{ contractId: string }> {
    const { client } = await this.userClient(user);
    return { contractId: (await client.post('/v0/wallet/tap', { amount }, TapResponseSchema)).contract_id };
  }

  // ------------------------------------------------------------------ transfer offers

  async offers(user: string): Promise<WalletOffers> {
    const { profile, client } = await this.userClient(user);
    const [status, offers, accepted] = await Promise.all([
      client.get('/v0/wallet/user-status', UserStatusResponseSchema),
      client.get('/v0/wallet/transfer-offers', ListTransferOffersResponseSchema),
      client.get('/v0/wallet/accepted-transfer-offers', ListAcceptedTransferOffersResponseSchema),
    ]);
    const party = status.party_id;
    const all = [...offers.offers.map((c) => offer(c, 'offer')), ...accepted.accepted_offers.map((c) => offer(c, 'accepted'))].sort(
      (a, b) => b.createdAt.localeCompare(a.createdAt),
    );
    const tracked = await Promise.all(
      this.d.store
        .tracked(profile.id, user, 'offer', LIVE_TRACKED)
        .map(async (t): Promise<TrackedRequest> => ({ ...t, status: await this.offerStatus(client, t.trackingId) })),
    );
    return {
      partyId: party,
      incoming: all.filter((o) => o.receiver === party),
      outgoing: all.filter((o) => o.sender === party && o.receiver !== party),
      tracked,
    };
  }

  private async offerStatus(client: ValidatorClient, trackingId: string): Promise<OfferStatus> {
    try {
      const s = await client.post(
        `/v0/wallet/transfer-offers/${encodeURIComponent(trackingId)}/status`,
        {},
        GetTransferOfferStatusResponseSchema,
      );
      return s.status === 'failed'
        ? { status: 'failed', failureKind: s.failure_kind, reason: s.withdrawn_reason ?? null, contractId: null, transactionId: null }
        : { status: s.status, failureKind: null, reason: null, contractId: s.contract_id, transactionId: s.transaction_id };
    } catch (err) {
      return { status: 'unknown', failureKind: null, reason: toIpcError(err).message, contractId: null, transactionId: null };
    }
  }

  async createOffer(req: {
    user: string;
    receiver: string;
    amount: string;
    description: string;
    expiresInMinutes: number;
  }): Promise<{ contractId: string; trackingId: string }> {
    const { profile, client } = await this.userClient(req.user);
    const trackingId = `console-offer-${randomUUID()}`;
    const expiresAt = (Date.now() + req.expiresInMinutes * 60_000) * 1000;
    const r = await client.post(
      '/v0/wallet/transfer-offers',
      { receiver_party_id: req.receiver, amount: req.amount, description: req.description, expires_at: expiresAt, tracking_id: trackingId },
      CreateTransferOfferResponseSchema,
    );
    this.d.store.track(profile.id, req.user, {
      kind: 'offer',
      trackingId,
      summary: `${req.amount} to ${req.receiver}`,
      createdAt: new Date().toISOString(),
    });
    return { contractId: r.offer_contract_id, trackingId };
  }

  async act(user: string, contractId: string, action: 'accept' | 'reject' | 'withdraw'): Promise<{ acceptedContractId: string | null }> {
    const { client } = await this.userClient(user);
    const path = `/v0/wallet/transfer-offers/${encodeURIComponent(contractId)}/${action}`;
    if (action === 'accept')
      return { acceptedContractId: (await client.post(path, {}, AcceptTransferOfferResponseSchema)).accepted_offer_contract_id };
    await client.post(path, {}, EmptyResponse);
    return { acceptedContractId: null };
  }

  // ------------------------------------------------------------------ preapprovals (one-step transfers)

  async createPreapproval(user: string): Promise<{ contractId: string; created: boolean }> {
    const { client } = await this.userClient(user);
    try {
      return {
        contractId: (await client.post('/v0/wallet/transfer-preapproval', {}, CreateTransferPreapprovalResponseSchema))
          .transfer_preapproval_contract_id,
        created: true,
      };
    } catch (err) {
      // Per the spec, 409 = the user has one already, and its body names it (CreateTransferPreapprovalResponse).
      if (err instanceof ConsoleError && err.canton?.httpStatus === 409) {
        const existing = CreateTransferPreapprovalResponseSchema.safeParse(safeJson(err.canton.cause));
        if (existing.success) return { contractId: existing.data.transfer_preapproval_contract_id, created: false };
      }
      throw err;
    }
  }

  /** The user's own transfer pre-approval, looked up through the scan proxy by the user's party. */
  async ownPreapproval(user: string): Promise<{ preapproval: { contractId: string; expiresAt: string | null } | null }> {
    const { client } = await this.userClient(user);
    const party = (await client.get('/v0/wallet/user-status', UserStatusResponseSchema)).party_id;
    try {
      const r = await client.get(`/v0/scan-proxy/transfer-preapprovals/by-party/${encodeURIComponent(party)}`, PreapprovalByPartySchema);
      const expires = r.transfer_preapproval.contract.payload['expiresAt'];
      return {
        preapproval: { contractId: r.transfer_preapproval.contract.contract_id, expiresAt: typeof expires === 'string' ? expires : null },
      };
    } catch (err) {
      if (err instanceof ConsoleError && err.code === 'NOT_FOUND') return { preapproval: null };
      throw err;
    }
  }

  async preapprovalSend(req: {
    user: string;
    receiver: string;
    amount: string;
    description: string;
  }): Promise<{ deduplicationId: string }> {
    const { client } = await this.userClient(req.user);
    const deduplicationId = `console-send-${randomUUID()}`;
    await client.post(
      '/v0/wallet/transfer-preapproval/send',
      {
        receiver_party_id: req.receiver,
        amount: req.amount,
        deduplication_id: deduplicationId,
        ...(req.description ? { description: req.description } : {}),
      },
      EmptyResponse,
    );
    return { deduplicationId };
  }

  // ------------------------------------------------------------------ traffic

  async buyTraffic(req: {
    user: string;
    trafficBytes: number;
    domainId?: string | undefined;
    receivingValidatorParty?: string | undefined;
  }): Promise<{ trackingId: string; contractId: string }> {
    const { profile, client } = await this.userClient(req.user);
    const domainId = req.domainId || (await this.d.ledger().connectedSynchronizers()).connectedSynchronizers?.[0]?.synchronizerId;
    if (!domainId)
      throw new ConsoleError('CONFLICT', 'The participant is not connected to any synchronizer; traffic is bought per synchronizer');
    const receiving = req.receivingValidatorParty || (await client.get('/v0/wallet/user-status', UserStatusResponseSchema)).party_id;
    const trackingId = `console-traffic-${randomUUID()}`;
    const r = await client.post(
      '/v0/wallet/buy-traffic-requests',
      {
        receiving_validator_party_id: receiving,
        domain_id: domainId,
        traffic_amount: req.trafficBytes,
        tracking_id: trackingId,
        expires_at: (Date.now() + 3_600_000) * 1000,
      },
      CreateBuyTrafficRequestResponseSchema,
    );
    this.d.store.track(profile.id, req.user, {
      kind: 'traffic',
      trackingId,
      summary: `${req.trafficBytes.toLocaleString('en-US')} bytes on ${domainId.split('::')[0]}`,
      createdAt: new Date().toISOString(),
    });
    return { trackingId, contractId: r.request_contract_id };
  }

  /** The price of `trafficBytes` of traffic now, from the validator's scan proxy. */
  async trafficQuote(req: { user: string; trafficBytes: number }): Promise<TrafficQuote> {
    const { client } = await this.userClient(req.user);
    return quote(await trafficPrice(client), req.trafficBytes);
  }

  async trafficRequests(user: string): Promise<{ requests: TrackedRequest[] }> {
    const { profile, client } = await this.userClient(user);
    const rows = this.d.store.tracked(profile.id, user, 'traffic', LIVE_TRACKED);
    const requests = await Promise.all(
      rows.map(async (t): Promise<TrackedRequest> => {
        try {
          const s = await client.post(
            `/v0/wallet/buy-traffic-requests/${encodeURIComponent(t.trackingId)}/status`,
            {},
            GetBuyTrafficRequestStatusResponseSchema,
          );
          const status: OfferStatus =
            s.status === 'failed'
              ? {
                  status: 'failed',
                  failureKind: s.failure_reason,
                  reason: s.rejection_reason ?? null,
                  contractId: null,
                  transactionId: null,
                }
              : {
                  status: s.status,
                  failureKind: null,
                  reason: null,
                  contractId: null,
                  transactionId: s.status === 'completed' ? s.transaction_id : null,
                };
          return { ...t, status };
        } catch (err) {
          return {
            ...t,
            status: { status: 'unknown', failureKind: null, reason: toIpcError(err).message, contractId: null, transactionId: null },
          };
        }
      }),
    );
    return { requests };
  }

  // ------------------------------------------------------------------ delegations

  async delegations(user: string) {
    const { client } = await this.userClient(user);
    const [status, amulets] = await Promise.all([
      client.get('/v0/wallet/user-status', UserStatusResponseSchema),
      client.get('/v0/wallet/amulets', ListAmuletsResponseSchema),
    ]);
    const holdingCount = amulets.amulets.length;
    const merge = await mergeDelegationStatus(this.d.ledger(), status.party_id).then(
      (m) => ({ merge: m, mergeError: null }),
      (err: unknown) => ({ merge: null, mergeError: toIpcError(err) }),
    );
    try {
      const [d, p] = await Promise.all([
        client.get('/v0/wallet/minting-delegations', ListMintingDelegationsResponseSchema),
        client.get('/v0/wallet/minting-delegation-proposals', ListMintingDelegationProposalsResponseSchema),
      ]);
      const row = (x: { contract: SpliceContract; beneficiary_hosted: boolean }) => {
        const pl = MintingDelegationPayloadSchema.safeParse(
          (x.contract.payload as { delegation?: unknown }).delegation ?? x.contract.payload,
        );
        return {
          contractId: x.contract.contract_id,
          beneficiary: pl.success ? pl.data.beneficiary : '',
          delegate: pl.success ? pl.data.delegate : '',
          expiresAt: pl.success ? pl.data.expiresAt : '',
          amuletMergeLimit: pl.success ? String(pl.data.amuletMergeLimit) : '',
          beneficiaryHosted: x.beneficiary_hosted,
        };
      };
      return { supported: true, error: null, delegations: d.delegations.map(row), proposals: p.proposals.map(row), holdingCount, ...merge };
    } catch (err) {
      return { supported: false, error: toIpcError(err), delegations: [], proposals: [], holdingCount, ...merge };
    }
  }

  /** Demo simulator only: propose or cancel the user's merge delegation, then read its status back from the ledger. */
  async setMergeDelegation(user: string, action: 'propose' | 'cancel') {
    const { profile, client } = await this.userClient(user);
    demoOnly(profile.kind === 'demo');
    await setSimMergeDelegation(client, action);
    const party = (await client.get('/v0/wallet/user-status', UserStatusResponseSchema)).party_id;
    return mergeDelegationStatus(this.d.ledger(), party);
  }
}

// ------------------------------------------------------------------ mapping helpers

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function holding(a: z.infer<typeof ListAmuletsResponseSchema>['amulets'][number], locked: boolean): Holding {
  const c = a.contract.contract;
  return {
    contractId: c.contract_id,
    locked,
    amount: a.effective_amount,
    initialAmount: amuletInitialAmount(c.payload),
    feeAccrued: a.accrued_holding_fee,
    createdAt: c.created_at,
    round: a.round,
  };
}

function offer(c: SpliceContract, stage: TransferOffer['stage']): TransferOffer {
  const p = TransferOfferPayloadSchema.safeParse(c.payload);
  if (!p.success)
    throw new ConsoleError(
      'VALIDATOR_ERROR',
      `Transfer offer ${c.contract_id} has a payload the console does not understand (${c.template_id})`,
    );
  return {
    contractId: c.contract_id,
    sender: p.data.sender,
    receiver: p.data.receiver,
    amount: typeof p.data.amount === 'string' ? p.data.amount : p.data.amount.amount,
    description: p.data.description ?? '',
    expiresAt: p.data.expiresAt,
    trackingId: p.data.trackingId ?? null,
    createdAt: c.created_at,
    stage,
  };
}

/** Net change of `party`'s balance in one history item (null when the item carries no amounts). */
export function itemDelta(i: ListTransactionsResponseItem, party: string): bigint | null {
  if (i.transaction_type !== 'transfer' && i.transaction_type !== 'balance_change') return null;
  let sum = 0n;
  let seen = false;
  if (i.transaction_type === 'transfer' && i.sender.party === party) {
    sum += parseDecimal(i.sender.amount, SCALE, 'truncate') ?? 0n;
    seen = true;
  }
  for (const r of i.receivers) {
    if (r.party !== party) continue;
    sum += parseDecimal(r.amount, SCALE, 'truncate') ?? 0n;
    seen = true;
  }
  return seen ? sum : null;
}

function historyItem(i: ListTransactionsResponseItem, party: string): HistoryItem {
  const delta = itemDelta(i, party);
  return {
    eventId: i.event_id,
    date: i.date,
    type: i.transaction_type,
    operation: i.transaction_subtype.amulet_operation ?? i.transaction_subtype.choice,
    templateId: i.transaction_subtype.template_id,
    sender: i.transaction_type === 'transfer' ? i.sender : null,
    receivers: i.transaction_type === 'transfer' || i.transaction_type === 'balance_change' ? i.receivers : [],
    delta: delta === null ? null : formatDecimal(delta, SCALE),
    description: i.transaction_type === 'notification' ? i.details : i.transaction_type === 'transfer' ? (i.description ?? null) : null,
  };
}

/**
 * Balances after each history item, newest first in `items`: walking back from the current balance by each item's
 * net change. Holding fees between items are not in the history, so these points are approximate (source 'history').
 */
export function reconstruct(
  items: ListTransactionsResponseItem[],
  party: string,
  unlocked: string,
  locked: string,
): Array<{ at: string; unlocked: string; locked: string }> {
  let running = (parseDecimal(unlocked, SCALE, 'truncate') ?? 0n) + (parseDecimal(locked, SCALE, 'truncate') ?? 0n);
  const points: Array<{ at: string; unlocked: string; locked: string }> = [];
  for (const i of items) {
    const d = itemDelta(i, party);
    if (d === null) continue;
    points.push({ at: i.date, unlocked: formatDecimal(running, SCALE), locked: '0.0000000000' });
    running -= d;
  }
  const oldest = points.at(-1);
  if (oldest)
    points.push({
      at: new Date(Date.parse(oldest.at) - 1000).toISOString(),
      unlocked: formatDecimal(running < 0n ? 0n : running, SCALE),
      locked: '0.0000000000',
    });
  return points.reverse();
}
