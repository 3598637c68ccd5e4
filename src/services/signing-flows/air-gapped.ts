/** Offline signing, air-gapped side: inspect a signing-request file, sign it with the local keys, write the response file. */
import { SigningRefusal, type SigningServices } from '../signing/index.js';
import { BLIND_CONFIRMATION_WORD, peekParty, refusals, type FlowContext, type RefusalAudit } from './context.js';
import { policyWire, summaryWire } from './wire.js';

export class AirGappedFlow {
  constructor(private readonly ctx: FlowContext) {}

  private get svc(): SigningServices {
    return this.ctx.svc;
  }
  private refusals<T>(audit: RefusalAudit | null, fn: () => T | Promise<T>, opts?: { auditVerification?: boolean }) {
    return refusals(this.svc, audit, fn, opts);
  }

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
          policy: ins.preview ? policyWire(ins.preview) : null,
          // which version of each local key's policy the requesting console checked, and which this console has
          policyVersions: ins.localSigners.map((fingerprint) => ({
            fingerprint,
            checked: (ins.request.version === 3 ? ins.request.policies : []).find((p) => p.fingerprint === fingerprint)?.version ?? null,
            here: this.svc.policies.record(fingerprint).version,
          })),
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
}
