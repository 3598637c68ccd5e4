/**
 * Nesting limits of Daml-LF values given as JSON. Canton's JSON API refuses a value nested deeper than
 * 110 JSON levels (Daml-LF's maximum nesting of 100 plus 10 for JSON wrappers) before decoding it, with
 * INVALID_ARGUMENT (`CirceToUJson.MaxNestingExceededException`), instead of recursing into it.
 */
import { CantonError } from './errors.js';

/** Canton's `CirceToUJson.DefaultMaxDepth`: `Value.MAXIMUM_NESTING` (100) + 10. */
export const MAX_VALUE_JSON_DEPTH = 110;

/** True when `v` is nested deeper than `limit` levels (the value itself is level 1). Iterative: any depth is safe. */
export function jsonDepthExceeds(v: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[v, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (depth > limit) return true;
    if (typeof node !== 'object' || node === null) continue;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Throws Canton's INVALID_ARGUMENT when the value is nested deeper than the JSON API accepts. */
export function checkValueDepth(v: unknown): void {
  if (jsonDepthExceeds(v, MAX_VALUE_JSON_DEPTH))
    throw new CantonError(
      'INVALID_ARGUMENT',
      `The submitted request has invalid arguments: JSON nesting exceeds the maximum allowed depth of ${MAX_VALUE_JSON_DEPTH}`,
    );
}
