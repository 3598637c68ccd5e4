/**
 * Orchestration of the signing services against a participant (plain Node, no Electron), one module per flow behind
 * this facade:
 *  - onboarding.ts: generate-topology → verify the multi-hash locally → (summary, confirm) → sign → allocate, online or
 *    by onboarding-request file, and the air-gapped side of that file;
 *  - online-signing.ts: compose → prepare → decode + recompute the V2 hash → summary + policy → (confirm) → sign → execute*;
 *  - offline-requests.ts: signing-request file for a verified prepare, k-of-n collection of response files, execute;
 *  - air-gapped.ts: inspect a request file, sign it with local keys, write the response file.
 * Refusals of the signing services (SigningRefusal) become `Refusal` values; every refusal is in the audit log (context.ts).
 */
import type { SigningServices } from '../signing/index.js';
import type { ComposeCommand, ExecuteMode } from '../../ipc/channels/signing.js';
import { AirGappedFlow } from './air-gapped.js';
import type { FlowContext } from './context.js';
import type { ActiveParticipant, ParticipantBinding } from './participant-binding.js';
import { OfflineRequestFlow } from './offline-requests.js';
import { OnboardingFlow } from './onboarding.js';
import { OnlineSigningFlow } from './online-signing.js';

export class SigningFlows {
  private readonly onboarding: OnboardingFlow;
  private readonly online: OnlineSigningFlow;
  private readonly offline: OfflineRequestFlow;
  private readonly airGapped: AirGappedFlow;

  constructor(
    private readonly svc: SigningServices,
    /** The active profile and its participant; throws when none is configured (the air-gapped console never calls it). */
    participant: () => ActiveParticipant,
  ) {
    const ctx: FlowContext = { svc, participant };
    this.onboarding = new OnboardingFlow(ctx);
    this.online = new OnlineSigningFlow(ctx);
    this.offline = new OfflineRequestFlow(ctx, this.online);
    this.airGapped = new AirGappedFlow(ctx);
  }

  // onboarding
  onboardPrepare(req: Parameters<OnboardingFlow['onboardPrepare']>[0]) {
    return this.onboarding.onboardPrepare(req);
  }
  onboardConfirm(sessionId: string) {
    return this.onboarding.onboardConfirm(sessionId);
  }
  onboardCreateRequest(req: { sessionId: string; ttlMinutes: number }) {
    return this.onboarding.onboardCreateRequest(req);
  }
  pendingOnboardings() {
    return this.onboarding.pendingOnboardings();
  }
  onboardImportResponse(req: { requestId: string; text: string }) {
    return this.onboarding.onboardImportResponse(req);
  }
  inspectOnboardingRequest(text: string) {
    return this.onboarding.inspectOnboardingRequest(text);
  }
  signOnboardingRequest(text: string) {
    return this.onboarding.signOnboardingRequest(text);
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

  // online signing
  prepare(req: { party: string; fingerprint: string; command: ComposeCommand }) {
    return this.online.prepare(req);
  }
  /**
   * Verification of a prepare response (also used by tests and the benchmark with a response they fetched); the session
   * is bound to `binding`, or to the active participant (read now) when none is given.
   */
  verifyPrepared(raw: unknown, party: string, fingerprint: string, binding?: ParticipantBinding) {
    return this.online.verifyPrepared(raw, party, fingerprint, binding);
  }
  discard(sessionId: string): boolean {
    return this.online.discard(sessionId) || this.onboarding.discard(sessionId);
  }
  confirm(req: { sessionId: string; mode: ExecuteMode; blindConfirmation?: string | undefined }) {
    return this.online.confirm(req);
  }

  // offline signing, online side
  createRequest(req: { sessionId: string; ttlMinutes: number; threshold?: number | undefined }) {
    return this.offline.createRequest(req);
  }
  pendingRequests() {
    return this.offline.pendingRequests();
  }
  importResponse(req: { requestId: string; text: string }) {
    return this.offline.importResponse(req);
  }
  executeRequest(req: { requestId: string; mode: ExecuteMode }) {
    return this.offline.executeRequest(req);
  }

  // offline signing, air-gapped side
  inspectRequest(text: string) {
    return this.airGapped.inspectRequest(text);
  }
  signRequest(req: { text: string; blindConfirmation?: string | undefined }) {
    return this.airGapped.signRequest(req);
  }
}
