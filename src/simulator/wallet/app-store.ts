/**
 * The validator app's own state next to the ledger (in `ledger.sqlite`): tracking ids → request status
 * (`wallet_tracking`), the per-party transaction log served by `/v0/wallet/transactions` (`wallet_txlog`), and the
 * validator's traffic meter (meta key `wallet_validator_traffic`). Written right after the ledger commit of the
 * transaction they describe (not in the same SQLite transaction).
 */
import type { SimContext } from '../context.js';
import type { SubmitResult } from '../ledger.js';
import type { ResolvedPackage } from '../packages/registry.js';
import { AMULET_PACKAGE_NAME } from './coin.js';
import { MERGE_PACKAGE_NAME } from './merge-delegation.js';

export type Tracking = { user: string; kind: 'offer' | 'traffic'; status: Record<string, unknown> };

type PartyAndAmount = { party: string; amount: string };
type Subtype = { template_id: string; choice: string; amulet_operation?: string };
type Entry<T extends string, Fields> = { transaction_type: T; event_id: string; date: string; transaction_subtype: Subtype } & Fields;
type FeeFields = 'holding_fees' | 'app_rewards_used' | 'validator_rewards_used' | 'sv_rewards_used' | 'development_fund_coupons_used';
type TransferFields = { sender: PartyAndAmount; receivers: PartyAndAmount[]; description?: string } & Record<FeeFields, string> &
  Partial<Record<'transfer_instruction_receiver' | 'transfer_instruction_amount' | 'transfer_instruction_cid', string>>;

/**
 * A stored log entry: the wallet API's `ListTransactionsResponseItem`, a union by `transaction_type` (real Splice
 * wallet UIs parse it by that type; test/unit/splice-spec-types.test.ts checks it against the spec).
 */
export type TxLogItem =
  | Entry<'transfer', TransferFields>
  | Entry<'balance_change', { receivers: PartyAndAmount[]; transfer_instruction_cid?: string }>
  | Entry<'notification', { details: string }>
  | Entry<'unknown', object>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/**
 * A log entry as `log` is given it: `choice`, `template` (qualified name) and `amulet_operation` become
 * `transaction_subtype`, the date is the transaction's; a transfer's fee fields default to zero.
 */
export type TxLogInput = DistributiveOmit<
  | Exclude<TxLogItem, { transaction_type: 'transfer' }>
  | (Entry<'transfer', Omit<TransferFields, FeeFields>> & Partial<Record<FeeFields, string>>),
  'date' | 'transaction_subtype'
> & { choice: string; template: string; amulet_operation?: string };

/** The validator's traffic in bytes (see `WalletStore.traffic`). */
export interface TrafficMeter {
  purchased: number;
  consumed: number;
  extra: number;
}

const TRAFFIC_KEY = 'wallet_validator_traffic';
const ZERO_FEES = {
  holding_fees: '0.0000000000',
  app_rewards_used: '0.0000000000',
  validator_rewards_used: '0.0000000000',
  sv_rewards_used: '0.0000000000',
  development_fund_coupons_used: '0.0000000000',
};

export class WalletStore {
  constructor(private readonly sim: SimContext) {}

  private get db() {
    return this.sim.store.db;
  }

  createTables(): void {
    this.db.exec(`CREATE TABLE IF NOT EXISTS wallet_tracking (kind TEXT NOT NULL, tracking_id TEXT NOT NULL, payload TEXT NOT NULL,
        PRIMARY KEY (kind, tracking_id));
      CREATE TABLE IF NOT EXISTS wallet_txlog (seq INTEGER PRIMARY KEY AUTOINCREMENT, party TEXT NOT NULL, payload TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS wallet_txlog_party ON wallet_txlog (party, seq);`);
  }

  tracking(kind: string, id: string): Tracking | undefined {
    const r = this.db.prepare('SELECT payload FROM wallet_tracking WHERE kind = ? AND tracking_id = ?').get(kind, id) as
      { payload: string } | undefined;
    return r ? (JSON.parse(r.payload) as Tracking) : undefined;
  }

  setTracking(kind: string, id: string, t: Tracking): void {
    this.db
      .prepare(
        'INSERT INTO wallet_tracking (kind, tracking_id, payload) VALUES (?, ?, ?) ' +
          'ON CONFLICT(kind, tracking_id) DO UPDATE SET payload = excluded.payload',
      )
      .run(kind, id, JSON.stringify(t));
  }

  /**
   * Appends a `TransactionHistoryResponseItem` for each involved party: `choice` / `template` / `amulet_operation`
   * become `transaction_subtype`, the date is the transaction's effective time, transfers get their (zero) fee fields.
   */
  log(partiesInvolved: string[], item: TxLogInput, res: SubmitResult): void {
    const { choice, template, amulet_operation, ...rest } = item;
    const common = {
      date: res.tx.effectiveAt,
      transaction_subtype: {
        template_id: `${this.pkgIdOf(template)}:${template}`,
        choice,
        ...(amulet_operation ? { amulet_operation } : {}),
      },
    };
    const full: TxLogItem = rest.transaction_type === 'transfer' ? { ...ZERO_FEES, ...rest, ...common } : { ...rest, ...common };
    const ins = this.db.prepare('INSERT INTO wallet_txlog (party, payload) VALUES (?, ?)');
    for (const p of new Set(partiesInvolved)) ins.run(p, JSON.stringify(full));
  }

  /** The party's log, newest first, `pageSize` items after the item with event id `beginAfterId`. */
  transactions(party: string, pageSize: number, beginAfterId?: string): TxLogItem[] {
    const rows = this.db.prepare('SELECT seq, payload FROM wallet_txlog WHERE party = ? ORDER BY seq DESC').all(party) as {
      seq: number;
      payload: string;
    }[];
    const items = rows.map((r) => JSON.parse(r.payload) as TxLogItem);
    let start = 0;
    if (beginAfterId !== undefined) {
      const i = items.findIndex((x) => x.event_id === beginAfterId);
      start = i < 0 ? items.length : i + 1;
    }
    return items.slice(start, start + Math.max(0, pageSize));
  }

  /**
   * The validator's traffic: `purchased` (top-ups and buy-traffic requests for this participant), `consumed` by its
   * wallet transactions, and the unused `extra` traffic. Like Canton's base rate, free base traffic covers what the
   * extra traffic cannot: `extra` never goes below 0.
   */
  traffic(): TrafficMeter {
    const stored = this.sim.store.meta.get(TRAFFIC_KEY);
    return stored ? (JSON.parse(stored) as TrafficMeter) : { purchased: 0, consumed: 0, extra: 0 };
  }

  chargeTraffic(bytes: number): void {
    const t = this.traffic();
    this.sim.store.meta.set(TRAFFIC_KEY, JSON.stringify({ ...t, consumed: t.consumed + bytes, extra: Math.max(0, t.extra - bytes) }));
  }

  addPurchasedTraffic(bytes: number): void {
    const t = this.traffic();
    this.sim.store.meta.set(TRAFFIC_KEY, JSON.stringify({ ...t, purchased: t.purchased + bytes, extra: t.extra + bytes }));
  }

  /** Id of the built-in wallet package defining template `qn` (splice-amulet or the merge-delegation package). */
  private pkgIdOf(qn: string): string {
    const defines = (p: ResolvedPackage) => p.def.templates.some((t) => `${t.module}:${t.entity}` === qn);
    const pkg = this.sim.registry.packages.find(
      (p) => !p.uploaded && (p.def.name === AMULET_PACKAGE_NAME || p.def.name === MERGE_PACKAGE_NAME) && defines(p),
    );
    return pkg?.id ?? AMULET_PACKAGE_NAME;
  }
}
