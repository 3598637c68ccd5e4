/**
 * Onboarding of external parties: generate-topology → verify the multi-hash locally → (summary, confirm) → sign →
 * allocate; or, for an air-gapped key, an onboarding-request file out and its response file in. Also the air-gapped
 * side: inspect an onboarding-request file and sign its multi-hash with the local key.
 */
import { randomUUID } from 'node:crypto';
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import { ConsoleError } from '../../ipc/errors.js';
import type { LedgerClient } from '../ledger-client.js';
import {
  createOnboardingRequest,
  importOnboardingResponse,
  GenerateTopologyResponseSchema,
  SigningRefusal,
  verifyTopology,
  type GenerateTopologyResponse,
  type OnboardingRequest,
  type SigningServices,
  type TopologySummary,
} from '../signing/index.js';
import type { TopologySummaryWire } from '../../ipc/channels/signing.js';
import { refusals, SESSION_TTL_MS, type FlowContext, type Outcome, type RefusalAudit } from './context.js';
import { withSigningKeys } from './multi-key.js';
import { topologyWire } from './wire.js';
import { bindParticipant, checkSameParticipant, checkSameProfile, type ParticipantBinding } from './participant-binding.js';

/** Allocates the external party whose topology transactions are signed. */
function allocate(client: LedgerClient, body: v3_5.components['schemas']['AllocateExternalPartyRequest']) {
  return client.read(client.api.POST('/v2/parties/external/allocate', { body }));
}

interface OnboardSession {
  /** The profile and participant the topology was generated on: only there is it confirmed or exported. */
  binding: ParticipantBinding;
  fingerprint: string;
  /** Further keys of a k-of-n party (attached to the party once it is allocated). */
  extraFingerprints: string[];
  synchronizerId: string;
  topology: GenerateTopologyResponse;
  summary: TopologySummary;
  createdAt: number;
}
interface OfflineOnboarding {
  binding: ParticipantBinding;
  request: OnboardingRequest;
  fingerprint: string;
  headline: string;
  allocated: boolean;
}

export class OnboardingFlow {
  private readonly onboardSessions = new Map<string, OnboardSession>();
  private readonly onboardRequests = new Map<string, OfflineOnboarding>();

  constructor(private readonly ctx: FlowContext) {}

  private get svc(): SigningServices {
    return this.ctx.svc;
  }
  private refusals<T>(audit: RefusalAudit | null, fn: () => T | Promise<T>, opts?: { auditVerification?: boolean }) {
    return refusals(this.svc, audit, fn, opts);
  }

  discard(sessionId: string): boolean {
    return this.onboardSessions.delete(sessionId);
  }

  async onboardPrepare(req: {
    fingerprint: string;
    partyHint: string;
    observationOnly: boolean;
    extraFingerprints?: string[] | undefined;
    signingThreshold?: number | undefined;
    /** The synchronizer to host the party on; empty or absent = the first connected one. */
    synchronizerId?: string | undefined;
  }): Promise<Outcome<{ status: 'verified'; sessionId: string; summary: TopologySummaryWire }>> {
    const key = this.svc.keys.get(req.fingerprint);
    const extra = [...new Set(req.extraFingerprints ?? [])].filter((f) => f !== req.fingerprint).map((f) => this.svc.keys.get(f));
    const active = this.ctx.participant();
    const client = active.client;
    const [syncs, binding] = await Promise.all([client.connectedSynchronizers(), bindParticipant(active)]);
    const connected = (syncs.connectedSynchronizers ?? []).map((s) => s.synchronizerId);
    if (req.synchronizerId && !connected.includes(req.synchronizerId))
      throw new ConsoleError('BAD_REQUEST', `The participant is not connected to synchronizer ${req.synchronizerId}`, undefined, [
        { path: 'synchronizerId', message: 'not a connected synchronizer' },
      ]);
    const synchronizerId = req.synchronizerId || connected[0];
    if (!synchronizerId) throw new ConsoleError('CONFLICT', 'The participant is not connected to any synchronizer');
    const raw = await client.read(
      client.api.POST('/v2/parties/external/generate-topology', {
        body: {
          synchronizer: synchronizerId,
          partyHint: req.partyHint,
          publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: key.publicKeyBase64, keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' },
          ...(req.observationOnly ? { localParticipantObservationOnly: true } : {}),
        },
      }),
    );
    // Typed by the spec, but checked again: the verification below trusts nothing the participant sends.
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
        binding,
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
    const active = this.ctx.participant();
    const sameProfile = await this.refusals(this.audit(s, 'online'), () => checkSameProfile(s.binding, active));
    if (sameProfile) return sameProfile;
    this.onboardSessions.delete(sessionId);
    const signed = await this.refusals(null, () => this.svc.signing.signTopology({ fingerprint: s.fingerprint, topology: s.topology }));
    if ('status' in signed) return signed;
    try {
      const res = await allocate(active.client, {
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
    return this.refusals(
      this.audit(s, 'offline'),
      async () => {
        checkSameProfile(s.binding, this.ctx.participant());
        const { request, text } = await createOnboardingRequest({
          topology: s.topology,
          signer: { fingerprint: key.fingerprint, publicKeyBase64: key.publicKeyBase64 },
          participantId: s.binding.participantId,
          synchronizerId: s.synchronizerId,
          ttlMs: req.ttlMinutes * 60_000,
          note: s.summary.headline.slice(0, 500),
        });
        this.onboardRequests.set(request.requestId, {
          binding: s.binding,
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
    const active = this.ctx.participant();
    const sigs = await this.refusals(
      { subject: 'topology', channel: 'offline', fingerprint: r.fingerprint, party: topology.partyId, hash: topology.multiHash },
      async () => {
        checkSameProfile(r.binding, active);
        const verified = await importOnboardingResponse(r.request, req.text);
        checkSameParticipant(r.binding, (await active.client.participantId()).participantId);
        return verified;
      },
      { auditVerification: true },
    );
    if (!Array.isArray(sigs)) return sigs;
    const res = await allocate(active.client, {
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

  private audit(s: OnboardSession, channel: 'online' | 'offline'): RefusalAudit {
    return { subject: 'topology', channel, fingerprint: s.fingerprint, party: s.summary.partyId, hash: s.summary.multiHashBase64 };
  }

  private gc(): void {
    const cutoff = Date.now() - SESSION_TTL_MS;
    for (const [id, s] of this.onboardSessions) if (s.createdAt < cutoff) this.onboardSessions.delete(id);
  }
}
