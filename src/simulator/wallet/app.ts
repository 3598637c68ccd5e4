/**
 * The simulator's validator app: wallet users (on-ledger `WalletAppInstall`), rounds, amulets, two-step transfer offers
 * and traffic purchases. Every state change is a command submitted through the ledger writer (so it is a transaction in
 * `/v2/updates`); the app keeps only tracking ids and its transaction log in its own tables (`wallet_*`).
 *
 * `WalletApp` is the facade the routes and templates use: it owns the configuration, the lazy set-up and the
 * automation, and hands everything else to one module per concern — ledger access (`ledger-access.ts`), the DSO's
 * rules and rounds (`dso-contracts.ts`), users (`users.ts`), holdings (`holdings.ts`), preapprovals
 * (`preapprovals.ts`), traffic purchases (`traffic-purchases.ts`), offers (`offers.ts`) and its own tables
 * (`app-store.ts`).
 */
import type { SimContext } from '../context.js';
import type { LedgerWriter, SubmitResult } from '../ledger.js';
import type { ContractRow, LfValue } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import type { TrafficMeter, Tracking, TxLogInput, TxLogItem } from './app-store.js';
import { WalletStore } from './app-store.js';
import type { AutomationConfig } from './automation-config.js';
import {
  automationConfigProblem,
  AutomationConfigSchema,
  defaultAutomationConfig,
  loadAutomationConfig,
  saveAutomationConfig,
} from './automation-config.js';
import { WalletAutomation } from './automation.js';
import { DsoContracts } from './dso-contracts.js';
import { Holdings } from './holdings.js';
import { WalletLedger } from './ledger-access.js';
import { MERGE_PACKAGE_NAME, MERGE_QN } from './merge-delegation.js';
import { T, tid } from './names.js';
import { TransferOffers } from './offers.js';
import type { PreapprovalSendRequest } from './preapprovals.js';
import { Preapprovals } from './preapprovals.js';
import type { BuyTrafficRequest, TrafficStatus } from './traffic-purchases.js';
import { TrafficPurchases } from './traffic-purchases.js';
import type { SpliceContract } from './types.js';
import { WalletError } from './types.js';
import { WalletUsers } from './users.js';
import type { WalletConfig, WalletCore } from './wallet-core.js';

export type { WalletConfig } from './wallet-core.js';
export type { OfferStatus, SpliceContract } from './types.js';
export { trafficCostBytes, WalletError } from './types.js';

const baseConfig = {
  validatorWalletUser: 'validator-operator',
  roundDurationSeconds: 600,
  amuletPrice: '0.005',
  holdingFeeRate: '0.0038051800',
  trafficPriceUsdPerMb: '60',
  developmentFundPerRound: '100',
};

export const defaultWalletConfig = (): WalletConfig => ({ ...baseConfig, ...defaultAutomationConfig() });

const automationKeys = Object.keys(AutomationConfigSchema.shape) as (keyof AutomationConfig)[];

export class WalletApp implements WalletCore {
  readonly config: WalletConfig;
  private initialized = false;
  private automating = false;
  private readonly store: WalletStore;
  private readonly ledger: WalletLedger;
  private readonly dsoContracts: DsoContracts;
  private readonly users: WalletUsers;
  private readonly holdings: Holdings;
  private readonly preapprovals: Preapprovals;
  private readonly trafficPurchases: TrafficPurchases;
  private readonly automation: WalletAutomation;
  /** Two-step transfer offers (`offers.ts`). */
  readonly offers: TransferOffers;

  constructor(
    private readonly sim: SimContext,
    private readonly writer: LedgerWriter,
    config: Partial<WalletConfig> = {},
  ) {
    const initial = Object.fromEntries(
      automationKeys.filter((k) => config[k] !== undefined).map((k) => [k, config[k]]),
    ) as Partial<AutomationConfig>;
    this.config = { ...baseConfig, ...config, ...loadAutomationConfig(sim.store.meta, initial) };
    this.store = new WalletStore(sim);
    this.ledger = new WalletLedger(sim, writer, this.config, this.store);
    this.dsoContracts = new DsoContracts(sim, this.config, this.ledger);
    this.users = new WalletUsers(sim, writer, this.config, this.ledger, () => this.init());
    this.holdings = new Holdings(this.ledger, this.dsoContracts, this.users, this.store);
    this.preapprovals = new Preapprovals(sim, this);
    this.trafficPurchases = new TrafficPurchases(sim, this, this.store);
    this.automation = new WalletAutomation(sim, this);
    this.offers = new TransferOffers(sim, this);
  }

  // --- configuration, set-up and automation -----------------------------------------------------

  /** The automation part of the config. */
  automationConfig(): AutomationConfig {
    return Object.fromEntries(automationKeys.map((k) => [k, this.config[k]])) as unknown as AutomationConfig;
  }

  /** Validates and applies a new automation config (persisted); a 400 changes nothing. */
  setAutomationConfig(input: unknown): AutomationConfig {
    this.init();
    const r = AutomationConfigSchema.safeParse(input);
    if (!r.success) {
      const i = r.error.issues[0];
      const field = i && i.path.length > 0 ? ` field '${i.path.join('.')}'` : '';
      throw new WalletError(400, `Invalid automation config${field}: ${i?.message ?? 'invalid'}`);
    }
    const problem = automationConfigProblem(r.data, (p) => this.sim.store.hasParty(p));
    if (problem) throw new WalletError(400, `Invalid automation config: ${problem}`);
    saveAutomationConfig(this.sim.store.meta, r.data);
    Object.assign(this.config, r.data);
    return this.automationConfig();
  }

  /** True once the DSO / validator setup exists (this process set it up, or an earlier one did on this data dir). */
  isSetUp(): boolean {
    return this.initialized || this.sim.store.meta.get('wallet_genesis_micros') !== undefined;
  }

  /**
   * Runs the wallet automation (before serving wallet requests and from the background trigger, `background.ts`);
   * re-entrant calls from automation tasks are no-ops.
   */
  runAutomation(): void {
    this.init();
    if (this.automating) return;
    this.automating = true;
    try {
      this.automation.run();
    } finally {
      this.automating = false;
    }
  }

  /** Lazily (first wallet request) allocates the DSO and validator parties and creates AmuletRules. Idempotent. */
  init(): void {
    if (this.initialized) return;
    this.store.createTables();
    const ensureParty = (hint: string): string => {
      const p = `${hint}::${this.sim.namespace}`;
      if (!this.sim.store.hasParty(p)) this.writer.allocateParty({ partyIdHint: hint });
      return p;
    };
    const dso = ensureParty('DSO');
    const validator = ensureParty(this.config.validatorWalletUser);
    this.sim.store.meta.getOrInit('wallet_genesis_micros', () => String(this.sim.clock.nowMicros()));
    const create = (party: string, templateId: string, createArguments: Record<string, unknown>) =>
      this.submit([party], [{ CreateCommand: { templateId, createArguments } }]);
    if (this.contracts(dso, T.rules).length === 0) create(dso, tid(T.rules), { dso, isDevNet: true, developmentFundManager: validator });
    if (this.contracts(dso, T.externalRules).length === 0) create(dso, tid(T.externalRules), { dso });
    if (!this.batchMergeUtility(validator)) create(validator, `#${MERGE_PACKAGE_NAME}:${MERGE_QN.batch}`, { operator: validator });
    this.initialized = true;
    if (!this.users.installOf(this.config.validatorWalletUser)) this.onboard(this.config.validatorWalletUser, validator);
  }

  get dso(): string {
    return this.ledger.dso;
  }
  get validatorParty(): string {
    return this.ledger.validatorParty;
  }
  nowMicros(): bigint {
    return this.sim.clock.nowMicros();
  }
  knownParty(party: string): boolean {
    return this.sim.store.hasParty(party);
  }

  // --- ledger access (ledger-access.ts) ---------------------------------------------------------

  contracts(party: string, qn: string): ContractRow[] {
    return this.ledger.contracts(party, qn);
  }
  mergeContracts(party: string, qn: string): ContractRow[] {
    return this.ledger.mergeContracts(party, qn);
  }
  batchMergeUtility(validator = this.validatorParty): ContractRow | undefined {
    return this.ledger.batchMergeUtility(validator);
  }
  featuredAppRightOf(party: string): ContractRow | undefined {
    return this.ledger.featuredAppRightOf(party);
  }
  activeContract(contractId: string): ContractRow | undefined {
    return this.ledger.activeContract(contractId);
  }
  contractJson(c: ContractRow): SpliceContract {
    return this.ledger.contractJson(c);
  }
  submit(actAs: string[], commands: unknown[]): SubmitResult {
    return this.ledger.submit(actAs, commands);
  }
  exercise(
    actAs: string[],
    qn: string,
    contractId: string,
    choice: string,
    choiceArgument: LfRecord,
    packageName?: string,
  ): { res: SubmitResult; result: LfValue } {
    return this.ledger.exercise(actAs, qn, contractId, choice, choiceArgument, packageName);
  }
  exerciseInterface(
    actAs: string[],
    interfaceId: string,
    contractId: string,
    choice: string,
    choiceArgument: LfRecord,
  ): { res: SubmitResult; result: LfValue } {
    return this.ledger.exerciseInterface(actAs, interfaceId, contractId, choice, choiceArgument);
  }

  // --- the DSO's rules and rounds (dso-contracts.ts) --------------------------------------------

  currentRoundNumber(): bigint {
    return this.dsoContracts.currentRoundNumber();
  }
  openRound(): { cid: string; round: bigint } {
    return this.dsoContracts.openRound();
  }
  openRoundContract(): ContractRow {
    return this.dsoContracts.openRoundContract();
  }
  rules(): string {
    return this.dsoContracts.rules();
  }
  rulesContract(): ContractRow {
    return this.dsoContracts.rulesContract();
  }
  externalRulesContract(): ContractRow {
    return this.dsoContracts.externalRulesContract();
  }

  // --- users (users.ts) -------------------------------------------------------------------------

  partyOf(user: string): string {
    return this.users.partyOf(user);
  }
  userOfParty(party: string): string | undefined {
    return this.users.userOfParty(party);
  }
  isOnboarded(user: string): boolean {
    return this.users.isOnboarded(user);
  }
  onboard(user: string, partyId?: string, createPartyIfMissing = false): string {
    return this.users.onboard(user, partyId, createPartyIfMissing);
  }
  listUsers(): string[] {
    return this.users.listUsers();
  }
  offboard(user: string): void {
    this.users.offboard(user);
  }

  // --- holdings (holdings.ts) -------------------------------------------------------------------

  amulets(party: string): ContractRow[] {
    return this.holdings.amulets(party);
  }
  lockedAmulets(party: string): ContractRow[] {
    return this.holdings.lockedAmulets(party);
  }
  positions(party: string): ReturnType<Holdings['positions']> {
    return this.holdings.positions(party);
  }
  balance(party: string): ReturnType<Holdings['balance']> {
    return this.holdings.balance(party);
  }
  selectInputs(party: string, amount: bigint): string[] {
    return this.holdings.selectInputs(party, amount);
  }
  tap(user: string, amount: string): string {
    return this.holdings.tap(user, amount);
  }

  // --- preapprovals and traffic (preapprovals.ts, traffic-purchases.ts) -------------------------

  preapprovalOf(receiver: string): ContractRow | undefined {
    return this.preapprovals.preapprovalOf(receiver);
  }
  createPreapproval(user: string): { cid: string; created: boolean } {
    return this.preapprovals.createPreapproval(user);
  }
  preapprovalSend(user: string, req: PreapprovalSendRequest): void {
    this.preapprovals.preapprovalSend(user, req);
  }
  buyTraffic(user: string, req: BuyTrafficRequest): string {
    return this.trafficPurchases.buyTraffic(user, req);
  }
  trafficStatus(user: string, trackingId: string): TrafficStatus {
    return this.trafficPurchases.trafficStatus(user, trackingId);
  }

  // --- transaction log, tracking and traffic meter (app-store.ts) -------------------------------

  log(partiesInvolved: string[], item: TxLogInput, res: SubmitResult): void {
    this.store.log(partiesInvolved, item, res);
  }
  transactions(user: string, pageSize: number, beginAfterId?: string): TxLogItem[] {
    const party = this.partyOf(user);
    this.runAutomation();
    return this.store.transactions(party, pageSize, beginAfterId);
  }
  /** The stored status of a request tracked by id (`kind` separates the id spaces). */
  trackingStatus(kind: string, id: string): Record<string, unknown> | undefined {
    return this.store.tracking(kind, id)?.status;
  }
  setTrackingStatus(kind: string, id: string, user: string, status: Record<string, unknown>): void {
    this.store.setTracking(kind, id, { user, kind: 'offer', status });
  }
  /** Tracking entries for the offer service (`offers.ts`). */
  trackingOf(kind: string, id: string): Tracking | undefined {
    return this.store.tracking(kind, id);
  }
  putTracking(kind: string, id: string, t: Tracking): void {
    this.store.setTracking(kind, id, t);
  }
  /** The validator's traffic meter (bytes purchased, consumed, unused extra traffic). */
  traffic(): TrafficMeter {
    return this.store.traffic();
  }
}
