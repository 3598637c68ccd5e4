/** What the signing handler groups share: the wired signing services, and refusals as answers. */
import { ConsoleError } from '../../ipc/errors.js';
import { SigningRefusal } from '../../services/signing/index.js';
import type { HandlerDeps } from './core.js';

export function need(d: HandlerDeps): NonNullable<HandlerDeps['signing']> {
  if (!d.signing) throw new ConsoleError('INTERNAL', 'Signing is not available in this console host');
  return d.signing;
}

/** Backup/restore/policy-file refusals (wrong passphrase, altered file) are answers the view shows, like signing refusals. */
export async function asOutcome<T>(
  fn: () => Promise<T>,
): Promise<T | { status: 'refused'; reason: string; message: string; auditSeq: null }> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof SigningRefusal) return { status: 'refused', reason: err.reason, message: err.message, auditSeq: null };
    throw err;
  }
}

export const stamp = (): string => new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
