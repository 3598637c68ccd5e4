/** Completion list helpers (pure; unit-tested). */
import type { CompletionRow } from '../../../../src/ipc/contract.js';

export const MAX_COMPLETIONS = 500;

/** Newest first, without duplicates (same offset + command id), at most `max` rows. */
export function mergeCompletions(
  current: readonly CompletionRow[],
  incoming: readonly CompletionRow[],
  max = MAX_COMPLETIONS,
): CompletionRow[] {
  const seen = new Set(current.map(key));
  const fresh = incoming.filter((c) => !seen.has(key(c)));
  return [...fresh]
    .sort((a, b) => b.offset - a.offset)
    .concat(current)
    .slice(0, max);
}
const key = (c: CompletionRow) => `${c.offset}:${c.commandId}:${c.submissionId ?? ''}`;

/** "OK" or the Canton error code (or the gRPC status number when the message names no code). */
export function completionStatus(c: CompletionRow): { ok: boolean; label: string } {
  if (c.statusCode === 0) return { ok: true, label: 'OK' };
  return { ok: false, label: c.cantonCode ?? `status ${c.statusCode}` };
}

/** A plain sentence for errors operators meet when resubmitting. */
export function explainCantonCode(code: string | undefined | null): string | null {
  switch (code) {
    case 'DUPLICATE_COMMAND':
      return (
        'This command id was already used by the same submitters within the deduplication period, so the participant ' +
        'refused it and nothing was executed again. Press “New id” to submit it as a new command.'
      );
    case 'CONTRACT_NOT_FOUND':
      return 'The contract is archived, not visible to the acting/reading parties, or on another synchronizer.';
    case 'DAML_AUTHORIZATION_ERROR':
      return 'The acting parties are not allowed to do this: add the controllers/signatories to “Act as”.';
    case 'DAML_INTERPRETATION_ERROR':
      return 'The template refused the command (a failed ensure clause or an explicit failure in the choice).';
    case 'COMMAND_PREPROCESSING_FAILED':
      return 'The argument does not match the template definition.';
    default:
      return null;
  }
}
