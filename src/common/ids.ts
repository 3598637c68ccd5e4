/**
 * Short forms of Canton identifiers for narrow places. The full id always stays available (title, copy button);
 * the short form keeps the `prefix::` and both ends of the fingerprint so two ids can still be told apart.
 */

/** `s` with its middle replaced by `…`, keeping `head` and `tail` characters; unchanged when that is not shorter. */
export function shortMiddle(s: string, head: number, tail: number): string {
  return s.length > head + tail + 1 ? `${s.slice(0, head)}…${tail > 0 ? s.slice(-tail) : ''}` : s;
}

/** `hint::1220abcd…wxyz`: a party id with its namespace shortened; an id without `::` shortened in the middle. */
export function shortParty(party: string, head = 8, tail = 4): string {
  const i = party.indexOf('::');
  if (i < 0) return shortMiddle(party, 12, 6);
  return `${party.slice(0, i)}::${shortMiddle(party.slice(i + 2), head, tail)}`;
}

/** `1220abcd…wxyz`: a namespace (fingerprint) shortened to its start and end. */
export function shortNamespace(namespace: string): string {
  return shortMiddle(namespace, 8, 4);
}

/**
 * Any Canton identifier (synchronizer, participant, contract or update id): `prefix::` kept and `keep` characters
 * of each end of the rest ("global-domain::1220ab12…9f3c"); one without `::` keeps `2 × keep` at each end.
 */
export function shortenId(id: string, keep = 8): string {
  const i = id.indexOf('::');
  if (i >= 0) return `${id.slice(0, i + 2)}${shortMiddle(id.slice(i + 2), keep, keep)}`;
  return shortMiddle(id, keep * 2, keep * 2);
}
