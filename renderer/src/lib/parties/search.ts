/** Searching parties the way operators name them (pure; unit-tested). */
import type { PartyDirectoryEntry } from '../../../../src/ipc/contract.js';

export interface PartyMatch {
  entry: PartyDirectoryEntry;
  /** What matched, when it is not the name or the hint: `annotation key: value`, `namespace`, `party id`. */
  via: string | null;
}

/**
 * Parties matching `query` (case-insensitive): by hint or display name first (prefix before substring), then by an
 * annotation key or value, the namespace (fingerprint prefix) or the full id. An empty query lists every party.
 */
export function searchParties(entries: readonly PartyDirectoryEntry[], query: string, limit = 50): PartyMatch[] {
  const q = query.trim().toLowerCase();
  if (q === '') return entries.slice(0, limit).map((entry) => ({ entry, via: null }));
  const scored: Array<{ m: PartyMatch; score: number }> = [];
  for (const entry of entries) {
    const name = entry.displayName.toLowerCase();
    const hint = entry.hint.toLowerCase();
    let score = -1;
    let via: string | null = null;
    if (name.startsWith(q) || hint.startsWith(q)) score = 0;
    else if (name.includes(q) || hint.includes(q)) score = 1;
    else {
      const ann = Object.entries(entry.annotations).find(([k, v]) => k.toLowerCase().includes(q) || v.toLowerCase().includes(q));
      if (ann) {
        score = 2;
        via = `${ann[0]}: ${ann[1]}`;
      } else if (entry.namespace.toLowerCase().startsWith(q) || entry.namespace.toLowerCase().startsWith(`1220${q}`)) {
        score = 3;
        via = 'namespace';
      } else if (entry.party.toLowerCase().includes(q)) {
        score = 4;
        via = 'party id';
      }
    }
    if (score >= 0) scored.push({ m: { entry, via }, score });
  }
  scored.sort((a, b) => a.score - b.score);
  return scored.slice(0, limit).map((s) => s.m);
}

/** A full Canton party id: `hint::` followed by a fingerprint (1220 + 64 hex digits). */
export const PARTY_ID = /^[^\s:]+::1220[0-9a-f]{64}$/;
