/**
 * LocalNet parity for clients configured for LocalNet (e.g. the official wallet SDK): in demo mode (no
 * authentication) the user `ledger-api-user` exists with the ParticipantAdmin right, and an empty-string optional
 * field means the same as an absent one, as in Canton (proto3 defaults). With authentication on, no such user exists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, cantonError, nextCommandId, startTestSim, submitTx, IOU } from './helpers.js';
import type { TestSim } from './helpers.js';

const jwt = (sub: string): string =>
  `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.x`;

let sim: TestSim;
beforeAll(async () => {
  sim = await startTestSim();
});
afterAll(async () => {
  await sim.dispose();
});

describe('LocalNet parity (demo mode)', () => {
  it('ledger-api-user exists with ParticipantAdmin, is listed, and is the authenticated user of its tokens', async () => {
    const u = await call(sim.url, 'GET', '/v2/users/{user-id}', { path: '/v2/users/ledger-api-user' });
    expect(u.status).toBe(200);
    const rights = await call(sim.url, 'GET', '/v2/users/{user-id}/rights', { path: '/v2/users/ledger-api-user/rights' });
    expect((rights.json as { rights: unknown[] }).rights).toEqual([{ kind: { ParticipantAdmin: { value: {} } } }]);
    const list = await call(sim.url, 'GET', '/v2/users');
    expect((list.json as { users: { id: string }[] }).users.map((x) => x.id)).toEqual(
      expect.arrayContaining(['ledger-api-user', 'participant_admin']),
    );
    const me = await call(sim.url, 'GET', '/v2/authenticated-user', { headers: { authorization: `Bearer ${jwt('ledger-api-user')}` } });
    expect((me.json as { user: { id: string } }).user.id).toBe('ledger-api-user');
  });

  it('empty optional strings count as absent: party allocation, submission and user creation', async () => {
    const party = await call(sim.url, 'POST', '/v2/parties', {
      body: { partyIdHint: 'EmptyStrings', synchronizerId: '', identityProviderId: '', userId: '' },
    });
    expect(party.status, party.text).toBe(200);
    const p = (party.json as { partyDetails: { party: string } }).partyDetails.party;
    const tx = await submitTx(
      sim.url,
      [p],
      [{ CreateCommand: { templateId: IOU, createArguments: { issuer: p, owner: p, currency: 'USD', amount: '1', observers: [] } } }],
      { synchronizerId: '', workflowId: '', submissionId: '', userId: '' },
    );
    expect(tx.created).toHaveLength(1);
    const user = await call(sim.url, 'POST', '/v2/users', {
      body: { user: { id: `empty-${nextCommandId()}`, primaryParty: '', identityProviderId: '', isDeactivated: false }, rights: [] },
    });
    expect(user.status, user.text).toBe(200);
    expect((user.json as { user: { primaryParty?: string } }).user.primaryParty ?? '').toBe('');
  });
});

describe('with authentication', () => {
  it('there is no implicit ledger-api-user', async () => {
    const secure = await startTestSim({ auth: { mode: 'hs256', secret: 'a-test-secret-of-enough-length-000' } });
    try {
      const { SignJWT } = await import('jose');
      const token = await new SignJWT({ scope: 'daml_ledger_api' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('participant_admin')
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode('a-test-secret-of-enough-length-000'));
      const r = await call(secure.url, 'GET', '/v2/users/{user-id}', {
        path: '/v2/users/ledger-api-user',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(cantonError(r).code).toBe('USER_NOT_FOUND');
    } finally {
      await secure.dispose();
    }
  });
});
