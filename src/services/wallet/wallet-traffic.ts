/** Traffic a wallet user buys for a validator on a synchronizer: purchase, price quote, and the purchases' status. */
import { randomUUID } from 'node:crypto';
import { ConsoleError, toIpcError } from '../../ipc/errors.js';
import type { OfferStatus, TrackedRequest, TrafficQuote } from '../../ipc/contract.js';
import {
  CreateBuyTrafficRequestResponseSchema,
  GetBuyTrafficRequestStatusResponseSchema,
  UserStatusResponseSchema,
} from './splice-schemas.js';
import { quote, trafficPrice } from './traffic-price.js';
import type { WalletClients, WalletDeps } from './wallet-clients.js';
import { LIVE_TRACKED } from './wallet-store.js';

export class WalletTraffic {
  constructor(
    private readonly d: WalletDeps,
    private readonly clients: WalletClients,
  ) {}

  async buyTraffic(req: {
    user: string;
    trafficBytes: number;
    domainId?: string | undefined;
    receivingValidatorParty?: string | undefined;
  }): Promise<{ trackingId: string; contractId: string }> {
    const { profile, client } = await this.clients.userClient(req.user);
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
    const { client } = await this.clients.userClient(req.user);
    return quote(await trafficPrice(client), req.trafficBytes);
  }

  async trafficRequests(user: string): Promise<{ requests: TrackedRequest[] }> {
    const { profile, client } = await this.clients.userClient(user);
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
}
