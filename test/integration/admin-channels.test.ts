/**
 * Participant administration through the real composition (startConsoleApp in demo mode: contract
 * router → services → embedded simulator over HTTP). Every effect is checked again through the
 * simulator's own HTTP API, not through the console.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startConsoleApp, type ConsoleApp } from '../../src/app/console-app.js';
import { adminHandlers } from '../../src/app/handlers/admin.js';
import type { IdpRow, PartyRow, Response, UserDetail, UserRow } from '../../src/ipc/contract.js';
import type { IpcError } from '../../src/ipc/errors.js';
import { LedgerClient } from '../../src/services/ledger-client.js';
import { newExternalKey, onboardExternal, startTestSim, type TestSim } from './simulator/helpers.js';
import { must } from '../support/must.js';

let app: ConsoleApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'admin-channels-'));
  app = await startConsoleApp({ dataDir: dir, demo: true, transport: 'browser-host', keychainService: `admin-test-${process.pid}` });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

async function sim<T>(p: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(must(app.demoLedgerUrl, 'the demo ledger URL') + p, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    ...(init.body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) } : {}),
  });
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function ok<T>(channel: string, payload: unknown): Promise<T> {
  const r = await app.router.invoke(channel, payload);
  if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`);
  return r.value as T;
}
async function fails(channel: string, payload: unknown): Promise<IpcError> {
  const r = await app.router.invoke(channel, payload);
  if (r.ok) throw new Error(`${channel} unexpectedly succeeded: ${JSON.stringify(r.value)}`);
  return r.error;
}

describe('parties', () => {
  it('allocates with annotations, reads details, edits annotations with the resource version', async () => {
    const hint = `Carol${Date.now()}`;
    const p = await ok<PartyRow>('parties.allocate', { partyIdHint: hint, annotations: { team: 'ops', 'example.com/tier': 'gold' } });
    expect(p).toMatchObject({ hint, isLocal: true, external: false, annotations: { team: 'ops', 'example.com/tier': 'gold' } });
    const onLedger = await sim<{ partyDetails: Array<{ localMetadata: { annotations: Record<string, string> } }> }>(
      `/v2/parties/${encodeURIComponent(p.party)}`,
    );
    expect(must(onLedger.partyDetails[0], 'the party on the ledger').localMetadata.annotations).toEqual({
      team: 'ops',
      'example.com/tier': 'gold',
    });

    const edited = await ok<PartyRow>('parties.annotations.update', {
      party: p.party,
      resourceVersion: p.resourceVersion,
      annotations: { team: 'treasury' },
      removed: ['example.com/tier'],
    });
    expect(edited.annotations).toEqual({ team: 'treasury' });
    expect(edited.resourceVersion).not.toBe(p.resourceVersion);
    expect(await ok<PartyRow>('parties.get', { party: p.party })).toMatchObject({ annotations: { team: 'treasury' } });

    // Editing from the stale version is refused by the participant and changes nothing.
    const stale = await fails('parties.annotations.update', {
      party: p.party,
      resourceVersion: p.resourceVersion,
      annotations: { team: 'x' },
    });
    expect(stale.code).toBe('LEDGER_API_ERROR');
    expect(stale.canton?.cause).toMatch(/resourceVersion/);
    expect((await ok<PartyRow>('parties.get', { party: p.party })).annotations).toEqual({ team: 'treasury' });
  });

  it('searches and pages through /v2/parties', async () => {
    const stamp = Date.now();
    for (let i = 0; i < 3; i++) await ok('parties.allocate', { partyIdHint: `Page${stamp}x${i}` });
    const first = await ok<Response<'parties.list'>>('parties.list', { filter: `Page${stamp}`, pageSize: 2 });
    expect(first.parties.map((p) => p.hint)).toEqual([`Page${stamp}x0`, `Page${stamp}x1`]);
    expect(first.nextPageToken).not.toBeNull();
    const second = await ok<Response<'parties.list'>>('parties.list', {
      filter: `Page${stamp}`,
      pageSize: 2,
      pageToken: first.nextPageToken,
    });
    expect(second.parties.map((p) => p.hint)).toEqual([`Page${stamp}x2`]);
    expect(second.nextPageToken).toBeNull();
    expect(first.participantNamespace).toMatch(/^1220[0-9a-f]{64}$/);
  });

  it('lists every party for the pickers, named by a display-name annotation, else by the hint', async () => {
    const stamp = Date.now();
    const named = await ok<PartyRow>('parties.allocate', {
      partyIdHint: `Dir${stamp}`,
      annotations: { 'example.com/display-name': `Payments ${stamp}` },
    });
    const plain = await ok<PartyRow>('parties.allocate', { partyIdHint: `Plain${stamp}` });
    const dir = await ok<Response<'parties.directory'>>('parties.directory', {});
    expect(dir.truncated).toBe(false);
    expect(dir.parties.find((p) => p.party === named.party)).toMatchObject({ displayName: `Payments ${stamp}`, hint: `Dir${stamp}` });
    expect(dir.parties.find((p) => p.party === plain.party)).toMatchObject({ displayName: `Plain${stamp}` });
    // as many as the participant lists, page after page
    const all = await ok<Response<'parties.list'>>('parties.list', { pageSize: 1000 });
    expect(dir.parties.length).toBe(all.parties.length);
  });

  it('refuses bad input before calling the participant', async () => {
    expect((await fails('parties.allocate', { partyIdHint: 'bad/hint' })).code).toBe('BAD_REQUEST');
    const badKey = await fails('parties.allocate', { partyIdHint: 'Ok', annotations: { 'bad key!': 'v' } });
    expect(badKey.issues?.[0]?.path).toMatch(/^annotations/);
    expect((await fails('parties.get', { party: `Nobody::1220${'0'.repeat(64)}` })).code).toBe('NOT_FOUND');
  });
});

describe('users and rights', () => {
  let party: string;
  beforeAll(async () => {
    party = (await ok<PartyRow>('parties.allocate', { partyIdHint: `Dave${Date.now()}` })).party;
  });

  it('creates a user, grants and revokes every kind of right, edits and deletes it', async () => {
    const userId = `dave-${Date.now()}`;
    const created = await ok<UserDetail>('users.create', { userId, primaryParty: party, annotations: { owner: 'ops' } });
    expect(created.user).toMatchObject({ id: userId, primaryParty: party, isDeactivated: false, annotations: { owner: 'ops' } });
    expect(created.rights).toEqual([]);

    const all = [
      { kind: 'ParticipantAdmin' },
      { kind: 'IdentityProviderAdmin' },
      { kind: 'CanReadAsAnyParty' },
      { kind: 'CanExecuteAsAnyParty' },
      { kind: 'CanActAs', party },
      { kind: 'CanReadAs', party },
      { kind: 'CanExecuteAs', party },
    ];
    const granted = await ok<Response<'users.rights.grant'>>('users.rights.grant', { userId, rights: all });
    expect(granted.changed).toHaveLength(7);
    expect(granted.rights).toEqual(expect.arrayContaining(all));
    const api = await sim<{ rights: Array<{ kind: Record<string, unknown> }> }>(`/v2/users/${userId}/rights`);
    expect(api.rights.map((r) => Object.keys(r.kind)[0]).sort()).toEqual(all.map((r) => r.kind).sort());

    const again = await ok<Response<'users.rights.grant'>>('users.rights.grant', { userId, rights: [{ kind: 'CanActAs', party }] });
    expect(again.changed).toEqual([]);
    const revoked = await ok<Response<'users.rights.revoke'>>('users.rights.revoke', { userId, rights: [{ kind: 'CanReadAs', party }] });
    expect(revoked.changed).toEqual([{ kind: 'CanReadAs', party }]);
    expect(revoked.rights).toHaveLength(6);
    const apiAfter = await sim<{ rights: Array<{ kind: Record<string, unknown> }> }>(`/v2/users/${userId}/rights`);
    expect(apiAfter.rights.some((r) => 'CanReadAs' in r.kind)).toBe(false);

    const updated = await ok<UserRow>('users.update', {
      userId,
      resourceVersion: created.user.resourceVersion,
      primaryParty: '',
      isDeactivated: true,
      annotations: { owner: 'treasury' },
    });
    expect(updated).toMatchObject({ primaryParty: null, isDeactivated: true, annotations: { owner: 'treasury' } });
    const apiUser = await sim<{ user: { isDeactivated: boolean; primaryParty?: string } }>(`/v2/users/${userId}`);
    expect(apiUser.user.isDeactivated).toBe(true);
    expect(apiUser.user.primaryParty ?? '').toBe('');

    expect((await ok<Response<'users.list'>>('users.list', {})).users.map((u) => u.id)).toContain(userId);
    expect(await ok('users.delete', { userId })).toEqual({ deleted: true });
    const gone = await fails('users.get', { userId });
    expect(gone.canton?.code).toBe('USER_NOT_FOUND');
  });

  it('refuses a party right without a party and an invalid user id', async () => {
    expect((await fails('users.rights.grant', { userId: 'someone', rights: [{ kind: 'CanActAs' }] })).code).toBe('BAD_REQUEST');
    expect((await fails('users.create', { userId: 'Upper Case' })).code).toBe('BAD_REQUEST');
    expect((await fails('users.rights.grant', { userId: 'someone', rights: [] })).code).toBe('BAD_REQUEST');
  });
});

describe('identity providers', () => {
  it('creates up to the limit, shows the Canton error, edits, moves a user, deletes', async () => {
    const made: string[] = [];
    for (let i = 0; ; i++) {
      const id = `idp-${i}`;
      const r = await app.router.invoke('idps.create', {
        identityProviderId: id,
        issuer: `https://login.example.com/${id}`,
        jwksUrl: `https://login.example.com/${id}/jwks`,
      });
      if (!r.ok) {
        expect(r.error.canton).toMatchObject({ code: 'TOO_MANY_IDENTITY_PROVIDER_CONFIGS', httpStatus: 400 });
        break;
      }
      made.push(id);
      expect(i).toBeLessThan(20);
    }
    expect(made).toHaveLength(10);
    expect((await ok<Response<'idps.list'>>('idps.list', {})).idps).toHaveLength(10);

    const dup = await fails('idps.create', {
      identityProviderId: 'idp-0',
      issuer: 'https://x.example.com',
      jwksUrl: 'https://x.example.com/jwks',
    });
    expect(dup.canton?.code).toBe('IDP_CONFIG_ALREADY_EXISTS');
    const badUrl = await fails('idps.create', { identityProviderId: 'x', issuer: 'https://x', jwksUrl: 'not a url' });
    expect(badUrl.issues?.[0]?.path).toBe('jwksUrl');

    const edited = await ok<IdpRow>('idps.update', {
      identityProviderId: 'idp-1',
      issuer: 'https://login.example.com/renamed',
      jwksUrl: 'https://login.example.com/renamed/jwks',
      audience: 'ledger-api',
      isDeactivated: true,
    });
    expect(edited).toEqual({
      identityProviderId: 'idp-1',
      issuer: 'https://login.example.com/renamed',
      jwksUrl: 'https://login.example.com/renamed/jwks',
      audience: 'ledger-api',
      isDeactivated: true,
    });
    expect((await sim<{ identityProviderConfig: IdpRow }>('/v2/idps/idp-1')).identityProviderConfig.audience).toBe('ledger-api');

    const userId = `mover-${Date.now()}`;
    await ok('users.create', { userId });
    const moved = await ok<UserRow>('users.idp.move', { userId, sourceIdentityProviderId: '', targetIdentityProviderId: 'idp-2' });
    expect(moved.identityProviderId).toBe('idp-2');
    expect((await sim<{ user: { identityProviderId: string } }>(`/v2/users/${userId}`)).user.identityProviderId).toBe('idp-2');
    const wrong = await fails('users.idp.move', { userId, sourceIdentityProviderId: '', targetIdentityProviderId: 'idp-3' });
    expect(wrong.canton?.code).toBe('USER_NOT_FOUND');

    for (const id of made) expect(await ok('idps.delete', { identityProviderId: id })).toEqual({ deleted: true });
    expect((await ok<Response<'idps.list'>>('idps.list', {})).idps).toEqual([]);
    expect((await fails('idps.delete', { identityProviderId: 'idp-0' })).canton?.code).toBe('IDP_CONFIG_NOT_FOUND');
  });
});

describe('external parties', () => {
  let other: TestSim;
  beforeAll(async () => {
    other = await startTestSim();
  });
  afterAll(async () => {
    await other.dispose();
  });

  it('marks parties outside the participant namespace and parties whose key is in the keystore', async () => {
    const client = new LedgerClient({ baseUrl: other.url });
    const synchronizer = must(((await client.connectedSynchronizers()).connectedSynchronizers ?? [])[0], 'a synchronizer').synchronizerId;
    const key = newExternalKey();
    const external = await onboardExternal(other.url, synchronizer, `Ext${Date.now()}`, key);
    const plainRes = await fetch(`${other.url}/v2/parties`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ partyIdHint: `Plain${Date.now()}` }),
    });
    const plain = ((await plainRes.json()) as { partyDetails: { party: string } }).partyDetails.party;

    const ctx = { signal: new AbortController().signal };
    const withoutKeystore = adminHandlers({ activeClient: () => ({ client }) });
    expect(await withoutKeystore['parties.get']({ party: external }, ctx)).toMatchObject({ external: true, keystoreKey: null });
    expect(await withoutKeystore['parties.get']({ party: plain }, ctx)).toMatchObject({ external: false, keystoreKey: null });

    // The keystore seam marks a party whose namespace key the console holds, and names the key.
    const plainNamespace = must(plain.split('::')[1], 'the namespace of the plain party');
    const withKeystore = adminHandlers({
      activeClient: () => ({ client }),
      externalPartyKeys: () =>
        Promise.resolve(
          new Map([
            [key.fingerprint, 'treasury-key'],
            [plainNamespace, 'participant-ns'],
          ]),
        ),
    });
    expect(await withKeystore['parties.get']({ party: external }, ctx)).toMatchObject({ external: true, keystoreKey: 'treasury-key' });
    expect(await withKeystore['parties.get']({ party: plain }, ctx)).toMatchObject({ external: true, keystoreKey: 'participant-ns' });
  });
});
