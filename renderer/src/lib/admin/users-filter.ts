/** Search over the users list (pure; unit-tested). */
import type { UserRow } from '../../../../src/ipc/contract.js';

/**
 * Users whose id, primary party or identity provider contains every word of `query`
 * (case-insensitive). “default” matches users of the default identity provider, whose id is ''.
 */
export function filterUsers(users: readonly UserRow[], query: string): UserRow[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...users];
  return users.filter((u) => {
    const haystack = [u.id, u.primaryParty ?? '', u.identityProviderId === '' ? 'default' : u.identityProviderId].join('\n').toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}
