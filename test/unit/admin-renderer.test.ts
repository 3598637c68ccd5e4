/** Pure helpers of the administration views and the admin contract schemas. */
import { describe, expect, it } from 'vitest';
import { buildRight, rightKey, RIGHT_KINDS, sortRights } from '../../renderer/src/lib/admin/rights.js';
import { diffAnnotations, newRow, rowsFrom } from '../../renderer/src/lib/admin/annotations.js';
import { idpLabel, isConcurrentChange } from '../../renderer/src/lib/admin/party.js';
import { filterUsers } from '../../renderer/src/lib/admin/users-filter.js';
import { AnnotationsSchema, IdpInputSchema, RightSchema, channels } from '../../src/ipc/contract.js';
import { fromApiRight, toApiRight } from '../../src/services/ledger/users.js';
import { splitPartyId, toPartyRow } from '../../src/services/ledger/parties.js';
import { must } from '../support/must.js';

const P = `Alice::1220${'ab'.repeat(32)}`;

describe('rights', () => {
  it('offers every right kind of the Ledger API', () => {
    expect([...RIGHT_KINDS].sort()).toEqual(
      [
        'CanActAs',
        'CanExecuteAs',
        'CanExecuteAsAnyParty',
        'CanReadAs',
        'CanReadAsAnyParty',
        'IdentityProviderAdmin',
        'ParticipantAdmin',
      ].sort(),
    );
  });

  it('needs a party exactly for party rights', () => {
    expect(buildRight('CanActAs', '  ')).toEqual({ ok: false, message: 'Act as needs a party' });
    expect(buildRight('CanReadAs', ` ${P} `)).toEqual({ ok: true, right: { kind: 'CanReadAs', party: P } });
    expect(buildRight('ParticipantAdmin', 'ignored')).toEqual({ ok: true, right: { kind: 'ParticipantAdmin' } });
    expect(RightSchema.safeParse({ kind: 'CanActAs' }).success).toBe(false);
    expect(RightSchema.safeParse({ kind: 'ParticipantAdmin', party: P }).success).toBe(false);
  });

  it('round-trips every kind through the Ledger API shape and drops Empty', () => {
    for (const kind of RIGHT_KINDS) {
      const built = buildRight(kind, P);
      if (!built.ok) throw new Error(built.message);
      expect(fromApiRight(toApiRight(built.right))).toEqual(built.right);
    }
    expect(toApiRight({ kind: 'CanExecuteAs', party: P })).toEqual({ kind: { CanExecuteAs: { value: { party: P } } } });
    expect(fromApiRight({ kind: { Empty: {} } })).toBeNull();
  });

  it('sorts global rights before party rights and keys by kind and party', () => {
    const sorted = sortRights([{ kind: 'CanActAs', party: 'b::1' }, { kind: 'CanActAs', party: 'a::1' }, { kind: 'ParticipantAdmin' }]);
    expect(sorted.map(rightKey)).toEqual(['ParticipantAdmin', 'CanActAs:a::1', 'CanActAs:b::1']);
  });
});

describe('annotations', () => {
  it('reports additions, changes and removals (removed keys are sent with an empty value)', () => {
    const original = { team: 'ops', 'example.com/tier': 'gold' };
    const rows = rowsFrom(original);
    expect(rows.map((r) => r.key)).toEqual(['example.com/tier', 'team']);
    expect(diffAnnotations(original, rows)).toMatchObject({ changed: false, removed: [] });
    const edited = [must(rows[1], 'rows[1]'), newRow('owner', 'alice')];
    expect(diffAnnotations(original, edited)).toMatchObject({
      annotations: { team: 'ops', owner: 'alice' },
      removed: ['example.com/tier'],
      changed: true,
    });
  });

  it('flags empty, invalid and duplicate keys and empty values; ignores blank rows', () => {
    const rows = [newRow('', 'v'), newRow('bad key', 'v'), newRow('ok', 'v'), newRow('ok', 'w'), newRow('novalue', ''), newRow('', '')];
    const d = diffAnnotations({}, rows);
    expect([...d.errors.keys()]).toEqual([
      must(rows[0], 'rows[0]').id,
      must(rows[1], 'rows[1]').id,
      must(rows[3], 'rows[3]').id,
      must(rows[4], 'rows[4]').id,
    ]);
    expect(d.errors.get(must(rows[3], 'rows[3]').id)).toContain('duplicate');
    expect(d.annotations).toEqual({ ok: 'v' });
  });

  it('the contract accepts the keys the editor accepts', () => {
    expect(AnnotationsSchema.safeParse({ 'example.com/team': 'x', a: 'y', 'a.b-c_d': 'z' }).success).toBe(true);
    expect(AnnotationsSchema.safeParse({ '-a': 'x' }).success).toBe(false);
    expect(AnnotationsSchema.safeParse({ a: '' }).success).toBe(false);
  });
});

describe('parties and identity providers', () => {
  it('splits party ids', () => {
    expect(splitPartyId(P)).toEqual({ hint: 'Alice', namespace: `1220${'ab'.repeat(32)}` });
    expect(splitPartyId('plain')).toEqual({ hint: 'plain', namespace: '' });
    expect(idpLabel('')).toBe('Default');
  });

  it('marks a local party outside the participant namespace, or with a keystore key, as external', () => {
    const own = `1220${'cd'.repeat(32)}`;
    const mine = { party: `Bank::${own}`, isLocal: true, localMetadata: { resourceVersion: '3', annotations: { a: 'x', gone: '' } } };
    expect(toPartyRow(mine, own, new Map())).toMatchObject({
      external: false,
      annotations: { a: 'x' },
      resourceVersion: '3',
      identityProviderId: '',
    });
    expect(toPartyRow({ party: P, isLocal: true }, own, new Map())).toMatchObject({ external: true, keystoreKey: null });
    expect(toPartyRow({ party: P, isLocal: false }, own, new Map())).toMatchObject({ external: false });
    expect(toPartyRow({ party: P, isLocal: false }, own, new Map([[`1220${'ab'.repeat(32)}`, 'cold-key']]))).toMatchObject({
      external: true,
      keystoreKey: 'cold-key',
    });
  });

  it('recognises a concurrent-change refusal', () => {
    expect(isConcurrentChange({ canton: { code: 'CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED', cause: 'x' } })).toBe(true);
    expect(isConcurrentChange({ canton: { code: 'INVALID_ARGUMENT', cause: 'Concurrent update: resourceVersion 1 is stale' } })).toBe(true);
    expect(isConcurrentChange({ canton: { code: 'PARTY_NOT_KNOWN_ON_LEDGER', cause: 'unknown' } })).toBe(false);
    expect(isConcurrentChange(null)).toBe(false);
  });

  it('validates identity provider input at the contract', () => {
    expect(IdpInputSchema.safeParse({ identityProviderId: 'corp', issuer: 'https://i', jwksUrl: 'https://i/jwks' }).success).toBe(true);
    const bad = IdpInputSchema.safeParse({ identityProviderId: '', issuer: '', jwksUrl: 'ftp://x' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['identityProviderId', 'issuer', 'jwksUrl']);
    expect(Object.keys(channels)).toEqual(expect.arrayContaining(['parties.list', 'users.rights.grant', 'users.idp.move', 'idps.create']));
  });
});

describe('users search', () => {
  const user = (id: string, primaryParty: string | null, identityProviderId: string) => ({
    id,
    primaryParty,
    identityProviderId,
    isDeactivated: false,
    annotations: {},
    resourceVersion: '1',
  });
  const users = [user('alice', 'Alice::1220aa', ''), user('bob-bot', 'Bob::1220bb', 'corp-idp'), user('carol', null, 'corp-idp')];

  it('matches id, primary party and identity provider, case-insensitively, every word', () => {
    expect(filterUsers(users, '').map((u) => u.id)).toEqual(['alice', 'bob-bot', 'carol']);
    expect(filterUsers(users, 'BOT').map((u) => u.id)).toEqual(['bob-bot']);
    expect(filterUsers(users, 'alice::1220').map((u) => u.id)).toEqual(['alice']);
    expect(filterUsers(users, 'corp').map((u) => u.id)).toEqual(['bob-bot', 'carol']);
    expect(filterUsers(users, 'corp car').map((u) => u.id)).toEqual(['carol']);
    expect(filterUsers(users, 'default').map((u) => u.id)).toEqual(['alice']);
    expect(filterUsers(users, 'nobody')).toEqual([]);
  });
});
