/**
 * The air-gapped side of offline signing: read a signing-request file, show what it authorises, sign with the
 * local key(s) it names (through SigningService, so verification, policy and audit apply), write the response.
 */
import { ConsoleError } from '../../ipc/errors.js';
import type { AuditLog } from './audit-log.js';
import { SigningRefusal } from './errors.js';
import type { KeyStore } from './key-store.js';
import {
  carriedArchives,
  createSignatureResponse,
  parseSigningRequest,
  type SignatureResponse,
  type SigningRequest,
} from './offline-files.js';
import type { VerifiedPackages } from './verified-packages.js';
import type { SignPreparedRequest, SigningService } from './signing-service.js';
import type { Assessment, PolicyChecks } from './policy-checks.js';
import {
  createOnboardingResponse,
  parseOnboardingRequest,
  type OnboardingRequest,
  type OnboardingResponse,
} from './offline-onboarding-files.js';
import { verifyTopology, type TopologySummary } from './topology.js';
import type { TransactionSummary } from './prepared-transaction.js';

export interface OfflineInspection {
  request: SigningRequest;
  /** Request signers whose keys are on this machine. */
  localSigners: string[];
  /**
   * Verification and this console's policy for the local signers: the first that refuses (its refusal is in the audit
   * log), else the first (null when none is local).
   */
  preview: Assessment | null;
  /** Packages the request carried that this machine verified and keeps (ids it already held are not listed). */
  packagesAdded: string[];
}

export class OfflineSigner {
  constructor(
    private readonly keys: KeyStore,
    private readonly signing: SigningService,
    private readonly audit: AuditLog,
    private readonly packages: VerifiedPackages,
    private readonly checks: PolicyChecks,
  ) {}

  /** What this console's policy of `fingerprint` is asked about a request: offline, its threshold, the version it was checked against. */
  private context(request: SigningRequest, fingerprint: string): Pick<SignPreparedRequest, 'channel' | 'signatures' | 'claimedPolicy'> {
    const claim = request.version === 3 ? request.policies.find((p) => p.fingerprint === fingerprint) : undefined;
    return {
      channel: 'offline',
      signatures: request.threshold,
      claimedPolicy: claim ? { version: claim.version, digest: claim.digest } : null,
    };
  }

  /**
   * Verifies and keeps the archives a request carries: each must hash to the package id it is listed under. A request
   * with a wrong archive is refused as a whole — it was altered, or made by something that mislabels packages.
   */
  private importPackages(request: SigningRequest): string[] {
    const added: string[] = [];
    for (const a of carriedArchives(request)) {
      if (this.packages.has(a.packageId)) continue;
      try {
        this.packages.add(a.bytes, 'signing-request', a.packageId);
      } catch (err) {
        throw new SigningRefusal(
          'BAD_REQUEST',
          'NOT_A_VALID_FILE',
          `The request's package ${a.packageId} does not verify: ${(err as Error).message}`,
        );
      }
      added.push(a.packageId);
    }
    return added;
  }

  async inspect(text: string, now: Date = new Date()): Promise<OfflineInspection> {
    const request = await parseSigningRequest(text, now);
    const packagesAdded = this.importPackages(request);
    const localSigners = this.localSigners(request);
    let preview: Assessment | null = null;
    for (const fingerprint of localSigners) {
      const a = await this.checks.assess({
        fingerprint,
        party: request.party,
        prepared: request.prepared,
        ...this.context(request, fingerprint),
      });
      preview ??= a;
      if (a.refusal) {
        preview = a;
        break;
      }
    }
    return { request, localSigners, preview, packagesAdded };
  }

  /** Signs with every requested local key (or those chosen); any refusal is audited and thrown, nothing is written. */
  async sign(
    text: string,
    opts: { fingerprints?: string[]; acknowledgeBlind?: boolean; now?: Date } = {},
  ): Promise<{ response: SignatureResponse; text: string; summary: TransactionSummary }> {
    const now = opts.now ?? new Date();
    let request: SigningRequest;
    try {
      request = await parseSigningRequest(text, now);
      this.importPackages(request);
    } catch (err) {
      this.auditRefusal(err, peek(text));
      throw err;
    }
    const local = this.localSigners(request);
    const chosen = opts.fingerprints ?? local;
    try {
      const foreign = chosen.find((f) => !request.signers.some((s) => s.fingerprint === f));
      if (foreign) throw new SigningRefusal('FORBIDDEN', 'WRONG_KEY', `Key ${foreign} is not one of the request’s signers`);
      const missing = chosen.find((f) => !local.includes(f));
      if (missing) throw new SigningRefusal('NOT_FOUND', 'WRONG_KEY', `Key ${missing} is not on this machine`);
      if (chosen.length === 0) {
        throw new SigningRefusal(
          'NOT_FOUND',
          'WRONG_KEY',
          `None of the request’s keys (${request.signers.map((s) => s.fingerprint).join(', ')}) is on this machine`,
        );
      }
    } catch (err) {
      this.auditRefusal(err, {
        party: request.party,
        fingerprint: chosen[0] ?? request.signers[0]?.fingerprint ?? null,
        hash: request.prepared.preparedTransactionHash,
      });
      throw err;
    }
    // every chosen key's policy is decided before any of them signs, so a refusal leaves no signature behind
    const sign = (fingerprint: string) =>
      this.signing.sign({
        fingerprint,
        party: request.party,
        prepared: request.prepared,
        acknowledgeBlind: opts.acknowledgeBlind ?? false,
        ...this.context(request, fingerprint),
      });
    for (const fingerprint of chosen) {
      let refused: boolean;
      try {
        const ctx = this.context(request, fingerprint);
        refused = !(await this.signing.preview({ fingerprint, party: request.party, prepared: request.prepared, ...ctx })).policy.allowed;
      } catch {
        refused = true;
      }
      // the signing service decides again, audits the refusal and throws it
      if (refused) await sign(fingerprint);
    }
    const signatures = [];
    let summary: TransactionSummary | undefined;
    for (const fingerprint of chosen) {
      const res = await sign(fingerprint);
      signatures.push(res.signature);
      summary = res.summary;
    }
    if (!summary) throw new ConsoleError('INTERNAL', 'No signature was made');
    return { ...createSignatureResponse(request, signatures, now), summary };
  }

  /** Onboarding request: parse, recompute the multi-hash, summarise — the key must be on this machine. */
  async inspectOnboarding(
    text: string,
    now: Date = new Date(),
  ): Promise<{ request: OnboardingRequest; summary: TopologySummary; multiHash: Uint8Array; keyLabel: string }> {
    const request = await parseOnboardingRequest(text, now);
    const key = this.keys.find(request.signer.fingerprint);
    if (!key) throw new SigningRefusal('NOT_FOUND', 'WRONG_KEY', `The request’s key ${request.signer.fingerprint} is not on this machine`);
    if (key.publicKeyBase64 !== request.signer.publicKeyBase64) {
      throw new SigningRefusal('FORBIDDEN', 'WRONG_KEY', `The request names key ${request.signer.fingerprint} with another public key`);
    }
    const { summary, multiHash } = await verifyTopology(request.topology, request.signer.fingerprint);
    return { request, summary, multiHash, keyLabel: key.label };
  }

  /** Signs an onboarding request's multi-hash (SigningService.signTopology: verification, policy, audit) and writes the response. */
  async signOnboarding(
    text: string,
    now: Date = new Date(),
  ): Promise<{ response: OnboardingResponse; text: string; summary: TopologySummary }> {
    let request: OnboardingRequest;
    try {
      request = (await this.inspectOnboarding(text, now)).request;
    } catch (err) {
      this.auditRefusal(err, peekOnboarding(text), 'topology');
      throw err;
    }
    const signed = await this.signing.signTopology({
      fingerprint: request.signer.fingerprint,
      topology: request.topology,
      channel: 'offline',
    });
    return { ...createOnboardingResponse(request, signed.multiHashSignatures[0], now), summary: signed.summary };
  }

  private localSigners(request: SigningRequest): string[] {
    return request.signers.map((s) => s.fingerprint).filter((f) => this.keys.find(f) !== null);
  }

  private auditRefusal(
    err: unknown,
    ctx: { party: string | null; fingerprint: string | null; hash: string | null },
    subject: 'prepared-transaction' | 'topology' = 'prepared-transaction',
  ): void {
    this.audit.append({
      decision: 'refused',
      subject,
      channel: 'offline',
      reason: err instanceof SigningRefusal ? err.reason : err instanceof ConsoleError ? err.code : 'INTERNAL',
      message: err instanceof Error ? err.message : String(err),
      fingerprint: ctx.fingerprint,
      party: ctx.party,
      hash: ctx.hash,
      summary: `(offline ${subject === 'topology' ? 'onboarding' : 'signing'} request refused before verification)`,
    });
  }
}

/** Best-effort context from an unparseable/invalid request, for the audit entry only. */
function peek(text: string): { party: string | null; fingerprint: string | null; hash: string | null } {
  try {
    const j = JSON.parse(text) as {
      party?: unknown;
      signers?: Array<{ fingerprint?: unknown }>;
      prepared?: { preparedTransactionHash?: unknown };
    };
    const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 300) : null);
    return { party: str(j.party), fingerprint: str(j.signers?.[0]?.fingerprint), hash: str(j.prepared?.preparedTransactionHash) };
  } catch {
    return { party: null, fingerprint: null, hash: null };
  }
}

/** Best-effort context from an invalid onboarding request, for the audit entry only. */
function peekOnboarding(text: string): { party: string | null; fingerprint: string | null; hash: string | null } {
  try {
    const j = JSON.parse(text) as { topology?: { partyId?: unknown; multiHash?: unknown }; signer?: { fingerprint?: unknown } };
    const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 300) : null);
    return { party: str(j.topology?.partyId), fingerprint: str(j.signer?.fingerprint), hash: str(j.topology?.multiHash) };
  } catch {
    return { party: null, fingerprint: null, hash: null };
  }
}
