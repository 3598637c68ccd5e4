/**
 * The loaded updates, newest first by offset, without duplicates. Live batches append newer items,
 * historical pages append older ones, both in O(1) per item, so 100,000+ rows stay cheap; a row is
 * read by display index without copying. Plain class: views bump a `$state` counter to re-render.
 */
import type { UpdateSummary } from '../../../../src/ipc/contract.js';

export class UpdateBuffer {
  /** Ascending offsets, newer than everything in `older`. */
  private newer: UpdateSummary[] = [];
  /** Descending offsets. */
  private older: UpdateSummary[] = [];
  private readonly seen = new Set<number>();

  get size(): number {
    return this.newer.length + this.older.length;
  }

  /** Row by display index (0 = newest). */
  at(index: number): UpdateSummary | undefined {
    const n = this.newer.length;
    if (index < 0) return undefined;
    if (index < n) return this.newer[n - 1 - index];
    return this.older[index - n];
  }

  newest(): UpdateSummary | undefined {
    return this.at(0);
  }

  oldest(): UpdateSummary | undefined {
    return this.at(this.size - 1);
  }

  clear(): void {
    this.newer = [];
    this.older = [];
    this.seen.clear();
  }

  /** Adds items in any order; returns how many were new and landed above the previous newest row. */
  add(items: readonly UpdateSummary[]): { added: number; prepended: number } {
    let added = 0;
    let prepended = 0;
    let resort = false;
    for (const item of items) {
      if (this.seen.has(item.offset)) continue;
      this.seen.add(item.offset);
      added++;
      const max = this.newest()?.offset ?? -Infinity;
      const min = this.oldest()?.offset ?? Infinity;
      if (item.offset > max) {
        this.newer.push(item);
        prepended++;
      } else if (item.offset < min) {
        this.older.push(item);
      } else {
        // Fills a gap: rare (e.g. a range overlapping the tail); rebuild once after the batch.
        this.older.push(item);
        resort = true;
      }
    }
    if (resort) {
      const all = [...this.newer, ...this.older].sort((a, b) => b.offset - a.offset);
      this.newer = [];
      this.older = all;
    }
    return { added, prepended };
  }

  /** Display index of the row with this offset, or -1 (binary search). */
  indexOfOffset(offset: number): number {
    const i = this.nearestIndex(offset);
    return i >= 0 && this.at(i)?.offset === offset ? i : -1;
  }

  /** Display index of the row with the greatest offset ≤ `offset` (for "jump to offset"), or -1 when none. */
  nearestIndex(offset: number): number {
    let lo = 0;
    let hi = this.size - 1;
    let found = -1;
    // Display order is descending: find the first index whose offset ≤ target.
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const o = this.at(mid)?.offset ?? 0;
      if (o <= offset) {
        found = mid;
        hi = mid - 1;
      } else {
        lo = mid + 1;
      }
    }
    return found;
  }
}
