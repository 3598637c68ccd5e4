/**
 * Pruning: a dry read of what pruning up to an offset removes — the update history from the last pruned offset up to
 * it (transactions, reassignments, topology), with the contracts archived in that range whose events go with it;
 * contracts still active are kept — and, on the embedded simulator, the pruning itself. Canton prunes through its Admin
 * API (gRPC, `participant.pruning.prune`), which the JSON Ledger API does not expose: for a remote participant the
 * console shows the dry read and says where to prune.
 */
import { z } from 'zod';
import type { PruningPreview } from '../../ipc/channels/admin.js';
import { UpdateFilterSchema } from '../../ipc/channels/updates.js';
import { ConsoleError } from '../../ipc/errors.js';
import type { LedgerClient } from '../ledger-client.js';
import { fetchUpdateRange } from './updates.js';

/** Updates read for a dry read at most (beyond, the counts say "at least"). */
const MAX_READ = 50_000;
const PAGE = 1000;

export async function pruningPreview(client: LedgerClient, offset: number): Promise<PruningPreview> {
  const [end, pruned] = await Promise.all([client.ledgerEnd(), client.latestPrunedOffsets()]);
  const ledgerEnd = end.offset ?? 0;
  const prunedUpTo = pruned.participantPrunedUpToInclusive ?? 0;
  if (offset <= prunedUpTo)
    throw new ConsoleError('BAD_REQUEST', `The participant is pruned up to ${prunedUpTo} already; choose a later offset`, undefined, [
      { path: 'offset', message: `must be above ${prunedUpTo}` },
    ]);
  if (offset > ledgerEnd)
    throw new ConsoleError('BAD_REQUEST', `Offset ${offset} is beyond the ledger end ${ledgerEnd}`, undefined, [
      { path: 'offset', message: `must be at most ${ledgerEnd}` },
    ]);
  const filter = UpdateFilterSchema.parse({ includeTopology: true, includeInterfaceViews: false, verbose: false });
  const out: PruningPreview = {
    offset,
    ledgerEnd,
    prunedUpTo,
    transactions: 0,
    reassignments: 0,
    topology: 0,
    createdEvents: 0,
    archivedContracts: 0,
    complete: true,
    oldest: null,
    newest: null,
  };
  let begin = prunedUpTo;
  let read = 0;
  for (;;) {
    const page = await fetchUpdateRange(client, filter, { beginExclusive: begin, endInclusive: offset, descending: false, limit: PAGE });
    for (const u of page.items) {
      if (u.kind === 'transaction') out.transactions++;
      else if (u.kind === 'reassignment') out.reassignments++;
      else if (u.kind === 'topology') out.topology++;
      out.createdEvents += u.counts.created;
      out.archivedContracts += u.counts.archived;
      const at = u.recordTime ?? u.effectiveAt;
      if (at) {
        out.oldest ??= at;
        out.newest = at;
      }
    }
    read += page.items.length;
    if (!page.next || page.items.length === 0) break;
    if (read >= MAX_READ) {
      out.complete = false;
      break;
    }
    begin = page.next.beginExclusive;
  }
  return out;
}

/** The simulator's answer to its admin prune (its own endpoint: the Ledger API spec has no pruning). */
const PruneAnswerSchema = z.object({ participantPrunedUpToInclusive: z.number().int().nonnegative() });

/** Prunes the embedded simulator (its admin endpoint); a real participant prunes through the Canton Admin API. */
export async function pruneSimulator(client: LedgerClient, offset: number): Promise<{ prunedUpTo: number }> {
  const r = await client.callParsed('POST', '/simulator/admin/prune', PruneAnswerSchema, { body: { pruneUpTo: offset } });
  return { prunedUpTo: r.participantPrunedUpToInclusive };
}
