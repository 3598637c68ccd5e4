/**
 * The validator's and the DSO's background automation, run before each wallet request and by the background trigger
 * (`background.ts`). Each task submits ordinary ledger
 * transactions, so its effects are in `/v2/updates`. Tasks, in order:
 *
 * 1. offer expiry (`autoExpireOffers`) — TransferOffer_Expire / AcceptedTransferOffer_Expire, funds back to the sender;
 *    token-standard transfers past executeBefore are withdrawn by the sender's wallet (local senders);
 * 2. external parties' TransferCommands (DSO delegate) — TransferCommand_Send in nonce order, or _Expire;
 * 3. auto-accept (`autoAcceptTransfers`) — receivers accept offers from the configured senders;
 * 4. dust expiry (`expireDustHoldings`) — Amulet_Expire of amulets whose accrued fee reached their amount;
 * 5. reward collection (`collectRewards`) — closed-round validator / app reward coupons minted into amulets;
 * 6. sweeps (`sweeps`) — a sender above maxBalanceUSD sends down to minBalanceUSD (preapproval or transfer offer);
 * 7. merges (`mergeThreshold`) — the provider accepts MergeDelegationProposals; users with a MergeDelegation are merged
 *    together through BatchMergeUtility_MergeHoldings (≤ 100 merge calls per transaction, each ≤ 100 inputs), the
 *    other wallet users with AmuletRules_Merge;
 * 8. traffic top-up (`trafficTopup`) — AmuletRules_BuyMemberTraffic for the validator;
 * 9. preapproval renewal (`preapprovalRenewBeforeSeconds`) — the provider's TransferPreapproval_Renew;
 * 10. subscription payments — the sender's wallet pays due periods (SubscriptionIdleState_MakePayment);
 * 11. minting delegations (before 5.) — delegates mint their beneficiaries' coupons and merge their amulets;
 * 12. validator liveness (after 2.) — one ValidatorLivenessActivityRecord per open round (`automation-liveness.ts`);
 * 13. development fund (after 12.) — the DSO expires coupons past expiresAt; with `collectRewards`, wallet users claim
 *     theirs (`development-fund.ts`).
 *
 * Tasks 1 (token-standard part) and 2 live in `automation-transfers.ts`, 7 in `automation-merges.ts`, 11 in
 * `automation-minting.ts`; the others here.
 */
import { randomUUID } from 'node:crypto';
import { microsToIso } from '../clock.js';
import type { SimContext } from '../context.js';
import { errorText } from '../errors.js';
import type { ContractRow } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import type { WalletCore } from './wallet-core.js';
import { effectiveAmount, fmt, MAX_TRANSFER_INPUTS, num } from './coin.js';
import { args, PREAPPROVAL_LIFETIME_MICROS, T } from './names.js';
import { recordLivenessActivity } from './automation-liveness.js';
import { acceptMergeDelegations, mergeAll } from './automation-merges.js';
import { runMintingDelegations } from './automation-minting.js';
import { processTransferCommands, withdrawExpiredTokenTransfers } from './automation-transfers.js';
import { DevelopmentFund } from './development-fund.js';
import { SUB_QN } from './templates-subscriptions.js';
import { asText } from '../lf-text.js';

const SCALE = 10_000_000_000n;
const DAY_MICROS = 24n * 3600n * 1_000_000n;
/** Meta key of the last traffic top-up time (micros). */
export const LAST_TOPUP_KEY = 'wallet_last_topup_micros';

export class WalletAutomation {
  private readonly developmentFund: DevelopmentFund;

  constructor(
    private readonly sim: SimContext,
    private readonly app: WalletCore,
  ) {
    this.developmentFund = new DevelopmentFund(sim, app);
  }

  private get config() {
    return this.app.config;
  }

  /**
   * Runs every enabled task. A task that fails (e.g. a sweep whose receiver lost its preapproval) is logged and the
   * others still run, so one stuck trigger does not fail unrelated wallet requests; it is retried on the next run.
   */
  run(): void {
    const c = this.config;
    const tasks: [string, boolean, () => unknown][] = [
      ['offer expiry', c.autoExpireOffers, () => this.expireOffers()],
      ['token-standard transfer expiry', c.autoExpireOffers, () => withdrawExpiredTokenTransfers(this.sim, this.app)],
      ['transfer commands', true, () => processTransferCommands(this.sim, this.app)],
      ['validator liveness', true, () => recordLivenessActivity(this.app)],
      ['development fund expiry', true, () => this.developmentFund.expire()],
      ['development fund claims', c.collectRewards, () => this.developmentFund.claim()],
      ['auto-accept', true, () => this.autoAccept()],
      ['dust expiry', c.expireDustHoldings, () => this.expireDust()],
      ['minting delegations', true, () => runMintingDelegations(this.sim, this.app)],
      ['reward collection', c.collectRewards, () => this.collectRewards()],
      ['sweeps', true, () => this.sweeps()],
      ['merge delegations', true, () => acceptMergeDelegations(this.app)],
      ['merges', c.mergeThreshold > 0, () => mergeAll(this.app)],
      ['traffic top-up', true, () => this.trafficTopup()],
      ['preapproval renewal', true, () => this.renewPreapprovals()],
      ['subscription payments', true, () => this.paySubscriptions()],
    ];
    for (const [name, enabled, task] of tasks) {
      if (!enabled) continue;
      try {
        task();
      } catch (err) {
        console.error(`[simulator wallet] automation task '${name}' failed (retried on the next run):`, errorText(err));
      }
    }
  }

  /** Offers and accepted offers past expiresAt are expired and their funds unlocked. */
  expireOffers(): number {
    const now = this.sim.clock.nowMicros();
    let n = 0;
    for (const qn of [T.offer, T.accepted]) {
      for (const o of this.app.contracts(this.app.dso, qn)) {
        const exp = Date.parse(asText(args(o).expiresAt)) * 1000;
        if (BigInt(exp) > now) continue;
        const r = this.app.exercise(
          [this.app.dso],
          qn,
          o.contractId,
          qn === T.offer ? 'TransferOffer_Expire' : 'AcceptedTransferOffer_Expire',
          { openRound: this.app.openRound().cid },
        );
        this.app.offers.closed(o, r.res, { status: 'failed', failure_kind: 'expired' });
        n++;
      }
    }
    return n;
  }

  /** Receivers listed in `autoAcceptTransfers` accept pending offers from their listed senders. */
  autoAccept(): number {
    let n = 0;
    for (const [receiver, rule] of Object.entries(this.config.autoAcceptTransfers)) {
      const user = this.app.userOfParty(receiver);
      if (!user) continue; // not (or no longer) a wallet user of this validator
      const from = new Set(rule.fromParties);
      for (const o of this.app.contracts(receiver, T.offer)) {
        if (args(o).receiver !== receiver || !from.has(asText(args(o).sender))) continue;
        this.app.offers.accept(user, o.contractId);
        n++;
      }
    }
    return n;
  }

  /** The DSO archives dust: unlocked amulets whose accrued holding fee is at least their amount. */
  expireDust(): number {
    const round = this.app.openRound();
    let n = 0;
    for (const c of this.app.contracts(this.app.dso, T.amulet)) {
      const a = args(c);
      const elapsed = round.round - BigInt(asText(a.createdAtRound));
      if (elapsed * num(a.ratePerRound) < num(a.initialAmount)) continue;
      const r = this.app.exercise([this.app.dso], T.amulet, c.contractId, 'Amulet_Expire', { roundCid: round.cid });
      this.app.log(
        [asText(a.owner)],
        {
          transaction_type: 'notification',
          choice: 'Amulet_Expire',
          template: T.amulet,
          event_id: r.res.updateId,
          details: `Dust amulet of ${fmt(num(a.initialAmount))} expired: its holding fee reached its amount`,
        },
        r.res,
      );
      n++;
    }
    return n;
  }

  /**
   * Coupons of closed rounds (round < the open round) are minted: the validator collects the validator coupons of the
   * users it holds a ValidatorRight for; each wallet user collects the app coupons it is the provider of.
   */
  collectRewards(): number {
    const app = this.app;
    const round = app.openRound();
    const closed = (c: ContractRow) => BigInt(asText(args(c).round)) < round.round;
    let n = 0;
    const collect = (beneficiary: string, rights: ContractRow[], validatorCoupons: ContractRow[], appCoupons: ContractRow[]): void => {
      for (let i = 0; i < Math.max(validatorCoupons.length, appCoupons.length); i += MAX_TRANSFER_INPUTS) {
        const vc = validatorCoupons.slice(i, i + MAX_TRANSFER_INPUTS);
        const ac = appCoupons.slice(i, i + MAX_TRANSFER_INPUTS);
        const r = app.exercise([beneficiary, app.dso], T.rules, app.rules(), 'AmuletRules_CollectRewards', {
          beneficiary,
          validatorRights: rights.map((x) => x.contractId),
          validatorRewardCoupons: vc.map((x) => x.contractId),
          appRewardCoupons: ac.map((x) => x.contractId),
          openRound: round.cid,
        });
        const minted = r.result === null ? undefined : this.sim.store.contract(asText(r.result));
        app.log(
          [beneficiary],
          {
            transaction_type: 'balance_change',
            choice: 'AmuletRules_CollectRewards',
            template: T.rules,
            amulet_operation: 'collect_rewards',
            event_id: r.res.updateId,
            receivers: minted ? [{ party: beneficiary, amount: fmt(num(args(minted).initialAmount)) }] : [],
            ...(vc.length > 0 ? { validator_rewards_used: fmt(vc.reduce((s, x) => s + num(args(x).amount), 0n)) } : {}),
            ...(ac.length > 0 ? { app_rewards_used: fmt(ac.reduce((s, x) => s + num(args(x).amount), 0n)) } : {}),
          },
          r.res,
        );
        n++;
      }
    };
    const validator = app.validatorParty;
    const rights = app.contracts(validator, T.validatorRight).filter((r) => args(r).validator === validator);
    const hosted = new Set(rights.map((r) => asText(args(r).user)));
    const vCoupons = app.contracts(app.dso, T.validatorCoupon).filter((c) => closed(c) && hosted.has(asText(args(c).user)));
    const usedRights = rights.filter((r) => vCoupons.some((c) => args(c).user === args(r).user));
    const appCoupons = app.contracts(app.dso, T.appCoupon).filter(closed);
    const providers = new Set(app.listUsers().map((u) => app.partyOf(u)));
    collect(
      validator,
      usedRights,
      vCoupons,
      appCoupons.filter((c) => args(c).provider === validator),
    );
    for (const p of providers) {
      if (p === validator) continue;
      const mine = appCoupons.filter((c) => args(c).provider === p);
      if (mine.length > 0) collect(p, [], [], mine);
    }
    return n;
  }

  /** A configured sender above maxBalanceUSD sends (balance − minBalanceUSD) to its receiver. */
  sweeps(): number {
    let n = 0;
    const price = num(this.config.amuletPrice);
    if (price <= 0n) return 0;
    for (const [sender, s] of Object.entries(this.config.sweeps)) {
      const user = this.app.userOfParty(sender);
      if (!user) continue;
      const round = this.app.openRound().round;
      const balance = this.app
        .amulets(sender)
        .reduce((sum, c) => sum + effectiveAmount(c.node.createArgument as LfRecord, round).effective, 0n);
      const usd = (balance * price) / SCALE;
      if (usd <= num(s.maxBalanceUSD)) continue;
      const amount = ((usd - num(s.minBalanceUSD)) * SCALE) / price;
      if (amount <= 0n) continue;
      const id = `sweep-${randomUUID()}`;
      if (s.useTransferPreapproval && this.app.preapprovalOf(s.receiver))
        this.app.preapprovalSend(user, { receiver_party_id: s.receiver, amount: fmt(amount), deduplication_id: id, description: 'sweep' });
      else
        this.app.offers.createOffer(user, {
          receiver_party_id: s.receiver,
          amount: fmt(amount),
          description: 'sweep',
          tracking_id: id,
          expires_at: Number(this.sim.clock.nowMicros() + DAY_MICROS),
        });
      n++;
    }
    return n;
  }

  /**
   * Buys `targetThroughput × minTopupIntervalSeconds` bytes for the validator when its unused traffic is below that and
   * the last top-up is at least `minTopupIntervalSeconds` old. Without enough amulets the top-up is skipped (retried
   * on the next run).
   */
  trafficTopup(): boolean {
    const { targetThroughput, minTopupIntervalSeconds } = this.config.trafficTopup;
    if (targetThroughput <= 0) return false;
    const now = this.sim.clock.nowMicros();
    const last = BigInt(this.sim.store.meta.get(LAST_TOPUP_KEY) ?? '-1');
    if (last >= 0n && now - last < BigInt(minTopupIntervalSeconds) * 1_000_000n) return false;
    const want = BigInt(targetThroughput) * BigInt(minTopupIntervalSeconds);
    if (BigInt(this.app.traffic().extra) >= want) return false;
    try {
      this.app.buyTraffic(this.config.validatorWalletUser, {
        receiving_validator_party_id: this.app.validatorParty,
        domain_id: this.sim.synchronizers[0].id,
        traffic_amount: Number(want),
        tracking_id: `topup-${randomUUID()}`,
        expires_at: Number(now + DAY_MICROS),
      });
    } catch {
      return false; // e.g. insufficient funds: try again on the next run
    }
    this.sim.store.meta.set(LAST_TOPUP_KEY, String(now));
    return true;
  }

  /** The validator renews the preapprovals it provides that expire within `preapprovalRenewBeforeSeconds`. */
  renewPreapprovals(): number {
    const window = BigInt(this.config.preapprovalRenewBeforeSeconds) * 1_000_000n;
    if (window <= 0n) return 0;
    const now = this.sim.clock.nowMicros();
    let n = 0;
    for (const p of this.app.contracts(this.app.validatorParty, T.preapproval)) {
      const a = args(p);
      if (a.provider !== this.app.validatorParty) continue;
      const expires = BigInt(Date.parse(asText(a.expiresAt))) * 1000n;
      if (expires <= now || expires - now > window) continue; // expired ones are not revived
      const r = this.app.exercise([this.app.validatorParty], T.preapproval, p.contractId, 'TransferPreapproval_Renew', {
        renewedAt: microsToIso(now),
        newExpiresAt: microsToIso(now + PREAPPROVAL_LIFETIME_MICROS),
      });
      this.app.log(
        [asText(a.receiver)],
        {
          transaction_type: 'notification',
          choice: 'TransferPreapproval_Renew',
          template: T.preapproval,
          event_id: r.res.updateId,
          details: 'Transfer preapproval renewed by its provider',
        },
        r.res,
      );
      n++;
    }
    return n;
  }

  /** The sender's wallet pays the subscription periods that are due (locked to the provider until collected). */
  paySubscriptions(): number {
    const now = this.sim.clock.nowMicros();
    let n = 0;
    for (const u of this.app.listUsers()) {
      const sender = this.app.partyOf(u);
      for (const idle of this.app.contracts(sender, SUB_QN.idle).filter((c) => args(c).sender === sender)) {
        const a = args(idle);
        if (BigInt(Date.parse(asText(a.nextPaymentDueAt))) * 1000n > now) continue;
        const inputs = this.app.selectInputs(sender, num(a.paymentAmount));
        const r = this.app.exercise([sender, this.app.dso], SUB_QN.idle, idle.contractId, 'SubscriptionIdleState_MakePayment', {
          inputs,
          amuletRules: this.app.rules(),
          openRound: this.app.openRound().cid,
          lockExpiresAt: microsToIso(now + BigInt(asText(a.paymentIntervalMicros))),
        });
        this.app.log(
          [sender],
          {
            transaction_type: 'notification',
            choice: 'SubscriptionIdleState_MakePayment',
            template: SUB_QN.idle,
            event_id: r.res.updateId,
            details: `Subscription payment of ${fmt(num(a.paymentAmount))} to ${asText(a.provider)} made`,
          },
          r.res,
        );
        n++;
      }
    }
    return n;
  }
}
