/**
 * The external-party wallet: balance, transfer preapproval setup and preapproved sends of parties whose keys are in
 * this console. The validator prepares (`prepare-accept`, `prepare-send`), the console verifies through the signing
 * service — decode the PreparedTransaction, recompute the V2 hash and refuse unless it equals the validator's
 * `tx_hash`, clear-sign summary, key policy — and signs only after the operator confirmed that very transaction
 * (held here by session id, never sent back by the renderer), online with the keychain key or offline through a
 * signing-request file; then the validator submits (`submit-accept`, `submit-send`).
 */
import { randomUUID } from 'node:crypto';
import type { AcsPage, ExternalPartyWallet, Refusal, TransactionSummaryWire } from '../../ipc/contract.js';
import { ConsoleError, toIpcError } from '../../ipc/errors.js';
import { fetchActiveContracts } from '../ledger/contracts.js';
import {
  createSigningRequest,
  importSignatureResponse,
  SignatureCollector,
  SigningRefusal,
  type PrepareResponse,
  type SigningServices,
} from '../signing/index.js';
import {
  bindParticipant,
  BLIND_CONFIRMATION_WORD,
  checkSameParticipant,
  checkSameProfile,
  policyWire,
  summaryWire,
  type ActiveParticipant,
  type PolicyWire,
  type ParticipantBinding,
} from '../signing-flows/index.js';
import {
  CreateExternalPartySetupProposalResponseSchema,
  ExternalPartyBalanceResponseSchema,
  ListExternalPartySetupProposalsResponseSchema,
  PrepareAcceptExternalPartySetupProposalResponseSchema,
  PrepareTransferPreapprovalSendResponseSchema,
  SubmitAcceptExternalPartySetupProposalResponseSchema,
  SubmitTransferPreapprovalSendResponseSchema,
} from './splice-schemas.js';
import type { ValidatorClient } from './validator-client.js';
import type { WalletService } from './wallet-service.js';

type Kind = 'preapproval-setup' | 'send';
const SESSION_TTL_MS = 30 * 60_000;
const COUNTER_TEMPLATE = '#splice-amulet:Splice.ExternalPartyAmuletRules:TransferCommandCounter';
const PREAPPROVAL_TEMPLATE = '#splice-amulet:Splice.AmuletRules:TransferPreapproval';

interface Session {
  /** The profile (and its participant) the validator prepared this on: confirming it anywhere else is refused. */
  binding: ParticipantBinding;
  kind: Kind;
  party: string;
  fingerprint: string;
  /** The validator's answer as received: base64 PreparedTransaction and hex hash. */
  transaction: string;
  txHashHex: string;
  prepared: PrepareResponse;
  blind: boolean;
  createdAt: number;
}
interface OfflineRequest extends Omit<Session, 'createdAt' | 'blind'> {
  collector: SignatureCollector;
  submitted: boolean;
}

export interface Verified {
  status: 'verified';
  sessionId: string;
  kind: Kind;
  party: string;
  fingerprint: string;
  txHashHex: string;
  summary: TransactionSummaryWire;
  policy: PolicyWire;
}
export interface Submitted {
  status: 'submitted';
  kind: Kind;
  updateId: string;
  contractId: string | null;
  auditSeq: number | null;
}

export interface ExternalWalletDeps {
  signing: SigningServices;
  wallet: WalletService;
  /** The active profile and its participant (the validator API is the active profile's too). */
  participant: () => ActiveParticipant;
  /** External parties attached to keys in this console (SigningFlows.parties). */
  parties: () => Array<{ party: string; keys: Array<{ fingerprint: string; label: string }> }>;
}

export class ExternalWallet {
  private readonly sessions = new Map<string, Session>();
  private readonly requests = new Map<string, OfflineRequest>();

  constructor(private readonly d: ExternalWalletDeps) {}

  /** Archives of packages not verified yet come from the participant (the signing services verify their ids). */
  private readonly fetchPackage = (packageId: string): Promise<Uint8Array> =>
    this.d.participant().client.getBytes(`/v2/packages/${encodeURIComponent(packageId)}`);

  private admin(): ValidatorClient {
    return this.d.wallet.adminClient();
  }

  async parties(): Promise<ExternalPartyWallet[]> {
    return Promise.all(
      this.d.parties().map(async ({ party, keys }): Promise<ExternalPartyWallet> => {
        const [balance, preapproval] = await Promise.all([
          this.admin()
            .get(`/v0/admin/external-party/balance?party_id=${encodeURIComponent(party)}`, ExternalPartyBalanceResponseSchema)
            .then(
              (b) => ({
                value: {
                  unlocked: b.total_unlocked_coin,
                  locked: b.total_locked_coin,
                  total: b.total_coin_holdings,
                  available: b.total_available_coin,
                  holdingFees: b.accumulated_holding_fees_total,
                  round: b.computed_as_of_round,
                },
                error: null,
              }),
              (err: unknown) => ({ value: null, error: toIpcError(err) }),
            ),
          this.preapprovalOf(party),
        ]);
        return {
          party,
          keys,
          balance: balance.value,
          balanceError: balance.error,
          preapproval,
        };
      }),
    );
  }

  /** Preapproval setup: the operator proposes (`setup-proposal`, reused if one is pending), the external party accepts. */
  async preparePreapproval(req: { party: string; fingerprint: string }): Promise<Verified | Refusal> {
    this.keyFor(req.party, req.fingerprint);
    const binding = this.bind();
    const admin = this.admin();
    const pending = await admin.get('/v0/admin/external-party/setup-proposal', ListExternalPartySetupProposalsResponseSchema);
    const mine = pending.contracts.find((c) => (c.contract.payload as { user?: unknown }).user === req.party);
    const contractId =
      mine?.contract.contract_id ??
      (
        await admin.post(
          '/v0/admin/external-party/setup-proposal',
          { user_party_id: req.party },
          CreateExternalPartySetupProposalResponseSchema,
        )
      ).contract_id;
    const prepared = await admin.post(
      '/v0/admin/external-party/setup-proposal/prepare-accept',
      { contract_id: contractId, user_party_id: req.party },
      PrepareAcceptExternalPartySetupProposalResponseSchema,
    );
    return this.verify('preapproval-setup', req.party, req.fingerprint, prepared.transaction, prepared.tx_hash, await binding);
  }

  async prepareSend(req: {
    party: string;
    fingerprint: string;
    receiver: string;
    amount: string;
    description: string;
    expiresInMinutes: number;
    nonce: number | null;
  }): Promise<Verified | Refusal> {
    this.keyFor(req.party, req.fingerprint);
    const binding = this.bind();
    const nonce = req.nonce ?? (await this.nextNonce(req.party));
    const prepared = await this.admin().post(
      '/v0/admin/external-party/transfer-preapproval/prepare-send',
      {
        sender_party_id: req.party,
        receiver_party_id: req.receiver,
        // The spec types the amount as a JSON number.
        amount: Number(req.amount),
        expires_at: new Date(Date.now() + req.expiresInMinutes * 60_000).toISOString(),
        nonce,
        ...(req.description ? { description: req.description } : {}),
      },
      PrepareTransferPreapprovalSendResponseSchema,
    );
    return this.verify('send', req.party, req.fingerprint, prepared.transaction, prepared.tx_hash, await binding);
  }

  /**
   * The party's TransferPreapproval (it is the receiver, so it sees the contract in the participant's ACS). Read from
   * the ledger rather than the admin lookup so it works with the operator's rights on any participant hosting the party.
   */
  async preapprovalOf(party: string): Promise<{ contractId: string; expiresAt: string | null } | null> {
    const rows = await this.activeOf(party, PREAPPROVAL_TEMPLATE);
    for (const c of rows) {
      const arg = c.argument as { receiver?: unknown; expiresAt?: unknown } | null;
      if (arg && arg.receiver === party)
        return { contractId: c.contractId, expiresAt: typeof arg.expiresAt === 'string' ? arg.expiresAt : null };
    }
    return null;
  }

  /** Active contracts of a Splice template visible to `party`; none when the participant does not know the package. */
  private async activeOf(party: string, template: string): Promise<AcsPage['items']> {
    try {
      return (
        await fetchActiveContracts(this.d.participant().client, {
          parties: [party],
          templates: [template],
          interfaces: [],
          activeAtOffset: null,
          pageSize: 100,
          pageToken: null,
        })
      ).items;
    } catch (err) {
      if (err instanceof ConsoleError && err.code === 'LEDGER_API_ERROR') return [];
      throw err;
    }
  }

  /**
   * The sender's next TransferCommand nonce: `nextNonce` of its `TransferCommandCounter` in the participant's ACS
   * (the party is hosted here and observes it), 0 before its first send.
   */
  async nextNonce(party: string): Promise<number> {
    for (const c of await this.activeOf(party, COUNTER_TEMPLATE)) {
      const arg = c.argument as { sender?: unknown; nextNonce?: unknown } | null;
      if (arg && arg.sender === party && (typeof arg.nextNonce === 'string' || typeof arg.nextNonce === 'number'))
        return Number(arg.nextNonce);
    }
    return 0;
  }

  private keyFor(party: string, fingerprint: string) {
    const key = this.d.signing.keys.get(fingerprint);
    if (!key.parties.includes(party))
      throw new ConsoleError('BAD_REQUEST', `Key ${key.label} is not a signing key of ${party} in this console`);
    return key;
  }

  private async verify(
    kind: Kind,
    party: string,
    fingerprint: string,
    transaction: string,
    txHashHex: string,
    binding: ParticipantBinding,
  ): Promise<Verified | Refusal> {
    const prepared: PrepareResponse = {
      preparedTransaction: transaction,
      preparedTransactionHash: Buffer.from(txHashHex, 'hex').toString('base64'),
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    };
    const audit = { fingerprint, party, hash: prepared.preparedTransactionHash.slice(0, 200) };
    return this.refusals(async () => {
      // a policy refusal shown on this screen (the sign buttons disabled) is recorded like any other: once, here
      const preview = await this.d.signing.checks.assess({
        fingerprint,
        party,
        prepared,
        channel: 'online',
        fetchPackage: this.fetchPackage,
        // the validator submits one signature: no quorum of several can be collected for it
        offlineSignatures: 1,
      });
      this.gc();
      const sessionId = randomUUID();
      this.sessions.set(sessionId, {
        binding,
        kind,
        party,
        fingerprint,
        transaction,
        txHashHex: txHashHex.toLowerCase(),
        prepared,
        blind: preview.summary.mode === 'blind',
        createdAt: Date.now(),
      });
      return {
        status: 'verified' as const,
        sessionId,
        kind,
        party,
        fingerprint,
        txHashHex: txHashHex.toLowerCase(),
        summary: summaryWire(preview.summary),
        policy: policyWire(preview),
      };
    }, audit);
  }

  /** Online: sign with the key in this console's keystore (the signing service verifies again, applies the policy, audits), then submit. */
  async confirm(req: { sessionId: string; blindConfirmation?: string | undefined }): Promise<Submitted | Refusal> {
    const active = this.d.participant();
    const s = this.pending(req.sessionId);
    const sameProfile = await this.refusals(() => checkSameProfile(s.binding, active), this.auditOf(s));
    if (sameProfile) return sameProfile;
    this.sessions.delete(req.sessionId);
    // the participant behind the profile is asked who it is while the key signs; nothing is submitted unless it is the same
    const idNow = active.client.participantId().then((r) => r.participantId);
    idNow.catch(() => undefined);
    const signed = await this.refusals(() =>
      this.d.signing.signing.sign({
        fingerprint: s.fingerprint,
        party: s.party,
        prepared: s.prepared,
        acknowledgeBlind: s.blind && req.blindConfirmation?.trim() === BLIND_CONFIRMATION_WORD,
        channel: 'online',
        fetchPackage: this.fetchPackage,
      }),
    );
    if ('status' in signed) return signed;
    const sameParticipant = await this.refusals(async () => checkSameParticipant(s.binding, await idNow), this.auditOf(s));
    if (sameParticipant) return sameParticipant;
    const publicKeyHex = this.d.signing.keys.get(s.fingerprint).publicKeyHex;
    return this.submit(s, Buffer.from(signed.signature.signature, 'base64').toString('hex'), publicKeyHex, signed.auditSeq);
  }

  /** Offline: a signing-request file for the air-gapped console (Offline signer view); its response comes back to `submitOffline`. */
  async createOffline(req: { sessionId: string; ttlMinutes: number }) {
    const s = this.pending(req.sessionId);
    const key = this.d.signing.keys.get(s.fingerprint);
    return this.refusals(async () => {
      checkSameProfile(s.binding, this.d.participant());
      // the policy as it is now, for a single offline signature (the validator submits one)
      const assessed = await this.d.signing.checks.assess({
        fingerprint: s.fingerprint,
        party: s.party,
        prepared: s.prepared,
        channel: 'offline',
        fetchPackage: this.fetchPackage,
      });
      if (assessed.refusal) throw new SigningRefusal('FORBIDDEN', assessed.refusal.reason, assessed.refusal.message);
      this.sessions.delete(req.sessionId);
      const record = this.d.signing.policies.record(key.fingerprint);
      const { request, text } = await createSigningRequest({
        prepared: s.prepared,
        party: s.party,
        signers: [{ fingerprint: key.fingerprint, publicKeyBase64: key.publicKeyBase64 }],
        threshold: 1,
        participantId: s.binding.participantId,
        ttlMs: req.ttlMinutes * 60_000,
        note: s.kind === 'send' ? 'Preapproved transfer (validator submit-send)' : 'Transfer preapproval setup (validator submit-accept)',
        types: { packages: this.d.signing.packages, fetch: this.fetchPackage },
        policies: [{ fingerprint: key.fingerprint, version: record.version, digest: record.digest }],
      });
      this.requests.set(request.requestId, { ...s, collector: new SignatureCollector(request), submitted: false });
      return {
        status: 'created' as const,
        requestId: request.requestId,
        fileName: `signing-request-${request.requestId.slice(0, 8)}.json`,
        text,
        expiresAt: request.expiresAt,
      };
    });
  }

  async submitOffline(req: { requestId: string; responseText: string }): Promise<Submitted | Refusal> {
    const r = this.requests.get(req.requestId);
    if (!r)
      throw new ConsoleError('NOT_FOUND', `No pending signing request ${req.requestId} on this console; prepare the transaction again`);
    if (r.submitted) throw new ConsoleError('CONFLICT', 'This signing request was submitted already');
    const active = this.d.participant();
    const sig = await this.refusals(async () => {
      checkSameProfile(r.binding, active);
      // whoever signed: this console's current policy of the key must allow what was signed
      const verified = await importSignatureResponse(r.collector.request, req.responseText);
      await this.d.signing.checks.checkExecution({
        party: r.party,
        prepared: r.prepared,
        signers: verified.map((v) => v.signedBy),
        signatures: 1,
        fetchPackage: this.fetchPackage,
      });
      await r.collector.add(req.responseText);
      const ps = r.collector.partySignatures();
      const first = ps.signatures[0]?.signatures[0];
      if (!first) throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', 'The response carries no signature');
      checkSameParticipant(r.binding, (await active.client.participantId()).participantId);
      return first;
    }, this.auditOf(r));
    if ('status' in sig) return sig;
    const signer = r.collector.request.signers.find((x) => x.fingerprint === sig.signedBy);
    if (!signer) throw new ConsoleError('INTERNAL', 'The collected signature has no signer in the request');
    const result = await this.submit(
      r,
      Buffer.from(sig.signature, 'base64').toString('hex'),
      Buffer.from(signer.publicKeyBase64, 'base64').toString('hex'),
      null,
    );
    r.submitted = true;
    return result;
  }

  discard(sessionId: string): boolean {
    return this.sessions.delete(sessionId);
  }

  private async submit(
    s: Omit<Session, 'createdAt' | 'blind'>,
    signedTxHashHex: string,
    publicKeyHex: string,
    auditSeq: number | null,
  ): Promise<Submitted> {
    const submission = { party_id: s.party, transaction: s.transaction, signed_tx_hash: signedTxHashHex, public_key: publicKeyHex };
    if (s.kind === 'send') {
      const r = await this.admin().post(
        '/v0/admin/external-party/transfer-preapproval/submit-send',
        { submission },
        SubmitTransferPreapprovalSendResponseSchema,
      );
      return { status: 'submitted', kind: s.kind, updateId: r.update_id, contractId: null, auditSeq };
    }
    const r = await this.admin().post(
      '/v0/admin/external-party/setup-proposal/submit-accept',
      { submission },
      SubmitAcceptExternalPartySetupProposalResponseSchema,
    );
    return { status: 'submitted', kind: s.kind, updateId: r.update_id, contractId: r.transfer_preapproval_contract_id, auditSeq };
  }

  /** A pending session (the caller deletes it once it is used). */
  private pending(sessionId: string): Session {
    const s = this.sessions.get(sessionId);
    if (!s || Date.now() - s.createdAt > SESSION_TTL_MS)
      throw new ConsoleError('NOT_FOUND', 'This transaction is no longer pending; prepare it again');
    return s;
  }

  /** Binds what is being prepared to the active profile and the participant id it reports (read while the validator prepares). */
  private bind(): Promise<ParticipantBinding> {
    const binding = bindParticipant(this.d.participant());
    binding.catch(() => undefined);
    return binding;
  }

  private auditOf(s: Pick<Session, 'fingerprint' | 'party' | 'prepared'>): { fingerprint: string; party: string; hash: string } {
    return { fingerprint: s.fingerprint, party: s.party, hash: s.prepared.preparedTransactionHash.slice(0, 200) };
  }

  /**
   * Runs `fn`; a SigningRefusal becomes a Refusal value. Verification refusals (which the signing service does not
   * audit itself, e.g. a hash that does not match the validator's) are appended to the audit log here when `audit` is given.
   */
  private async refusals<T>(fn: () => T | Promise<T>, audit?: { fingerprint: string; party: string; hash: string }): Promise<T | Refusal> {
    const before = this.headSeq();
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof SigningRefusal)) throw err;
      let seq = this.headSeq();
      if (seq === before && audit) {
        seq = this.d.signing.audit.append({
          decision: 'refused',
          subject: 'prepared-transaction',
          channel: 'online',
          reason: err.reason,
          message: err.message,
          fingerprint: audit.fingerprint,
          party: audit.party,
          hash: audit.hash,
          summary: '(refused before signing: the validator’s prepared transaction did not pass verification)',
        }).entry.seq;
      }
      return { status: 'refused', reason: err.reason, message: err.message, auditSeq: seq === before ? null : seq };
    }
  }

  private headSeq(): number {
    return this.d.signing.audit.list({ limit: 1 })[0]?.entry.seq ?? 0;
  }

  private gc(): void {
    const cutoff = Date.now() - SESSION_TTL_MS;
    for (const [id, s] of this.sessions) if (s.createdAt < cutoff) this.sessions.delete(id);
    // Offline requests live until they expire (their file says until when).
    for (const [id, r] of this.requests) if (Date.parse(r.collector.request.expiresAt) < Date.now()) this.requests.delete(id);
  }
}
