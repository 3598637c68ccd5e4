/** Where a live tail starts when the caller gave no offset. */
import type { LedgerClient } from '../ledger-client.js';

/** `backlog` offsets before the ledger end, never below the participant's pruning offset (reads there fail). */
export async function tailBeginExclusive(client: LedgerClient, beginExclusive: number | null, backlog: number): Promise<number> {
  if (beginExclusive !== null) return beginExclusive;
  const [end, pruned] = await Promise.all([client.ledgerEnd(), client.latestPrunedOffsets()]);
  return Math.max(0, (end.offset ?? 0) - backlog, pruned.participantPrunedUpToInclusive ?? 0);
}
