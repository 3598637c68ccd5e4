/** Minting-delegation automation (`automation.ts` runs it): delegates mint and merge for their beneficiaries. */
import type { SimContext } from '../context.js';
import type { ContractRow } from '../model.js';
import { MAX_TRANSFER_INPUTS } from './coin.js';
import { worthMerging } from './automation-merges.js';
import { args, T } from './names.js';
import { MINTING_QN } from './templates-minting.js';
import type { WalletCore } from './wallet-core.js';
import { asText } from '../lf-text.js';

/**
 * For each active minting delegation whose delegate is a wallet user here: mint the beneficiary's closed-round
 * coupons (`MintingDelegation_Mint`) and merge its amulets down to `amuletMergeLimit` (`MintingDelegation_Merge`).
 */
export function runMintingDelegations(sim: SimContext, app: WalletCore): number {
  const now = sim.clock.nowMicros();
  let n = 0;
  for (const u of app.listUsers()) {
    const delegate = app.partyOf(u);
    for (const d of app.contracts(delegate, MINTING_QN.delegation).filter((c) => args(c).delegate === delegate)) {
      const a = args(d);
      if (BigInt(Date.parse(asText(a.expiresAt))) * 1000n <= now) continue;
      const beneficiary = asText(a.beneficiary);
      const round = app.openRound();
      const closed = (c: ContractRow) => BigInt(asText(args(c).round)) < round.round;
      const rights = app.contracts(beneficiary, T.validatorRight).filter((r) => args(r).validator === beneficiary);
      const hosted = new Set(rights.map((r) => asText(args(r).user)));
      const vc = app
        .contracts(app.dso, T.validatorCoupon)
        .filter((c) => closed(c) && hosted.has(asText(args(c).user)))
        .slice(0, MAX_TRANSFER_INPUTS);
      const ac = app
        .contracts(beneficiary, T.appCoupon)
        .filter((c) => closed(c) && args(c).provider === beneficiary)
        .slice(0, MAX_TRANSFER_INPUTS);
      if (vc.length + ac.length > 0) {
        const r = app.exercise([delegate, app.dso], MINTING_QN.delegation, d.contractId, 'MintingDelegation_Mint', {
          amuletRules: app.rules(),
          validatorRights: rights.map((x) => x.contractId),
          validatorRewardCoupons: vc.map((x) => x.contractId),
          appRewardCoupons: ac.map((x) => x.contractId),
          openRound: round.cid,
        });
        app.log(
          [beneficiary, delegate],
          {
            transaction_type: 'balance_change',
            choice: 'MintingDelegation_Mint',
            template: MINTING_QN.delegation,
            amulet_operation: 'collect_rewards',
            event_id: r.res.updateId,
            receivers: [],
          },
          r.res,
        );
        n++;
      }
      const limit = Math.max(1, Number(a.amuletMergeLimit));
      for (;;) {
        const holdings = app.amulets(beneficiary);
        if (holdings.length <= limit) break;
        const inputs = worthMerging(holdings, app.openRound().round).slice(0, MAX_TRANSFER_INPUTS);
        if (inputs.length < 2) break;
        const r = app.exercise([delegate, app.dso], MINTING_QN.delegation, d.contractId, 'MintingDelegation_Merge', {
          amuletRules: app.rules(),
          inputs,
          openRound: app.openRound().cid,
        });
        app.log(
          [beneficiary],
          {
            transaction_type: 'balance_change',
            choice: 'MintingDelegation_Merge',
            template: MINTING_QN.delegation,
            amulet_operation: 'merge',
            event_id: r.res.updateId,
            receivers: [],
          },
          r.res,
        );
        n++;
      }
    }
  }
  return n;
}
