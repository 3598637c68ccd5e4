/** Updates-per-second over a sliding window, and the SVG path of a sparkline (pure; unit-tested). */

export class RateCounter {
  private readonly buckets: number[];
  private lastSecond: number;

  constructor(
    readonly windowSeconds = 60,
    now = Date.now(),
  ) {
    this.buckets = new Array<number>(windowSeconds).fill(0);
    this.lastSecond = Math.floor(now / 1000);
  }

  private advance(now: number): void {
    const second = Math.floor(now / 1000);
    const steps = Math.min(this.windowSeconds, Math.max(0, second - this.lastSecond));
    for (let i = 0; i < steps; i++) {
      this.buckets.shift();
      this.buckets.push(0);
    }
    if (second > this.lastSecond) this.lastSecond = second;
  }

  record(count: number, now = Date.now()): void {
    this.advance(now);
    const last = this.buckets.length - 1;
    this.buckets[last] = (this.buckets[last] ?? 0) + count;
  }

  /** Oldest first; the last value is the current (partial) second. */
  series(now = Date.now()): number[] {
    this.advance(now);
    return [...this.buckets];
  }
}

/** Polyline path through `values` scaled into width×height (y grows downwards), plus the filled area. */
export function sparklinePath(
  values: readonly number[],
  width: number,
  height: number,
  pad = 2,
): { line: string; area: string; max: number } {
  const max = Math.max(1, ...values);
  if (values.length === 0) return { line: '', area: '', max };
  const step = values.length > 1 ? (width - pad * 2) / (values.length - 1) : 0;
  const points = values.map((v, i) => {
    const x = pad + i * step;
    const y = height - pad - (Math.max(0, v) / max) * (height - pad * 2);
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  const line = `M${points.join('L')}`;
  const lastX = (pad + (values.length - 1) * step).toFixed(1);
  const area = `${line}L${lastX},${height - pad}L${pad},${height - pad}Z`;
  return { line, area, max };
}
