/**
 * Party hosting per synchronizer over real HTTP: a party is hosted only on the synchronizer it was allocated or
 * onboarded on until it is allocated on another one; `/v2/state/connected-synchronizers?party=` reports exactly
 * those synchronizers with the permission there, without a party every connected synchronizer with none. Every
 * answer is checked against the official OpenAPI (ajv, through `call`); the hosting survives a restart, and a data
 * dir written before the hosting table existed is filled from the parties' topology transactions.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_FILE } from '../../../src/simulator/store/open.js';
import { call, cantonError, newExternalKey, onboardExternal, startTestSim, type TestSim } from './helpers.js';

interface Connected {
  connectedSynchronizers?: Array<{ synchronizerAlias: string; synchronizerId: string; permission?: string }>;
}

describe('party hosting per synchronizer', () => {
  let sim: TestSim;
  let global: string;
  let priv: string;
  const hosting = async (party: string) => {
    const r = await call(sim.url, 'GET', '/v2/state/connected-synchronizers', {
      path: `/v2/state/connected-synchronizers?party=${encodeURIComponent(party)}`,
    });
    expect(r.status).toBe(200);
    return ((r.json as Connected).connectedSynchronizers ?? []).map((s) => [s.synchronizerId, s.permission]);
  };
  const allocateOn = async (hint: string, synchronizerId: string) =>
    call(sim.url, 'POST', '/v2/parties', { body: { partyIdHint: hint, synchronizerId } });

  beforeAll(async () => {
    sim = await startTestSim();
    const all = (await call(sim.url, 'GET', '/v2/state/connected-synchronizers')).json as Connected;
    [global, priv] = (all.connectedSynchronizers ?? []).map((s) => s.synchronizerId) as [string, string];
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('lists every connected synchronizer without a party, with no permission', async () => {
    const r = await call(sim.url, 'GET', '/v2/state/connected-synchronizers');
    const syncs = (r.json as Connected).connectedSynchronizers ?? [];
    expect(syncs.map((s) => s.synchronizerId)).toEqual([global, priv]);
    expect(syncs.every((s) => s.permission === undefined)).toBe(true);
  });

  it('hosts a party only where it was allocated until it is allocated on another synchronizer', async () => {
    const r = await allocateOn('hostOnPrivate', priv);
    expect(r.status).toBe(200);
    const party = (r.json as { partyDetails: { party: string } }).partyDetails.party;
    expect(await hosting(party)).toEqual([[priv, 'PARTICIPANT_PERMISSION_SUBMISSION']]);

    // The default synchronizer when none is named is the first one.
    const d = await call(sim.url, 'POST', '/v2/parties', { body: { partyIdHint: 'hostDefault' } });
    expect(await hosting((d.json as { partyDetails: { party: string } }).partyDetails.party)).toEqual([
      [global, 'PARTICIPANT_PERMISSION_SUBMISSION'],
    ]);

    // Allocating the same party on the other synchronizer adds it there; the party list still has it once.
    const again = await allocateOn('hostOnPrivate', global);
    expect(again.status).toBe(200);
    expect((again.json as { partyDetails: { party: string } }).partyDetails.party).toBe(party);
    expect(await hosting(party)).toEqual([
      [priv, 'PARTICIPANT_PERMISSION_SUBMISSION'],
      [global, 'PARTICIPANT_PERMISSION_SUBMISSION'],
    ]);
    const listed = (await call(sim.url, 'GET', '/v2/parties')).json as { partyDetails: Array<{ party: string }> };
    expect(listed.partyDetails.filter((p) => p.party === party)).toHaveLength(1);

    // On a synchronizer where it is hosted already, the allocation is a duplicate.
    const dup = await allocateOn('hostOnPrivate', priv);
    expect(dup.status).toBe(409);
    expect(cantonError(dup).code).toBe('PARTY_ALREADY_EXISTS');
  });

  it('reports an external party on the synchronizer it was onboarded to, with its confirmation permission', async () => {
    const party = await onboardExternal(sim.url, priv, 'hostExternal', newExternalKey());
    expect(await hosting(party)).toEqual([[priv, 'PARTICIPANT_PERMISSION_CONFIRMATION']]);
  });

  it('reports nothing for an unknown party or another participant', async () => {
    expect(await hosting(`nobody::1220${'0'.repeat(64)}`)).toEqual([]);
    const r = await call(sim.url, 'GET', '/v2/state/connected-synchronizers', {
      path: `/v2/state/connected-synchronizers?participantId=${encodeURIComponent('PAR::other::1220ab')}`,
    });
    expect((r.json as Connected).connectedSynchronizers ?? []).toEqual([]);
  });

  it('keeps the hosting across a restart and fills it for data dirs written before the hosting table', async () => {
    const r = await allocateOn('hostRestart', priv);
    const party = (r.json as { partyDetails: { party: string } }).partyDetails.party;
    const dataDir = sim.dataDir;
    await sim.close();
    sim = await startTestSim({ dataDir });
    expect(await hosting(party)).toEqual([[priv, 'PARTICIPANT_PERMISSION_SUBMISSION']]);

    // An older data dir: no hosting table. Reopened, each party is hosted where its topology transaction was.
    await sim.close();
    const db = new Database(path.join(dataDir, DB_FILE));
    db.exec('DROP TABLE party_hosting');
    db.close();
    sim = await startTestSim({ dataDir });
    expect(await hosting(party)).toEqual([[priv, 'PARTICIPANT_PERMISSION_SUBMISSION']]);
    const external = ((await call(sim.url, 'GET', '/v2/parties')).json as { partyDetails: Array<{ party: string }> }).partyDetails.find(
      (p) => p.party.startsWith('hostExternal::'),
    );
    expect(external).toBeDefined();
    expect(await hosting(external?.party ?? '')).toEqual([[priv, 'PARTICIPANT_PERMISSION_CONFIRMATION']]);
  });
});
