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

// The last second formatted: a command formats the same second several times (record time, effective time, answers).
let lastSecond = -1n;
let lastPrefix = '';

/** Canton timestamps: RFC 3339 with microseconds, UTC. */
export function microsToIso(micros: bigint): string {
  const fraction = (micros % 1000000n).toString().padStart(6, '0');
  if (micros < 0n) return `${new Date(Number(micros / 1000n)).toISOString().slice(0, 19)}.${fraction}Z`;
  const second = micros / 1000000n;
  if (second !== lastSecond) {
    lastPrefix = new Date(Number(second) * 1000).toISOString().slice(0, 19); // …SS
    lastSecond = second;
  }
  return `${lastPrefix}.${fraction}Z`;
}

export function isoToMicros(iso: string): bigint | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/.exec(iso);
  if (!m || m[1] === undefined) return undefined;
  const secs = Date.parse(`${m[1]}Z`);
  if (Number.isNaN(secs)) return undefined;
  const frac = (m[2] ?? '').padEnd(6, '0').slice(0, 6);
  return BigInt(secs) * 1000n + BigInt(frac);
}

/** The latest Daml timestamp, 9999-12-31T23:59:59.999999Z, in micros since the epoch. */
export const MAX_DAML_TIMESTAMP_MICROS = 253402300799999999n;

/**
 * An instant as Java's `Instant.toString` writes it (how Canton names times outside the Daml range in errors):
 * ISO-8601 UTC, a sign before years beyond 9999, the fraction in groups of three digits and omitted when zero.
 */
export function javaInstantString(micros: bigint): string {
  const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b));
  const secs = floorDiv(micros, 1_000_000n);
  const frac = micros - secs * 1_000_000n;
  const days = floorDiv(secs, 86_400n);
  const sod = secs - days * 86_400n;
  // civil date from days since the epoch (proleptic Gregorian; H. Hinnant's algorithm, in BigInt for any year)
  const z = days + 719_468n;
  const era = floorDiv(z, 146_097n);
  const doe = z - era * 146_097n;
  const yoe = (doe - doe / 1_460n + doe / 36_524n - doe / 146_096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const day = doy - (153n * mp + 2n) / 5n + 1n;
  const month = mp < 10n ? mp + 3n : mp - 9n;
  const year = yoe + era * 400n + (month <= 2n ? 1n : 0n);
  const two = (n: bigint): string => n.toString().padStart(2, '0');
  const yearText = year > 9999n ? `+${year}` : year < 0n ? `-${(-year).toString().padStart(4, '0')}` : year.toString().padStart(4, '0');
  const fracText =
    frac === 0n ? '' : frac % 1000n === 0n ? `.${(frac / 1000n).toString().padStart(3, '0')}` : `.${frac.toString().padStart(6, '0')}`;
  return `${yearText}-${two(month)}-${two(day)}T${two(sod / 3600n)}:${two((sod / 60n) % 60n)}:${two(sod % 60n)}${fracText}Z`;
}
