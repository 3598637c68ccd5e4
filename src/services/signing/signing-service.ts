/**
 * The only path from a request to a signature: verify → policy → sign the recomputed hash → audit.
 * Every decision (signed or refused, and why) is appended to the audit log before the result is returned.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import { ConsoleError } from '../../ipc/errors.js';
import { toBase64 } from './bytes.js';
import { SigningRefusal } from './errors.js';
import { partyNamespace } from './fingerprint.js';
import type { AuditLog, AuditInput } from './audit-log.js';
import type { KeyMetadata, KeyStore, OpenedKey } from './key-store.js';
import { decide, type Channel, type PolicyDecision } from './policy.js';
import type { PolicyStore } from './policy-store.js';
import { verifyPreparedTransaction, type PrepareResponse, type TransactionSummary, type TypeSource } from './prepared-transaction.js';
import type { PackageFetcher, VerifiedPackages } from './verified-packages.js';
import { verifyTopology, type GenerateTopologyResponse, type TopologySummary } from './topology.js';

type Schemas = v3_5.components['schemas'];
export type JsonSignature = Schemas['Signature'];
export type JsonPartySignatures = Schemas['PartySignatures'];

export const SIGNATURE_FORMAT = 'SIGNATURE_FORMAT_CONCAT';
export const SIGNING_ALGORITHM = 'SIGNING_ALGORITHM_SPEC_ED25519';

export interface SignPreparedRequest {
  /** Fingerprint of the key to sign with. */
  fingerprint: string;
  /** The external party the signature is for. */
  party: string;
  /** The JSON API prepare response, as received. */
  prepared: PrepareResponse;
  /** The user saw the blind-signing warning and confirmed; required when the transaction cannot be clear-signed. */
  acknowledgeBlind?: boolean;
  /** 'offline' only when the request came from an offline signing-request file. Default 'online'. */
  channel?: Channel;
  /** Fetches the archives of packages the console has not verified yet (the participant's `GET /v2/packages/{id}`). */
  fetchPackage?: PackageFetcher;
  /** How many distinct keys of the party sign this transaction together (a quorum rule needs it; default 1). */
  signatures?: number | undefined;
  /** Offline: the version of this key's policy the requesting console checked (from the request file). */
  claimedPolicy?: { version: number; digest: string } | null | undefined;
}
export interface SignPreparedResult {
  summary: TransactionSummary;
  /** One signature in the JSON API `Signature` shape. */
  signature: JsonSignature;
  /** Ready for `JsExecuteSubmissionRequest.partySignatures`. */
  partySignatures: JsonPartySignatures;
  auditSeq: number;
}
export interface PreviewResult {
  summary: TransactionSummary;
  policy: PolicyDecision;
  /** The key's policy version and digest the decision was made with. */
  policyVersion: { version: number; digest: string };
}

export interface SignTopologyRequest {
  fingerprint: string;
  topology: GenerateTopologyResponse;
  channel?: Channel;
}
export interface SignTopologyResult {
  summary: TopologySummary;
  /** For `AllocateExternalPartyRequest.multiHashSignatures`. */
  multiHashSignatures: [JsonSignature];
  auditSeq: number;
}

export class SigningService {
  constructor(
    private readonly keys: KeyStore,
    private readonly policies: PolicyStore,
    private readonly audit: AuditLog,
    /** Verified Daml-LF packages: the types that describe a transaction field by field. */
    readonly packages: VerifiedPackages,
  ) {}

  private types(fetch: PackageFetcher | undefined): TypeSource {
    return { packages: this.packages, fetch };
  }

  /** Verifies and evaluates the policy without signing or auditing (for the confirmation screen). */
  async preview(req: Omit<SignPreparedRequest, 'acknowledgeBlind'>): Promise<PreviewResult> {
    this.checkKeyAndParty(req.fingerprint, req.party);
    const { summary } = await verifyPreparedTransaction(req.prepared, req.party, this.types(req.fetchPackage));
    const record = this.policies.record(req.fingerprint);
    return {
      summary,
      policy: decide(record, summary, { channel: req.channel ?? 'online', signatures: req.signatures, claimed: req.claimedPolicy }),
      policyVersion: { version: record.version, digest: record.digest },
    };
  }

  async sign(req: SignPreparedRequest): Promise<SignPreparedResult> {
    const channel = req.channel ?? 'online';
    let summary: TransactionSummary | null = null;
    const base = { subject: 'prepared-transaction' as const, channel, fingerprint: req.fingerprint, party: req.party };
    let opening: Promise<OpenedKey> | null = null;
    try {
      this.checkKeyAndParty(req.fingerprint, req.party);
      // The key read (an OS keychain round trip, off the main thread) overlaps with verification; nothing is signed
      // unless verification and policy pass, and the seed is zeroised either way (finally below).
      opening = this.keys.open(req.fingerprint);
      opening.catch(() => undefined);
      const verified = await verifyPreparedTransaction(req.prepared, req.party, this.types(req.fetchPackage));
      summary = verified.summary;
      const decision = decide(this.policies.record(req.fingerprint), summary, {
        channel,
        signatures: req.signatures,
        claimed: req.claimedPolicy,
      });
      if (!decision.allowed) throw new SigningRefusal('FORBIDDEN', decision.reason, decision.message);
      if (summary.mode === 'blind' && req.acknowledgeBlind !== true) {
        throw new SigningRefusal(
          'FORBIDDEN',
          'BLIND_NOT_ACKNOWLEDGED',
          'This transaction can only be blind-signed; confirm the blind-signing warning to sign its hash',
        );
      }
      const opened = await opening;
      let sig: Uint8Array;
      try {
        sig = await opened.sign(verified.hash);
      } finally {
        opened.dispose();
        opening = null;
      }
      const signature = this.jsonSignature(sig, req.fingerprint);
      const record = this.audit.append({
        ...base,
        decision: 'signed',
        reason: null,
        message: summary.mode === 'blind' ? 'blind signature (acknowledged)' : null,
        hash: summary.hashBase64,
        summary: summary.headline,
      });
      return {
        summary,
        signature,
        partySignatures: { signatures: [{ party: req.party, signatures: [signature] }] },
        auditSeq: record.entry.seq,
      };
    } catch (err) {
      // refused before signing: the key read started for nothing, zeroise what it read
      if (opening)
        void opening.then(
          (o) => o.dispose(),
          () => undefined,
        );
      this.auditRefusal(base, err, summary?.hashBase64 ?? hashField(req.prepared), summary?.headline ?? '(not verified)');
      throw err;
    }
  }

  /** Verifies generate-topology output for the key, signs the multi-hash, attaches the party to the key. */
  async signTopology(req: SignTopologyRequest): Promise<SignTopologyResult> {
    const channel = req.channel ?? 'online';
    const base = { subject: 'topology' as const, channel, fingerprint: req.fingerprint, party: req.topology.partyId };
    let summary: TopologySummary | null = null;
    try {
      if (!this.keys.find(req.fingerprint)) {
        throw new SigningRefusal('NOT_FOUND', 'WRONG_KEY', `No signing key with fingerprint ${req.fingerprint} on this machine`);
      }
      if (this.policies.get(req.fingerprint).requireOfflineConfirmation && channel !== 'offline') {
        throw new SigningRefusal('FORBIDDEN', 'POLICY_OFFLINE_ONLY', 'This key signs only through offline signing-request files');
      }
      const verified = await verifyTopology(req.topology, req.fingerprint);
      summary = verified.summary;
      const sig = await this.keys.signHash(req.fingerprint, verified.multiHash);
      this.keys.attachParty(req.fingerprint, summary.partyId);
      const record = this.audit.append({
        ...base,
        decision: 'signed',
        reason: null,
        message: summary.warnings.length > 0 ? summary.warnings.join('; ') : null,
        hash: summary.multiHashBase64,
        summary: summary.headline,
      });
      return { summary, multiHashSignatures: [this.jsonSignature(sig, req.fingerprint)], auditSeq: record.entry.seq };
    } catch (err) {
      this.auditRefusal(base, err, summary?.multiHashBase64 ?? req.topology.multiHash, summary?.headline ?? '(not verified)');
      throw err;
    }
  }

  /** Opens a key's unlock window (KeyStore.unlock) and records it in the audit log: who could sign without the keychain, until when. */
  async unlockKey(fingerprint: string, seconds: number): Promise<KeyMetadata> {
    const key = await this.keys.unlock(fingerprint, seconds);
    this.audit.append({
      decision: 'unlocked',
      subject: 'other',
      channel: 'online',
      reason: null,
      message: `unlocked in memory until ${key.unlockedUntil ?? '?'}`,
      fingerprint,
      party: null,
      hash: null,
      summary:
        `Key ${key.label} unlocked for ${Math.round(seconds / 60)} min: ` +
        `signatures skip the keychain until ${key.unlockedUntil ?? '?'}`,
    });
    return key;
  }

  /** Closes a key's unlock window (the seed is zeroised) and records it when it was open. */
  lockKey(fingerprint: string): KeyMetadata {
    const wasUnlocked = this.keys.get(fingerprint).unlockedUntil !== null;
    const key = this.keys.lock(fingerprint);
    if (wasUnlocked) {
      this.audit.append({
        decision: 'locked',
        subject: 'other',
        channel: 'online',
        reason: null,
        message: null,
        fingerprint,
        party: null,
        hash: null,
        summary: `Key ${key.label} locked: signatures read the key from its store again`,
      });
    }
    return key;
  }

  private checkKeyAndParty(fingerprint: string, party: string): void {
    const key = this.keys.find(fingerprint);
    if (!key) throw new SigningRefusal('NOT_FOUND', 'WRONG_KEY', `No signing key with fingerprint ${fingerprint} on this machine`);
    if (!key.parties.includes(party) && partyNamespace(party) !== fingerprint) {
      throw new SigningRefusal(
        'FORBIDDEN',
        'PARTY_NOT_ATTACHED',
        `Key ${key.label} (${fingerprint}) does not sign for ${party}; attach the party to the key first`,
      );
    }
  }

  private jsonSignature(sig: Uint8Array, fingerprint: string): JsonSignature {
    return { format: SIGNATURE_FORMAT, signature: toBase64(sig), signedBy: fingerprint, signingAlgorithmSpec: SIGNING_ALGORITHM };
  }

  private auditRefusal(
    base: Pick<AuditInput, 'subject' | 'channel' | 'party'> & { fingerprint: string },
    err: unknown,
    hash: string | null,
    summary: string,
  ): void {
    const reason: string = err instanceof SigningRefusal ? err.reason : err instanceof ConsoleError ? err.code : 'INTERNAL';
    const message = err instanceof Error ? err.message : String(err);
    this.audit.append({ ...base, decision: 'refused', reason, message, hash, summary });
  }
}

function hashField(p: PrepareResponse | undefined): string | null {
  return typeof p?.preparedTransactionHash === 'string' ? p.preparedTransactionHash.slice(0, 200) : null;
}

/** Builds the JSON API `JsExecuteSubmissionRequest` for a signed prepared transaction. */
export function executeSubmissionRequest(
  prepared: PrepareResponse,
  partySignatures: JsonPartySignatures,
  opts: { submissionId: string; userId?: string },
): Schemas['JsExecuteSubmissionRequest'] {
  return {
    preparedTransaction: prepared.preparedTransaction,
    partySignatures,
    submissionId: opts.submissionId,
    hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    deduplicationPeriod: { Empty: {} },
    ...(opts.userId ? { userId: opts.userId } : {}),
  };
}
