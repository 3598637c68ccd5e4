/**
 * The policy at the two places where no signature is made by this console, and where a refusal must still be
 * decided and recorded:
 *  - before signing, when a screen shows what a key would do (the sign button then is disabled): `assess` says whether
 *    the policy refuses the transaction on every path this console offers, and writes that refusal to the audit log;
 *  - before executing signatures made elsewhere (offline responses, whoever made them): `checkExecution` re-evaluates
 *    the current policy of every signing key on this console, quorum included, and refuses (audited) on a violation.
 */
import type { AuditLog } from './audit-log.js';
import { SigningRefusal, type SigningRefusalReason } from './errors.js';
import type { KeyStore } from './key-store.js';
import { evaluatePolicy, requiredSignatures, type PolicyDecision } from './policy.js';
import type { PolicyStore } from './policy-store.js';
import type { TransactionSummary } from './prepared-transaction.js';
import type { SignPreparedRequest, SigningService } from './signing-service.js';

export interface Assessment {
  summary: TransactionSummary;
  /** The decision for the channel asked (online: signing here now; offline: signing this request file). */
  policy: PolicyDecision;
  /** Whether the policy's rules allow the transaction through an offline signing request (what to offer online instead). */
  offlineAllowed: boolean;
  /** Set when no path this console offers can sign it: the policy's refusal, already in the audit log. */
  refusal: { reason: SigningRefusalReason; message: string; auditSeq: number } | null;
  policyVersion: { version: number; digest: string };
}

/** Online refusals that an offline signing request can resolve (when the rules allow it offline). */
const ROUTED_OFFLINE: ReadonlySet<string> = new Set(['POLICY_OFFLINE_ONLY', 'POLICY_QUORUM']);

export class PolicyChecks {
  constructor(
    private readonly keys: KeyStore,
    private readonly policies: PolicyStore,
    private readonly signing: SigningService,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Verifies the transaction and decides the key's policy for a confirmation screen. A refusal (one that no offline
   * request would resolve) is appended to the audit log once, with the rule and the transaction hash.
   */
  async assess(
    req: Omit<SignPreparedRequest, 'acknowledgeBlind'> & {
      /** How many signatures an offline request for it could collect (the party's keys this console knows); default: no limit. */
      offlineSignatures?: number;
    },
  ): Promise<Assessment> {
    const channel = req.channel ?? 'online';
    const preview = await this.signing.preview(req);
    const { summary } = preview;
    const policy = this.policies.get(req.fingerprint);
    const rules = evaluatePolicy(policy, summary, 'offline');
    const need = requiredSignatures(policy, summary);
    // what an offline request would meet: the rules, and a quorum no larger than the signatures it can collect
    const offlineRules: PolicyDecision =
      rules.allowed && need.count > (req.offlineSignatures ?? Number.POSITIVE_INFINITY)
        ? {
            allowed: false,
            reason: 'POLICY_QUORUM',
            message:
              `Above ${policy.quorum?.above ?? '?'} this key signs only as one of ${need.count} signatures, ` +
              `but ${req.offlineSignatures ?? 0} can be collected for this transaction`,
          }
        : rules;
    const base = { summary, policy: preview.policy, offlineAllowed: offlineRules.allowed, policyVersion: preview.policyVersion };
    if (preview.policy.allowed) return { ...base, refusal: null };
    if (channel === 'online' && ROUTED_OFFLINE.has(preview.policy.reason) && offlineRules.allowed) return { ...base, refusal: null };
    // online "sign offline" when offline refuses too: the refusal is the rule that refuses offline
    const effective = ROUTED_OFFLINE.has(preview.policy.reason) && !offlineRules.allowed ? offlineRules : preview.policy;
    const seq = this.audit.append({
      decision: 'refused',
      subject: 'prepared-transaction',
      channel,
      reason: effective.reason,
      message: `${effective.message} (shown before signing; nothing can be signed)`,
      fingerprint: req.fingerprint,
      party: req.party,
      hash: summary.hashBase64,
      summary: summary.headline,
    }).entry.seq;
    return { ...base, policy: effective, refusal: { reason: effective.reason, message: effective.message, auditSeq: seq } };
  }

  /**
   * Before signatures made elsewhere are accepted or executed: every signer must be a key on this console whose current
   * policy allows the transaction as an offline signature among `signatures` signatures. Refusals are audited and thrown.
   */
  async checkExecution(
    req: Pick<SignPreparedRequest, 'party' | 'prepared' | 'fetchPackage'> & {
      /** The keys whose signatures are checked. */
      signers: string[];
      /** How many distinct signatures the transaction goes out with (default: the signers): the quorum rule counts them. */
      signatures?: number;
    },
  ): Promise<void> {
    for (const fingerprint of req.signers) {
      const key = this.keys.find(fingerprint);
      let refusal: SigningRefusal | null = null;
      let summary: TransactionSummary | null = null;
      if (!key) {
        refusal = new SigningRefusal(
          'FORBIDDEN',
          'WRONG_KEY',
          `The signature by key ${fingerprint} cannot be checked against its policy: the key is not on this console`,
        );
      } else {
        const preview = await this.signing.preview({
          fingerprint,
          party: req.party,
          prepared: req.prepared,
          channel: 'offline',
          signatures: req.signatures ?? req.signers.length,
          ...(req.fetchPackage ? { fetchPackage: req.fetchPackage } : {}),
        });
        summary = preview.summary;
        if (!preview.policy.allowed) {
          refusal = new SigningRefusal(
            'FORBIDDEN',
            preview.policy.reason,
            `${preview.policy.message} — refused at execution: this console’s policy (version ${preview.policyVersion.version}) ` +
              `does not allow what key ${key.label} signed, so the transaction is not sent`,
          );
        }
      }
      if (refusal) {
        this.audit.append({
          decision: 'refused',
          subject: 'prepared-transaction',
          channel: 'offline',
          reason: refusal.reason,
          message: refusal.message,
          fingerprint,
          party: req.party,
          hash: summary?.hashBase64 ?? req.prepared.preparedTransactionHash.slice(0, 200),
          summary: summary?.headline ?? '(signature made elsewhere, refused before execution)',
        });
        throw refusal;
      }
    }
  }
}
