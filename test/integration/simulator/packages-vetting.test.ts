/** Package vetting: list/update (bounds, dry run, serials, dependency checks), effect on submissions and preferred packages, durability. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArchive } from '../../../src/daml-lf/index.js';
import { allocate, call, cantonError, nextCommandId, startTestSim, submitTx } from './helpers.js';
import type { TestSim } from './helpers.js';
import { fixtures, postBytes } from './dars-helpers.js';

const F = fixtures();
type VettedPackages = {
  participantId: string;
  synchronizerId: string;
  topologySerial: number;
  packages: { packageId: string; validUntilExclusive?: string }[];
};

describe('package vetting', () => {
  let sim: TestSim;
  let bank: string, alice: string;
  let syncs: string[];
  const tid = `${F.v1.mainPackageId}:Assets:Asset`;
  const args = (): Record<string, unknown> => ({
    issuer: bank,
    owner: alice,
    amount: '1',
    tags: [],
    color: 'Red',
    meta: { label: 'l', score: '0' },
    detail: { tag: 'Note', value: 'n' },
    watchers: [],
  });
  const create = (synchronizerId?: string) =>
    call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: {
        commandId: nextCommandId(),
        actAs: [bank],
        commands: [{ CreateCommand: { templateId: tid, createArguments: args() } }],
        ...(synchronizerId ? { synchronizerId } : {}),
      },
    });
  const update = (body: Record<string, unknown>) => call(sim.url, 'POST', '/v2/package-vetting/update', { body });
  const listFor = async (ids: string[]): Promise<VettedPackages[]> =>
    (
      (await call(sim.url, 'POST', '/v2/package-vetting/list', { body: { packageMetadataFilter: { packageIds: ids } } })).json as {
        vettedPackages: VettedPackages[];
      }
    ).vettedPackages;

  beforeAll(async () => {
    sim = await startTestSim();
    bank = await allocate(sim.url, 'VetBank');
    alice = await allocate(sim.url, 'VetAlice');
    syncs = (
      (await call(sim.url, 'GET', '/v2/state/connected-synchronizers')).json as { connectedSynchronizers: { synchronizerId: string }[] }
    ).connectedSynchronizers.map((s) => s.synchronizerId);
    expect((await postBytes(sim.url, '/v2/dars', F.v1.bytes, '?vetAllPackages=false')).status).toBe(200);
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('an uploaded but unvetted package cannot be used; vetting needs its dependencies first', async () => {
    expect(await listFor([F.v1.mainPackageId])).toEqual([]);
    const r = await create();
    expect(r.status).toBe(400);
    expect(cantonError(r).code).toBe('NO_SYNCHRONIZER_FOR_SUBMISSION');
    const noSync = await update({ changes: [{ operation: { Vet: { value: { packages: [{ packageId: F.v1.mainPackageId }] } } } }] });
    expect(cantonError(noSync).code).toBe('PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER');
    const deps = await update({
      synchronizerId: syncs[0],
      changes: [{ operation: { Vet: { value: { packages: [{ packageId: F.v1.mainPackageId }] } } } }],
    });
    expect(cantonError(deps).code).toBe('TOPOLOGY_DEPENDENCIES_NOT_VETTED');
    expect(cantonError(deps).cause).toContain(F.typesId);
    const unknown = await update({
      synchronizerId: syncs[0],
      changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'no-such-package' }] } } } }],
    });
    expect(cantonError(unknown).code).toBe('TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES');
  });

  it('vets (dry run first), then submissions work on that synchronizer only', async () => {
    const serial0 = (await listFor([]))[0]?.topologySerial as number;
    const change = {
      synchronizerId: syncs[0],
      changes: [
        {
          operation: {
            Vet: { value: { packages: [{ packageId: F.v1.mainPackageId }, { packageName: 'dar-test-types', packageVersion: '1.0.0' }] } },
          },
        },
      ],
    };
    const dry = await update({ ...change, dryRun: true });
    expect(dry.status).toBe(200);
    expect((dry.json as { newVettedPackages: VettedPackages }).newVettedPackages.packages.map((p) => p.packageId)).toContain(
      F.v1.mainPackageId,
    );
    expect(await listFor([F.v1.mainPackageId])).toEqual([]);
    const stale = await update({ ...change, expectedTopologySerial: { serial: { Prior: { value: serial0 + 7 } } } });
    expect(cantonError(stale).code).toBe('TOPOLOGY_SERIAL_MISMATCH');
    const done = await update({ ...change, expectedTopologySerial: { serial: { Prior: { value: serial0 } } } });
    expect(done.status).toBe(200);
    const res = done.json as { newVettedPackages: VettedPackages; pastVettedPackages?: VettedPackages };
    expect(res.newVettedPackages.topologySerial).toBe(serial0 + 1);
    expect(res.pastVettedPackages?.packages.map((p) => p.packageId)).not.toContain(F.v1.mainPackageId);
    const listed = await listFor([F.v1.mainPackageId]);
    expect(listed.map((v) => v.synchronizerId)).toEqual([syncs[0]]);
    expect((await create(syncs[0])).status).toBe(200);
    const other = await create(syncs[1]);
    expect(cantonError(other).code).toBe('NO_SYNCHRONIZER_FOR_SUBMISSION');
  });

  it('unvet → commands fail and preferred packages change → re-vet → works', async () => {
    const pref = async (): Promise<unknown> =>
      (
        (
          await call(sim.url, 'GET', '/v2/interactive-submission/preferred-package-version', {
            path:
              `/v2/interactive-submission/preferred-package-version?package-name=dar-test-assets&parties=${encodeURIComponent(bank)}` +
              `&synchronizer-id=${encodeURIComponent(syncs[0] as string)}`,
          })
        ).json as { packagePreference?: { packageReference: { packageId: string } } }
      ).packagePreference?.packageReference.packageId;
    expect(await pref()).toBe(F.v1.mainPackageId);
    const un = await update({
      synchronizerId: syncs[0],
      changes: [{ operation: { Unvet: { value: { packages: [{ packageName: 'dar-test-assets' }] } } } }],
    });
    expect(un.status).toBe(200);
    expect(cantonError(await create(syncs[0])).code).toBe('NO_SYNCHRONIZER_FOR_SUBMISSION');
    expect(await pref()).toBeUndefined();
    const missing = await call(sim.url, 'POST', '/v2/interactive-submission/preferred-packages', {
      body: { packageVettingRequirements: [{ packageName: 'dar-test-assets', parties: [bank] }] },
    });
    expect(missing.status).toBe(404);
    // vetting with an upper bound in the past: listed with the bound, but not usable now
    const past = await update({
      synchronizerId: syncs[0],
      changes: [
        {
          operation: { Vet: { value: { packages: [{ packageId: F.v1.mainPackageId }], newValidUntilExclusive: '2001-01-01T00:00:00Z' } } },
        },
      ],
    });
    expect(past.status).toBe(200);
    expect((await listFor([F.v1.mainPackageId]))[0]?.packages[0]?.validUntilExclusive).toBe('2001-01-01T00:00:00.000Z');
    expect(cantonError(await create(syncs[0])).code).toBe('NO_SYNCHRONIZER_FOR_SUBMISSION');
    const again = await update({
      synchronizerId: syncs[0],
      changes: [{ operation: { Vet: { value: { packages: [{ packageId: F.v1.mainPackageId }] } } } }],
    });
    expect(again.status).toBe(200);
    expect((await create(syncs[0])).status).toBe(200);
    expect(await pref()).toBe(F.v1.mainPackageId);
  });

  it('built-in packages are vetted on both synchronizers and can be unvetted and re-vetted', async () => {
    const builtin = (await listFor([])).flatMap((v) => v.packages.map((p) => p.packageId));
    const demo = (
      (
        await call(sim.url, 'POST', '/v2/package-vetting/list', {
          body: { packageMetadataFilter: { packageNamePrefixes: ['simulator-demo'] } },
        })
      ).json as {
        vettedPackages: VettedPackages[];
      }
    ).vettedPackages;
    expect(demo.map((v) => v.synchronizerId).sort()).toEqual([...syncs].sort());
    const demoId = demo[0]?.packages[0]?.packageId as string;
    expect(builtin).toContain(demoId);
    const iou = {
      CreateCommand: {
        templateId: '#simulator-demo:Demo.Iou:Iou',
        createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '1', observers: [] },
      },
    };
    await update({ synchronizerId: syncs[1], changes: [{ operation: { Unvet: { value: { packages: [{ packageId: demoId }] } } } }] });
    const r = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: { commandId: nextCommandId(), actAs: [bank], commands: [iou], synchronizerId: syncs[1] },
    });
    expect(cantonError(r).code).toBe('NO_SYNCHRONIZER_FOR_SUBMISSION');
    await submitTx(sim.url, [bank], [iou], { synchronizerId: syncs[0] });
    // the deprecated POST /v2/package-vetting is the same operation
    const dep = await call(sim.url, 'POST', '/v2/package-vetting', {
      body: { synchronizerId: syncs[1], changes: [{ operation: { Vet: { value: { packages: [{ packageId: demoId }] } } } }] },
    });
    expect(dep.status).toBe(200);
    await submitTx(sim.url, [bank], [iou], { synchronizerId: syncs[1] });
  });

  it('uploaded packages and vetting survive a restart', async () => {
    const before = await call(sim.url, 'POST', '/v2/package-vetting/list', { body: {} });
    const ids = ((await call(sim.url, 'GET', '/v2/packages')).json as { packageIds: string[] }).packageIds;
    await update({
      synchronizerId: syncs[1],
      changes: [{ operation: { Unvet: { value: { packages: [{ packageName: 'simulator-demo' }] } } } }],
    });
    const state = (await call(sim.url, 'POST', '/v2/package-vetting/list', { body: {} })).json;
    expect(state).not.toEqual(before.json);
    await sim.close();
    const again = await startTestSim({ dataDir: sim.dataDir });
    try {
      expect(((await call(again.url, 'GET', '/v2/packages')).json as { packageIds: string[] }).packageIds).toEqual(ids);
      expect((await call(again.url, 'POST', '/v2/package-vetting/list', { body: {} })).json).toEqual(state);
      const res = await fetch(`${again.url}/v2/packages/${F.v1.mainPackageId}`);
      expect(readArchive(new Uint8Array(await res.arrayBuffer())).packageId).toBe(F.v1.mainPackageId);
      const r = await call(again.url, 'POST', '/v2/commands/submit-and-wait', {
        body: {
          commandId: nextCommandId(),
          actAs: [bank],
          commands: [{ CreateCommand: { templateId: tid, createArguments: args() } }],
          synchronizerId: syncs[0],
        },
      });
      expect(r.status).toBe(200);
    } finally {
      await again.dispose();
    }
  });
});
