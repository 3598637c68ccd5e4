/**
 * The simulator's validator app: wallet users (on-ledger `WalletAppInstall`), rounds, amulets, two-step transfer offers
 * and traffic purchases. Every state change is a command submitted through the ledger writer (so it is a transaction in
 * `/v2/updates`); the app keeps only tracking ids and its transaction log in its own tables (`wallet_*`).
 */
import { pinCommands } from './pin.js';
import { randomUUID } from 'node:crypto';
import { microsToIso } from '../clock.js';
import type { SimContext } from '../context.js';
import type { LedgerWriter, SubmitResult } from '../ledger.js';
import type { ContractRow, LfValue } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import { createdEventBlob } from '../projection.js';
import { AMULET_PACKAGE_NAME, effectiveAmount, fmt, MAX_TRANSFER_INPUTS, num } from './coin.js';
import type { AutomationConfig } from './automation-config.js';
import {
  automationConfigProblem,
  AutomationConfigSchema,
  defaultAutomationConfig,
  loadAutomationConfig,
  saveAutomationConfig,
} from './automation-config.js';
import { WalletAutomation } from './automation.js';
import { MERGE_PACKAGE_NAME, MERGE_QN } from './merge-delegation.js';
import { args, PREAPPROVAL_LIFETIME_MICROS, T, tid } from './names.js';
import type { TrafficMeter, Tracking } from './app-store.js';
import { WalletStore } from './app-store.js';
import { TransferOffers } from './offers.js';
import { DEV_FUND_QN } from './templates-development-fund.js';
import type { WalletConfig, WalletCore } from './wallet-core.js';

export type { WalletConfig } from './wallet-core.js';
import type { SpliceContract } from './types.js';
import { parseFloatStrict, trafficCostBytes, WalletError } from './types.js';
import { asText } from '../lf-text.js';

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
  private readonly automation: WalletAutomation;
  private readonly store: WalletStore;
  /** Two-step transfer offers (`offers.ts`). */
  readonly offers: TransferOffers;
  private automating = false;

  constructor(
    private readonly sim: SimContext,
    private readonly writer: LedgerWriter,
    config: Partial<WalletConfig> = {},
  ) {
    const initial = Object.fromEntries(
      automationKeys.filter((k) => config[k] !== undefined).map((k) => [k, config[k]]),
    ) as Partial<AutomationConfig>;
    this.config = { ...baseConfig, ...config, ...loadAutomationConfig(sim.store.meta, initial) };
    this.automation = new WalletAutomation(sim, this);
    this.store = new WalletStore(sim);
    this.offers = new TransferOffers(sim, this);
  }

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
      throw new WalletError(
        400,
        `Invalid automation config${i && i.path.length > 0 ? ` field '${i.path.join('.')}'` : ''}: ${i?.message ?? 'invalid'}`,
      );
    }
    const problem = automationConfigProblem(r.data, (p) => this.sim.store.party(p) !== undefined);
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

  // ---------------------------------------------------------------------------------------------
  // Setup: DSO + validator parties, AmuletRules, rounds
  // ---------------------------------------------------------------------------------------------

  /** Lazily (first wallet request) allocates the DSO and validator parties and creates AmuletRules. Idempotent. */
  init(): void {
    if (this.initialized) return;
    this.store.createTables();
    const meta = this.sim.store.meta;
    const ensureParty = (hint: string): string => {
      const p = `${hint}::${this.sim.namespace}`;
      if (!this.sim.store.party(p)) this.writer.allocateParty({ partyIdHint: hint });
      return p;
    };
    const dso = ensureParty('DSO');
    const validator = ensureParty(this.config.validatorWalletUser);
    meta.getOrInit('wallet_genesis_micros', () => String(this.sim.clock.nowMicros()));
    if (this.contracts(dso, T.rules).length === 0)
      this.submit(
        [dso],
        [{ CreateCommand: { templateId: tid(T.rules), createArguments: { dso, isDevNet: true, developmentFundManager: validator } } }],
      );
    if (this.contracts(dso, T.externalRules).length === 0)
      this.submit([dso], [{ CreateCommand: { templateId: tid(T.externalRules), createArguments: { dso } } }]);
    if (!this.batchMergeUtility(validator))
      this.submit(
        [validator],
        [{ CreateCommand: { templateId: `#${MERGE_PACKAGE_NAME}:${MERGE_QN.batch}`, createArguments: { operator: validator } } }],
      );
    this.initialized = true;
    if (!this.installOf(this.config.validatorWalletUser)) this.onboard(this.config.validatorWalletUser, validator);
  }

  /** The validator's BatchMergeUtility (created at setup). */
  batchMergeUtility(validator = this.validatorParty): ContractRow | undefined {
    return this.sim.store
      .activeContractsOfPartyAfter(validator, this.sim.store.ledgerEnd(), 0, 1_000_000)
      .find((c) => c.node.packageName === MERGE_PACKAGE_NAME && c.node.qualifiedName === MERGE_QN.batch && args(c).operator === validator);
  }

  /** Active contracts of a template of the merge-delegation package that `party` is a stakeholder of. */
  mergeContracts(party: string, qn: string): ContractRow[] {
    return this.sim.store
      .activeContractsOfPartyAfter(party, this.sim.store.ledgerEnd(), 0, 1_000_000)
      .filter((c) => c.node.packageName === MERGE_PACKAGE_NAME && c.node.qualifiedName === qn);
  }

  get dso(): string {
    return `DSO::${this.sim.namespace}`;
  }
  get validatorParty(): string {
    return `${this.config.validatorWalletUser}::${this.sim.namespace}`;
  }

  /** The round for the current (simulated) time. */
  currentRoundNumber(): bigint {
    const genesis = BigInt(this.sim.store.meta.get('wallet_genesis_micros') ?? '0');
    return (this.sim.clock.nowMicros() - genesis) / (BigInt(this.config.roundDurationSeconds) * 1_000_000n);
  }

  /** The open mining round contract for the current time (advancing it with a ledger transaction when time moved on). */
  openRound(): { cid: string; round: bigint } {
    const want = this.currentRoundNumber();
    const rounds = this.contracts(this.dso, T.round);
    const current = rounds.find((r) => BigInt(asText(args(r).round)) === want);
    if (current) return { cid: current.contractId, round: want };
    const genesis = BigInt(this.sim.store.meta.get('wallet_genesis_micros') ?? '0');
    const len = BigInt(this.config.roundDurationSeconds) * 1_000_000n;
    const rate = fmt(num(this.config.holdingFeeRate));
    const r = this.submit(
      [this.dso],
      [
        ...rounds.map((o) => ({
          ExerciseCommand: { templateId: tid(T.round), contractId: o.contractId, choice: 'Archive', choiceArgument: {} },
        })),
        {
          CreateCommand: {
            templateId: tid(T.round),
            createArguments: {
              dso: this.dso,
              round: String(want),
              amuletPrice: this.config.amuletPrice,
              holdingFeeRate: rate,
              validatorRewardRate: this.config.validatorRewardRate,
              appRewardRate: this.config.appRewardRate,
              featuredAppRewardRate: this.config.featuredAppRewardRate,
              opensAt: microsToIso(genesis + want * len),
              targetClosesAt: microsToIso(genesis + (want + 2n) * len),
            },
          },
        },
        // the development fund's share of the round (templates-development-fund.ts)
        ...(num(this.config.developmentFundPerRound) > 0n
          ? [
              {
                CreateCommand: {
                  templateId: tid(DEV_FUND_QN.unclaimed),
                  createArguments: { dso: this.dso, amount: fmt(num(this.config.developmentFundPerRound)) },
                },
              },
            ]
          : []),
      ],
    );
    const created = r.tx.nodes.find((n) => n.kind === 'create' && n.qualifiedName === T.round);
    return { cid: created?.contractId ?? '', round: want };
  }

  // ---------------------------------------------------------------------------------------------
  // Users
  // ---------------------------------------------------------------------------------------------

  private installOf(user: string): ContractRow | undefined {
    return this.contracts(this.validatorParty, T.install).find((c) => args(c).endUserName === user);
  }

  /** The party of an onboarded wallet user, or 404. */
  partyOf(user: string): string {
    this.init();
    const i = this.installOf(user);
    if (!i) throw new WalletError(404, `User ${user} is not onboarded to this validator's wallet`);
    return asText(args(i).endUserParty);
  }

  /** The wallet user whose party is `party`, if any. */
  userOfParty(party: string): string | undefined {
    const i = this.contracts(this.validatorParty, T.install).find((c) => args(c).endUserParty === party);
    return i ? asText(args(i).endUserName) : undefined;
  }

  knownParty(party: string): boolean {
    return this.sim.store.party(party) !== undefined;
  }

  nowMicros(): bigint {
    return this.sim.clock.nowMicros();
  }

  /** The stored status of a request tracked by id (`kind` separates the id spaces). */
  trackingStatus(kind: string, id: string): Record<string, unknown> | undefined {
    return this.tracking(kind, id)?.status;
  }

  setTrackingStatus(kind: string, id: string, user: string, status: Record<string, unknown>): void {
    this.setTracking(kind, id, { user, kind: 'offer', status });
  }

  /** The party's FeaturedAppRight, if the DSO granted one. */
  featuredAppRightOf(party: string): ContractRow | undefined {
    return this.contracts(party, T.featured).find((c) => args(c).provider === party);
  }

  isOnboarded(user: string): boolean {
    this.init();
    return this.installOf(user) !== undefined;
  }

  onboard(user: string, partyId?: string, createPartyIfMissing = false): string {
    this.init();
    if (!/^[a-zA-Z0-9@^$.!`\-#+'~_|:()]{1,128}$/.test(user)) throw new WalletError(400, `Invalid user name '${user}'`);
    const existing = this.installOf(user);
    if (existing) return asText(args(existing).endUserParty);
    let party = partyId;
    if (party === undefined) {
      const hint = user.replace(/[^a-zA-Z0-9:_ -]/g, '-').replaceAll('::', '-');
      let p = `${hint}::${this.sim.namespace}`;
      // a fresh party: add a suffix when the hint is already taken
      if (this.sim.store.party(p) && user !== this.config.validatorWalletUser)
        p = `${hint}-${randomUUID().slice(0, 8)}::${this.sim.namespace}`;
      if (!this.sim.store.party(p)) this.writer.allocateParty({ partyIdHint: p.split('::')[0] ?? p });
      party = p;
    } else if (!this.sim.store.party(party)) {
      if (!createPartyIfMissing) throw new WalletError(400, `Party ${party} does not exist and createPartyIfMissing is false`);
      const [hint, ns] = party.split('::');
      if (ns !== this.sim.namespace || !hint)
        throw new WalletError(400, `Party ${party} cannot be created on this participant (namespace ${this.sim.namespace})`);
      this.writer.allocateParty({ partyIdHint: hint });
    }
    // the ledger API user, with actAs its party
    const stored = this.sim.store.userGet(user) as { user: unknown; rights: unknown[] } | undefined;
    const right = { kind: { CanActAs: { value: { party } } } };
    this.sim.store.userPut(user, {
      user: stored?.user ?? {
        id: user,
        primaryParty: party,
        isDeactivated: false,
        metadata: { resourceVersion: '0', annotations: {} },
        identityProviderId: '',
      },
      rights: [...(stored?.rights ?? []).filter((r) => JSON.stringify(r) !== JSON.stringify(right)), right],
    });
    // the user's ValidatorRight (lets the validator collect the user's validator rewards); external parties get theirs
    // by signing the ExternalPartySetupProposal, and one party hosts at most one
    const needsRight = !this.sim.store.partyKeys(party) && !this.contracts(party, T.validatorRight).some((c) => args(c).user === party);
    this.submit(needsRight ? [this.validatorParty, party] : [this.validatorParty], [
      {
        CreateCommand: {
          templateId: tid(T.install),
          createArguments: { dsoParty: this.dso, validatorParty: this.validatorParty, endUserName: user, endUserParty: party },
        },
      },
      ...(needsRight
        ? [
            {
              CreateCommand: {
                templateId: tid(T.validatorRight),
                createArguments: { dso: this.dso, user: party, validator: this.validatorParty },
              },
            },
          ]
        : []),
    ]);
    return party;
  }

  listUsers(): string[] {
    this.init();
    return this.contracts(this.validatorParty, T.install)
      .map((c) => asText(args(c).endUserName))
      .sort();
  }

  offboard(user: string): void {
    this.init();
    const i = this.installOf(user);
    if (!i) throw new WalletError(404, `User ${user} is not onboarded`);
    if (user === this.config.validatorWalletUser) throw new WalletError(400, 'The validator operator cannot be offboarded');
    this.submit(
      [this.validatorParty],
      [{ ExerciseCommand: { templateId: tid(T.install), contractId: i.contractId, choice: 'Archive', choiceArgument: {} } }],
    );
    this.sim.store.userDelete(user);
  }

  // ---------------------------------------------------------------------------------------------
  // Holdings
  // ---------------------------------------------------------------------------------------------

  contractJson(c: ContractRow): SpliceContract {
    return {
      template_id: `${c.node.packageId}:${c.node.qualifiedName}`,
      contract_id: c.contractId,
      payload: c.node.createArgument as LfRecord,
      created_event_blob: createdEventBlob(c.node),
      created_at: c.node.createdAt,
    };
  }

  /** An active (assigned) contract by id, whoever its stakeholders are. */
  activeContract(contractId: string): ContractRow | undefined {
    const c = this.sim.store.contract(contractId);
    return c && c.archivedOffset === null && c.unassignedId === null ? c : undefined;
  }

  /** Active contracts of a template of the coin package that `party` is a stakeholder of, oldest first. */
  contracts(party: string, qn: string): ContractRow[] {
    return this.sim.store
      .activeContractsOfPartyAfter(party, this.sim.store.ledgerEnd(), 0, 1_000_000)
      .filter((c) => c.node.packageName === AMULET_PACKAGE_NAME && c.node.qualifiedName === qn);
  }

  amulets(party: string): ContractRow[] {
    return this.contracts(party, T.amulet).filter((c) => args(c).owner === party);
  }
  lockedAmulets(party: string): ContractRow[] {
    return this.contracts(party, T.locked).filter((c) => args(c).owner === party);
  }

  positions(party: string): {
    round: bigint;
    amulets: { c: ContractRow; effective: bigint; fee: bigint }[];
    locked: { c: ContractRow; effective: bigint; fee: bigint }[];
  } {
    const round = this.openRound().round;
    const pos = (c: ContractRow) => ({ c, ...effectiveAmount(c.node.createArgument as LfRecord, round) });
    return { round, amulets: this.amulets(party).map(pos), locked: this.lockedAmulets(party).map(pos) };
  }

  balance(party: string): { round: bigint; unlocked: bigint; locked: bigint; fees: bigint } {
    const p = this.positions(party);
    const sum = (xs: { effective: bigint }[]) => xs.reduce((s, x) => s + x.effective, 0n);
    const fees = [...p.amulets, ...p.locked].reduce((s, x) => s + x.fee, 0n);
    return { round: p.round, unlocked: sum(p.amulets), locked: sum(p.locked), fees };
  }

  tap(user: string, amount: string): string {
    const party = this.partyOf(user);
    if (parseFloatStrict(amount) === undefined || num(amount) <= 0n)
      throw new WalletError(400, `Invalid amount '${amount}': a positive decimal is required`);
    const rules = this.rules();
    const r = this.exercise([party, this.dso], T.rules, rules, 'AmuletRules_DevNet_Tap', {
      receiver: party,
      amount,
      openRound: this.openRound().cid,
    });
    const cid = (r.result as { amuletSum: { amulet: string } }).amuletSum.amulet;
    this.log(
      [party],
      {
        transaction_type: 'balance_change',
        choice: 'AmuletRules_DevNet_Tap',
        template: T.rules,
        amulet_operation: 'tap',
        event_id: r.res.updateId,
        receivers: [{ party, amount: fmt(num(amount)) }],
      },
      r.res,
    );
    return cid;
  }

  rules(): string {
    return this.rulesContract().contractId;
  }

  rulesContract(): ContractRow {
    const r = this.contracts(this.dso, T.rules)[0];
    if (!r) throw new WalletError(503, 'AmuletRules not initialized');
    return r;
  }

  externalRulesContract(): ContractRow {
    const r = this.contracts(this.dso, T.externalRules)[0];
    if (!r) throw new WalletError(503, 'ExternalPartyAmuletRules not initialized');
    return r;
  }

  /** The current OpenMiningRound contract (advancing rounds first). */
  openRoundContract(): ContractRow {
    const { cid } = this.openRound();
    const c = this.sim.store.contract(cid);
    if (!c) throw new WalletError(503, 'No open mining round');
    return c;
  }

  /**
   * Picks input amulets (largest first) worth at least `amount`; at most 100 (`MAX_TRANSFER_INPUTS`).
   * Traffic cost of a transfer grows with its inputs (see `trafficCostBytes`).
   */
  selectInputs(party: string, amount: bigint): string[] {
    const round = this.openRound().round;
    const all = this.amulets(party)
      .map((c) => ({ c, e: effectiveAmount(c.node.createArgument as LfRecord, round).effective }))
      .sort((a, b) => (b.e > a.e ? 1 : b.e < a.e ? -1 : 0));
    const picked: string[] = [];
    let total = 0n;
    for (const x of all) {
      if (total >= amount) break;
      if (picked.length === MAX_TRANSFER_INPUTS)
        throw new WalletError(
          400,
          `Insufficient funds within ${MAX_TRANSFER_INPUTS} input holdings (worth ${fmt(total)}): merge holdings first`,
        );
      picked.push(x.c.contractId);
      total += x.e;
    }
    if (total < amount) throw new WalletError(400, `Insufficient funds: balance ${fmt(total)}, needed ${fmt(amount)}`);
    return picked;
  }

  // ---------------------------------------------------------------------------------------------
  // Transfer preapprovals (one-step transfers)
  // ---------------------------------------------------------------------------------------------

  preapprovalOf(receiver: string): ContractRow | undefined {
    return this.contracts(receiver, T.preapproval).find((c) => args(c).receiver === receiver);
  }

  /** Creates the user's TransferPreapproval (provider: the validator). `created: false` when one exists already. */
  createPreapproval(user: string): { cid: string; created: boolean } {
    const receiver = this.partyOf(user);
    const existing = this.preapprovalOf(receiver);
    if (existing) return { cid: existing.contractId, created: false };
    const now = this.sim.clock.nowMicros();
    const r = this.submit(
      [receiver, this.validatorParty, this.dso],
      [
        {
          CreateCommand: {
            templateId: tid(T.preapproval),
            createArguments: {
              dso: this.dso,
              receiver,
              provider: this.validatorParty,
              validFrom: microsToIso(now),
              lastRenewedAt: microsToIso(now),
              expiresAt: microsToIso(now + PREAPPROVAL_LIFETIME_MICROS),
            },
          },
        },
      ],
    );
    const cid = r.tx.nodes.find((n) => n.kind === 'create')?.contractId ?? '';
    this.log(
      [receiver],
      {
        transaction_type: 'notification',
        choice: 'Create',
        template: T.preapproval,
        event_id: r.updateId,
        details: 'Transfer preapproval created',
      },
      r,
    );
    return { cid, created: true };
  }

  /** One-step transfer to a party with a TransferPreapproval; deduplicated by `deduplication_id` (24 h). */
  preapprovalSend(user: string, req: { receiver_party_id: string; amount: string; deduplication_id: string; description?: string }): void {
    const sender = this.partyOf(user);
    this.runAutomation();
    const dedup = this.tracking('preapproval-send', `${sender}:${req.deduplication_id}`);
    if (dedup && this.sim.clock.nowMicros() - BigInt(String(dedup.status.at)) < 24n * 3600n * 1_000_000n)
      throw new WalletError(409, `A transfer with deduplication id ${req.deduplication_id} was already sent`);
    const amount = parseFloatStrict(req.amount) !== undefined ? num(req.amount) : 0n;
    if (amount <= 0n) throw new WalletError(400, `Invalid amount '${req.amount}': a positive decimal is required`);
    const pre = this.preapprovalOf(req.receiver_party_id);
    if (!pre) throw new WalletError(404, `Party ${req.receiver_party_id} has no transfer preapproval`);
    const inputs = this.selectInputs(sender, amount);
    const r = this.exercise([sender, this.dso], T.preapproval, pre.contractId, 'TransferPreapproval_Send', {
      sender,
      inputs,
      amount: fmt(amount),
      description: req.description ?? null,
      openRound: this.openRound().cid,
      featuredAppRight: this.featuredAppRightOf(sender)?.contractId ?? null,
    });
    this.setTracking('preapproval-send', `${sender}:${req.deduplication_id}`, {
      user,
      kind: 'offer',
      status: { at: String(this.sim.clock.nowMicros()), transaction_id: r.res.updateId },
    });
    this.log(
      [sender, req.receiver_party_id],
      {
        transaction_type: 'transfer',
        choice: 'TransferPreapproval_Send',
        template: T.preapproval,
        amulet_operation: 'transfer',
        event_id: r.res.updateId,
        sender: { party: sender, amount: `-${fmt(amount)}` },
        receivers: [{ party: req.receiver_party_id, amount: fmt(amount) }],
        description: req.description ?? '',
      },
      r.res,
    );
  }

  // ---------------------------------------------------------------------------------------------
  // Traffic
  // ---------------------------------------------------------------------------------------------

  buyTraffic(
    user: string,
    req: { receiving_validator_party_id: string; domain_id: string; traffic_amount: number; tracking_id: string; expires_at: number },
  ): string {
    const buyer = this.partyOf(user);
    this.runAutomation();
    if (this.tracking('traffic', req.tracking_id))
      throw new WalletError(409, `A buy-traffic request with tracking id ${req.tracking_id} already exists`);
    if (!this.sim.synchronizers.some((s) => s.id === req.domain_id)) throw new WalletError(400, `Unknown domain ${req.domain_id}`);
    if (!this.sim.store.party(req.receiving_validator_party_id))
      throw new WalletError(400, `Unknown party ${req.receiving_validator_party_id}`);
    if (!Number.isSafeInteger(req.traffic_amount) || req.traffic_amount <= 0)
      throw new WalletError(400, 'traffic_amount must be a positive number of bytes');
    const usd = (num(this.config.trafficPriceUsdPerMb) * BigInt(req.traffic_amount)) / 1_000_000n;
    const cost = (usd * 10_000_000_000n) / num(this.config.amuletPrice);
    const inputs = this.selectInputs(buyer, cost);
    const r = this.exercise([buyer, this.dso], T.rules, this.rules(), 'AmuletRules_BuyMemberTraffic', {
      buyer,
      inputs,
      memberId: this.sim.participantId,
      synchronizerId: req.domain_id,
      trafficAmount: String(req.traffic_amount),
      amuletCost: fmt(cost),
      openRound: this.openRound().cid,
    });
    if (req.receiving_validator_party_id === this.validatorParty && req.domain_id === this.sim.synchronizers[0].id)
      this.store.addPurchasedTraffic(req.traffic_amount);
    const cid = asText(r.result);
    this.setTracking('traffic', req.tracking_id, {
      user,
      kind: 'traffic',
      status: { status: 'completed', transaction_id: r.res.updateId },
    });
    this.log(
      [buyer],
      {
        transaction_type: 'balance_change',
        choice: 'AmuletRules_BuyMemberTraffic',
        template: T.rules,
        amulet_operation: 'buy_member_traffic',
        event_id: r.res.updateId,
        receivers: [{ party: buyer, amount: `-${fmt(cost)}` }],
      },
      r.res,
    );
    return cid;
  }

  trafficStatus(user: string, trackingId: string): Record<string, unknown> {
    this.partyOf(user);
    const t = this.tracking('traffic', trackingId);
    if (!t) throw new WalletError(404, `No buy-traffic request with tracking id ${trackingId}`);
    return t.status;
  }

  // ---------------------------------------------------------------------------------------------
  // Transaction log, tracking and traffic (app-store.ts)
  // ---------------------------------------------------------------------------------------------

  log(partiesInvolved: string[], item: Record<string, unknown>, res: SubmitResult): void {
    this.store.log(partiesInvolved, item, res);
  }

  transactions(user: string, pageSize: number, beginAfterId?: string): Record<string, unknown>[] {
    const party = this.partyOf(user);
    this.runAutomation();
    return this.store.transactions(party, pageSize, beginAfterId);
  }

  private tracking(kind: string, id: string): Tracking | undefined {
    return this.store.tracking(kind, id);
  }
  private setTracking(kind: string, id: string, t: Tracking): void {
    this.store.setTracking(kind, id, t);
  }
  /** Tracking entries for the offer service (`offers.ts`). */
  trackingOf(kind: string, id: string): Tracking | undefined {
    return this.tracking(kind, id);
  }
  putTracking(kind: string, id: string, t: Tracking): void {
    this.setTracking(kind, id, t);
  }

  /** The validator's traffic meter (bytes purchased, consumed, unused extra traffic). */
  traffic(): TrafficMeter {
    return this.store.traffic();
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
    if (actAs.some((p) => p !== this.dso))
      this.store.chargeTraffic(
        trafficCostBytes(res.tx.nodes.filter((n) => n.kind === 'exercise' && n.consuming && n.qualifiedName === T.amulet).length),
      );
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
    const res = this.submit(actAs, [{ ExerciseCommand: { templateId: `#${packageName}:${qn}`, contractId, choice, choiceArgument } }]);
    const root = res.tx.nodes[0];
    return { res, result: root && root.kind === 'exercise' ? root.exerciseResult : null };
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
