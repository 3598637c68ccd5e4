/** Display helpers for party ids and identity providers (pure; unit-tested). */

/** `hint::1220abcd…` → `hint::1220abcd…` shortened to the first 12 characters of the namespace. */
export function shortParty(party: string, keep = 12): string {
  const i = party.indexOf('::');
  if (i < 0) return party;
  const ns = party.slice(i + 2);
  return ns.length > keep + 1 ? `${party.slice(0, i)}::${ns.slice(0, keep)}…` : party;
}

export function idpLabel(id: string): string {
  return id === '' ? 'Default' : id;
}

/** Is this IpcError the participant refusing a stale resource version (someone else edited it)? */
export function isConcurrentChange(error: { canton?: { code: string; cause: string } } | null): boolean {
  if (!error?.canton) return false;
  const { code, cause } = error.canton;
  return /CONCURRENT/i.test(code) || /concurrent|resource ?version/i.test(cause);
}
