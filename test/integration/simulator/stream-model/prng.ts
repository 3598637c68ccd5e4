/** Seeded pseudo-random numbers (mulberry32), so a failing scenario reproduces from its printed seed. */
export class Prng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('pick from an empty list');
    return xs[Math.floor(this.next() * xs.length)] as T;
  }

  /** A random subset (each element kept with probability p), in the original order. */
  subset<T>(xs: readonly T[], p: number): T[] {
    return xs.filter(() => this.chance(p));
  }

  /** Picks a key by weight. */
  weighted<K extends string>(weights: Record<K, number>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [k, w] of entries) {
      r -= w;
      if (r < 0) return k;
    }
    return (entries.at(-1) as [K, number])[0];
  }
}

/** The seed of this run: STREAM_MODEL_SEED if set, otherwise a fresh one (printed by the test). */
export function seedOfRun(): number {
  const env = process.env.STREAM_MODEL_SEED;
  if (env !== undefined && env !== '') {
    const n = Number(env);
    if (!Number.isInteger(n) || n < 0) throw new Error(`STREAM_MODEL_SEED must be a non-negative integer, got '${env}'`);
    return n;
  }
  return Math.floor(Math.random() * 2 ** 31);
}
