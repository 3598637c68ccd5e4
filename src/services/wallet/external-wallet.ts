/**
 * The external-party wallet: balance, transfer preapproval setup and preapproved sends of parties whose keys are in
 * this console. The validator prepares (`prepare-accept`, `prepare-send`), the console verifies through the signing
 * service — decode the PreparedTransaction, recompute the V2 hash and refuse unless it equals the validator's
 * `tx_hash`, clear-sign summary, key policy — and signs only after the operator confirmed that very transaction
 * (held here by session id, never sent back by the renderer), online with the keychain key or offline through a
 * signing-request file; then the validator submits (`submit-accept`, `submit-send`).
 *
 * The reads (balances, preapprovals, nonces) are in external-party-reads.ts, the validator's prepare and submit calls in
 * external-validator.ts, the audited refusals in external-refusals.ts; here are the sessions and the signing.
 */
import { randomUUID } from 'node:crypto';
import type { ExternalPartyWallet, Refusal, TransactionSummaryWire } from '../../ipc/contract.js';
import { ConsoleError } from '../../ipc/errors.js';
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
import { ExternalPartyReads } from './external-party-reads.js';
import { auditOf, withRefusals, type RefusalAudit } from './external-refusals.js';
import { prepareSend, prepareSetupAccept, submitSigned, type ExternalTxKind, type Submitted } from './external-validator.js';
import type { ValidatorClient } from './validator-client.js';
import type { WalletService } from './wallet-service.js';

type Kind = ExternalTxKind;
const SESSION_TTL_MS = 30 * 60_000;

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

  private readonly reads: ExternalPartyReads;

  constructor(private readonly d: ExternalWalletDeps) {
    this.reads = new ExternalPartyReads({ participant: d.participant, admin: () => this.admin(), parties: d.parties });
  }

  /** Archives of packages not verified yet come from the participant (the signing services verify their ids). */
  private readonly fetchPackage = (packageId: string): Promise<Uint8Array> =>
    this.d.participant().client.getBytes(`/v2/packages/${encodeURIComponent(packageId)}`);

  private admin(): ValidatorClient {
    return this.d.wallet.clients.adminClient();
  }

  /** Each external party's balance and transfer preapproval. */
  parties(): Promise<ExternalPartyWallet[]> {
    return this.reads.parties();
  }

  /** Preapproval setup: the operator proposes (`setup-proposal`, reused if one is pending), the external party accepts. */
  async preparePreapproval(req: { party: string; fingerprint: string }): Promise<Verified | Refusal> {
    this.keyFor(req.party, req.fingerprint);
    const binding = this.bind();
    const prepared = await prepareSetupAccept(this.admin(), req.party);
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
    const nonce = req.nonce ?? (await this.reads.nextNonce(req.party));
    const prepared = await prepareSend(this.admin(), req, nonce);
    return this.verify('send', req.party, req.fingerprint, prepared.transaction, prepared.tx_hash, await binding);
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
    const sameProfile = await this.refusals(() => checkSameProfile(s.binding, active), auditOf(s));
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
    const sameParticipant = await this.refusals(async () => checkSameParticipant(s.binding, await idNow), auditOf(s));
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
    }, auditOf(r));
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

  private submit(
    s: Omit<Session, 'createdAt' | 'blind'>,
    signedTxHashHex: string,
    publicKeyHex: string,
    auditSeq: number | null,
  ): Promise<Submitted> {
    return submitSigned(this.admin(), s, signedTxHashHex, publicKeyHex, auditSeq);
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

  /** Runs `fn`; a SigningRefusal becomes a Refusal value (external-refusals.ts). */
  private refusals<T>(fn: () => T | Promise<T>, audit?: RefusalAudit): Promise<T | Refusal> {
    return withRefusals(this.d.signing.audit, fn, audit);
  }

  private gc(): void {
    const cutoff = Date.now() - SESSION_TTL_MS;
    for (const [id, s] of this.sessions) if (s.createdAt < cutoff) this.sessions.delete(id);
    // Offline requests live until they expire (their file says until when).
    for (const [id, r] of this.requests) if (Date.parse(r.collector.request.expiresAt) < Date.now()) this.requests.delete(id);
  }
}
