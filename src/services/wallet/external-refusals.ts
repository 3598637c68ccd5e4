/**
 * Refusals of the external-party wallet as values: a SigningRefusal becomes a `Refusal` carrying its audit entry.
 * Verification refusals the signing service does not audit itself (e.g. a hash that does not match the validator's)
 * are appended to the audit log here.
 */
import type { Refusal } from '../../ipc/contract.js';
import { SigningRefusal, type PrepareResponse, type SigningServices } from '../signing/index.js';

export interface RefusalAudit {
  fingerprint: string;
  party: string;
  hash: string;
}

export function auditOf(s: { fingerprint: string; party: string; prepared: PrepareResponse }): RefusalAudit {
  return { fingerprint: s.fingerprint, party: s.party, hash: s.prepared.preparedTransactionHash.slice(0, 200) };
}

/** Runs `fn`; a SigningRefusal becomes a Refusal value, audited here when `audit` is given and nothing audited it yet. */
export async function withRefusals<T>(log: SigningServices['audit'], fn: () => T | Promise<T>, audit?: RefusalAudit): Promise<T | Refusal> {
  const before = headSeq(log);
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof SigningRefusal)) throw err;
    let seq = headSeq(log);
    if (seq === before && audit) {
      seq = log.append({
        decision: 'refused',
        subject: 'prepared-transaction',
        channel: 'online',
        reason: err.reason,
        message: err.message,
        fingerprint: audit.fingerprint,
        party: audit.party,
        hash: audit.hash,
        summary: '(refused before signing: the validator’s prepared transaction did not pass verification)',
      }).entry.seq;
    }
    return { status: 'refused', reason: err.reason, message: err.message, auditSeq: seq === before ? null : seq };
  }
}

function headSeq(log: SigningServices['audit']): number {
  return log.list({ limit: 1 })[0]?.entry.seq ?? 0;
}
