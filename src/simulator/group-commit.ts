/**
 * Group commit: state changes that arrive together share one durable SQLite transaction and one fsync.
 *
 * A change is queued with the function that writes it (a commit body: it runs inside the transaction, allocates its
 * offsets and returns its result and last offset). The queue is flushed once the event loop has taken in what has
 * arrived (setImmediate): every body queued by then runs in one transaction (`LedgerStore.txGroup`); one that
 * throws is rolled back alone (savepoints) and fails alone. Commands that arrive while a
 * group is being written and fsynced (the flush is synchronous) queue up and form the next group, so the group size
 * follows the load: one client gets a transaction per command, as before, and N clients share one fsync.
 *
 * Nobody is answered before the group's COMMIT returned (synchronous=FULL: fsynced), and the 'commit' event, as
 * for a single commit, is emitted after it with the group's last offset.
 */
import type { SimContext } from './context.js';

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

/** Upper bound of one group, so one transaction (and the answers waiting for it) stays short. */
const MAX_GROUP = 256;

export class GroupCommitter {
  private queue: Queued[] = [];
  private scheduled = false;

  constructor(private readonly sim: SimContext) {}

  /** Resolves with the body's result once its group is durable; rejects with what the body threw (nothing of it written). */
  commit<T>(body: CommitBody<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ body, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const group = this.queue.splice(0, MAX_GROUP);
      let outcomes;
      try {
        outcomes = this.sim.store.txGroup(group.map((q) => q.body));
      } catch (err) {
        // the transaction failed as a whole: nothing of the group was written
        for (const q of group) q.reject(err);
        continue;
      }
      let last: number | undefined;
      for (const o of outcomes) if (o.ok && o.value.offset !== undefined) last = Math.max(last ?? 0, o.value.offset);
      if (last !== undefined) this.sim.events.emit('commit', last);
      outcomes.forEach((o, i) => {
        const q = group[i] as Queued;
        if (o.ok) q.resolve(o.value.result);
        else q.reject(o.error);
      });
    }
  }
}
