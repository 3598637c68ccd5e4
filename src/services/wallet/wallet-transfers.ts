/**
 * Transfers of a wallet user: transfer offers (two steps: the receiver accepts; their status followed by tracking id)
 * and transfer preapprovals (one step: a preapproved receiver takes the amount at once).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ConsoleError, toIpcError } from '../../ipc/errors.js';
import type { OfferStatus, TrackedRequest, TransferOffer, WalletOffers } from '../../ipc/contract.js';
import {
  AcceptTransferOfferResponseSchema,
  CreateTransferOfferResponseSchema,
  CreateTransferPreapprovalResponseSchema,
  GetTransferOfferStatusResponseSchema,
  ListAcceptedTransferOffersResponseSchema,
  ListTransferOffersResponseSchema,
  PreapprovalByPartySchema,
  TransferOfferPayloadSchema,
  UserStatusResponseSchema,
  type SpliceContract,
} from './splice-schemas.js';
import type { ValidatorClient } from './validator-client.js';
import type { WalletClients, WalletDeps } from './wallet-clients.js';
import { LIVE_TRACKED } from './wallet-store.js';

const EmptyResponse = z.object({}).loose();

export class WalletTransfers {
  constructor(
    private readonly d: WalletDeps,
    private readonly clients: WalletClients,
  ) {}

  async offers(user: string): Promise<WalletOffers> {
    const { profile, client } = await this.clients.userClient(user);
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
    const { profile, client } = await this.clients.userClient(req.user);
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
    const { client } = await this.clients.userClient(user);
    const offer = `/v0/wallet/transfer-offers/${encodeURIComponent(contractId)}` as const;
    if (action === 'accept')
      return {
        acceptedContractId: (await client.post(`${offer}/accept`, {}, AcceptTransferOfferResponseSchema)).accepted_offer_contract_id,
      };
    await client.post(`${offer}/${action}`, {}, EmptyResponse);
    return { acceptedContractId: null };
  }

  // ------------------------------------------------------------------ preapprovals (one-step transfers)

  async createPreapproval(user: string): Promise<{ contractId: string; created: boolean }> {
    const { client } = await this.clients.userClient(user);
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
    const { client } = await this.clients.userClient(user);
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
    const { client } = await this.clients.userClient(req.user);
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
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
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
