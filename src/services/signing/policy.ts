/**
 * Per-key signing policy, evaluated against the verified summary before a hash is signed.
 * Scope: root actions (the choices/creates the party authorises directly); consequences below them are the
 * choice's own code. Counterparties and amounts: what the recogniser of a clear-signed transaction declares
 * (clear-sign/index.ts), or — not recognised — every other party in it and every numeric value found in arguments.
 */
import { z } from 'zod';
import type { AppDb } from '../app-db.js';
import { ConsoleError, zodIssues } from '../../ipc/errors.js';
import { clearSignPolicyFacts } from './clear-sign/index.js';
import { compareDecimal, DECIMAL_PATTERN } from './decimal.js';
import type { SigningRefusalReason } from './errors.js';
import type { TransactionSummary } from './prepared-transaction.js';

export const SigningPolicySchema = z.object({
  /** "Module:Entity" or "package-name:Module:Entity" (template or interface); null = any. */
  allowedTemplates: z.array(z.string().min(3)).nullable().default(null),
  /** Choice names; null = any. */
  allowedChoices: z.array(z.string().min(1)).nullable().default(null),
  /** Party ids; null = any. */
  allowedCounterparties: z.array(z.string().min(1)).nullable().default(null),
  /** Largest amount per transaction (decimal string); null = no limit. */
  maxAmountPerTransaction: z.string().regex(DECIMAL_PATTERN, 'A decimal amount like "1000" or "2.5"').nullable().default(null),
  /** Only sign through offline signing-request files (the air-gapped flow). */
  requireOfflineConfirmation: z.boolean().default(false),
  /** Allow hash-only signatures of transactions that cannot be clear-signed (still needs explicit acknowledgement). */
  allowBlindSigning: z.boolean().default(true),
});
export type SigningPolicy = z.infer<typeof SigningPolicySchema>;
export const DEFAULT_POLICY: SigningPolicy = SigningPolicySchema.parse({});

export type Channel = 'online' | 'offline';
export type PolicyDecision = { allowed: true } | { allowed: false; reason: SigningRefusalReason; message: string };

export class PolicyStore {
  constructor(private readonly db: AppDb) {}

  get(fingerprint: string): SigningPolicy {
    const row = this.db.prepare('SELECT policy_json FROM signing_policies WHERE fingerprint = ?').get(fingerprint) as
      { policy_json: string } | undefined;
    if (!row) return { ...DEFAULT_POLICY };
    return SigningPolicySchema.parse(JSON.parse(row.policy_json));
  }

  /** Validates and stores the policy (the key must exist). */
  set(fingerprint: string, policy: unknown): SigningPolicy {
    const parsed = SigningPolicySchema.safeParse(policy);
    if (!parsed.success) throw new ConsoleError('BAD_REQUEST', 'Invalid signing policy', undefined, zodIssues(parsed.error));
    const exists = this.db.prepare('SELECT 1 FROM signing_keys WHERE fingerprint = ?').get(fingerprint);
    if (!exists) throw new ConsoleError('NOT_FOUND', `No signing key with fingerprint ${fingerprint}`);
    this.db
      .prepare(
        'INSERT INTO signing_policies (fingerprint, policy_json, updated_at) VALUES (?, ?, ?) ON CONFLICT(fingerprint) DO UPDATE SET policy_json = excluded.policy_json, updated_at = excluded.updated_at',
      )
      .run(fingerprint, JSON.stringify(parsed.data), new Date().toISOString());
    return parsed.data;
  }
}

const refuse = (reason: SigningRefusalReason, message: string): PolicyDecision => ({ allowed: false, reason, message });

function templateAllowed(allowed: string[], template: string, qualified: string, iface: string | null): boolean {
  return allowed.some((a) => a === qualified || a === template || (iface !== null && a === iface));
}

export function evaluatePolicy(policy: SigningPolicy, summary: TransactionSummary, channel: Channel): PolicyDecision {
  if (policy.requireOfflineConfirmation && channel !== 'offline') {
    return refuse('POLICY_OFFLINE_ONLY', 'This key signs only through offline signing-request files');
  }
  if (summary.mode === 'blind' && !policy.allowBlindSigning) {
    return refuse('POLICY_BLIND_SIGNING', 'This key’s policy does not allow blind signing, and this transaction cannot be clear-signed');
  }
  const roots = summary.exercises.filter((e) => e.root);
  const rootCreates = summary.created.filter((c) => c.root);
  if (policy.allowedTemplates) {
    for (const e of roots) {
      if (!templateAllowed(policy.allowedTemplates, e.template, e.templateQualified, e.interface)) {
        return refuse(
          'POLICY_TEMPLATE',
          `Template ${e.templateQualified}${e.interface ? ` (via ${e.interface})` : ''} is not allowed for this key`,
        );
      }
    }
    for (const c of rootCreates) {
      if (!templateAllowed(policy.allowedTemplates, c.template, c.templateQualified, null)) {
        return refuse('POLICY_TEMPLATE', `Creating ${c.templateQualified} is not allowed for this key`);
      }
    }
  }
  if (policy.allowedChoices) {
    for (const e of roots) {
      if (!policy.allowedChoices.includes(e.choice)) return refuse('POLICY_CHOICE', `Choice ${e.choice} is not allowed for this key`);
    }
  }
  // a recognised transaction declares its counterparties and amounts (clear-sign registry); otherwise every other
  // party in it is a counterparty and every numeric value found in arguments an amount
  const declared = summary.clearSign ? clearSignPolicyFacts(summary.clearSign) : null;
  if (policy.allowedCounterparties) {
    const counterparties = declared?.counterparties ?? summary.parties.filter((p) => p !== summary.signingParty);
    const stranger = counterparties.find((p) => p !== summary.signingParty && !policy.allowedCounterparties!.includes(p));
    if (stranger) return refuse('POLICY_COUNTERPARTY', `Counterparty ${stranger} is not on this key’s allow-list`);
  }
  if (policy.maxAmountPerTransaction !== null) {
    const limit = policy.maxAmountPerTransaction;
    const over = (declared?.amounts ?? summary.amounts).find((a) => compareDecimal(a.value, limit) > 0);
    if (over)
      return refuse(
        'POLICY_AMOUNT',
        `Amount ${over.value}${declared ? '' : ` (${over.path})`} exceeds this key’s limit of ${limit} per transaction`,
      );
  }
  return { allowed: true };
}
