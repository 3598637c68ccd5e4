/**
 * For `afterAll` cleanups of resources a `beforeAll` assigns to a `let x: T`: the type checker takes `x` as assigned,
 * but when `beforeAll` threw first it is still undefined. `await ifAssigned(x)?.stop()` cleans up what was started
 * without a second, misleading TypeError in the report.
 */
export function ifAssigned<T>(value: T): T | undefined {
  return value;
}
