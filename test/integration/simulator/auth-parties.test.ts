/**
 * Party-based authorization details (HS256 mode): a request's userId must be the authenticated user;
 * execute is allowed by CanExecuteAs alone while prepare needs only read rights; any-party reads
 * (filtersForAnyParty, contract by id without querying parties, completions without parties) need
 * CanReadAsAnyParty; ParticipantAdmin alone grants no party rights.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, hsToken, SECRET, send } from './auth-helpers.js';
import type { RawResponse } from './auth-helpers.js';
import { createIou, openApi, startTestSim } from './helpers.js';
import type { TestSim } from './helpers.js';

const status = (r: RawResponse): number => {
  if (r.status === 401 || r.status === 403) expect(openApi().schema('JsCantonError')(r.json)).toBe(true);
  return r.status;
};

describe('party-based authorization', () => {
  let sim: TestSim;
  let alice: string;
  let contractId: string;
  const as = async (user: string) => bearer(await hsToken(user));

  beforeAll(async () => {
    sim = await startTestSim({ auth: { mode: 'hs256', secret: SECRET } });
    const admin = await as('participant_admin');
    alice = (
      (await send(sim.url, 'POST', '/v2/parties', { headers: admin, body: { partyIdHint: 'Alice' } })).json as {
        partyDetails: { party: string };
      }
    ).partyDetails.party;
    const right = (kind: string, party?: string) => ({ kind: { [kind]: { value: party === undefined ? {} : { party } } } });
    for (const [id, rights] of [
      ['actor', [right('CanActAs', alice)]],
      ['reader', [right('CanReadAs', alice)]],
      ['executor', [right('CanExecuteAs', alice)]],
      ['any-reader', [right('CanReadAsAnyParty')]],
    ] as const)
      expect((await send(sim.url, 'POST', '/v2/users', { headers: admin, body: { user: { id }, rights } })).status).toBe(200);
    const tx = await send(sim.url, 'POST', '/v2/commands/submit-and-wait-for-transaction', {
      headers: await as('actor'),
      body: { commands: { commandId: 'p-1', actAs: [alice], commands: [createIou(alice, alice, '1')] } },
    });
    expect(tx.status, tx.text).toBe(200);
    contractId =
      (tx.json as { transaction: { events: { CreatedEvent: { contractId: string } }[] } }).transaction.events[0]?.CreatedEvent.contractId ??
      '';
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it("a submission's userId must be the authenticated user; ParticipantAdmin grants no party rights", async () => {
    const submit = async (user: string, userId?: string) =>
      send(sim.url, 'POST', '/v2/commands/submit-and-wait', {
        headers: await as(user),
        body: {
          commandId: `u-${user}-${userId ?? 'none'}`,
          actAs: [alice],
          commands: [createIou(alice, alice, '1')],
          ...(userId !== undefined ? { userId } : {}),
        },
      });
    expect(status(await submit('actor'))).toBe(200);
    expect(status(await submit('actor', 'actor'))).toBe(200);
    expect(status(await submit('actor', 'someone-else'))).toBe(403);
    // ParticipantAdmin is not a party right
    expect(status(await submit('participant_admin'))).toBe(403);
  });

  it('prepare needs read rights; execute needs act or execute rights on the prepared submitters', async () => {
    const prepare = async (user: string, commandId: string) =>
      send(sim.url, 'POST', '/v2/interactive-submission/prepare', {
        headers: await as(user),
        body: { commandId, actAs: [alice], commands: [createIou(alice, alice, '2')] },
      });
    expect(status(await prepare('executor', 'x-0'))).toBe(403);
    const prepared = await prepare('reader', 'x-1');
    expect(prepared.status, prepared.text).toBe(200);
    const body = {
      preparedTransaction: (prepared.json as { preparedTransaction: string }).preparedTransaction,
      partySignatures: { signatures: [] },
      submissionId: 's-1',
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      userId: 'executor',
    };
    expect(
      status(
        await send(sim.url, 'POST', '/v2/interactive-submission/executeAndWait', {
          headers: await as('reader'),
          body: { ...body, userId: 'reader' },
        }),
      ),
    ).toBe(403);
    const executed = await send(sim.url, 'POST', '/v2/interactive-submission/executeAndWait', { headers: await as('executor'), body });
    expect(executed.status, executed.text).toBe(200);
  });

  it('any-party reads need CanReadAsAnyParty', async () => {
    const end = ((await send(sim.url, 'GET', '/v2/state/ledger-end', { headers: await as('reader') })).json as { offset: number }).offset;
    const anyParty = { activeAtOffset: end, eventFormat: { filtersForAnyParty: {} } };
    expect(status(await send(sim.url, 'POST', '/v2/state/active-contracts', { headers: await as('actor'), body: anyParty }))).toBe(403);
    expect(status(await send(sim.url, 'POST', '/v2/state/active-contracts', { headers: await as('any-reader'), body: anyParty }))).toBe(
      200,
    );
    // any-party reading also covers every single party
    expect(
      status(
        await send(sim.url, 'POST', '/v2/state/active-contracts', {
          headers: await as('any-reader'),
          body: { activeAtOffset: end, eventFormat: { filtersByParty: { [alice]: {} } } },
        }),
      ),
    ).toBe(200);

    expect(status(await send(sim.url, 'POST', '/v2/contracts/contract-by-id', { headers: await as('reader'), body: { contractId } }))).toBe(
      403,
    );
    expect(
      status(await send(sim.url, 'POST', '/v2/contracts/contract-by-id', { headers: await as('any-reader'), body: { contractId } })),
    ).toBe(200);

    const completions = { beginExclusive: 0 };
    expect(
      status(await send(sim.url, 'POST', '/v2/commands/command-completions?limit=5', { headers: await as('reader'), body: completions })),
    ).toBe(403);
    expect(
      status(
        await send(sim.url, 'POST', '/v2/commands/command-completions?limit=5', { headers: await as('any-reader'), body: completions }),
      ),
    ).not.toBe(403);
  });

  it('connected synchronizers of a party: rights on the party or an admin', async () => {
    const path = `/v2/state/connected-synchronizers?party=${encodeURIComponent(alice)}`;
    expect(status(await send(sim.url, 'GET', path, { headers: await as('any-reader') }))).toBe(200);
    expect(status(await send(sim.url, 'GET', path, { headers: await as('participant_admin') }))).toBe(200);
    expect(status(await send(sim.url, 'GET', '/v2/state/connected-synchronizers', { headers: await as('executor') }))).toBe(200);
  });
});
