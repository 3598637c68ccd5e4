/**
 * The air-gapped side of offline signing: read a signing-request file, show what it authorises, sign with the
 * local key(s) it names (through SigningService, so verification, policy and audit apply), write the response.
 */
import { ConsoleError } from '../../ipc/errors.js';
import type { AuditLog } from './audit-log.js';
import { SigningRefusal } from './errors.js';
import type { KeyStore } from './key-store.js';
import { createSignatureResponse, parseSigningRequest, type SignatureResponse, type SigningRequest } from './offline-files.js';
import type { PreviewResult, SigningService } from './signing-service.js';
import type { TransactionSummary } from './prepared-transaction.js';

export interface OfflineInspection {
  request: SigningRequest;
  /** Request signers whose keys are on this machine. */
  localSigners: string[];
  /** Verification and policy for the first local signer (null when none is local). */
  preview: PreviewResult | null;
}

export class OfflineSigner {
  constructor(
    private readonly keys: KeyStore,
    private readonly signing: SigningService,
    private readonly audit: AuditLog,
  ) {}

  async inspect(text: string, now: Date = new Date()): Promise<OfflineInspection> {
    const request = await parseSigningRequest(text, now);
    const localSigners = this.localSigners(request);
    const first = localSigners[0];
    const preview = first
      ? await this.signing.preview({ fingerprint: first, party: request.party, prepared: request.prepared, channel: 'offline' })
      : null;
    return { request, localSigners, preview };
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
        throw new SigningRefusal('NOT_FOUND', 'WRONG_KEY', `None of the request’s keys (${request.signers.map((s) => s.fingerprint).join(', ')}) is on this machine`);
      }
    } catch (err) {
      this.auditRefusal(err, { party: request.party, fingerprint: chosen[0] ?? request.signers[0]?.fingerprint ?? null, hash: request.prepared.preparedTransactionHash });
      throw err;
    }
    const signatures = [];
    let summary: TransactionSummary | undefined;
    for (const fingerprint of chosen) {
      const res = await this.signing.sign({
        fingerprint,
        party: request.party,
        prepared: request.prepared,
        acknowledgeBlind: opts.acknowledgeBlind ?? false,
        channel: 'offline',
      });
      signatures.push(res.signature);
      summary = res.summary;
    }
    if (!summary) throw new ConsoleError('INTERNAL', 'No signature was made');
    return { ...createSignatureResponse(request, signatures, now), summary };
  }

  private localSigners(request: SigningRequest): string[] {
    return request.signers.map((s) => s.fingerprint).filter((f) => this.keys.find(f) !== null);
  }

  private auditRefusal(err: unknown, ctx: { party: string | null; fingerprint: string | null; hash: string | null }): void {
    this.audit.append({
      decision: 'refused',
      subject: 'prepared-transaction',
      channel: 'offline',
      reason: err instanceof SigningRefusal ? err.reason : err instanceof ConsoleError ? err.code : 'INTERNAL',
      message: err instanceof Error ? err.message : String(err),
      fingerprint: ctx.fingerprint,
      party: ctx.party,
      hash: ctx.hash,
      summary: '(offline signing request refused before verification)',
    });
  }
}

/** Best-effort context from an unparseable/invalid request, for the audit entry only. */
function peek(text: string): { party: string | null; fingerprint: string | null; hash: string | null } {
  try {
    const j = JSON.parse(text) as { party?: unknown; signers?: Array<{ fingerprint?: unknown }>; prepared?: { preparedTransactionHash?: unknown } };
    const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 300) : null);
    return { party: str(j.party), fingerprint: str(j.signers?.[0]?.fingerprint), hash: str(j.prepared?.preparedTransactionHash) };
  } catch {
    return { party: null, fingerprint: null, hash: null };
  }
}
