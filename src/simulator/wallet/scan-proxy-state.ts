/**
 * The ledger state the validator's scan proxy reports (what Splice's Scan indexes): the DSO party, AmuletRules and the
 * mining rounds, featured-app rights, transfer preapprovals, external parties' transfer commands with their status
 * (from the transaction that archived them), holdings per owner, unclaimed development-fund coupons, the DSO's
 * governance rules (`dso-packages.ts`, created on first use: the DSO is governed by one SV, itself) and the ANS.
 */
import type { SimContext } from '../context.js';
import type { ContractRow, LfValue } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import type { WalletApp } from './app.js';
import { effectiveAmount, int64, num } from './coin.js';
import { ANS_PACKAGE, ANS_QN, DSO_GOVERNANCE_PACKAGE, DSO_QN } from './dso-packages.js';
import { args } from './names.js';
import { asText } from '../lf-text.js';

export const SV_NAME = 'sv1';
/** ANS entry fee (USD) and lifetime (90 days) of the simulator's AnsRules. */
const ANS_ENTRY_FEE = '1.0';
const ANS_ENTRY_LIFETIME_MICROS = 90n * 24n * 3600n * 1_000_000n;

export type TransferCommandStatus =
  { status: 'created' } | { status: 'sent' } | { status: 'failed'; failure_kind: 'failed' | 'expired' | 'withdrawn'; reason: string };

export class ScanProxyState {
  constructor(
    private readonly sim: SimContext,
    private readonly app: WalletApp,
  ) {}

  /** Active contracts of a template of a built-in package that the DSO is a stakeholder of. */
  private dsoContracts(packageName: string, qn: string): ContractRow[] {
    return this.sim.store
      .activeContractsOfPartyAfter(this.app.dso, this.sim.store.ledgerEnd(), 0, 1_000_000)
      .filter((c) => c.node.packageName === packageName && c.node.qualifiedName === qn);
  }

  private ensure(packageName: string, qn: string, create: LfRecord): ContractRow {
    const existing = this.dsoContracts(packageName, qn)[0];
    if (existing) return existing;
    this.app.submit([this.app.dso], [{ CreateCommand: { templateId: `#${packageName}:${qn}`, createArguments: create } }]);
    return this.dsoContracts(packageName, qn)[0] as ContractRow;
  }

  /** The DSO's governance rules and its SVs' node states (created on first use). */
  governance(): { rules: ContractRow; svNodeStates: ContractRow[] } {
    const dso = this.app.dso;
    const rules = this.ensure(DSO_GOVERNANCE_PACKAGE, DSO_QN.rules, { dso, epoch: '0', svs: [dso], isDevNet: true });
    this.ensure(DSO_GOVERNANCE_PACKAGE, DSO_QN.svState, { dso, sv: dso, svName: SV_NAME });
    return { rules, svNodeStates: this.dsoContracts(DSO_GOVERNANCE_PACKAGE, DSO_QN.svState) };
  }

  ansRules(): ContractRow {
    return this.ensure(ANS_PACKAGE, ANS_QN.rules, {
      dso: this.app.dso,
      entryFee: ANS_ENTRY_FEE,
      entryLifetimeMicros: String(ANS_ENTRY_LIFETIME_MICROS),
    });
  }

  /** Active ANS entries, by name. */
  ansEntries(): ContractRow[] {
    return this.dsoContracts(ANS_PACKAGE, ANS_QN.entry).sort((a, b) => (asText(args(a).name) < asText(args(b).name) ? -1 : 1));
  }

  /** The sender's TransferCommands with `nonce`, active or archived, each with its status. */
  transferCommands(sender: string, nonce: bigint): { contract: ContractRow; status: TransferCommandStatus }[] {
    const rows = this.sim.store.db
      .prepare('SELECT contract_id FROM contracts WHERE package_name = ? AND template_qn = ? ORDER BY seq')
      .all('splice-amulet', 'Splice.ExternalPartyAmuletRules:TransferCommand') as { contract_id: string }[];
    const out: { contract: ContractRow; status: TransferCommandStatus }[] = [];
    for (const r of rows) {
      const c = this.sim.store.contract(r.contract_id);
      if (!c || args(c).sender !== sender || int64(args(c).nonce) !== nonce) continue;
      out.push({ contract: c, status: this.commandStatus(c) });
    }
    return out;
  }

  private commandStatus(c: ContractRow): TransferCommandStatus {
    if (c.archivedOffset === null) return { status: 'created' };
    const u = this.sim.store.updateByOffset(c.archivedOffset);
    const node =
      u?.kind === 'transaction' ? u.nodes.find((n) => n.kind === 'exercise' && n.consuming && n.contractId === c.contractId) : undefined;
    if (!node || node.kind !== 'exercise') return { status: 'failed', failure_kind: 'failed', reason: 'archived' };
    if (node.choice === 'TransferCommand_Expire')
      return { status: 'failed', failure_kind: 'expired', reason: 'The transfer command expired' };
    if (node.choice === 'TransferCommand_Withdraw')
      return { status: 'failed', failure_kind: 'withdrawn', reason: 'The sender withdrew it' };
    const result = (node.exerciseResult ?? {}) as { succeeded?: LfValue; failureReason?: LfValue };
    if (result.succeeded === true) return { status: 'sent' };
    return { status: 'failed', failure_kind: 'failed', reason: asText(result.failureReason ?? 'the transfer failed') };
  }

  /** Per owner: unlocked and locked amulet (initial amounts) and the holding fees accrued by `round`. */
  holdingsSummary(
    owners: string[],
    round: bigint,
  ): {
    party_id: string;
    unlocked: bigint;
    locked: bigint;
    feesUnlocked: bigint;
    feesLocked: bigint;
  }[] {
    return [...new Set(owners)].map((p) => {
      const sum = (cs: ContractRow[]) =>
        cs.reduce(
          (acc, c) => {
            const e = effectiveAmount(args(c), round);
            return { amount: acc.amount + num(args(c).initialAmount), fees: acc.fees + e.fee };
          },
          { amount: 0n, fees: 0n },
        );
      const u = sum(this.app.amulets(p));
      const l = sum(this.app.lockedAmulets(p));
      return { party_id: p, unlocked: u.amount, locked: l.amount, feesUnlocked: u.fees, feesLocked: l.fees };
    });
  }
}
