/**
 * What every signing flow shares: the signing services, the participant, and the one way a refusal of the signing
 * services becomes an answer (a `Refusal` value) with exactly one audit entry.
 */
import { SigningRefusal, type PackageFetcher, type SigningServices, type TypeSource } from '../signing/index.js';
import type { Refusal } from '../../ipc/channels/signing.js';
import type { ActiveParticipant } from './participant-binding.js';

/** Typed by the operator to confirm a blind (hash-only) signature. */
export const BLIND_CONFIRMATION_WORD = 'BLIND';
/** Pending sessions older than this are dropped (the prepared transaction would be stale anyway). */
export const SESSION_TTL_MS = 30 * 60_000;

export type Outcome<T> = T | Refusal;

export interface FlowContext {
  svc: SigningServices;
  /** The active profile and its participant; throws when none is configured (the air-gapped console never calls it). */
  participant: () => ActiveParticipant;
}

/** Archives of packages not verified yet come from the active participant (the signing services verify their ids). */
export function packageFetcher(ctx: FlowContext): PackageFetcher {
  return (packageId) => ctx.participant().client.getBytes(`/v2/packages/${encodeURIComponent(packageId)}`);
}

/** The verified packages, and the participant for those missing. */
export function typeSource(ctx: FlowContext): TypeSource {
  return { packages: ctx.svc.packages, fetch: packageFetcher(ctx) };
}

/** What a refusal raised outside the signing service (verification, file checks) is audited as. */
export interface RefusalAudit {
  subject: 'topology' | 'prepared-transaction';
  channel: 'online' | 'offline';
  fingerprint: string | null;
  party: string | null;
  hash: string | null;
  /** What the refused request would have done (its headline), when known. */
  summary?: string;
}

/**
 * Runs `fn`; a SigningRefusal becomes a Refusal value. With `auditVerification` (the default), refusals raised by
 * verification (which the signing service does not audit itself) are appended to the audit log here; a refusal the
 * signing service already audited is not audited twice.
 */
export async function refusals<T>(
  svc: SigningServices,
  ctx: RefusalAudit | null,
  fn: () => T | Promise<T>,
  opts: { auditVerification?: boolean } = { auditVerification: true },
): Promise<T | Refusal> {
  const before = headSeq(svc);
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof SigningRefusal)) throw err;
    let auditSeq = headSeq(svc);
    if (auditSeq === before && ctx && opts.auditVerification !== false) {
      auditSeq = svc.audit.append({
        decision: 'refused',
        subject: ctx.subject,
        channel: ctx.channel,
        reason: err.reason,
        message: err.message,
        fingerprint: ctx.fingerprint,
        party: ctx.party,
        hash: ctx.hash,
        summary: ctx.summary ?? '(refused before signing: the request did not pass verification)',
      }).entry.seq;
    }
    return { status: 'refused', reason: err.reason, message: err.message, auditSeq: auditSeq === before ? null : auditSeq };
  }
}

export function headSeq(svc: SigningServices): number {
  // the head row, not the newest entry: reading and parsing an entry here was a cost of every verification
  return svc.audit.headSeq();
}

/** The party a request file names, for the audit entry of a file that did not parse. */
export function peekParty(text: string): string | null {
  try {
    const p = (JSON.parse(text) as { party?: unknown }).party;
    return typeof p === 'string' ? p.slice(0, 300) : null;
  } catch {
    return null;
  }
}
