/**
 * Offline signing, online side: a signing-request file for a verified prepared transaction, k-of-n collection of the
 * signature-response files that come back, and execution once the threshold is met.
 */
import { ConsoleError } from '../../ipc/errors.js';
import {
  createSigningRequest,
  importSignatureResponse,
  requiredSignatures,
  SignatureCollector,
  SigningRefusal,
  type PrepareResponse,
  type SigningServices,
} from '../signing/index.js';
import type { ExecuteMode, ExecutionResult } from '../../ipc/channels/signing.js';
import { packageFetcher, refusals, typeSource, type FlowContext, type Outcome, type RefusalAudit } from './context.js';
import { executePrepared } from './execute.js';
import type { OnlineSigningFlow } from './online-signing.js';
import { checkSameParticipant, checkSameProfile, type ParticipantBinding } from './participant-binding.js';

interface OfflineRequest {
  /** The profile it was created on and the participant id the request file records. */
  binding: ParticipantBinding;
  requestId: string;
  party: string;
  headline: string;
  expiresAt: string;
  prepared: PrepareResponse;
  collector: SignatureCollector;
  executed: boolean;
}

export class OfflineRequestFlow {
  private readonly requests = new Map<string, OfflineRequest>();

  constructor(
    private readonly ctx: FlowContext,
    private readonly online: OnlineSigningFlow,
  ) {}

  private get svc(): SigningServices {
    return this.ctx.svc;
  }
  /** How a refusal about request `r` is audited: the request's party, first signer and transaction hash. */
  private audit(r: OfflineRequest): RefusalAudit {
    return {
      subject: 'prepared-transaction',
      channel: 'offline',
      fingerprint: r.collector.request.signers[0]?.fingerprint ?? null,
      party: r.party,
      hash: r.prepared.preparedTransactionHash,
      summary: r.headline,
    };
  }
  private refusals<T>(audit: RefusalAudit | null, fn: () => T | Promise<T>, opts?: { auditVerification?: boolean }) {
    return refusals(this.svc, audit, fn, opts);
  }

  async createRequest(req: { sessionId: string; ttlMinutes: number; threshold?: number | undefined }) {
    const s = this.online.session(req.sessionId);
    if (!s) throw new ConsoleError('NOT_FOUND', 'This transaction is no longer pending; prepare it again');
    const signers = this.svc.keys
      .list()
      .filter((k) => k.parties.includes(s.party) || k.fingerprint === s.fingerprint)
      .map((k) => ({ fingerprint: k.fingerprint, publicKeyBase64: k.publicKeyBase64 }));
    const audit: RefusalAudit = {
      subject: 'prepared-transaction',
      channel: 'offline',
      fingerprint: s.fingerprint,
      party: s.party,
      hash: s.summary.hashBase64,
    };
    return this.refusals(audit, async () => {
      // the request records the participant the transaction was prepared on, so it is created only while that is active
      checkSameProfile(s.binding, this.ctx.participant());
      const participantId = s.binding.participantId;
      // a quorum rule of any signer raises the threshold: the request asks for as many signatures as the policies need
      const needed = Math.max(...signers.map((k) => requiredSignatures(this.svc.policies.get(k.fingerprint), s.summary).count));
      const threshold = Math.max(req.threshold ?? 1, needed);
      if (threshold > signers.length) {
        throw new SigningRefusal(
          'FORBIDDEN',
          'POLICY_QUORUM',
          `The key’s policy needs ${threshold} signatures of the party’s keys for this transaction, ` +
            `but this console knows only ${signers.length} key(s) of ${s.party}. Nothing was exported.`,
        );
      }
      // the policy as it is now (it may have changed since the summary was shown), for the way this request will be signed
      const assessed = await this.svc.checks.assess({
        fingerprint: s.fingerprint,
        party: s.party,
        prepared: s.prepared,
        channel: 'offline',
        signatures: threshold,
        fetchPackage: packageFetcher(this.ctx),
      });
      if (assessed.refusal) throw new SigningRefusal('FORBIDDEN', assessed.refusal.reason, assessed.refusal.message);
      const { request, text } = await createSigningRequest({
        prepared: s.prepared,
        party: s.party,
        signers,
        threshold,
        participantId,
        ttlMs: req.ttlMinutes * 60_000,
        note: s.summary.headline.slice(0, 500),
        types: typeSource(this.ctx),
        policies: signers.map((k) => {
          const { version, digest } = this.svc.policies.record(k.fingerprint);
          return { fingerprint: k.fingerprint, version, digest };
        }),
      });
      const entry: OfflineRequest = {
        binding: s.binding,
        requestId: request.requestId,
        party: s.party,
        headline: s.summary.headline,
        expiresAt: request.expiresAt,
        prepared: s.prepared,
        collector: new SignatureCollector(request),
        executed: false,
      };
      this.requests.set(request.requestId, entry);
      this.online.discard(req.sessionId);
      return {
        status: 'created' as const,
        requestId: request.requestId,
        fileName: `signing-request-${request.requestId.slice(0, 8)}.json`,
        text,
        expiresAt: request.expiresAt,
        collector: this.collectorStatus(entry),
      };
    });
  }

  pendingRequests() {
    return [...this.requests.values()]
      .filter((r) => !r.executed)
      .map((r) => ({
        requestId: r.requestId,
        party: r.party,
        headline: r.headline,
        expiresAt: r.expiresAt,
        collector: this.collectorStatus(r),
      }));
  }

  async importResponse(req: { requestId: string; text: string }) {
    const r = this.requests.get(req.requestId);
    if (!r) throw new ConsoleError('NOT_FOUND', `No pending signing request ${req.requestId} on this console`);
    return this.refusals(this.audit(r), async () => {
      // whoever signed: this console's current policy of each signing key must allow what was signed
      const verified = await importSignatureResponse(r.collector.request, req.text);
      await this.svc.checks.checkExecution({
        party: r.party,
        prepared: r.prepared,
        signers: verified.map((v) => v.signedBy),
        signatures: r.collector.request.threshold,
        fetchPackage: packageFetcher(this.ctx),
      });
      const res = await r.collector.add(req.text);
      return { status: 'collected' as const, added: res.added, alreadyCollected: res.alreadyCollected, collector: this.collectorStatus(r) };
    });
  }

  async executeRequest(req: { requestId: string; mode: ExecuteMode }): Promise<Outcome<ExecutionResult>> {
    const r = this.requests.get(req.requestId);
    if (!r) throw new ConsoleError('NOT_FOUND', `No pending signing request ${req.requestId} on this console`);
    const active = this.ctx.participant();
    const sigs = await this.refusals(this.audit(r), async () => {
      checkSameProfile(r.binding, active);
      // the policy is evaluated again as it is now, quorum included, for every key whose signature goes out (first, so
      // that too few signatures for the policy's quorum is refused as POLICY_QUORUM rather than as a short collection)
      const collected = r.collector.status().collected;
      await this.svc.checks.checkExecution({
        party: r.party,
        prepared: r.prepared,
        signers: collected,
        signatures: collected.length,
        fetchPackage: packageFetcher(this.ctx),
      });
      const partySignatures = r.collector.partySignatures();
      // the participant id recorded in the request file is the one the transaction may be sent to
      checkSameParticipant(r.binding, (await active.client.participantId()).participantId);
      return partySignatures;
    });
    if ('status' in sigs) return sigs;
    const result = await executePrepared(active.client, r.prepared, r.party, sigs, req.mode, []);
    r.executed = true;
    return result;
  }

  private collectorStatus(r: OfflineRequest) {
    const st = r.collector.status();
    return {
      threshold: st.threshold,
      signers: r.collector.request.signers.map((s) => ({
        fingerprint: s.fingerprint,
        label: this.svc.keys.find(s.fingerprint)?.label ?? null,
      })),
      collected: st.collected,
      missing: st.missing,
      met: st.met,
    };
  }
}
