/**
 * Administrative actions on the participant (parties, users and rights, identity providers, DAR uploads, vetting,
 * pruning) recorded in the console's audit log next to the signing decisions: what was asked, by whom (the connection
 * profile and the user its token names), and whether it was done or why it failed. Appended through the audit log's
 * own API, so admin entries are chained and authenticated like every other entry.
 */
import { ConsoleError } from '../ipc/errors.js';
import type { AuditLog } from './signing/audit-log.js';

export type AdminAction =
  | 'party-allocation'
  | 'party-annotations'
  | 'user-create'
  | 'user-update'
  | 'user-delete'
  | 'rights-grant'
  | 'rights-revoke'
  | 'user-idp-move'
  | 'idp-create'
  | 'idp-update'
  | 'idp-delete'
  | 'dar-upload'
  | 'vetting'
  | 'pruning';

export interface AdminAuditDeps {
  /** The audit log (absent when the signing services are not wired: nothing is recorded then). */
  audit: () => AuditLog | null;
  /** Who acts: "profile name (user …)". */
  actor: () => Promise<string>;
}

export interface AdminRecord<T> {
  action: AdminAction;
  /** What was asked, in words ("Allocate party Alice on global-domain"). */
  summary: string;
  party?: string | null;
  /** What was done, from the result (replaces the summary when the action succeeded). */
  done?: (result: T) => string;
  /** The party the action created, from the result (when `party` could not be known before). */
  partyOf?: (result: T) => string;
}

export class AdminAudit {
  constructor(private readonly d: AdminAuditDeps) {}

  /** Runs the action and records it: done (with `done(result)`), or failed with its error code and message. */
  async record<T>(what: AdminRecord<T>, fn: () => Promise<T>): Promise<T> {
    const actor = await this.d.actor().catch(() => '(unknown)');
    try {
      const result = await fn();
      const party = what.partyOf ? what.partyOf(result) : what.party;
      this.append({ action: what.action, party: party ?? null }, actor, {
        summary: what.done ? what.done(result) : what.summary,
        reason: null,
        message: null,
      });
      return result;
    } catch (err) {
      const reason = err instanceof ConsoleError ? (err.canton?.code ?? err.code) : 'INTERNAL';
      const message = err instanceof Error ? err.message : String(err);
      this.append(what, actor, { summary: `${what.summary} — failed`, reason, message: message.slice(0, 2000) });
      throw err;
    }
  }

  private append(
    what: Pick<AdminRecord<never>, 'action' | 'party'>,
    actor: string,
    r: { summary: string; reason: string | null; message: string | null },
  ): void {
    this.d.audit()?.append({
      decision: 'admin',
      subject: 'admin',
      channel: 'online',
      reason: r.reason,
      message: r.message,
      fingerprint: null,
      party: what.party ?? null,
      hash: null,
      summary: r.summary.slice(0, 2000),
      action: what.action,
      actor,
    });
  }
}
