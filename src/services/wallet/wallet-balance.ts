/**
 * A wallet user's balance, holdings and history, and the DevNet faucet. The validator has no balance history, so the
 * chart's series comes from the console's own samples (wallet-store.ts), reconstructed from the history the first time.
 */
import type { z } from 'zod';
import type { BalanceSample, HistoryItem, Holding, WalletOverview } from '../../ipc/contract.js';
import { formatDecimal, parseDecimal } from '../../common/decimal.js';
import {
  amuletInitialAmount,
  GetBalanceResponseSchema,
  ListAmuletsResponseSchema,
  ListTransactionsResponseSchema,
  TapResponseSchema,
  UserStatusResponseSchema,
  type ListTransactionsResponseItem,
} from './splice-schemas.js';
import type { WalletClients, WalletDeps } from './wallet-clients.js';

/** Amulet amounts are Daml Numeric 10. */
const SCALE = 10;
/** History entries read to reconstruct the chart before the first sample. */
const BACKFILL_ITEMS = 200;

export class WalletBalance {
  constructor(
    private readonly d: WalletDeps,
    private readonly clients: WalletClients,
  ) {}

  async overview(user: string): Promise<WalletOverview> {
    const { profile, client } = await this.clients.userClient(user);
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
    const { client } = await this.clients.userClient(user);
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
    const { client } = await this.clients.userClient(user);
    return { contractId: (await client.post('/v0/wallet/tap', { amount }, TapResponseSchema)).contract_id };
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
