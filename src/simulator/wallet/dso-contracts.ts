/**
 * The DSO's contracts the validator app reads and keeps current: AmuletRules, ExternalPartyAmuletRules and the open
 * mining round of the simulated time. Rounds advance lazily: the first read after a round's end archives the old round
 * and creates the new one (with the development fund's share) in one DSO transaction.
 */
import { microsToIso } from '../clock.js';
import type { SimContext } from '../context.js';
import { asText } from '../lf-text.js';
import type { ContractRow } from '../model.js';
import { fmt, num } from './coin.js';
import type { WalletLedger } from './ledger-access.js';
import { args, T, tid } from './names.js';
import { DEV_FUND_QN } from './templates-development-fund.js';
import { WalletError } from './types.js';
import type { WalletConfig } from './wallet-core.js';

export class DsoContracts {
  constructor(
    private readonly sim: SimContext,
    private readonly config: WalletConfig,
    private readonly ledger: WalletLedger,
  ) {}

  private genesisMicros(): bigint {
    return BigInt(this.sim.store.meta.get('wallet_genesis_micros') ?? '0');
  }

  private roundMicros(): bigint {
    return BigInt(this.config.roundDurationSeconds) * 1_000_000n;
  }

  /** The round for the current (simulated) time. */
  currentRoundNumber(): bigint {
    return (this.sim.clock.nowMicros() - this.genesisMicros()) / this.roundMicros();
  }

  /** The open mining round contract for the current time (advancing it with a ledger transaction when time moved on). */
  openRound(): { cid: string; round: bigint } {
    const want = this.currentRoundNumber();
    const dso = this.ledger.dso;
    const rounds = this.ledger.contracts(dso, T.round);
    const current = rounds.find((r) => BigInt(asText(args(r).round)) === want);
    if (current) return { cid: current.contractId, round: want };
    const genesis = this.genesisMicros();
    const len = this.roundMicros();
    const archiveOld = rounds.map((o) => ({
      ExerciseCommand: { templateId: tid(T.round), contractId: o.contractId, choice: 'Archive', choiceArgument: {} },
    }));
    const createNew = {
      CreateCommand: {
        templateId: tid(T.round),
        createArguments: {
          dso,
          round: String(want),
          amuletPrice: this.config.amuletPrice,
          holdingFeeRate: fmt(num(this.config.holdingFeeRate)),
          validatorRewardRate: this.config.validatorRewardRate,
          appRewardRate: this.config.appRewardRate,
          featuredAppRewardRate: this.config.featuredAppRewardRate,
          opensAt: microsToIso(genesis + want * len),
          targetClosesAt: microsToIso(genesis + (want + 2n) * len),
        },
      },
    };
    // the development fund's share of the round (templates-development-fund.ts)
    const fundShare = num(this.config.developmentFundPerRound);
    const fund =
      fundShare > 0n
        ? [{ CreateCommand: { templateId: tid(DEV_FUND_QN.unclaimed), createArguments: { dso, amount: fmt(fundShare) } } }]
        : [];
    const r = this.ledger.submit([dso], [...archiveOld, createNew, ...fund]);
    const created = r.tx.nodes.find((n) => n.kind === 'create' && n.qualifiedName === T.round);
    return { cid: created?.contractId ?? '', round: want };
  }

  /** The current OpenMiningRound contract (advancing rounds first). */
  openRoundContract(): ContractRow {
    const { cid } = this.openRound();
    const c = this.sim.store.contract(cid);
    if (!c) throw new WalletError(503, 'No open mining round');
    return c;
  }

  rules(): string {
    return this.rulesContract().contractId;
  }

  rulesContract(): ContractRow {
    const r = this.ledger.contracts(this.ledger.dso, T.rules)[0];
    if (!r) throw new WalletError(503, 'AmuletRules not initialized');
    return r;
  }

  externalRulesContract(): ContractRow {
    const r = this.ledger.contracts(this.ledger.dso, T.externalRules)[0];
    if (!r) throw new WalletError(503, 'ExternalPartyAmuletRules not initialized');
    return r;
  }
}
