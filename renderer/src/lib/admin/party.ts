/** Display helpers for identity providers and concurrent edits (pure; unit-tested). */

export function idpLabel(id: string): string {
  return id === '' ? 'Default' : id;
}

/** Is this IpcError the participant refusing a stale resource version (someone else edited it)? */
export function isConcurrentChange(error: { canton?: { code: string; cause: string } } | null): boolean {
  if (!error?.canton) return false;
  const { code, cause } = error.canton;
  return /CONCURRENT/i.test(code) || /concurrent|resource ?version/i.test(cause);
}
