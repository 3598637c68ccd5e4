/**
 * Issue #13 item 5: an identity-provider admin could grant its users rights over parties of other providers (only the
 * party's existence was checked). Canton refuses it for anyone but a participant admin
 * (`ApiUserManagementService.verifyPartiesExistInIdp`: the parties must have a party record in the request's identity
 * provider, else UNKNOWN_RESOURCE "Provided parties have not been found in identity_provider_id=`…`: […]."), and only a
 * participant admin may grant ParticipantAdmin, CanReadAsAnyParty or CanExecuteAsAnyParty
 * (`UserManagementServiceAuthorization.needsParticipantAdmin`). The repro of the issue: the admin of `idpx` creates a
 * user with CanActAs(Bank) (Bank in the default provider) and submits as Bank → it was 200.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  hsToken,
  rsaKey,
  rsToken,
  SECRET,
  send,
  serveJwks,
  type RawResponse,
  type RsaKey,
} from '../integration/simulator/auth-helpers.js';
import { createIou, nextCommandId, openApi, startTestSim, type TestSim } from '../integration/simulator/helpers.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

const ISSUER = 'https://idpx.example.com';
let sim: TestSim;
let key: RsaKey;
let jwks: Awaited<ReturnType<typeof serveJwks>>;
let admin: Record<string, string>;
let idpxAdmin: Record<string, string>;
let bank: string;
let ownParty: string;
const idpxToken = async (sub: string) => bearer(await rsToken(key, sub, { iss: ISSUER }));

function cantonError(r: RawResponse, status: number): { code: string; cause: string; resources?: [string, string][] } {
  expect(r.status, r.text).toBe(status);
  expect(openApi().schema('JsCantonError')(r.json), r.text).toBe(true);
  return r.json as { code: string; cause: string; resources?: [string, string][] };
}
const ok = async (r: Promise<RawResponse>): Promise<RawResponse> => {
  const a = await r;
  expect(a.status, a.text).toBe(200);
  return a;
};
const notInIdpx = (parties: string[]) =>
  'The submitted request refers to a non-existing PARTIES: Provided parties have not been found in ' +
  `identity_provider_id=\`idpx\`: [${parties.join(',')}].`;

beforeAll(async () => {
  key = await rsaKey('idpx-key');
  jwks = await serveJwks([key.publicJwk]);
  sim = await startTestSim({ auth: { mode: 'hs256', secret: SECRET } });
  admin = bearer(await hsToken('participant_admin'));
  await ok(
    send(sim.url, 'POST', '/v2/idps', {
      headers: admin,
      body: { identityProviderConfig: { identityProviderId: 'idpx', issuer: ISSUER, jwksUrl: jwks.url } },
    }),
  );
  await ok(
    send(sim.url, 'POST', '/v2/users', {
      headers: admin,
      body: { user: { id: 'idpx-admin', identityProviderId: 'idpx' }, rights: [{ kind: { IdentityProviderAdmin: { value: {} } } }] },
    }),
  );
  idpxAdmin = await idpxToken('idpx-admin');
  const alloc = async (headers: Record<string, string>, hint: string, identityProviderId: string) =>
    (
      (await ok(send(sim.url, 'POST', '/v2/parties', { headers, body: { partyIdHint: hint, identityProviderId } }))).json as {
        partyDetails: { party: string };
      }
    ).partyDetails.party;
  bank = await alloc(admin, 'Bank', '');
  ownParty = await alloc(idpxAdmin, 'IdpxTreasury', 'idpx');
});
afterAll(async () => {
  await ifAssigned(sim)?.dispose();
  await ifAssigned(jwks)?.close();
});

describe('an identity-provider admin and parties of other providers', () => {
  it('cannot create a user acting as a party of the default provider; the user does not exist and cannot submit as it', async () => {
    const r = await send(sim.url, 'POST', '/v2/users', {
      headers: idpxAdmin,
      body: { user: { id: 'mallory', identityProviderId: 'idpx' }, rights: [{ kind: { CanActAs: { value: { party: bank } } } }] },
    });
    const err = cantonError(r, 404);
    expect(err.code).toBe('UNKNOWN_RESOURCE');
    expect(err.cause).toBe(notInIdpx([bank]));
    expect(err.resources).toEqual([['PARTIES', bank]]);
    expect((await send(sim.url, 'GET', '/v2/users/mallory', { headers: admin })).status).toBe(404);
    // the repro's second step: submitting as Bank with mallory's token
    const submit = await send(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      headers: await idpxToken('mallory'),
      body: { commandId: nextCommandId('idp'), userId: 'mallory', actAs: [bank], commands: [createIou(bank, bank, '1000000')] },
    });
    expect(cantonError(submit, 403).code).toBe('PERMISSION_DENIED');
  });

  it('cannot grant (nor revoke) CanActAs, CanReadAs or CanExecuteAs of a foreign party to a user of its own provider', async () => {
    await ok(send(sim.url, 'POST', '/v2/users', { headers: idpxAdmin, body: { user: { id: 'idpx-user', identityProviderId: 'idpx' } } }));
    for (const kind of [
      { CanActAs: { value: { party: bank } } },
      { CanReadAs: { value: { party: bank } } },
      { CanExecuteAs: { value: { party: bank } } },
    ]) {
      const r = await send(sim.url, 'POST', '/v2/users/idpx-user/rights', {
        headers: idpxAdmin,
        body: { userId: 'idpx-user', rights: [{ kind }] },
      });
      expect(cantonError(r, 404).cause).toBe(notInIdpx([bank]));
      const revoke = await send(sim.url, 'PATCH', '/v2/users/idpx-user/rights', {
        headers: idpxAdmin,
        body: { userId: 'idpx-user', rights: [{ kind }] },
      });
      expect(cantonError(revoke, 404).code).toBe('UNKNOWN_RESOURCE');
    }
    const rights = await ok(send(sim.url, 'GET', '/v2/users/idpx-user/rights', { headers: idpxAdmin }));
    expect((rights.json as { rights: unknown[] }).rights).toEqual([]);
  });

  it('names every foreign or unknown party of the request, and changes nothing when one of them is foreign', async () => {
    const r = await send(sim.url, 'POST', '/v2/users/idpx-user/rights', {
      headers: idpxAdmin,
      body: {
        userId: 'idpx-user',
        rights: [
          { kind: { CanActAs: { value: { party: ownParty } } } },
          { kind: { CanReadAs: { value: { party: bank } } } },
          { kind: { CanReadAs: { value: { party: 'Ghost::1220ab' } } } },
        ],
      },
    });
    expect(cantonError(r, 404).cause).toBe(notInIdpx([bank, 'Ghost::1220ab']));
    const rights = await ok(send(sim.url, 'GET', '/v2/users/idpx-user/rights', { headers: idpxAdmin }));
    expect((rights.json as { rights: unknown[] }).rights).toEqual([]);
  });

  it('may grant rights over the parties of its own provider', async () => {
    const r = await ok(
      send(sim.url, 'POST', '/v2/users/idpx-user/rights', {
        headers: idpxAdmin,
        body: { userId: 'idpx-user', rights: [{ kind: { CanActAs: { value: { party: ownParty } } } }] },
      }),
    );
    expect((r.json as { newlyGrantedRights: unknown[] }).newlyGrantedRights).toHaveLength(1);
  });

  it('may not grant the rights only a participant admin grants (any-party rights, ParticipantAdmin)', async () => {
    for (const kind of [
      { CanReadAsAnyParty: { value: {} } },
      { CanExecuteAsAnyParty: { value: {} } },
      { ParticipantAdmin: { value: {} } },
    ]) {
      const grant = await send(sim.url, 'POST', '/v2/users/idpx-user/rights', {
        headers: idpxAdmin,
        body: { userId: 'idpx-user', rights: [{ kind }] },
      });
      expect(cantonError(grant, 403).code).toBe('PERMISSION_DENIED');
      const create = await send(sim.url, 'POST', '/v2/users', {
        headers: idpxAdmin,
        body: {
          user: { id: `any-${must(Object.keys(kind)[0], 'Object.keys(kind)[0]').toLowerCase()}`, identityProviderId: 'idpx' },
          rights: [{ kind }],
        },
      });
      expect(cantonError(create, 403).code).toBe('PERMISSION_DENIED');
    }
  });

  it('a participant admin still grants rights over any party of any provider', async () => {
    await ok(
      send(sim.url, 'POST', '/v2/users/idpx-user/rights', {
        headers: admin,
        body: { userId: 'idpx-user', identityProviderId: 'idpx', rights: [{ kind: { CanReadAs: { value: { party: bank } } } }] },
      }),
    );
  });
});
