/**
 * Online signing: compose → prepare on the participant → decode + recompute the V2 hash → summary + policy →
 * (confirm) → sign with the chosen key and the party's other local keys → execute. The prepared transaction is held
 * here by session id between the summary and the confirmation, so the renderer confirms exactly the transaction that
 * was verified and never sends one back.
 */
import { randomUUID } from 'node:crypto';
import { ConsoleError } from '../../ipc/errors.js';
import {
  PrepareResponseSchema,
  SigningRefusal,
  type JsonPartySignatures,
  type PrepareResponse,
  type SigningServices,
  type TransactionSummary,
} from '../signing/index.js';
import type { ComposeCommand, ExecuteMode, ExecutionResult, TransactionSummaryWire } from '../../ipc/channels/signing.js';
import { buildCommand } from './compose.js';
import {
  BLIND_CONFIRMATION_WORD,
  packageFetcher,
  refusals,
  SESSION_TTL_MS,
  type FlowContext,
  type Outcome,
  type RefusalAudit,
} from './context.js';
import { executePrepared } from './execute.js';
import { policyWire, summaryWire, type PolicyWire } from './wire.js';
import { bindParticipant, checkSameParticipant, checkSameProfile, type ParticipantBinding } from './participant-binding.js';

export interface TxSession {
  /** The profile and participant it was prepared on: confirming it anywhere else is refused. */
  binding: ParticipantBinding;
  party: string;
  fingerprint: string;
  prepared: PrepareResponse;
  summary: TransactionSummary;
  createdAt: number;
}

export class OnlineSigningFlow {
  private readonly txSessions = new Map<string, TxSession>();

  constructor(private readonly ctx: FlowContext) {}

  private get svc(): SigningServices {
    return this.ctx.svc;
  }
  private refusals<T>(audit: RefusalAudit | null, fn: () => T | Promise<T>, opts?: { auditVerification?: boolean }) {
    return refusals(this.svc, audit, fn, opts);
  }

  /** A pending verified transaction (for the offline request it becomes); undefined when gone. */
  session(sessionId: string): TxSession | undefined {
    return this.txSessions.get(sessionId);
  }

  async prepare(req: { party: string; fingerprint: string; command: ComposeCommand }): Promise<
    Outcome<{
      status: 'verified';
      sessionId: string;
      party: string;
      fingerprint: string;
      summary: TransactionSummaryWire;
      policy: PolicyWire;
    }>
  > {
    const command = buildCommand(req.command);
    this.svc.keys.get(req.fingerprint);
    const active = this.ctx.participant();
    const [raw, binding] = await Promise.all([
      active.client.read(
        active.client.api.POST('/v2/interactive-submission/prepare', {
          body: {
            commandId: `console-${randomUUID()}`,
            actAs: [req.party],
            commands: [command],
            hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
          },
        }),
      ),
      bindParticipant(active),
    ]);
    return this.verifyPrepared(raw, req.party, req.fingerprint, binding);
  }

  /** Verification of a prepare response, bound to `binding` (default: the active participant, read now). */
  async verifyPrepared(
    raw: unknown,
    party: string,
    fingerprint: string,
    binding?: ParticipantBinding,
  ): Promise<
    Outcome<{
      status: 'verified';
      sessionId: string;
      party: string;
      fingerprint: string;
      summary: TransactionSummaryWire;
      policy: PolicyWire;
    }>
  > {
    const parsed = PrepareResponseSchema.safeParse(raw);
    const hash = parsed.success ? parsed.data.preparedTransactionHash.slice(0, 200) : null;
    const bound = binding ?? (await bindParticipant(this.ctx.participant()));
    return this.refusals(
      { subject: 'prepared-transaction', channel: 'online', fingerprint, party, hash },
      async () => {
        if (!parsed.success)
          throw new SigningRefusal('BAD_REQUEST', 'UNDECODABLE_TRANSACTION', 'The participant answered prepare with an unexpected shape');
        const prepared: PrepareResponse = {
          preparedTransaction: parsed.data.preparedTransaction,
          preparedTransactionHash: parsed.data.preparedTransactionHash,
          hashingSchemeVersion: parsed.data.hashingSchemeVersion,
        };
        // the policy decides with everything this confirmation would do: online, with the party's keys that sign here
        const preview = await this.svc.checks.assess({
          fingerprint,
          party,
          prepared,
          channel: 'online',
          signatures: this.onlineSigners(party, fingerprint).length,
          // an offline request can ask every key of the party this console knows
          offlineSignatures: this.svc.keys.list().filter((k) => k.fingerprint === fingerprint || k.parties.includes(party)).length,
          fetchPackage: packageFetcher(this.ctx),
        });
        // refused on every path this console offers: already in the audit log, shown as a refusal
        if (preview.refusal) throw new SigningRefusal('FORBIDDEN', preview.refusal.reason, preview.refusal.message);
        this.gc();
        const sessionId = randomUUID();
        this.txSessions.set(sessionId, { binding: bound, party, fingerprint, prepared, summary: preview.summary, createdAt: Date.now() });
        return {
          status: 'verified' as const,
          sessionId,
          party,
          fingerprint,
          summary: summaryWire(preview.summary),
          policy: policyWire(preview),
        };
      },
      { auditVerification: true },
    );
  }

  discard(sessionId: string): boolean {
    return this.txSessions.delete(sessionId);
  }

  async confirm(req: { sessionId: string; mode: ExecuteMode; blindConfirmation?: string | undefined }): Promise<Outcome<ExecutionResult>> {
    const s = this.txSessions.get(req.sessionId);
    if (!s) throw new ConsoleError('NOT_FOUND', 'This transaction is no longer pending; prepare it again');
    const audit: RefusalAudit = {
      subject: 'prepared-transaction',
      channel: 'online',
      fingerprint: s.fingerprint,
      party: s.party,
      hash: s.summary.hashBase64,
    };
    // another profile is active (a switch, another tab): refused before anything is signed; the session stays for a switch back
    const active = this.ctx.participant();
    const sameProfile = await this.refusals(audit, () => checkSameProfile(s.binding, active));
    if (sameProfile) return sameProfile;
    // the participant behind the profile is asked who it is while the keys sign; nothing is sent unless it is the same
    const idNow = active.client.participantId().then((r) => r.participantId);
    idNow.catch(() => undefined);
    // k-of-n: the chosen key, plus the party's other keys on this machine that may sign online.
    const signers = this.onlineSigners(s.party, s.fingerprint);
    // every signer's policy is decided before any of them signs, so a refusal leaves no signature behind
    for (const fingerprint of signers.slice(1)) {
      const ok = await this.svc.signing
        .preview({
          fingerprint,
          party: s.party,
          prepared: s.prepared,
          channel: 'online',
          signatures: signers.length,
          fetchPackage: packageFetcher(this.ctx),
        })
        .then(
          (p) => p.policy.allowed,
          () => false,
        );
      if (!ok) {
        // the signing service decides again, audits the refusal and throws it
        const refused = await this.refusals(null, () =>
          this.svc.signing.sign({
            fingerprint,
            party: s.party,
            prepared: s.prepared,
            channel: 'online',
            signatures: signers.length,
            fetchPackage: packageFetcher(this.ctx),
          }),
        );
        if ('status' in refused) return refused;
        throw new ConsoleError('INTERNAL', 'The signing policy refused the preview but allowed the signature');
      }
    }
    const signatures: JsonPartySignatures['signatures'][number]['signatures'] = [];
    const auditSeqs: number[] = [];
    for (const fingerprint of signers) {
      const signed = await this.refusals(null, () =>
        this.svc.signing.sign({
          fingerprint,
          party: s.party,
          prepared: s.prepared,
          acknowledgeBlind: s.summary.mode === 'blind' && req.blindConfirmation?.trim() === BLIND_CONFIRMATION_WORD,
          channel: 'online',
          signatures: signers.length,
          fetchPackage: packageFetcher(this.ctx),
        }),
      );
      if ('status' in signed) return signed;
      signatures.push(signed.signature);
      auditSeqs.push(signed.auditSeq);
    }
    const sameParticipant = await this.refusals(audit, async () => checkSameParticipant(s.binding, await idNow));
    if (sameParticipant) return sameParticipant;
    this.txSessions.delete(req.sessionId);
    return executePrepared(active.client, s.prepared, s.party, { signatures: [{ party: s.party, signatures }] }, req.mode, auditSeqs);
  }

  /** The keys that sign for `party` when it is confirmed here: the chosen one, then its other local keys that may sign online. */
  private onlineSigners(party: string, chosen: string): string[] {
    const others = this.svc.keys
      .list()
      .filter(
        (k) => k.fingerprint !== chosen && k.parties.includes(party) && !this.svc.policies.get(k.fingerprint).requireOfflineConfirmation,
      )
      .map((k) => k.fingerprint);
    return [chosen, ...others];
  }

  private gc(): void {
    const cutoff = Date.now() - SESSION_TTL_MS;
    for (const [id, s] of this.txSessions) if (s.createdAt < cutoff) this.txSessions.delete(id);
  }
}
