/** Windowing for the virtualized update list (pure; unit-tested). Rows have a fixed height. */

export interface VisibleRange {
  /** First rendered index (inclusive). */
  start: number;
  /** Last rendered index (exclusive). */
  end: number;
}

export function visibleRange(scrollTop: number, viewportHeight: number, rowHeight: number, count: number, overscan = 6): VisibleRange {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const visible = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.max(0, Math.min(count - 1, first - overscan));
  const end = Math.min(count, first + visible + overscan);
  return { start, end: Math.max(start, end) };
}

/**
 * The scrollTop that makes row `index` fully visible with the least movement, or null when it
 * already is.
 */
export function scrollToReveal(index: number, scrollTop: number, viewportHeight: number, rowHeight: number): number | null {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return null;
}

/** Keyboard movement in a list of `count` rows: the new index, or null for keys the list ignores. */
export function moveSelection(key: string, index: number, count: number, pageRows: number): number | null {
  if (count === 0) return null;
  const clamp = (i: number) => Math.max(0, Math.min(count - 1, i));
  const from = index < 0 ? -1 : index;
  switch (key) {
    case 'ArrowDown':
      return clamp(from + 1);
    case 'ArrowUp':
      return clamp(from < 0 ? 0 : from - 1);
    case 'PageDown':
      return clamp(from + Math.max(1, pageRows));
    case 'PageUp':
      return clamp(from - Math.max(1, pageRows));
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** What the Updates view calls on its virtual list (the component's exported functions). */
export interface UpdateListHandle {
  /** Keeps the rows in view steady when `n` newer rows were inserted above them. */
  shiftForPrepended(n: number): void;
  /** Scrolls so the row is in the upper part of the view and selects it. */
  jumpTo(index: number): void;
  focus(): void;
}
