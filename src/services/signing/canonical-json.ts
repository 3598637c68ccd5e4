/** Canonical JSON: object keys sorted recursively, no whitespace. Used for hashing (audit chain, request digests). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalise(value, '$'));
}

function normalise(value: unknown, at: string): Json {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`Non-finite number at ${at}`);
    return value;
  }
  if (Array.isArray(value)) return value.map((v, i) => normalise(v, `${at}[${i}]`));
  if (typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = normalise(v, `${at}.${key}`);
    }
    return out;
  }
  throw new TypeError(`Cannot canonicalise a ${typeof value} at ${at}`);
}
