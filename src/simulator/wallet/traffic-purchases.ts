/**
 * Buying synchronizer traffic with amulet (`AmuletRules_BuyMemberTraffic`), tracked by the caller's tracking id. Only
 * purchases for this validator on the first synchronizer add to the validator's own traffic meter (`app-store.ts`).
 */
import type { SimContext } from '../context.js';
import { asText } from '../lf-text.js';
import type { WalletStore } from './app-store.js';
import { fmt, num } from './coin.js';
import { T } from './names.js';
import { WalletError } from './types.js';
import type { WalletCore } from './wallet-core.js';

/** A buy-traffic request's status, as `GetBuyTrafficRequestStatusResponse` (wallet-external.yaml) has it. */
export type TrafficStatus =
  | { status: 'created' }
  | { status: 'completed'; transaction_id: string }
  | { status: 'failed'; failure_reason: 'rejected' | 'expired'; rejection_reason?: string };

export type BuyTrafficRequest = {
  receiving_validator_party_id: string;
  domain_id: string;
  traffic_amount: number;
  tracking_id: string;
  expires_at: number;
};

export class TrafficPurchases {
  constructor(
    private readonly sim: SimContext,
    private readonly core: WalletCore,
    private readonly store: WalletStore,
  ) {}

  buyTraffic(user: string, req: BuyTrafficRequest): string {
    const buyer = this.core.partyOf(user);
    this.core.runAutomation();
    if (this.store.tracking('traffic', req.tracking_id))
      throw new WalletError(409, `A buy-traffic request with tracking id ${req.tracking_id} already exists`);
    if (!this.sim.synchronizers.some((s) => s.id === req.domain_id)) throw new WalletError(400, `Unknown domain ${req.domain_id}`);
    if (!this.sim.store.hasParty(req.receiving_validator_party_id))
      throw new WalletError(400, `Unknown party ${req.receiving_validator_party_id}`);
    if (!Number.isSafeInteger(req.traffic_amount) || req.traffic_amount <= 0)
      throw new WalletError(400, 'traffic_amount must be a positive number of bytes');
    const usd = (num(this.core.config.trafficPriceUsdPerMb) * BigInt(req.traffic_amount)) / 1_000_000n;
    const cost = (usd * 10_000_000_000n) / num(this.core.config.amuletPrice);
    const inputs = this.core.selectInputs(buyer, cost);
    const r = this.core.exercise([buyer, this.core.dso], T.rules, this.core.rules(), 'AmuletRules_BuyMemberTraffic', {
      buyer,
      inputs,
      memberId: this.sim.participantId,
      synchronizerId: req.domain_id,
      trafficAmount: String(req.traffic_amount),
      amuletCost: fmt(cost),
      openRound: this.core.openRound().cid,
    });
    if (req.receiving_validator_party_id === this.core.validatorParty && req.domain_id === this.sim.synchronizers[0].id)
      this.store.addPurchasedTraffic(req.traffic_amount);
    const cid = asText(r.result);
    this.store.setTracking('traffic', req.tracking_id, {
      user,
      kind: 'traffic',
      status: { status: 'completed', transaction_id: r.res.updateId },
    });
    this.store.log(
      [buyer],
      {
        transaction_type: 'balance_change',
        choice: 'AmuletRules_BuyMemberTraffic',
        template: T.rules,
        amulet_operation: 'buy_member_traffic',
        event_id: r.res.updateId,
        receivers: [{ party: buyer, amount: `-${fmt(cost)}` }],
      },
      r.res,
    );
    return cid;
  }

  trafficStatus(user: string, trackingId: string): TrafficStatus {
    this.core.partyOf(user);
    const t = this.store.tracking('traffic', trackingId);
    if (!t) throw new WalletError(404, `No buy-traffic request with tracking id ${trackingId}`);
    // written by buyTraffic above
    return t.status as TrafficStatus;
  }
}
