/** Ledger clock: wall-clock by default, or static time advanced explicitly (persisted by the store). */
export interface Clock {
  readonly isStatic: boolean;
  nowMicros(): bigint;
  /** Only for static time. */
  advance(micros: bigint): bigint;
  set(micros: bigint): void;
}

/** Wall clock; never returns a time at or before `notBefore` (e.g. the last stored record time). */
export function wallClock(notBefore = 0n): Clock {
  let last = notBefore;
  return {
    isStatic: false,
    nowMicros() {
      // strictly increasing, microsecond resolution
      const now = BigInt(Date.now()) * 1000n;
      last = now > last ? now : last + 1n;
      return last;
    },
    advance() {
      throw new Error('wall clock cannot be advanced');
    },
    set() {
      /* wall clock ignores it */
    },
  };
}

export function staticClock(startMicros: bigint, onChange: (micros: bigint) => void): Clock {
  let now = startMicros;
  return {
    isStatic: true,
    nowMicros: () => now,
    advance(micros: bigint) {
      now += micros;
      onChange(now);
      return now;
    },
    set(micros: bigint) {
      now = micros;
      onChange(now);
    },
  };
}

/** Canton timestamps: RFC 3339 with microseconds, UTC. */
export function microsToIso(micros: bigint): string {
  const ms = micros / 1000n;
  const rest = micros % 1000000n;
  const base = new Date(Number(ms)).toISOString(); // ...SS.mmmZ
  return `${base.slice(0, 19)}.${rest.toString().padStart(6, '0')}Z`;
}

export function isoToMicros(iso: string): bigint | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/.exec(iso);
  if (!m || m[1] === undefined) return undefined;
  const secs = Date.parse(`${m[1]}Z`);
  if (Number.isNaN(secs)) return undefined;
  const frac = (m[2] ?? '').padEnd(6, '0').slice(0, 6);
  return BigInt(secs) * 1000n + BigInt(frac);
}
