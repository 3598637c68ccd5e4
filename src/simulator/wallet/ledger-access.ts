/**
 * The validator app's access to the ledger: reads of active contracts by package and template, and submissions as the
 * validator's wallet user. Submissions charge the validator's extra traffic for the amulets they consume, so that every
 * state change of the app is both a ledger transaction and a traffic cost, as in Splice.
 */
import { randomUUID } from 'node:crypto';
import type { SimContext } from '../context.js';
import type { LedgerWriter, SubmitResult } from '../ledger.js';
import type { ContractRow, LfValue } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import { createdEventBlob } from '../projection-events.js';
import type { WalletStore } from './app-store.js';
import { AMULET_PACKAGE_NAME } from './coin.js';
import { MERGE_PACKAGE_NAME, MERGE_QN } from './merge-delegation.js';
import { args, T } from './names.js';
import { pinCommands } from './pin.js';
import type { SpliceContract } from './types.js';
import { trafficCostBytes } from './types.js';
import type { WalletConfig } from './wallet-core.js';

/** Upper bound on one party's active contracts read at once (the simulator's ACS is small). */
const ACS_LIMIT = 1_000_000;

export class WalletLedger {
  constructor(
    private readonly sim: SimContext,
    private readonly writer: LedgerWriter,
    private readonly config: WalletConfig,
    private readonly store: WalletStore,
  ) {}

  get dso(): string {
    return `DSO::${this.sim.namespace}`;
  }
  get validatorParty(): string {
    return `${this.config.validatorWalletUser}::${this.sim.namespace}`;
  }

  private activeOf(party: string): ContractRow[] {
    return this.sim.store.activeContractsOfPartyAfter(party, this.sim.store.ledgerEnd(), 0, ACS_LIMIT);
  }

  /** Active contracts of a template of the coin package that `party` is a stakeholder of, oldest first. */
  contracts(party: string, qn: string): ContractRow[] {
    return this.activeOf(party).filter((c) => c.node.packageName === AMULET_PACKAGE_NAME && c.node.qualifiedName === qn);
  }

  /** Active contracts of a template of the merge-delegation package that `party` is a stakeholder of. */
  mergeContracts(party: string, qn: string): ContractRow[] {
    return this.activeOf(party).filter((c) => c.node.packageName === MERGE_PACKAGE_NAME && c.node.qualifiedName === qn);
  }

  /** The validator's BatchMergeUtility (created at setup). */
  batchMergeUtility(validator = this.validatorParty): ContractRow | undefined {
    return this.mergeContracts(validator, MERGE_QN.batch).find((c) => args(c).operator === validator);
  }

  /** The party's FeaturedAppRight, if the DSO granted one. */
  featuredAppRightOf(party: string): ContractRow | undefined {
    return this.contracts(party, T.featured).find((c) => args(c).provider === party);
  }

  /** An active (assigned) contract by id, whoever its stakeholders are. */
  activeContract(contractId: string): ContractRow | undefined {
    const c = this.sim.store.contract(contractId);
    return c && c.archivedOffset === null && c.unassignedId === null ? c : undefined;
  }

  contractJson(c: ContractRow): SpliceContract {
    return {
      template_id: `${c.node.packageId}:${c.node.qualifiedName}`,
      contract_id: c.contractId,
      payload: c.node.createArgument as LfRecord,
      created_event_blob: createdEventBlob(c.node),
      created_at: c.node.createdAt,
    };
  }

  /**
   * Submits as the validator's user. The traffic of the transaction (`trafficCostBytes` of the amulets it consumes) is
   * charged to the validator's extra traffic; the DSO's own transactions (rounds, expiries, transfer commands) are the
   * SVs' traffic and are not charged.
   */
  submit(actAs: string[], commands: unknown[]): SubmitResult {
    const res = this.writer.submitCommands(
      {
        commandId: `wallet-${randomUUID()}`,
        actAs,
        commands: pinCommands(this.sim.registry, commands),
        workflowId: 'validator-wallet',
      } as Parameters<LedgerWriter['submitCommands']>[0],
      this.config.validatorWalletUser,
    );
    if (actAs.some((p) => p !== this.dso)) {
      const consumed = res.tx.nodes.filter((n) => n.kind === 'exercise' && n.consuming && n.qualifiedName === T.amulet);
      this.store.chargeTraffic(trafficCostBytes(consumed.length));
    }
    return res;
  }

  /** Exercises a choice (of a `splice-amulet` template unless `packageName` says otherwise) and returns the root's result. */
  exercise(
    actAs: string[],
    qn: string,
    contractId: string,
    choice: string,
    choiceArgument: LfRecord,
    packageName = AMULET_PACKAGE_NAME,
  ): { res: SubmitResult; result: LfValue } {
    return this.exerciseInterface(actAs, `#${packageName}:${qn}`, contractId, choice, choiceArgument);
  }

  /** Exercises an interface choice (`interfaceId` as the library names it, `#package-name:Module:Entity`). */
  exerciseInterface(
    actAs: string[],
    interfaceId: string,
    contractId: string,
    choice: string,
    choiceArgument: LfRecord,
  ): { res: SubmitResult; result: LfValue } {
    const res = this.submit(actAs, [{ ExerciseCommand: { templateId: interfaceId, contractId, choice, choiceArgument } }]);
    const root = res.tx.nodes[0];
    return { res, result: root && root.kind === 'exercise' ? root.exerciseResult : null };
  }
}
