/**
 * Per-key signing policies in SQLite, versioned: every change by an officer on this console is the next version,
 * and a policy that arrives with its key (backup) or in a policy file is adopted only when it is newer. Every change
 * is an audit entry (`policy-changed`) that says from which version to which and which rules got looser or stricter.
 */
import type { AppDb } from '../app-db.js';
import { ConsoleError, zodIssues } from '../../ipc/errors.js';
import type { AuditLog } from './audit-log.js';
import { comparePolicies, describeChanges, type PolicyChange } from './policy-compare.js';
import { DEFAULT_POLICY, policyDigest, SigningPolicySchema, type PolicyRecord, type SigningPolicy } from './policy.js';

interface Row {
  policy_json: string;
  version: number;
  updated_at: string;
}

/** What happened to one key's policy when a backup or policy file offered another version. */
export type AdoptOutcome =
  | { status: 'adopted'; from: number; to: number; changes: PolicyChange[] }
  | { status: 'same'; version: number }
  | { status: 'older'; offered: number; kept: number }
  | { status: 'diverged'; version: number };

export class PolicyStore {
  constructor(
    private readonly db: AppDb,
    /** Where policy changes are recorded (the console always passes its audit log). */
    private readonly audit: AuditLog | null = null,
  ) {}

  get(fingerprint: string): SigningPolicy {
    return this.record(fingerprint).policy;
  }

  record(fingerprint: string): PolicyRecord {
    const row = this.db.prepare('SELECT policy_json, version, updated_at FROM signing_policies WHERE fingerprint = ?').get(fingerprint) as
      Row | undefined;
    if (!row) return { policy: { ...DEFAULT_POLICY }, version: 0, updatedAt: null, digest: policyDigest(DEFAULT_POLICY) };
    const policy = SigningPolicySchema.parse(JSON.parse(row.policy_json));
    return { policy, version: row.version, updatedAt: row.updated_at, digest: policyDigest(policy) };
  }

  /** An officer's edit on this console: validated, stored as the next version, audited. The key must exist. */
  set(fingerprint: string, policy: unknown): SigningPolicy {
    return this.setRecord(fingerprint, policy).policy;
  }

  setRecord(fingerprint: string, policy: unknown): PolicyRecord {
    const parsed = SigningPolicySchema.safeParse(policy);
    if (!parsed.success) throw new ConsoleError('BAD_REQUEST', 'Invalid signing policy', undefined, zodIssues(parsed.error));
    const label = this.keyLabel(fingerprint);
    return this.db.transaction(() => {
      const before = this.record(fingerprint);
      const changes = comparePolicies(before.policy, parsed.data);
      if (changes.length === 0) return before;
      const next = this.write(fingerprint, parsed.data, before.version + 1, new Date().toISOString());
      this.recordChange(fingerprint, label, before.version, next.version, changes, 'edited on this console', 'online');
      return next;
    })();
  }

  /**
   * A policy that came with its key (backup) or in a policy file: adopted when its version is newer than this
   * console's; the same version with the same rules is left as it is; an older version never replaces a newer one,
   * nor a different policy under the same version (edited on two consoles: an officer has to decide).
   */
  adopt(fingerprint: string, offered: { policy: SigningPolicy; version: number; updatedAt: string | null }, source: string): AdoptOutcome {
    const label = this.keyLabel(fingerprint);
    const policy = SigningPolicySchema.parse(offered.policy);
    return this.db.transaction((): AdoptOutcome => {
      const before = this.record(fingerprint);
      if (offered.version < before.version) return { status: 'older', offered: offered.version, kept: before.version };
      if (offered.version === before.version) {
        return policyDigest(policy) === before.digest
          ? { status: 'same', version: before.version }
          : { status: 'diverged', version: before.version };
      }
      const changes = comparePolicies(before.policy, policy);
      this.write(fingerprint, policy, offered.version, offered.updatedAt ?? new Date().toISOString());
      this.recordChange(fingerprint, label, before.version, offered.version, changes, source, 'offline');
      return { status: 'adopted', from: before.version, to: offered.version, changes };
    })();
  }

  private write(fingerprint: string, policy: SigningPolicy, version: number, updatedAt: string): PolicyRecord {
    this.db
      .prepare(
        'INSERT INTO signing_policies (fingerprint, policy_json, updated_at, version) VALUES (?, ?, ?, ?) ON CONFLICT(fingerprint) ' +
          'DO UPDATE SET policy_json = excluded.policy_json, updated_at = excluded.updated_at, version = excluded.version',
      )
      .run(fingerprint, JSON.stringify(policy), updatedAt, version);
    return { policy, version, updatedAt, digest: policyDigest(policy) };
  }

  private recordChange(
    fingerprint: string,
    label: string,
    from: number,
    to: number,
    changes: PolicyChange[],
    source: string,
    channel: 'online' | 'offline',
  ): void {
    const looser = changes.some((c) => c.direction !== 'stricter');
    this.audit?.append({
      decision: 'policy-changed',
      subject: 'other',
      channel,
      reason: null,
      message: describeChanges(changes),
      fingerprint,
      party: null,
      hash: null,
      summary: `Policy of key ${label}: version ${from} → ${to} (${source})${looser && changes.length > 0 ? ' — loosens a rule' : ''}`,
    });
  }

  private keyLabel(fingerprint: string): string {
    const row = this.db.prepare('SELECT label FROM signing_keys WHERE fingerprint = ?').get(fingerprint) as { label: string } | undefined;
    if (!row) throw new ConsoleError('NOT_FOUND', `No signing key with fingerprint ${fingerprint}`);
    return row.label;
  }
}
