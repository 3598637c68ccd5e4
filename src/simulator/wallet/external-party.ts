/**
 * Validator admin flows for externally signed parties (`/v0/admin/external-party/*`): onboarding topology, the setup
 * proposal (→ TransferPreapproval), transfers through `TransferCommand`s, and balances.
 *
 * Nothing is signed here on the party's behalf: every transaction the party must authorize is prepared with the JSON
 * API's interactive submission (`InteractiveSubmission.prepare`, the same protobuf `PreparedTransaction` and V2 hash
 * as `/v2/interactive-submission/prepare`) and committed only by `InteractiveSubmission.execute`, which checks the
 * signature against the keys registered for the party at onboarding. The Splice endpoints use hex for hashes,
 * signatures and keys; the JSON API uses base64 — the conversion happens here.
 */
import { pinCommands } from './pin.js';
import { randomUUID } from 'node:crypto';
import { microsToIso } from '../clock.js';
import type { SimContext } from '../context.js';
import { verifyEd25519 } from '../crypto/keys.js';
import { decodeOnboarding, onboardingTransactions, transactionHash } from '../crypto/topology.js';
import { PARTY_HINT_RE } from '../ids.js';
import { InteractiveSubmission } from '../interactive.js';
import type { LedgerWriter, SubmitResult } from '../ledger.js';
import type { ContractRow } from '../model.js';
import { createdEventBlob } from '../projection-events.js';
import type { JsPrepareSubmissionInput } from '../schemas-interactive.js';
import type { SpliceContract, WalletApp } from './app.js';
import { WalletError } from './app.js';
import { AMULET_PACKAGE_NAME, fmt, num } from './coin.js';
import { PREAPPROVAL_LIFETIME_MICROS } from './names.js';
import { createdContractIdPrefix, hexBytes, keyOf, rootExercises } from './external-party-input.js';

const T = {
  proposal: 'Splice.AmuletRules:ExternalPartySetupProposal',
  externalRules: 'Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules',
  command: 'Splice.ExternalPartyAmuletRules:TransferCommand',
  preapproval: 'Splice.AmuletRules:TransferPreapproval',
} as const;
const tid = (qn: string): string => `#${AMULET_PACKAGE_NAME}:${qn}`;

export interface ExternalPartySubmission {
  party_id: string;
  transaction: string;
  signed_tx_hash: string;
  public_key: string;
}

export class ExternalPartyWallet {
  private readonly interactive: InteractiveSubmission;

  constructor(
    private readonly sim: SimContext,
    private readonly writer: LedgerWriter,
    private readonly app: WalletApp,
  ) {
    this.interactive = new InteractiveSubmission(sim, writer);
  }

  // ---------------------------------------------------------------------------------------------
  // Topology
  // ---------------------------------------------------------------------------------------------

  private participantUid(): string {
    return this.sim.participantId.replace(/^PAR::/, '');
  }

  /** The onboarding topology transactions for `<hint>::<fingerprint>` hosted here with Confirmation, and their hashes. */
  async generateTopology(
    partyHint: string,
    publicKeyHex: string,
  ): Promise<{ party_id: string; topology_txs: { topology_tx: string; hash: string }[] }> {
    if (!PARTY_HINT_RE.test(partyHint) || partyHint.includes('::')) throw new WalletError(400, `Invalid party_hint '${partyHint}'`);
    const key = await keyOf(publicKeyHex);
    const partyId = `${partyHint}::${key.fingerprint}`;
    const txs = await onboardingTransactions({ partyId, key, participantUid: this.participantUid(), observationOnly: false });
    const topology_txs = await Promise.all(
      txs.map(async (t) => ({
        topology_tx: Buffer.from(t).toString('base64'),
        hash: Buffer.from(await transactionHash(t)).toString('hex'),
      })),
    );
    return { party_id: partyId, topology_txs };
  }

  /** Verifies the namespace key's signature over every transaction's hash and allocates the external party. */
  async submitTopology(publicKeyHex: string, signed: { topology_tx: string; signed_hash: string }[]): Promise<string> {
    const key = await keyOf(publicKeyHex);
    if (signed.length === 0) throw new WalletError(400, 'signed_topology_txs must not be empty');
    const txs = signed.map((s, i) => {
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(s.topology_tx)) throw new WalletError(400, `signed_topology_txs[${i}].topology_tx is not base64`);
      return new Uint8Array(Buffer.from(s.topology_tx, 'base64'));
    });
    const onboarding = await decodeOnboarding(txs);
    if (onboarding.namespaceKey.fingerprint !== key.fingerprint)
      throw new WalletError(
        400,
        `public_key (fingerprint ${key.fingerprint}) is not the namespace key ` +
          `of the topology transactions (${onboarding.namespaceKey.fingerprint})`,
      );
    for (const [i, s] of signed.entries()) {
      const sig = hexBytes(s.signed_hash, 64, `signed_topology_txs[${i}].signed_hash (hex r‖s)`);
      if (!verifyEd25519(key.raw, await transactionHash(txs[i] as Uint8Array), sig))
        throw new WalletError(
          400,
          `signed_topology_txs[${i}].signed_hash is not a valid signature of the transaction's hash by ${key.fingerprint}`,
        );
    }
    const host = onboarding.hosts.find((h) => h.participantUid === this.participantUid());
    if (!host)
      throw new WalletError(400, `The PartyToParticipant mapping does not host the party on this participant (${this.participantUid()})`);
    if (this.sim.store.hasParty(onboarding.partyId)) return onboarding.partyId; // already onboarded with these transactions
    this.writer.allocateExternalParty({
      party: onboarding.partyId,
      synchronizerId: this.sim.synchronizers[0].id,
      permission: host.observationOnly ? 'PARTICIPANT_PERMISSION_OBSERVATION' : 'PARTICIPANT_PERMISSION_CONFIRMATION',
      threshold: onboarding.threshold,
      keys: onboarding.signingKeys.map((k) => ({ fingerprint: k.fingerprint, raw: k.raw.toString('base64') })),
    });
    return onboarding.partyId;
  }

  // ---------------------------------------------------------------------------------------------
  // Setup proposal → TransferPreapproval
  // ---------------------------------------------------------------------------------------------

  proposals(): ContractRow[] {
    this.app.init();
    return this.app.contracts(this.app.validatorParty, T.proposal);
  }

  createSetupProposal(userParty: string): string {
    this.app.init();
    if (!this.sim.store.hasParty(userParty)) throw new WalletError(404, `Unknown party ${userParty}`);
    if (this.proposals().some((c) => c.node.createArgument && (c.node.createArgument as Record<string, unknown>).user === userParty))
      throw new WalletError(409, `An ExternalPartySetupProposal for ${userParty} already exists`);
    if (this.app.preapprovalOf(userParty)) throw new WalletError(409, `${userParty} already has a TransferPreapproval`);
    const now = this.sim.clock.nowMicros();
    const r = this.app.submit(
      [this.app.validatorParty],
      [
        {
          CreateCommand: {
            templateId: tid(T.proposal),
            createArguments: {
              validator: this.app.validatorParty,
              user: userParty,
              dso: this.app.dso,
              preapprovalExpiresAt: microsToIso(now + PREAPPROVAL_LIFETIME_MICROS),
            },
          },
        },
      ],
    );
    return r.tx.nodes.find((n) => n.kind === 'create')?.contractId ?? '';
  }

  async prepareAcceptProposal(contractId: string, userParty: string): Promise<{ transaction: string; tx_hash: string }> {
    const p = this.proposals().find((c) => c.contractId === contractId);
    if (!p) throw new WalletError(404, `No active ExternalPartySetupProposal ${contractId}`);
    if ((p.node.createArgument as Record<string, unknown>).user !== userParty)
      throw new WalletError(400, `Proposal ${contractId} is not addressed to ${userParty}`);
    this.requireExternal(userParty);
    const rules = this.app.rulesContract();
    const round = this.app.openRoundContract();
    return this.prepare(
      userParty,
      [
        {
          ExerciseCommand: {
            templateId: tid(T.proposal),
            contractId,
            choice: 'ExternalPartySetupProposal_Accept',
            choiceArgument: { amuletRules: rules.contractId, openRound: round.contractId },
          },
        },
      ],
      [rules, round],
    );
  }

  async submitAcceptProposal(s: ExternalPartySubmission): Promise<{ transfer_preapproval_contract_id: string; update_id: string }> {
    const res = await this.execute(s, 'Splice.AmuletRules:ExternalPartySetupProposal', 'ExternalPartySetupProposal_Accept');
    const created = res.tx.nodes.find((n) => n.kind === 'create' && n.qualifiedName === T.preapproval);
    return { transfer_preapproval_contract_id: created?.contractId ?? '', update_id: res.updateId };
  }

  // ---------------------------------------------------------------------------------------------
  // TransferCommand (deprecated Splice transfer path for external senders)
  // ---------------------------------------------------------------------------------------------

  async prepareSend(req: {
    sender_party_id: string;
    receiver_party_id: string;
    amount: number;
    expires_at: string;
    nonce: number;
    description?: string | undefined;
  }): Promise<{
    transaction: string;
    tx_hash: string;
    transfer_command_contract_id_prefix: string;
  }> {
    this.app.init();
    this.requireExternal(req.sender_party_id);
    if (!this.sim.store.hasParty(req.receiver_party_id)) throw new WalletError(404, `Unknown receiver party ${req.receiver_party_id}`);
    if (!this.app.preapprovalOf(req.receiver_party_id))
      throw new WalletError(404, `Receiver ${req.receiver_party_id} has no TransferPreapproval`);
    if (!Number.isFinite(req.amount) || req.amount <= 0) throw new WalletError(400, 'amount must be a positive number');
    const amount = num(req.amount.toFixed(10));
    if (amount <= 0n) throw new WalletError(400, 'amount must be at least 0.0000000001');
    const expires = Date.parse(req.expires_at);
    if (Number.isNaN(expires)) throw new WalletError(400, `expires_at '${req.expires_at}' is not a date-time`);
    if (BigInt(expires) * 1000n <= this.sim.clock.nowMicros()) throw new WalletError(400, 'expires_at must be in the future');
    if (!Number.isSafeInteger(req.nonce) || req.nonce < 0) throw new WalletError(400, 'nonce must be a non-negative integer');
    const rules = this.app.externalRulesContract();
    const prepared = await this.prepare(
      req.sender_party_id,
      [
        {
          ExerciseCommand: {
            templateId: tid(T.externalRules),
            contractId: rules.contractId,
            choice: 'ExternalPartyAmuletRules_CreateTransferCommand',
            choiceArgument: {
              sender: req.sender_party_id,
              receiver: req.receiver_party_id,
              delegate: this.app.dso,
              amount: fmt(amount),
              expiresAt: microsToIso(BigInt(expires) * 1000n),
              nonce: String(req.nonce),
              description: req.description ?? null,
              expectedDso: this.app.dso,
            },
          },
        },
      ],
      [rules],
    );
    const prefix = await createdContractIdPrefix(prepared.preparedB64, T.command);
    if (!prefix) throw new WalletError(500, 'The prepared transaction creates no TransferCommand');
    return { transaction: prepared.transaction, tx_hash: prepared.tx_hash, transfer_command_contract_id_prefix: prefix };
  }

  async submitSend(s: ExternalPartySubmission): Promise<{ update_id: string }> {
    const res = await this.execute(
      s,
      'Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules',
      'ExternalPartyAmuletRules_CreateTransferCommand',
    );
    return { update_id: res.updateId };
  }

  // ---------------------------------------------------------------------------------------------
  // Balance
  // ---------------------------------------------------------------------------------------------

  balance(partyId: string) {
    this.app.init();
    if (!this.sim.store.hasParty(partyId)) throw new WalletError(404, `Unknown party ${partyId}`);
    this.app.runAutomation();
    const p = this.app.positions(partyId);
    const sum = (xs: { effective: bigint }[]) => xs.reduce((a, x) => a + x.effective, 0n);
    const fees = (xs: { fee: bigint }[]) => xs.reduce((a, x) => a + x.fee, 0n);
    const unlocked = sum(p.amulets);
    const locked = sum(p.locked);
    return {
      party_id: partyId,
      total_unlocked_coin: fmt(unlocked),
      total_locked_coin: fmt(locked),
      total_coin_holdings: fmt(unlocked + locked),
      accumulated_holding_fees_unlocked: fmt(fees(p.amulets)),
      accumulated_holding_fees_locked: fmt(fees(p.locked)),
      accumulated_holding_fees_total: fmt(fees(p.amulets) + fees(p.locked)),
      total_available_coin: fmt(unlocked),
      computed_as_of_round: Number(p.round),
    };
  }

  listContract(c: ContractRow): { contract: SpliceContract; domain_id: string } {
    return { contract: this.app.contractJson(c), domain_id: c.synchronizerId };
  }

  // ---------------------------------------------------------------------------------------------
  // Interactive submission
  // ---------------------------------------------------------------------------------------------

  private requireExternal(party: string): void {
    if (!this.sim.store.hasParty(party)) throw new WalletError(404, `Unknown party ${party}`);
    if (!this.sim.store.partyKeys(party))
      throw new WalletError(400, `${party} is not an external party (it has no registered signing keys)`);
  }

  /** Prepares `commands` for the external `party`; `disclosed` are DSO contracts the party cannot see (passed as on Splice, by blob). */
  private async prepare(
    party: string,
    commands: unknown[],
    disclosed: ContractRow[],
  ): Promise<{ transaction: string; tx_hash: string; preparedB64: string }> {
    const req = {
      commandId: `validator-external-${randomUUID()}`,
      commands: pinCommands(this.sim.registry, commands),
      actAs: [party],
      userId: this.app.config.validatorWalletUser,
      synchronizerId: this.sim.synchronizers[0].id,
      disclosedContracts: disclosed.map((c) => ({
        templateId: `${c.node.packageId}:${c.node.qualifiedName}`,
        contractId: c.contractId,
        createdEventBlob: createdEventBlob(c.node),
        synchronizerId: c.synchronizerId,
      })),
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    } as JsPrepareSubmissionInput;
    const r = await this.interactive.prepare(req, this.app.config.validatorWalletUser);
    return {
      transaction: r.preparedTransaction,
      tx_hash: Buffer.from(r.preparedTransactionHash, 'base64').toString('hex'),
      preparedB64: r.preparedTransaction,
    };
  }

  /**
   * Executes a transaction prepared by one of the prepare endpoints: it must exercise `choice` on `entity` and be
   * signed (hex r‖s over the prepared hash) by a key registered for `party_id`.
   */
  private async execute(s: ExternalPartySubmission, entity: string, choice: string): Promise<SubmitResult> {
    this.app.init();
    this.requireExternal(s.party_id);
    const key = await keyOf(s.public_key);
    const registered = this.sim.store.partyKeys(s.party_id);
    if (!registered?.keys.some((k) => k.fingerprint === key.fingerprint))
      throw new WalletError(400, `public_key (fingerprint ${key.fingerprint}) is not a signing key of ${s.party_id}`);
    const signature = hexBytes(s.signed_tx_hash, 64, 'signed_tx_hash (hex r‖s Ed25519 signature)');
    const roots = await rootExercises(s.transaction);
    if (roots.length !== 1 || roots[0]?.entity !== entity || roots[0].choice !== choice)
      throw new WalletError(400, `transaction is not a ${choice} prepared by this endpoint's prepare call`);
    return this.interactive.execute(
      {
        preparedTransaction: s.transaction,
        partySignatures: {
          signatures: [
            {
              party: s.party_id,
              signatures: [
                {
                  format: 'SIGNATURE_FORMAT_CONCAT',
                  signature: signature.toString('base64'),
                  signedBy: key.fingerprint,
                  signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
                },
              ],
            },
          ],
        },
        submissionId: randomUUID(),
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      },
      this.app.config.validatorWalletUser,
    );
  }
}
