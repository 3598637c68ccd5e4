/**
 * Per-key signing policy, evaluated against the verified summary before a hash is signed (stored, versioned and
 * audited by policy-store.ts; compared by policy-compare.ts).
 * Scope: root actions (the choices/creates the party authorises directly); consequences below them are the
 * choice's own code. Counterparties and amounts: what the recogniser of a clear-signed transaction declares
 * (clear-sign/index.ts), or — not recognised — every other party in it and every numeric value found in arguments.
 */
import { z } from 'zod';
import { sha256Hex } from './bytes.js';
import { canonicalJson } from './canonical-json.js';
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
  /**
   * Quorum: a transaction moving more than `above` needs the signatures of at least `signatures` distinct keys of the
   * party (k of the party's n keys); this key signs it only as one of them. null = no quorum.
   */
  quorum: z
    .object({
      above: z.string().regex(DECIMAL_PATTERN, 'A decimal amount like "10000"'),
      signatures: z.number().int().min(2, 'A quorum needs at least 2 signatures').max(32),
    })
    .strict()
    .nullable()
    .default(null),
});
export type SigningPolicy = z.infer<typeof SigningPolicySchema>;
export const DEFAULT_POLICY: SigningPolicy = SigningPolicySchema.parse({});

export type Channel = 'online' | 'offline';
export type PolicyDecision = { allowed: true } | { allowed: false; reason: SigningRefusalReason; message: string };

/** A key's policy as stored: the version counts the officer's changes (0 = never set: the default policy). */
export interface PolicyRecord {
  policy: SigningPolicy;
  version: number;
  updatedAt: string | null;
  /** SHA-256 of the policy's canonical JSON: two consoles with the same version must have the same digest. */
  digest: string;
}

export function policyDigest(policy: SigningPolicy): string {
  return sha256Hex(canonicalJson(policy));
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
  const { counterparties, amounts, declared } = policyFacts(summary);
  const allowedCounterparties = policy.allowedCounterparties;
  if (allowedCounterparties) {
    const stranger = counterparties.find((p) => p !== summary.signingParty && !allowedCounterparties.includes(p));
    if (stranger) return refuse('POLICY_COUNTERPARTY', `Counterparty ${stranger} is not on this key’s allow-list`);
  }
  if (policy.maxAmountPerTransaction !== null) {
    const limit = policy.maxAmountPerTransaction;
    const over = amounts.find((a) => compareDecimal(a.value, limit) > 0);
    if (over)
      return refuse(
        'POLICY_AMOUNT',
        `Amount ${over.value}${declared ? '' : ` (${over.path})`} exceeds this key’s limit of ${limit} per transaction`,
      );
  }
  return { allowed: true };
}

/**
 * What the policy checks of a transaction: a recognised transaction declares its counterparties and amounts
 * (clear-sign registry); otherwise every other party in it is a counterparty and every numeric value found in
 * arguments an amount.
 */
export function policyFacts(summary: TransactionSummary): {
  counterparties: string[];
  amounts: Array<{ path: string; value: string }>;
  declared: boolean;
} {
  const declared = summary.clearSign ? clearSignPolicyFacts(summary.clearSign) : null;
  return {
    counterparties: declared?.counterparties ?? summary.parties.filter((p) => p !== summary.signingParty),
    amounts: declared?.amounts ?? summary.amounts,
    declared: declared !== null,
  };
}

/** How many distinct keys of the party must sign this transaction under the key's quorum rule (1 when none applies). */
export function requiredSignatures(policy: SigningPolicy, summary: TransactionSummary): { count: number; over: string | null } {
  if (!policy.quorum) return { count: 1, over: null };
  const above = policy.quorum.above;
  const over = policyFacts(summary).amounts.find((a) => compareDecimal(a.value, above) > 0);
  return over ? { count: policy.quorum.signatures, over: over.value } : { count: 1, over: null };
}

/** The circumstances of one signature, beyond the transaction: how it arrives and what it is part of. */
export interface SigningContext {
  channel: Channel;
  /**
   * How many distinct keys of the party sign this transaction together: online, the keys signing now; offline, the
   * request's threshold. A quorum rule needs it; undefined = 1.
   */
  signatures?: number | undefined;
  /** Offline: the version (and digest) of this key's policy that the requesting console checked. */
  claimed?: { version: number; digest: string } | null | undefined;
}

/**
 * The whole decision for one key: the policy the request was checked against must not be newer than this console's
 * (nor differ at the same version), the policy's rules, then its quorum.
 */
export function decide(record: PolicyRecord, summary: TransactionSummary, ctx: SigningContext): PolicyDecision {
  const claimed = ctx.claimed;
  if (claimed && claimed.version > record.version) {
    return refuse(
      'POLICY_OUTDATED',
      `The requesting console checked version ${claimed.version} of this key’s policy; this console has version ${record.version}, ` +
        'which may be looser. Nothing is signed until this console’s policy is updated: import the officer’s policy file ' +
        '(Keys → Import policy file) or restore a newer key backup.',
    );
  }
  if (claimed && claimed.version === record.version && claimed.digest !== record.digest) {
    return refuse(
      'POLICY_DIVERGED',
      `This key’s policy version ${record.version} differs between the requesting console and this one (edited on both). ` +
        'Nothing is signed until an officer brings both to the same policy (export it from one, import it on the other).',
    );
  }
  const rules = evaluatePolicy(record.policy, summary, ctx.channel);
  if (!rules.allowed) return rules;
  const need = requiredSignatures(record.policy, summary);
  const have = ctx.signatures ?? 1;
  if (need.count > have) {
    return refuse(
      'POLICY_QUORUM',
      `Above ${record.policy.quorum?.above ?? '?'} this key signs only as one of ${need.count} signatures of the party’s keys ` +
        `(amount ${need.over ?? '?'}); ${have === 1 ? 'only 1 signature is' : `only ${have} signatures are`} being collected. ` +
        `Export an offline signing request that requires ${need.count} signatures.`,
    );
  }
  return { allowed: true };
}
