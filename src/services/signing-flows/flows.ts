/**
 * Online orchestration of the signing services against a participant (plain Node, no Electron):
 *  - onboarding: generate-topology → verify the multi-hash locally → (summary, confirm) → sign → allocate;
 *  - signing: compose → prepare → decode + recompute the V2 hash → summary + policy → (confirm) → sign → execute*;
 *  - offline: signing-request file for a verified prepare, k-of-n collection of response files, execute;
 *  - the air-gapped side: inspect a request file, sign it with local keys, write the response file.
 * What the participant sends is held here (by session id) between the summary and the confirmation, so the
 * renderer confirms exactly the transaction that was verified and never sends one back.
 * Refusals of the signing services (SigningRefusal) become `Refusal` values; every refusal is in the audit log.
 */
import { randomUUID } from 'node:crypto';
import { ConsoleError } from '../../ipc/errors.js';
import type { LedgerClient } from '../ledger-client.js';
import { fetchUpdate } from '../ledger/updates.js';
import { UpdateFilterSchema } from '../../ipc/channels/updates.js';
import {
  createOnboardingRequest,
  importOnboardingResponse,
  type OnboardingRequest,
  createSigningRequest,
  executeSubmissionRequest,
  GenerateTopologyResponseSchema,
  PrepareResponseSchema,
  SignatureCollector,
  SigningRefusal,
  verifyTopology,
  clearSignWire,
  type GenerateTopologyResponse,
  type JsonPartySignatures,
  type PolicyDecision,
  type PrepareResponse,
  type SigningServices,
  type TopologySummary,
  type TransactionSummary,
} from '../signing/index.js';
import { withSigningKeys } from './multi-key.js';
import type {
  ComposeCommand,
  ExecuteMode,
  ExecutionResult,
  Refusal,
  TopologySummaryWire,
  TransactionSummaryWire,
} from '../../ipc/channels/signing.js';

/** Typed by the operator to confirm a blind (hash-only) signature. */
export const BLIND_CONFIRMATION_WORD = 'BLIND';
/** Pending sessions older than this are dropped (the prepared transaction would be stale anyway). */
export const SESSION_TTL_MS = 30 * 60_000;

interface TxSession {
  party: string;
  fingerprint: string;
  prepared: PrepareResponse;
  summary: TransactionSummary;
  createdAt: number;
}
interface OnboardSession {
  fingerprint: string;
  /** Further keys of a k-of-n party (attached to the party once it is allocated). */
  extraFingerprints: string[];
  synchronizerId: string;
  topology: GenerateTopologyResponse;
  summary: TopologySummary;
  createdAt: number;
}
interface OfflineRequest {
  requestId: string;
  party: string;
  headline: string;
  expiresAt: string;
  prepared: PrepareResponse;
  collector: SignatureCollector;
  executed: boolean;
}

interface OfflineOnboarding {
  request: OnboardingRequest;
  fingerprint: string;
  headline: string;
  allocated: boolean;
}

export type Outcome<T> = T | Refusal;

export class SigningFlows {
  private readonly txSessions = new Map<string, TxSession>();
  private readonly onboardSessions = new Map<string, OnboardSession>();
  private readonly requests = new Map<string, OfflineRequest>();
  private readonly onboardRequests = new Map<string, OfflineOnboarding>();

  constructor(
    private readonly svc: SigningServices,
    /** The active participant; throws when none is configured (the air-gapped console never calls it). */
    private readonly client: () => LedgerClient,
  ) {}

  // ---------------------------------------------------------------- onboarding

  async onboardPrepare(req: {
    fingerprint: string;
    partyHint: string;
    observationOnly: boolean;
    extraFingerprints?: string[] | undefined;
    signingThreshold?: number | undefined;
  }): Promise<Outcome<{ status: 'verified'; sessionId: string; summary: TopologySummaryWire }>> {
    const key = this.svc.keys.get(req.fingerprint);
    const extra = [...new Set(req.extraFingerprints ?? [])].filter((f) => f !== req.fingerprint).map((f) => this.svc.keys.get(f));
    const client = this.client();
    const syncs = await client.connectedSynchronizers();
    const synchronizerId = syncs.connectedSynchronizers?.[0]?.synchronizerId;
    if (!synchronizerId) throw new ConsoleError('CONFLICT', 'The participant is not connected to any synchronizer');
    const raw = await client.postJson<unknown>('/v2/parties/external/generate-topology', {
      synchronizer: synchronizerId,
      partyHint: req.partyHint,
      publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: key.publicKeyBase64, keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' },
      ...(req.observationOnly ? { localParticipantObservationOnly: true } : {}),
    });
    const parsed = GenerateTopologyResponseSchema.safeParse(raw);
    return this.refusals({ subject: 'topology', channel: 'online', fingerprint: req.fingerprint, party: null, hash: null }, async () => {
      if (!parsed.success)
        throw new SigningRefusal(
          'BAD_REQUEST',
          'UNDECODABLE_TRANSACTION',
          'The participant answered generate-topology with an unexpected shape',
        );
      // The participant's answer is verified as received; a k-of-n mapping is then built from it and verified again.
      await verifyTopology(parsed.data, req.fingerprint);
      const topology =
        extra.length > 0
          ? await withSigningKeys(
              parsed.data,
              extra.map((k) => ({ fingerprint: k.fingerprint, publicKey: Uint8Array.from(Buffer.from(k.publicKeyHex, 'hex')) })),
              req.signingThreshold ?? 1,
            )
          : parsed.data;
      const verified = await verifyTopology(topology, req.fingerprint);
      this.gc();
      const sessionId = randomUUID();
      this.onboardSessions.set(sessionId, {
        fingerprint: req.fingerprint,
        extraFingerprints: extra.map((k) => k.fingerprint),
        synchronizerId,
        topology,
        summary: verified.summary,
        createdAt: Date.now(),
      });
      return { status: 'verified' as const, sessionId, summary: topologyWire(verified.summary, verified.multiHash) };
    });
  }

  async onboardConfirm(
    sessionId: string,
  ): Promise<Outcome<{ status: 'allocated'; partyId: string; key: ReturnType<SigningServices['keys']['get']>; auditSeq: number }>> {
    const s = this.onboardSessions.get(sessionId);
    if (!s) throw new ConsoleError('NOT_FOUND', 'This onboarding is no longer pending; start again');
    this.onboardSessions.delete(sessionId);
    const signed = await this.refusals(null, () => this.svc.signing.signTopology({ fingerprint: s.fingerprint, topology: s.topology }));
    if ('status' in signed) return signed;
    try {
      const res = await this.client().postJson<{ partyId: string }>('/v2/parties/external/allocate', {
        synchronizer: s.synchronizerId,
        onboardingTransactions: s.topology.topologyTransactions.map((transaction) => ({ transaction })),
        multiHashSignatures: signed.multiHashSignatures,
      });
      for (const f of s.extraFingerprints) this.svc.keys.attachParty(f, res.partyId);
      return { status: 'allocated', partyId: res.partyId, key: this.svc.keys.get(s.fingerprint), auditSeq: signed.auditSeq };
    } catch (err) {
      // The party was attached to the key when its topology was signed; it does not exist after all.
      this.svc.keys.detachParty(s.fingerprint, s.summary.partyId);
      throw err;
    }
  }

  // ---------------------------------------------------------------- offline onboarding

  /** Online side: writes an onboarding-request file for a verified onboarding session (single-key parties). */
  async onboardCreateRequest(req: { sessionId: string; ttlMinutes: number }) {
    const s = this.onboardSessions.get(req.sessionId);
    if (!s) throw new ConsoleError('NOT_FOUND', 'This onboarding is no longer pending; start again');
    if (s.extraFingerprints.length > 0) {
      throw new ConsoleError(
        'BAD_REQUEST',
        'Offline onboarding by file covers single-key parties; onboard a k-of-n party online',
        undefined,
        [{ path: 'sessionId', message: 'k-of-n onboarding is online only' }],
      );
    }
    const key = this.svc.keys.get(s.fingerprint);
    const participantId = (await this.client().participantId()).participantId;
    return this.refusals(
      { subject: 'topology', channel: 'offline', fingerprint: s.fingerprint, party: s.summary.partyId, hash: s.summary.multiHashBase64 },
      async () => {
        const { request, text } = await createOnboardingRequest({
          topology: s.topology,
          signer: { fingerprint: key.fingerprint, publicKeyBase64: key.publicKeyBase64 },
          participantId,
          synchronizerId: s.synchronizerId,
          ttlMs: req.ttlMinutes * 60_000,
          note: s.summary.headline.slice(0, 500),
        });
        this.onboardRequests.set(request.requestId, {
          request,
          fingerprint: s.fingerprint,
          headline: s.summary.headline,
          allocated: false,
        });
        this.onboardSessions.delete(req.sessionId);
        return {
          status: 'created' as const,
          requestId: request.requestId,
          partyId: request.topology.partyId,
          fileName: `onboarding-request-${request.requestId.slice(0, 8)}.json`,
          text,
          expiresAt: request.expiresAt,
        };
      },
      { auditVerification: true },
    );
  }

  pendingOnboardings() {
    return [...this.onboardRequests.values()]
      .filter((r) => !r.allocated)
      .map((r) => ({
        requestId: r.request.requestId,
        partyId: r.request.topology.partyId,
        headline: r.headline,
        expiresAt: r.request.expiresAt,
      }));
  }

  /** Online side: checks the response file (id, digest, party, key, signature over the recomputed multi-hash) and allocates. */
  async onboardImportResponse(req: {
    requestId: string;
    text: string;
  }): Promise<Outcome<{ status: 'allocated'; partyId: string; key: ReturnType<SigningServices['keys']['get']> }>> {
    const r = this.onboardRequests.get(req.requestId);
    if (!r || r.allocated) throw new ConsoleError('NOT_FOUND', `No pending onboarding request ${req.requestId} on this console`);
    const topology = r.request.topology;
    const sigs = await this.refusals(
      { subject: 'topology', channel: 'offline', fingerprint: r.fingerprint, party: topology.partyId, hash: topology.multiHash },
      () => importOnboardingResponse(r.request, req.text),
      { auditVerification: true },
    );
    if (!Array.isArray(sigs)) return sigs;
    const res = await this.client().postJson<{ partyId: string }>('/v2/parties/external/allocate', {
      synchronizer: r.request.synchronizerId,
      onboardingTransactions: topology.topologyTransactions.map((transaction) => ({ transaction })),
      multiHashSignatures: sigs,
    });
    r.allocated = true;
    return { status: 'allocated', partyId: res.partyId, key: this.svc.keys.attachParty(r.fingerprint, res.partyId) };
  }

  /** Air-gapped side: what an onboarding-request file asks to sign. */
  async inspectOnboardingRequest(text: string) {
    return this.refusals(
      { subject: 'topology', channel: 'offline', fingerprint: null, party: null, hash: null },
      async () => {
        const ins = await this.svc.offline.inspectOnboarding(text);
        return {
          status: 'verified' as const,
          requestId: ins.request.requestId,
          participantId: ins.request.participantId,
          createdAt: ins.request.createdAt,
          expiresAt: ins.request.expiresAt,
          signer: { fingerprint: ins.request.signer.fingerprint, label: ins.keyLabel },
          note: ins.request.note ?? null,
          summary: topologyWire(ins.summary, ins.multiHash),
        };
      },
      { auditVerification: true },
    );
  }

  /** Air-gapped side: signs the onboarding multi-hash and returns the response file. */
  async signOnboardingRequest(text: string) {
    return this.refusals(null, async () => {
      const res = await this.svc.offline.signOnboarding(text);
      return {
        status: 'signed' as const,
        fileName: `onboarding-response-${res.response.requestId.slice(0, 8)}.json`,
        text: res.text,
        partyId: res.response.partyId,
        headline: res.summary.headline,
      };
    });
  }

  /** External parties known to this console: the parties attached to its keys. */
  parties(): Array<{ party: string; keys: Array<{ fingerprint: string; label: string }> }> {
    const byParty = new Map<string, Array<{ fingerprint: string; label: string }>>();
    for (const k of this.svc.keys.list()) {
      for (const p of k.parties) {
        const list = byParty.get(p) ?? [];
        list.push({ fingerprint: k.fingerprint, label: k.label });
        byParty.set(p, list);
      }
    }
    return [...byParty].map(([party, keys]) => ({ party, keys }));
  }

  // ---------------------------------------------------------------- online signing

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
    const raw = await this.client().postJson<unknown>('/v2/interactive-submission/prepare', {
      commandId: `console-${randomUUID()}`,
      actAs: [req.party],
      commands: [command],
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    });
    return this.verifyPrepared(raw, req.party, req.fingerprint);
  }

  /** Verification of a prepare response (also used by tests and the benchmark with a response they fetched). */
  async verifyPrepared(
    raw: unknown,
    party: string,
    fingerprint: string,
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
        const preview = await this.svc.signing.preview({ fingerprint, party, prepared, channel: 'online' });
        if (!preview.policy.allowed && preview.policy.reason !== 'POLICY_OFFLINE_ONLY') {
          // Sign through the service so the refusal is decided and audited by it (it will refuse).
          await this.svc.signing.sign({ fingerprint, party, prepared, channel: 'online' });
          throw new ConsoleError('INTERNAL', 'The signing policy refused the preview but allowed the signature');
        }
        this.gc();
        const sessionId = randomUUID();
        this.txSessions.set(sessionId, { party, fingerprint, prepared, summary: preview.summary, createdAt: Date.now() });
        return {
          status: 'verified' as const,
          sessionId,
          party,
          fingerprint,
          summary: summaryWire(preview.summary),
          policy: policyWire(preview.policy),
        };
      },
      { auditVerification: true },
    );
  }

  discard(sessionId: string): boolean {
    return this.txSessions.delete(sessionId) || this.onboardSessions.delete(sessionId);
  }

  async confirm(req: { sessionId: string; mode: ExecuteMode; blindConfirmation?: string | undefined }): Promise<Outcome<ExecutionResult>> {
    const s = this.txSessions.get(req.sessionId);
    if (!s) throw new ConsoleError('NOT_FOUND', 'This transaction is no longer pending; prepare it again');
    // k-of-n: the chosen key, plus the party's other keys on this machine that may sign online.
    const others = this.svc.keys
      .list()
      .filter(
        (k) =>
          k.fingerprint !== s.fingerprint &&
          k.parties.includes(s.party) &&
          !this.svc.policies.get(k.fingerprint).requireOfflineConfirmation,
      )
      .map((k) => k.fingerprint);
    const signatures: JsonPartySignatures['signatures'][number]['signatures'] = [];
    const auditSeqs: number[] = [];
    for (const fingerprint of [s.fingerprint, ...others]) {
      const signed = await this.refusals(null, () =>
        this.svc.signing.sign({
          fingerprint,
          party: s.party,
          prepared: s.prepared,
          acknowledgeBlind: s.summary.mode === 'blind' && req.blindConfirmation?.trim() === BLIND_CONFIRMATION_WORD,
          channel: 'online',
        }),
      );
      if ('status' in signed) return signed;
      signatures.push(signed.signature);
      auditSeqs.push(signed.auditSeq);
    }
    this.txSessions.delete(req.sessionId);
    return this.execute(s.prepared, s.party, { signatures: [{ party: s.party, signatures }] }, req.mode, auditSeqs);
  }

  // ---------------------------------------------------------------- offline: online side

  async createRequest(req: { sessionId: string; ttlMinutes: number; threshold?: number | undefined }) {
    const s = this.txSessions.get(req.sessionId);
    if (!s) throw new ConsoleError('NOT_FOUND', 'This transaction is no longer pending; prepare it again');
    const signers = this.svc.keys
      .list()
      .filter((k) => k.parties.includes(s.party) || k.fingerprint === s.fingerprint)
      .map((k) => ({ fingerprint: k.fingerprint, publicKeyBase64: k.publicKeyBase64 }));
    const participantId = (await this.client().participantId()).participantId;
    return this.refusals(null, async () => {
      const { request, text } = await createSigningRequest({
        prepared: s.prepared,
        party: s.party,
        signers,
        threshold: req.threshold ?? 1,
        participantId,
        ttlMs: req.ttlMinutes * 60_000,
        note: s.summary.headline.slice(0, 500),
      });
      const entry: OfflineRequest = {
        requestId: request.requestId,
        party: s.party,
        headline: s.summary.headline,
        expiresAt: request.expiresAt,
        prepared: s.prepared,
        collector: new SignatureCollector(request),
        executed: false,
      };
      this.requests.set(request.requestId, entry);
      this.txSessions.delete(req.sessionId);
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
    return this.refusals(null, async () => {
      const res = await r.collector.add(req.text);
      return { status: 'collected' as const, added: res.added, alreadyCollected: res.alreadyCollected, collector: this.collectorStatus(r) };
    });
  }

  async executeRequest(req: { requestId: string; mode: ExecuteMode }): Promise<Outcome<ExecutionResult>> {
    const r = this.requests.get(req.requestId);
    if (!r) throw new ConsoleError('NOT_FOUND', `No pending signing request ${req.requestId} on this console`);
    const sigs = await this.refusals(null, async () => r.collector.partySignatures());
    if ('status' in sigs) return sigs;
    const result = await this.execute(r.prepared, r.party, sigs, req.mode, []);
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

  // ---------------------------------------------------------------- offline: air-gapped side

  async inspectRequest(text: string) {
    return this.refusals(
      { subject: 'prepared-transaction', channel: 'offline', fingerprint: null, party: peekParty(text), hash: null },
      async () => {
        const ins = await this.svc.offline.inspect(text);
        if (ins.localSigners.length === 0) {
          throw new SigningRefusal(
            'NOT_FOUND',
            'WRONG_KEY',
            `None of the request’s keys (${ins.request.signers.map((s) => s.fingerprint).join(', ')}) is on this machine`,
          );
        }
        return {
          status: 'verified' as const,
          requestId: ins.request.requestId,
          party: ins.request.party,
          participantId: ins.request.participantId,
          createdAt: ins.request.createdAt,
          expiresAt: ins.request.expiresAt,
          threshold: ins.request.threshold,
          signers: ins.request.signers.map((s) => ({
            fingerprint: s.fingerprint,
            local: ins.localSigners.includes(s.fingerprint),
            label: this.svc.keys.find(s.fingerprint)?.label ?? null,
          })),
          note: ins.request.note ?? null,
          summary: ins.preview ? summaryWire(ins.preview.summary) : null,
          policy: ins.preview ? policyWire(ins.preview.policy) : null,
        };
      },
      { auditVerification: true },
    );
  }

  async signRequest(req: { text: string; blindConfirmation?: string | undefined }) {
    return this.refusals(null, async () => {
      const res = await this.svc.offline.sign(req.text, { acknowledgeBlind: req.blindConfirmation?.trim() === BLIND_CONFIRMATION_WORD });
      return {
        status: 'signed' as const,
        fileName: `signature-response-${res.response.requestId.slice(0, 8)}.json`,
        text: res.text,
        signedBy: res.response.signatures.map((s) => s.signedBy),
        headline: res.summary.headline,
      };
    });
  }

  // ---------------------------------------------------------------- shared

  private async execute(
    prepared: PrepareResponse,
    party: string,
    partySignatures: JsonPartySignatures,
    mode: ExecuteMode,
    auditSeqs: number[],
  ): Promise<ExecutionResult> {
    const submissionId = randomUUID();
    const body = executeSubmissionRequest(prepared, partySignatures, { submissionId });
    const client = this.client();
    if (mode === 'execute') {
      await client.postJson('/v2/interactive-submission/execute', body);
      return { status: 'executed', mode, submissionId, updateId: null, offset: null, events: [], auditSeqs };
    }
    if (mode === 'executeAndWait') {
      const r = await client.postJson<{ updateId: string; completionOffset: number }>('/v2/interactive-submission/executeAndWait', body);
      let events: ExecutionResult['events'] = [];
      try {
        const detail = await fetchUpdate(client, UpdateFilterSchema.parse({ parties: [party], shape: 'LEDGER_EFFECTS' }), {
          updateId: r.updateId,
        });
        events = detail.events.map((e) => ({
          kind: e.kind,
          templateId: e.templateId,
          contractId: e.contractId,
          choice: e.choice,
          json: e.json,
        }));
      } catch {
        // The transaction is committed; its events are a convenience.
      }
      return { status: 'executed', mode, submissionId, updateId: r.updateId, offset: r.completionOffset, events, auditSeqs };
    }
    const r = await client.postJson<{
      transaction: { updateId: string; offset: number; events?: Array<Record<string, Record<string, unknown>>> };
    }>('/v2/interactive-submission/executeAndWaitForTransaction', {
      ...body,
      transactionFormat: {
        transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
        eventFormat: { filtersByParty: { [party]: {} }, verbose: true },
      },
    });
    const events = (r.transaction.events ?? []).map((ev) => {
      const [kind, value] = Object.entries(ev)[0] ?? ['unknown', {}];
      const str = (v: unknown) => (typeof v === 'string' ? v : null);
      return {
        kind: kind.replace(/Event$/, '').toLowerCase(),
        templateId: str(value?.templateId),
        contractId: str(value?.contractId),
        choice: str(value?.choice),
        json: JSON.stringify(ev, null, 2),
      };
    });
    return { status: 'executed', mode, submissionId, updateId: r.transaction.updateId, offset: r.transaction.offset, events, auditSeqs };
  }

  /**
   * Runs `fn`; a SigningRefusal becomes a Refusal value. With `auditVerification`, refusals raised by verification
   * (which the signing service does not audit itself) are appended to the audit log here.
   */
  private async refusals<T>(
    ctx: {
      subject: 'topology' | 'prepared-transaction';
      channel: 'online' | 'offline';
      fingerprint: string | null;
      party: string | null;
      hash: string | null;
    } | null,
    fn: () => Promise<T>,
    opts: { auditVerification?: boolean } = { auditVerification: true },
  ): Promise<T | Refusal> {
    const before = this.headSeq();
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof SigningRefusal)) throw err;
      let auditSeq = this.headSeq();
      if (auditSeq === before && ctx && opts.auditVerification !== false) {
        auditSeq = this.svc.audit.append({
          decision: 'refused',
          subject: ctx.subject,
          channel: ctx.channel,
          reason: err.reason,
          message: err.message,
          fingerprint: ctx.fingerprint,
          party: ctx.party,
          hash: ctx.hash,
          summary: '(refused before signing: the request did not pass verification)',
        }).entry.seq;
      }
      return { status: 'refused', reason: err.reason, message: err.message, auditSeq: auditSeq === before ? null : auditSeq };
    }
  }

  private headSeq(): number {
    return this.svc.audit.list({ limit: 1 })[0]?.entry.seq ?? 0;
  }

  private gc(): void {
    const cutoff = Date.now() - SESSION_TTL_MS;
    for (const [id, s] of this.txSessions) if (s.createdAt < cutoff) this.txSessions.delete(id);
    for (const [id, s] of this.onboardSessions) if (s.createdAt < cutoff) this.onboardSessions.delete(id);
  }
}

type PolicyWire = { allowed: boolean; reason: string | null; message: string | null };
function policyWire(p: PolicyDecision): PolicyWire {
  return p.allowed ? { allowed: true, reason: null, message: null } : { allowed: false, reason: p.reason, message: p.message };
}

/** Turns the composer's form into a JSON API command; bad JSON is a BAD_REQUEST naming the field. */
export function buildCommand(c: ComposeCommand): Record<string, unknown> {
  const args = parseArgs(c.argumentsJson, c.kind === 'create' ? 'createArguments' : 'choiceArgument');
  const templateId = c.templateId.startsWith('#') || /^[0-9a-f]{64}:/.test(c.templateId) ? c.templateId : `#${c.templateId}`;
  if (c.kind === 'create') {
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new ConsoleError('BAD_REQUEST', 'Create arguments must be a JSON object', undefined, [
        { path: 'argumentsJson', message: 'Create arguments must be a JSON object (a record)' },
      ]);
    }
    return { CreateCommand: { templateId, createArguments: args } };
  }
  return { ExerciseCommand: { templateId, contractId: c.contractId, choice: c.choice, choiceArgument: args } };
}

function parseArgs(text: string, field: string): unknown {
  const t = text.trim();
  if (t === '') return {};
  try {
    return JSON.parse(t) as unknown;
  } catch (err) {
    throw new ConsoleError('BAD_REQUEST', `The ${field} are not valid JSON`, undefined, [
      { path: 'argumentsJson', message: `Not valid JSON: ${(err as Error).message}` },
    ]);
  }
}

function peekParty(text: string): string | null {
  try {
    const p = (JSON.parse(text) as { party?: unknown }).party;
    return typeof p === 'string' ? p.slice(0, 300) : null;
  } catch {
    return null;
  }
}

export function topologyWire(s: TopologySummary, multiHash: Uint8Array): TopologySummaryWire {
  return {
    partyId: s.partyId,
    publicKeyFingerprint: s.publicKeyFingerprint,
    multiHashBase64: s.multiHashBase64,
    multiHashHex: Buffer.from(multiHash).toString('hex'),
    signingKeys: (() => {
      const m = s.transactions.find((t) => t.kind === 'PartyToKeyMapping');
      return m ? { threshold: m.threshold ?? 1, fingerprints: m.keyFingerprints ?? [] } : null;
    })(),
    transactions: s.transactions.map((t) => ({ operation: t.operation, serial: t.serial, kind: t.kind, description: t.description })),
    hostingParticipants: s.hostingParticipants,
    confirmationThreshold: s.confirmationThreshold,
    headline: s.headline,
    warnings: s.warnings,
  };
}

export function summaryWire(s: TransactionSummary): TransactionSummaryWire {
  return {
    headline: s.headline,
    mode: s.mode,
    hashBase64: s.hashBase64,
    hashHex: s.hashHex,
    hashingSchemeVersion: s.hashingSchemeVersion,
    signingParty: s.signingParty,
    actAs: s.actAs,
    commandId: s.commandId,
    synchronizerId: s.synchronizerId,
    preparationTime: s.preparationTime,
    templates: s.templates,
    exercises: s.exercises.map((e) => ({
      nodeId: e.nodeId,
      root: e.root,
      template: e.template,
      interface: e.interface,
      choice: e.choice,
      contractId: e.contractId,
      actingParties: e.actingParties,
      consuming: e.consuming,
    })),
    created: s.created.map((c) => ({
      nodeId: c.nodeId,
      root: c.root,
      template: c.template,
      contractId: c.contractId,
      signatories: c.signatories,
      stakeholders: c.stakeholders,
    })),
    consumed: s.consumed,
    inputs: s.inputs,
    parties: s.parties,
    amounts: s.amounts.map((a) => ({ nodeId: a.nodeId, path: a.path, value: a.value })),
    clearSign: s.clearSign ? clearSignWire(s.clearSign) : null,
    warnings: s.warnings,
  };
}
