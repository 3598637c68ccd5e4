/** Hits the remaining implemented operations once each, validating every answer against the spec. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IOU, allocate, call, createIou, exercise, ledgerEnd, nextCommandId, startTestSim, submitTx, wildcard } from './helpers.js';
import type { TestSim } from './helpers.js';

describe('spec coverage of the remaining operations', () => {
  let sim: TestSim;
  let bank: string, alice: string;
  let offset: number;
  beforeAll(async () => {
    sim = await startTestSim({ seedDemo: true });
    bank = await allocate(sim.url, 'Bank2');
    alice = await allocate(sim.url, 'Alice2');
    offset = (await submitTx(sim.url, [bank], [createIou(bank, alice, '8')])).offset;
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('flat updates, transaction-by-offset, command-completions, trees for submit', async () => {
    const flats = await call(sim.url, 'POST', '/v2/updates/flats', { body: { beginExclusive: 0, filter: wildcard(alice) } });
    expect(flats.status).toBe(200);
    const byOffset = await call(sim.url, 'POST', '/v2/updates/transaction-by-offset', {
      body: { offset, transactionFormat: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: wildcard(alice) } },
    });
    expect(byOffset.status).toBe(200);
    const cc = await call(sim.url, 'POST', '/v2/commands/command-completions', { body: { parties: [bank], beginExclusive: 0 } });
    expect(cc.status).toBe(200);
    const tree = await call(sim.url, 'POST', '/v2/commands/submit-and-wait-for-transaction-tree', {
      body: { commandId: nextCommandId(), actAs: [bank], commands: [createIou(bank, bank, '1')] },
    });
    expect(tree.status).toBe(200);
    expect(Object.keys((tree.json as { transactionTree: { eventsById: object } }).transactionTree.eventsById)).toEqual(['0']);
  });

  it('async reassignment, parties by id, packages, active-contracts-page via GET', async () => {
    const syncs = (
      (await call(sim.url, 'GET', '/v2/state/connected-synchronizers')).json as { connectedSynchronizers: { synchronizerId: string }[] }
    ).connectedSynchronizers;
    const c = await submitTx(sim.url, [bank], [createIou(bank, alice, '2')]);
    const r = await call(sim.url, 'POST', '/v2/commands/async/submit-reassignment', {
      body: {
        reassignmentCommands: {
          commandId: nextCommandId(),
          submitter: bank,
          commands: [
            {
              command: {
                UnassignCommand: {
                  value: { contractId: c.created[0]?.contractId, source: syncs[0]?.synchronizerId, target: syncs[1]?.synchronizerId },
                },
              },
            },
          ],
        },
      },
    });
    expect(r.status).toBe(200);
    const p = await call(sim.url, 'GET', '/v2/parties/{party}', { path: `/v2/parties/${encodeURIComponent(alice)}` });
    expect((p.json as { partyDetails: { party: string }[] }).partyDetails.map((x) => x.party)).toEqual([alice]);
    const parties = await call(sim.url, 'GET', '/v2/parties', { path: '/v2/parties?pageSize=2' });
    const page = parties.json as { partyDetails: unknown[]; nextPageToken?: string };
    expect(page.partyDetails).toHaveLength(2);
    expect(page.nextPageToken).toBeDefined();
    const pkgs = await call(sim.url, 'GET', '/v2/packages');
    const ids = (pkgs.json as { packageIds: string[] }).packageIds;
    // built-in: the two stdlib packages the token standard refers to, simulator-demo, the six token-standard API packages
    // (metadata, holding, transfer-instruction, allocation, allocation-instruction, allocation-request), splice-amulet
    // (the wallet's coin), splice-util-token-standard-wallet (merge delegation), splice-dso-governance and the ANS
    expect(ids).toHaveLength(13);
    expect(ids[0]).toMatch(/^[0-9a-f]{64}$/);
    const st = await call(sim.url, 'GET', '/v2/packages/{package-id}/status', { path: `/v2/packages/${ids[0]}/status` });
    expect((st.json as { packageStatus: string }).packageStatus).toBe('PACKAGE_STATUS_REGISTERED');
    const acsPage = await fetch(`${sim.url}/v2/state/active-contracts-page`, { method: 'GET', body: undefined });
    expect(acsPage.status).toBe(400); // GET without the request body cannot be decoded
    const ok = await call(sim.url, 'POST', '/v2/state/active-contracts-page', {
      body: { eventFormat: wildcard(alice), activeAtOffset: await ledgerEnd(sim.url) },
    });
    expect((ok.json as { activeContracts: unknown[] }).activeContracts.length).toBeGreaterThan(0);
  });

  it('party metadata update, allocation for a user, preferred packages, vetted packages', async () => {
    const upd = await call(sim.url, 'PATCH', '/v2/parties/{party}', {
      path: `/v2/parties/${encodeURIComponent(alice)}`,
      body: {
        partyDetails: { party: alice, localMetadata: { annotations: { team: 'ops' } } },
        updateMask: { paths: ['local_metadata.annotations'], unknownFields: { fields: {} } },
      },
    });
    expect(
      (upd.json as { partyDetails: { localMetadata: { annotations: Record<string, string> } } }).partyDetails.localMetadata.annotations,
    ).toEqual({ team: 'ops' });
    const noUser = await call(sim.url, 'POST', '/v2/parties', { body: { partyIdHint: 'ForNobody', userId: 'nobody' } });
    expect(noUser.status).toBe(404);
    await call(sim.url, 'POST', '/v2/users', { body: { user: { id: 'carol-user' } } });
    const forUser = await call(sim.url, 'POST', '/v2/parties', { body: { partyIdHint: 'Carol', userId: 'carol-user' } });
    const carol = (forUser.json as { partyDetails: { party: string } }).partyDetails.party;
    const rights = await call(sim.url, 'GET', '/v2/users/{user-id}/rights', { path: '/v2/users/carol-user/rights' });
    expect((rights.json as { rights: unknown[] }).rights).toEqual([{ kind: { CanActAs: { value: { party: carol } } } }]);
    const pref = await call(sim.url, 'POST', '/v2/interactive-submission/preferred-packages', {
      body: { packageVettingRequirements: [{ packageName: 'simulator-demo', parties: [alice, bank] }] },
    });
    expect((pref.json as { packageReferences: { packageName: string; packageVersion: string }[] }).packageReferences).toMatchObject([
      { packageName: 'simulator-demo', packageVersion: '1.0.0' },
    ]);
    const prefV = await call(sim.url, 'GET', '/v2/interactive-submission/preferred-package-version', {
      path: `/v2/interactive-submission/preferred-package-version?package-name=simulator-demo&parties=${encodeURIComponent(alice)}`,
    });
    expect(prefV.status).toBe(200);
    const missing = await call(sim.url, 'POST', '/v2/interactive-submission/preferred-packages', {
      body: { packageVettingRequirements: [{ packageName: 'nope', parties: [alice] }] },
    });
    expect(missing.status).toBe(404);
    const vet = await call(sim.url, 'POST', '/v2/package-vetting/list', { body: {} });
    expect((vet.json as { vettedPackages: unknown[] }).vettedPackages).toHaveLength(2);
  });

  it('demo seed gives a console something to show', async () => {
    const parties = ((await call(sim.url, 'GET', '/v2/parties')).json as { partyDetails: { party: string }[] }).partyDetails.map(
      (p) => p.party.split('::')[0],
    );
    expect(parties).toEqual(expect.arrayContaining(['Alice', 'Bob', 'Bank']));
    const acs = await call(sim.url, 'POST', '/v2/state/active-contracts', {
      body: { activeAtOffset: await ledgerEnd(sim.url), eventFormat: { filtersForAnyParty: {} } },
    });
    expect((acs.json as unknown[]).length).toBeGreaterThanOrEqual(5);
    // demo contracts are usable
    const demoAlice = ((await call(sim.url, 'GET', '/v2/parties')).json as { partyDetails: { party: string }[] }).partyDetails.find((p) =>
      p.party.startsWith('Alice::'),
    )?.party as string;
    const iou = (
      acs.json as {
        contractEntry: {
          JsActiveContract?: { createdEvent: { contractId: string; templateId: string; createArgument: { owner: string } } };
        };
      }[]
    )
      .flatMap((e) => (e.contractEntry.JsActiveContract ? [e.contractEntry.JsActiveContract.createdEvent] : []))
      .find((e) => e.templateId.endsWith(':Demo.Iou:Iou') && e.createArgument.owner === demoAlice);
    const t = await submitTx(sim.url, [demoAlice], [exercise(IOU, iou?.contractId as string, 'Iou_Describe')]);
    expect(t.events).toHaveLength(1);
  });
});
