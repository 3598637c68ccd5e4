import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, cantonError, openApi, startTestSim } from './helpers.js';
import type { TestSim } from './helpers.js';
import { startSimulator } from '../../../src/simulator/index.js';

describe('simulator skeleton endpoints', () => {
  let sim: TestSim;
  beforeAll(async () => {
    sim = await startTestSim({ seedDemo: true });
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('serves /v2/version shaped as GetLedgerApiVersionResponse', async () => {
    const r = await call(sim.url, 'GET', '/v2/version');
    expect(r.status).toBe(200);
    const body = r.json as { version: string; features: { userManagement: { supported: boolean } } };
    expect(body.version).toMatch(/^3\.5\.\d+/);
    expect(body.features.userManagement.supported).toBe(true);
  });

  it('answers health checks', async () => {
    expect((await call(sim.url, 'GET', '/livez')).status).toBe(200);
    const ready = await call(sim.url, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.contentType).toMatch(/^text\/plain/);
  });

  it('reports participant id, ledger end, synchronizers and pruning per spec', async () => {
    const pid = await call(sim.url, 'GET', '/v2/parties/participant-id');
    expect((pid.json as { participantId: string }).participantId).toMatch(/^PAR::participant1::1220[0-9a-f]{64}$/);
    expect((pid.json as { participantId: string }).participantId).toBe(sim.participantId);
    const end = await call(sim.url, 'GET', '/v2/state/ledger-end');
    expect((end.json as { offset: number }).offset).toBeGreaterThan(0); // demo seed wrote updates
    const syncs = await call(sim.url, 'GET', '/v2/state/connected-synchronizers');
    const list = (syncs.json as { connectedSynchronizers: { synchronizerId: string; permission: string }[] }).connectedSynchronizers;
    expect(list).toHaveLength(2);
    expect(list.map((s) => s.synchronizerId.split('::')[0]).sort()).toEqual(['global-domain', 'private-sync']);
    const pruned = await call(sim.url, 'GET', '/v2/state/latest-pruned-offsets');
    expect(pruned.status).toBe(200);
  });

  it('answers an unknown path with 404 JsCantonError', async () => {
    const r = await call(sim.url, 'GET', '/v2/version', { path: '/v2/does-not-exist', validate: false });
    expect(r.status).toBe(404);
    expect(cantonError(r).code).toBe('NOT_FOUND');
  });

  it('keeps the participant id and ledger end across a restart of the same data dir', async () => {
    const dir = sim.dataDir;
    const end1 = ((await call(sim.url, 'GET', '/v2/state/ledger-end')).json as { offset: number }).offset;
    await sim.close();
    const again = await startSimulator({ dataDir: dir, port: 0, seedDemo: true });
    try {
      expect(again.participantId).toBe(sim.participantId);
      const end2 = ((await call(again.url, 'GET', '/v2/state/ledger-end')).json as { offset: number }).offset;
      expect(end2).toBe(end1); // seeding is idempotent
    } finally {
      await again.close();
    }
    // `reset` wipes the data dir
    const fresh = await startSimulator({ dataDir: dir, port: 0, reset: true });
    try {
      expect(fresh.participantId).not.toBe(sim.participantId);
      expect(((await call(fresh.url, 'GET', '/v2/state/ledger-end')).json as { offset: number }).offset).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('validates the spec validator itself rejects a wrong shape', () => {
    expect(() => openApi().assertResponse('GET', '/v2/state/ledger-end', 200, { offset: 'x' })).toThrow();
  });
});
