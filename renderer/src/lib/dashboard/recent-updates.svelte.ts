/**
 * The dashboard's Updates card: the per-second rate of new updates over the last minute (the live WebSocket tail
 * from the ledger end) and the last few updates, all parties, topology included.
 */
import type { ConsoleClient } from '../../../../src/ipc/client.js';
import type { UpdateSummary } from '../../../../src/ipc/contract.js';
import type { IpcError } from '../../../../src/ipc/errors.js';
import { asIpcError } from '../errors.js';
import { RateCounter } from '../updates/rate.js';

export const RECENT = 6;
export const RATE_WINDOW = 60;

/** `current` and `items` merged by offset, newest first, at most `max`. */
export function mergeRecent(current: readonly UpdateSummary[], items: readonly UpdateSummary[], max = RECENT): UpdateSummary[] {
  const fresh = items.filter((u) => !current.some((c) => c.offset === u.offset));
  const kept = current.map((c) => items.find((u) => u.offset === c.offset) ?? c);
  return [...kept, ...fresh].sort((a, b) => b.offset - a.offset).slice(0, max);
}

export class RecentUpdates {
  /** Newest first. The update stream is faster than the snapshot poll, so the ledger end shown is at least its newest offset. */
  recent = $state<UpdateSummary[]>([]);
  /** Updates per second, oldest first; the last value is the current (partial) second. */
  rate = $state<number[]>(new Array<number>(RATE_WINDOW).fill(0));
  error = $state<IpcError | null>(null);
  /** Until the first read answers, "no updates yet" would be a claim the console cannot make. */
  read = $state(false);

  readonly perSecond = $derived(this.rate.at(-2) ?? 0);
  readonly total = $derived(this.rate.reduce((a, b) => a + b, 0));
  readonly peak = $derived(Math.max(0, ...this.rate));

  /** Reads the latest updates and follows the stream; returns the function that stops it. */
  start(client: ConsoleClient): () => void {
    const counter = new RateCounter(RATE_WINDOW);
    this.recent = [];
    this.read = false;
    this.rate = counter.series();
    this.error = null;
    let active = true;
    const filter = { includeTopology: true };
    client.call('updates.range', { filter, descending: true, limit: RECENT }).then(
      (r) => {
        if (!active) return;
        this.recent = mergeRecent(this.recent, r.items);
        this.read = true;
      },
      (err: unknown) => {
        if (active) this.error = asIpcError(err);
      },
    );
    const unsubscribe = client.subscribe(
      'updates.stream',
      { streamId: crypto.randomUUID(), filter, beginExclusive: null, backlog: 0 },
      (ev) => {
        if (!active) return;
        if (ev.type === 'batch' && ev.items.length > 0) {
          counter.record(ev.items.length);
          this.recent = mergeRecent(this.recent, ev.items);
          this.rate = counter.series();
        } else if (ev.type === 'error') {
          this.error = ev.error;
        }
      },
      (err) => {
        if (active) this.error = err;
      },
    );
    const timer = setInterval(() => (this.rate = counter.series()), 1_000);
    return () => {
      active = false;
      unsubscribe();
      clearInterval(timer);
    };
  }
}
