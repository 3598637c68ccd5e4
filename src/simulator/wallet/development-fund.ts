/**
 * The development fund from the wallet's side (`templates-development-fund.ts`): the fund manager (the party named on
 * AmuletRules — the validator operator's party in the simulator) allocates coupons from the unclaimed pool, lists its
 * active coupons, withdraws them and reads their history; the automation expires coupons past `expiresAt` (DSO) and
 * lets beneficiaries hosted here claim theirs (with reward collection). The history is read from the ledger: every
 * archived `DevelopmentFundCoupon` the manager was a stakeholder of, with its status from the archiving choice
 * (`…_Withdraw` → withdrawn, `…_Reject` → rejected, `…_Claim` → claimed, `…_DsoExpire` → expired), paged by the
 * archiving offset.
 */
import { isoToMicros, microsToIso } from '../clock.js';
import type { SimContext } from '../context.js';
import type { ContractRow, ExercisedNode } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import { AMULET_PACKAGE_NAME, fmt, num } from './coin.js';
import { args, T } from './names.js';
import { DEV_FUND_QN } from './templates-development-fund.js';
import type { WalletCore } from './wallet-core.js';
import { WalletError } from './types.js';
import { asText } from '../lf-text.js';

export interface ArchivedCoupon {
  createdAt: string;
  archivedAt: string;
  beneficiary: string;
  fund_manager: string;
  amount: string;
  expiresAt: string;
  reason: string;
  status: 'withdrawn' | 'rejected' | 'claimed' | 'expired';
  rejection_or_withdrawal_reason?: string;
}

const STATUS_OF: Record<string, ArchivedCoupon['status']> = {
  DevelopmentFundCoupon_Withdraw: 'withdrawn',
  DevelopmentFundCoupon_Reject: 'rejected',
  DevelopmentFundCoupon_Claim: 'claimed',
  DevelopmentFundCoupon_DsoExpire: 'expired',
};

export class DevelopmentFund {
  constructor(
    private readonly sim: SimContext,
    private readonly app: WalletCore,
  ) {}

  /** The fund manager on AmuletRules, if any. */
  manager(): string | undefined {
    const rules = this.app.contracts(this.app.dso, T.rules)[0];
    const m = rules ? args(rules).developmentFundManager : undefined;
    return typeof m === 'string' ? m : undefined;
  }

  private requireManager(party: string): void {
    const m = this.manager();
    if (m !== party)
      throw new WalletError(
        403,
        m === undefined ? 'No development fund manager is configured' : `Only the development fund manager (${m}) can do this`,
      );
  }

  /** Active coupons the party manages, oldest first. */
  active(party: string): ContractRow[] {
    return this.app.contracts(party, DEV_FUND_QN.coupon).filter((c) => args(c).fundManager === party);
  }

  allocate(
    party: string,
    req: { beneficiary: string; amount: bigint; expiresAtMicros: bigint; reason: string },
  ): { coupon: string; unclaimed?: string } {
    this.requireManager(party);
    if (req.amount <= 0n) throw new WalletError(400, 'amount must be positive');
    if (req.expiresAtMicros <= this.sim.clock.nowMicros()) throw new WalletError(400, 'expiresAt must be in the future');
    if (!this.sim.store.hasParty(req.beneficiary)) throw new WalletError(400, `Unknown beneficiary party ${req.beneficiary}`);
    // the fewest unclaimed coupons that cover the amount, largest first
    const pool = this.app
      .contracts(this.app.dso, DEV_FUND_QN.unclaimed)
      .sort((a, b) => (num(args(b).amount) > num(args(a).amount) ? 1 : -1));
    const picked: string[] = [];
    let total = 0n;
    for (const c of pool) {
      if (total >= req.amount) break;
      picked.push(c.contractId);
      total += num(args(c).amount);
    }
    if (total < req.amount) throw new WalletError(400, `The unclaimed development fund holds ${fmt(total)}, less than ${fmt(req.amount)}`);
    const r = this.app.exercise([party, this.app.dso], T.rules, this.app.rules(), 'AmuletRules_AllocateDevelopmentFundCoupon', {
      unclaimedDevelopmentFundCouponCids: picked,
      beneficiary: req.beneficiary,
      amount: fmt(req.amount),
      expiresAt: microsToIso(req.expiresAtMicros),
      reason: req.reason,
      fundManager: party,
    });
    const result = (r.result ?? {}) as LfRecord;
    this.app.log(
      [party, req.beneficiary],
      {
        transaction_type: 'notification',
        choice: 'AmuletRules_AllocateDevelopmentFundCoupon',
        template: T.rules,
        event_id: r.res.updateId,
        details: `Development fund coupon of ${fmt(req.amount)} allocated`,
      },
      r.res,
    );
    const rest = result.optUnclaimedDevelopmentFundCouponCid;
    return { coupon: asText(result.developmentFundCouponCid), ...(typeof rest === 'string' ? { unclaimed: rest } : {}) };
  }

  withdraw(party: string, contractId: string, reason: string): string {
    const c = this.active(party).find((x) => x.contractId === contractId);
    if (!c) throw new WalletError(404, `No active development fund coupon ${contractId} managed by ${party}`);
    const r = this.app.exercise([party], DEV_FUND_QN.coupon, c.contractId, 'DevelopmentFundCoupon_Withdraw', { reason });
    this.app.log(
      [party, asText(args(c).beneficiary)],
      {
        transaction_type: 'notification',
        choice: 'DevelopmentFundCoupon_Withdraw',
        template: DEV_FUND_QN.coupon,
        event_id: r.res.updateId,
        details: `Development fund coupon withdrawn: ${reason}`,
      },
      r.res,
    );
    return asText(r.result);
  }

  /** Archived coupons the party manages, by archiving offset after `after`, at most `limit`. */
  history(party: string, after: number, limit: number): { items: ArchivedCoupon[]; next?: number } {
    const stmt = this.sim.store.db.prepare(
      'SELECT contract_id, archived_offset FROM contracts WHERE package_name = ? AND template_qn = ? ' +
        'AND archived_offset IS NOT NULL AND archived_offset > ? ORDER BY archived_offset LIMIT ?',
    );
    const items: ArchivedCoupon[] = [];
    let cursor = after;
    let next: number | undefined;
    while (items.length < limit) {
      const rows = stmt.all(AMULET_PACKAGE_NAME, DEV_FUND_QN.coupon, cursor, 200) as { contract_id: string; archived_offset: number }[];
      if (rows.length === 0) break;
      for (const row of rows) {
        cursor = row.archived_offset;
        const c = this.sim.store.contract(row.contract_id);
        if (!c || args(c).fundManager !== party) continue;
        const item = this.archived(c, row.archived_offset);
        if (!item) continue;
        items.push(item);
        next = row.archived_offset;
        if (items.length === limit) break;
      }
    }
    return { items, ...(next !== undefined ? { next } : {}) };
  }

  private archived(c: ContractRow, offset: number): ArchivedCoupon | undefined {
    const u = this.sim.store.updateByOffset(offset);
    if (!u || u.kind !== 'transaction') return undefined;
    const ex = u.nodes.find((n): n is ExercisedNode => n.kind === 'exercise' && n.consuming && n.contractId === c.contractId);
    const status = ex ? STATUS_OF[ex.choice] : undefined;
    if (!ex || !status) return undefined;
    const a = args(c);
    const why = (ex.choiceArgument as LfRecord | null)?.reason;
    return {
      createdAt: c.node.createdAt,
      archivedAt: u.recordTime,
      beneficiary: asText(a.beneficiary),
      fund_manager: asText(a.fundManager),
      amount: asText(a.amount),
      expiresAt: asText(a.expiresAt),
      reason: asText(a.reason),
      status,
      ...((status === 'withdrawn' || status === 'rejected') && typeof why === 'string' ? { rejection_or_withdrawal_reason: why } : {}),
    };
  }

  /** Automation: the DSO expires coupons past expiresAt (their amount returns to the pool). */
  expire(): number {
    const now = this.sim.clock.nowMicros();
    let n = 0;
    for (const c of this.app.contracts(this.app.dso, DEV_FUND_QN.coupon)) {
      const exp = isoToMicros(asText(args(c).expiresAt));
      if (exp === undefined || exp > now) continue;
      this.app.exercise([this.app.dso], DEV_FUND_QN.coupon, c.contractId, 'DevelopmentFundCoupon_DsoExpire', {});
      n++;
    }
    return n;
  }

  /** Automation (with reward collection): wallet users claim their unexpired coupons into amulets. */
  claim(): number {
    const now = this.sim.clock.nowMicros();
    let n = 0;
    for (const c of this.app.contracts(this.app.dso, DEV_FUND_QN.coupon)) {
      const a = args(c);
      const beneficiary = asText(a.beneficiary);
      const exp = isoToMicros(asText(a.expiresAt));
      if (exp === undefined || exp <= now || this.app.userOfParty(beneficiary) === undefined) continue;
      const r = this.app.exercise([beneficiary], DEV_FUND_QN.coupon, c.contractId, 'DevelopmentFundCoupon_Claim', {
        openRound: this.app.openRound().cid,
      });
      this.app.log(
        [beneficiary],
        {
          transaction_type: 'balance_change',
          choice: 'DevelopmentFundCoupon_Claim',
          template: DEV_FUND_QN.coupon,
          amulet_operation: 'collect_rewards',
          event_id: r.res.updateId,
          receivers: [{ party: beneficiary, amount: fmt(num(a.amount)) }],
        },
        r.res,
      );
      n++;
    }
    return n;
  }
}
