/**
 * A test's replacement for the non-null assertion `!`: the value when it is present, else an error that names what
 * was missing, so a failing test says "no offline request for alice" rather than "cannot read properties of undefined".
 */
export function must<T>(value: T, what: string): NonNullable<T> {
  if (value === undefined || value === null) throw new Error(`expected ${what}, got ${String(value)}`);
  return value;
}
