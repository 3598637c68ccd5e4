/**
 * Merge automation (`automation.ts` runs it): the validator accepts the MergeDelegationProposals made to it, merges
 * delegated owners together through BatchMergeUtility_MergeHoldings and the other wallet users one by one with
 * AmuletRules_Merge, down to `mergeThreshold` holdings.
 */
import type { ContractRow } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import { effectiveAmount, MAX_TRANSFER_INPUTS } from './coin.js';
import { MERGE_PACKAGE_NAME, MERGE_QN } from './merge-delegation.js';
import { args, T } from './names.js';
import type { WalletCore } from './wallet-core.js';
import { asText } from '../lf-text.js';

/** The validator (wallet provider) accepts the merge delegations proposed to it. */
export function acceptMergeDelegations(app: WalletCore): number {
  const validator = app.validatorParty;
  let n = 0;
  for (const p of app.mergeContracts(validator, MERGE_QN.proposal).filter((c) => args(c).delegate === validator)) {
    const r = app.exercise([validator], MERGE_QN.proposal, p.contractId, 'MergeDelegationProposal_Accept', {}, MERGE_PACKAGE_NAME);
    app.log(
      [asText(args(p).owner)],
      {
        transaction_type: 'notification',
        choice: 'MergeDelegationProposal_Accept',
        template: MERGE_QN.proposal,
        event_id: r.res.updateId,
        details: 'Merge delegation accepted by the wallet provider',
      },
      r.res,
    );
    n++;
  }
  return n;
}

/** Merges every party above `mergeThreshold`: delegated ones in batches, the other wallet users one by one. */
export function mergeAll(app: WalletCore): number {
  const validator = app.validatorParty;
  const delegations = new Map(
    app
      .mergeContracts(validator, MERGE_QN.delegation)
      .filter((c) => args(c).delegate === validator)
      .map((c) => [asText(args(c).owner), c.contractId]),
  );
  let n = batchMerge(app, delegations);
  for (const u of app.listUsers()) {
    const party = app.partyOf(u);
    if (!delegations.has(party)) n += mergeHoldings(app, party);
  }
  return n;
}

/**
 * `BatchMergeUtility_MergeHoldings` rounds: each round takes, for every delegated owner above the threshold, one merge
 * call over its first `mergeBatchSize` holdings, ≤ 100 calls per transaction; repeated until all are below it.
 */
function batchMerge(app: WalletCore, delegations: Map<string, string>): number {
  const utility = app.batchMergeUtility();
  if (!utility || delegations.size === 0) return 0;
  const batch = Math.min(Math.max(2, app.config.mergeBatchSize), MAX_TRANSFER_INPUTS);
  const threshold = Math.max(1, app.config.mergeThreshold);
  let txs = 0;
  for (;;) {
    const calls = [...delegations].flatMap(([owner, delegationCid]) => {
      const holdings = app.amulets(owner);
      const inputs = worthMerging(holdings, app.openRound().round).slice(0, batch);
      return holdings.length > threshold && inputs.length >= 2 ? [{ owner, delegationCid, inputs }] : [];
    });
    if (calls.length === 0) return txs;
    for (let i = 0; i < calls.length; i += MAX_TRANSFER_INPUTS) {
      const chunk = calls.slice(i, i + MAX_TRANSFER_INPUTS);
      const round = app.openRound();
      const r = app.exercise(
        [app.validatorParty, app.dso],
        MERGE_QN.batch,
        utility.contractId,
        'BatchMergeUtility_MergeHoldings',
        {
          merges: chunk.map((c) => ({ delegationCid: c.delegationCid, inputs: c.inputs })),
          amuletRules: app.rules(),
          openRound: round.cid,
        },
        MERGE_PACKAGE_NAME,
      );
      for (const c of chunk)
        app.log(
          [c.owner],
          {
            transaction_type: 'balance_change',
            choice: 'BatchMergeUtility_MergeHoldings',
            template: MERGE_QN.batch,
            amulet_operation: 'merge',
            event_id: r.res.updateId,
            receivers: [],
          },
          r.res,
        );
      txs++;
    }
  }
}

/** Ids of the holdings with a positive effective amount (merging only dust would fail: a merge needs value). */
export function worthMerging(holdings: ContractRow[], round: bigint): string[] {
  return holdings.filter((c) => effectiveAmount(c.node.createArgument as LfRecord, round).effective > 0n).map((c) => c.contractId);
}

/**
 * Merge automation for one party: batches of ≤ mergeBatchSize inputs until at most mergeThreshold holdings remain.
 * Returns the merges done.
 */
export function mergeHoldings(app: WalletCore, party: string): number {
  const batch = Math.min(Math.max(2, app.config.mergeBatchSize), MAX_TRANSFER_INPUTS);
  let merges = 0;
  for (;;) {
    const holdings = app.amulets(party);
    if (holdings.length <= Math.max(1, app.config.mergeThreshold)) return merges;
    const round = app.openRound();
    const inputs = worthMerging(holdings, round.round).slice(0, batch);
    if (inputs.length < 2) return merges; // only dust left: the dust expiry removes it
    const r = app.exercise([party, app.dso], T.rules, app.rules(), 'AmuletRules_Merge', {
      owner: party,
      inputs,
      openRound: round.cid,
    });
    app.log(
      [party],
      {
        transaction_type: 'balance_change',
        choice: 'AmuletRules_Merge',
        template: T.rules,
        amulet_operation: 'merge',
        event_id: r.res.updateId,
        receivers: [],
      },
      r.res,
    );
    merges++;
  }
}
