/** The party pickers' search: by hint and display name first, then annotation, namespace and full id. */
import { describe, expect, it } from 'vitest';
import type { PartyDirectoryEntry } from '../../src/ipc/contract.js';
import { PARTY_ID, searchParties } from '../../renderer/src/lib/parties/search.js';

const ns = (c: string) => '1220' + c.repeat(64);
const entry = (hint: string, namespace: string, displayName = hint, annotations: Record<string, string> = {}): PartyDirectoryEntry => ({
  party: `${hint}::${namespace}`,
  hint,
  namespace,
  isLocal: true,
  identityProviderId: '',
  annotations,
  resourceVersion: '1',
  external: false,
  keystoreKey: null,
  displayName,
});
const alice = entry('alice', ns('a'), 'Alice Treasury', { 'example.com/team': 'payments' });
const bob = entry('bob', ns('b'));
const malice = entry('malice', ns('c'));
const all = [malice, bob, alice];

describe('searchParties', () => {
  it('ranks a prefix of the hint or name before a substring, and is case-insensitive', () => {
    expect(searchParties(all, 'ALI').map((m) => m.entry.hint)).toEqual(['alice', 'malice']);
    expect(searchParties(all, 'treasury').map((m) => m.entry.hint)).toEqual(['alice']);
  });
  it('finds a party by an annotation key or value and says which', () => {
    expect(searchParties(all, 'payments')).toEqual([{ entry: alice, via: 'example.com/team: payments' }]);
  });
  it('finds a party by the start of its namespace (with or without 1220) and by the full id', () => {
    expect(searchParties(all, 'bbbb').map((m) => m.entry.hint)).toEqual(['bob']);
    expect(searchParties(all, '1220cccc')[0]).toEqual({ entry: malice, via: 'namespace' });
    expect(searchParties(all, bob.party).map((m) => m.entry.hint)).toEqual(['bob']);
  });
  it('lists every party (up to the limit) for an empty query, and nothing for a query that matches none', () => {
    expect(searchParties(all, '  ')).toHaveLength(3);
    expect(searchParties(all, '', 2)).toHaveLength(2);
    expect(searchParties(all, 'zzz')).toEqual([]);
  });
  it('recognises full party ids', () => {
    expect(PARTY_ID.test(alice.party)).toBe(true);
    expect(PARTY_ID.test('alice')).toBe(false);
    expect(PARTY_ID.test('alice::1220ab')).toBe(false);
  });
});
