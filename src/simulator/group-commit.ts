/**
 * Group commit: state changes that arrive together share one SQLite transaction and one sync of the WAL.
 *
 * A change is queued with the function that writes it (a commit body: it runs inside the transaction, allocates its
 * offsets and returns its result and last offset). The queue is flushed once the event loop has taken in what has
 * arrived (setImmediate): up to MAX_GROUP bodies queued by then run in one transaction (`LedgerStore.txGroup`), the
 * rest in the next turn; one that throws is rolled back alone (savepoints) and fails alone.
 *
 * A group of several is committed without sync and made durable by `Durability` (durability.ts): an fdatasync of
 * the WAL on libuv's thread pool, while this thread goes on with the next groups; those are synced together by the
 * next sync, which starts when the one under way is done — so N clients share syncs as they share transactions. A
 * group of one with no sync under way (a single client) is committed with synchronous=FULL as before: it has nobody
 * to share the sync with, and the thread-pool round trip would only add latency.
 *
 * Nobody is answered before the group is durable, and the 'commit' event, as for a single commit, is emitted then,
 * with the group's last offset. A sync that fails answers the group's commands with an error (not acknowledged).
 */
import type { SimContext } from './context.js';
import { CantonError } from './errors.js';
import type { GroupOutcome } from './store/ledger-store.js';

/**
 * Runs inside the transaction; `offset` is the last offset it wrote, undefined when it wrote no update. It may run
 * twice (`LedgerStore.txGroup` reruns a group in which one failed): no effects outside the transaction.
 */
export type CommitBody<T> = () => { result: T; offset: number | undefined };

interface Queued {
  body: CommitBody<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/**
 * Upper bound of one group. Clients answered together send together, and one group of all of them would be built
 * while no sync runs, then synced while nothing is built. Groups of at most 8, one per turn of the event loop, let a
 * group's sync run while the next group is built and its answers go out as soon as that sync ends (16 clients:
 * +10 % and the thread busy 85 % instead of 78 % on the bench machine; groups of 4 cost more in COMMITs than they gain).
 */
const MAX_GROUP = 8;

export class GroupCommitter {
  private queue: Queued[] = [];
  private scheduled = false;

  constructor(private readonly sim: SimContext) {
    sim.durability.onResume(() => {
      if (this.queue.length > 0) this.schedule();
    });
  }

  /** Resolves with the body's result once its group is durable; rejects with what the body threw (nothing of it written). */
  commit<T>(body: CommitBody<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ body, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    // readers waiting for what is committed to be durable go first (durability.ts); resumed after the sync
    if (!this.sim.durability.acceptsGroup() || this.queue.length === 0) return;
    const group = this.queue.splice(0, MAX_GROUP);
    // the rest forms the next group, in the next turn (after syncs that ended meanwhile have answered)
    if (this.queue.length > 0) this.schedule();
    const bodies = group.map((q) => q.body);
    // A group of one, with no sync under way, shares its sync with nobody: SQLite syncs it inside COMMIT
    // (synchronous=FULL), which answers sooner than a round trip through the thread pool.
    const alone = group.length === 1 && this.queue.length === 0 && this.sim.durability.isSettled();
    let outcomes: Array<GroupOutcome<{ result: unknown; offset: number | undefined }>>;
    try {
      this.sim.durability.beforeGroup();
      outcomes = alone ? this.sim.store.txGroup(bodies) : this.sim.store.txGroupUnsynced(bodies);
    } catch (err) {
      // the transaction failed as a whole: nothing of the group was written
      for (const q of group) q.reject(err);
      return;
    }
    let last: number | undefined;
    for (const o of outcomes) if (o.ok && o.value.offset !== undefined) last = Math.max(last ?? 0, o.value.offset);
    const answer = (syncError: Error | undefined): void => {
      if (last !== undefined) this.sim.events.emit('commit', last);
      outcomes.forEach((o, i) => {
        const q = group[i] as Queued;
        if (syncError) q.reject(new CantonError('INTERNAL', syncError.message, { definiteAnswer: false }));
        else if (o.ok) q.resolve(o.value.result);
        else q.reject(o.error);
      });
    };
    if (alone) {
      answer(undefined);
      this.sim.durability.groupSyncedBySqlite();
    } else this.sim.durability.committed(last, answer);
  }
}
