import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocate, call, cantonError, startTestSim } from './helpers.js';
import type { TestSim } from './helpers.js';

describe('user management', () => {
  let sim: TestSim;
  let alice: string;
  beforeAll(async () => {
    sim = await startTestSim();
    alice = await allocate(sim.url, 'Alice');
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('creates, reads, updates, lists and deletes users; grants and revokes rights', async () => {
    const created = await call(sim.url, 'POST', '/v2/users', {
      body: {
        user: { id: 'alice-user', primaryParty: alice, isDeactivated: false },
        rights: [{ kind: { CanActAs: { value: { party: alice } } } }],
      },
    });
    expect(created.status).toBe(200);
    const dup = await call(sim.url, 'POST', '/v2/users', { body: { user: { id: 'alice-user' } } });
    expect(dup.status).toBe(409);
    expect(cantonError(dup).code).toBe('USER_ALREADY_EXISTS');
    const got = await call(sim.url, 'GET', '/v2/users/{user-id}', { path: '/v2/users/alice-user' });
    expect((got.json as { user: { primaryParty: string } }).user.primaryParty).toBe(alice);
    const grant = await call(sim.url, 'POST', '/v2/users/{user-id}/rights', {
      path: '/v2/users/alice-user/rights',
      body: {
        userId: 'alice-user',
        rights: [{ kind: { CanActAs: { value: { party: alice } } } }, { kind: { CanReadAsAnyParty: { value: {} } } }],
      },
    });
    expect((grant.json as { newlyGrantedRights: unknown[] }).newlyGrantedRights).toEqual([{ kind: { CanReadAsAnyParty: { value: {} } } }]);
    const rights = await call(sim.url, 'GET', '/v2/users/{user-id}/rights', { path: '/v2/users/alice-user/rights' });
    expect((rights.json as { rights: unknown[] }).rights).toHaveLength(2);
    const revoke = await call(sim.url, 'PATCH', '/v2/users/{user-id}/rights', {
      path: '/v2/users/alice-user/rights',
      body: { userId: 'alice-user', rights: [{ kind: { CanActAs: { value: { party: alice } } } }] },
    });
    expect((revoke.json as { newlyRevokedRights: unknown[] }).newlyRevokedRights).toHaveLength(1);
    const upd = await call(sim.url, 'PATCH', '/v2/users/{user-id}', {
      path: '/v2/users/alice-user',
      body: { user: { id: 'alice-user', isDeactivated: true }, updateMask: { paths: ['is_deactivated'], unknownFields: { fields: {} } } },
    });
    expect((upd.json as { user: { isDeactivated: boolean; primaryParty: string } }).user).toMatchObject({
      isDeactivated: true,
      primaryParty: alice,
    });
    const list = await call(sim.url, 'GET', '/v2/users');
    // demo mode: the implicit admins participant_admin and (as on LocalNet) ledger-api-user
    expect((list.json as { users: { id: string }[] }).users.map((u) => u.id)).toEqual([
      'alice-user',
      'ledger-api-user',
      'participant_admin',
    ]);
    const del = await call(sim.url, 'DELETE', '/v2/users/{user-id}', { path: '/v2/users/alice-user' });
    expect(del.status).toBe(200);
    const gone = await call(sim.url, 'GET', '/v2/users/{user-id}', { path: '/v2/users/alice-user' });
    expect(gone.status).toBe(404);
    expect(cantonError(gone).code).toBe('USER_NOT_FOUND');
  });

  it('rejects invalid user ids and rights for unknown parties', async () => {
    const bad = await call(sim.url, 'POST', '/v2/users', { body: { user: { id: 'Has Spaces' } } });
    expect(bad.status).toBe(400);
    expect(cantonError(bad).code).toBe('INVALID_FIELD');
    const unknownParty = await call(sim.url, 'POST', '/v2/users', {
      body: { user: { id: 'bob' }, rights: [{ kind: { CanActAs: { value: { party: 'Nobody::1220ff' } } } }] },
    });
    expect(cantonError(unknownParty).code).toBe('PARTY_NOT_KNOWN_ON_LEDGER');
    const admin = await call(sim.url, 'GET', '/v2/users/{user-id}/rights', { path: '/v2/users/participant_admin/rights' });
    expect((admin.json as { rights: unknown[] }).rights).toEqual([{ kind: { ParticipantAdmin: { value: {} } } }]);
  });

  it('reads a right without `kind` (optional in the spec) as an unset oneof: nothing granted, no 400', async () => {
    await call(sim.url, 'POST', '/v2/users', { body: { user: { id: 'kindless-user' } } });
    const grant = await call(sim.url, 'POST', '/v2/users/{user-id}/rights', {
      path: '/v2/users/kindless-user/rights',
      body: { userId: 'kindless-user', rights: [{}] },
    });
    expect(grant.status).toBe(200);
    expect((grant.json as { newlyGrantedRights?: unknown[] }).newlyGrantedRights ?? []).toEqual([]);
    expect((await call(sim.url, 'DELETE', '/v2/users/{user-id}', { path: '/v2/users/kindless-user' })).status).toBe(200);
  });
});
