/**
 * Field-by-field comparison of an answer with the model's expectation. Values the model cannot
 * predict (created-event blobs, contract-key hashes) are `Opaque` markers: any non-empty string,
 * the same string wherever the same key occurs (so a blob is stable across endpoints and reads).
 */
export class Opaque {
  constructor(readonly key: string) {}
}

export const opaque = (key: string): Opaque => new Opaque(key);

export class OpaqueValues {
  private readonly seen = new Map<string, string>();

  check(o: Opaque, actual: unknown, path: string, out: string[]): void {
    if (typeof actual !== 'string' || actual.length === 0) {
      out.push(`${path}: expected a non-empty string (${o.key}), got ${JSON.stringify(actual)}`);
      return;
    }
    const prior = this.seen.get(o.key);
    if (prior === undefined) this.seen.set(o.key, actual);
    else if (prior !== actual) out.push(`${path}: ${o.key} differs from an earlier answer`);
  }
}

const show = (v: unknown): string => {
  const s = JSON.stringify(v) as string | undefined;
  return s === undefined ? 'undefined' : s.length > 200 ? `${s.slice(0, 200)}…` : s;
};

/** Differences between `expected` and `actual` (at most `max`), each naming the JSON path. */
export function diff(expected: unknown, actual: unknown, opaques: OpaqueValues, path = '$', out: string[] = [], max = 20): string[] {
  if (out.length >= max) return out;
  if (expected instanceof Opaque) {
    opaques.check(expected, actual, path, out);
    return out;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      out.push(`${path}: expected an array, got ${show(actual)}`);
      return out;
    }
    if (expected.length !== actual.length) out.push(`${path}: expected ${expected.length} elements, got ${actual.length}`);
    const n = Math.min(expected.length, actual.length);
    for (let i = 0; i < n && out.length < max; i++) diff(expected[i], actual[i], opaques, `${path}[${i}]`, out, max);
    return out;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      out.push(`${path}: expected an object, got ${show(actual)}`);
      return out;
    }
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    for (const k of Object.keys(e)) {
      if (e[k] === undefined) continue;
      if (!(k in a)) out.push(`${path}.${k}: missing (expected ${show(e[k])})`);
      else diff(e[k], a[k], opaques, `${path}.${k}`, out, max);
      if (out.length >= max) return out;
    }
    for (const k of Object.keys(a)) if (!(k in e) || e[k] === undefined) out.push(`${path}.${k}: unexpected field ${show(a[k])}`);
    return out;
  }
  if (!Object.is(expected, actual)) out.push(`${path}: expected ${show(expected)}, got ${show(actual)}`);
  return out;
}
