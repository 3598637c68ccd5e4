/**
 * Packages through the real composition (startConsoleApp in demo mode: contract router → services → embedded
 * simulator over HTTP): list and decoded detail, chunked DAR upload with validate-first, an incompatible
 * upgrade named by both checks, a corrupt file refused by the console, vetting with dry runs, preferred
 * packages. Effects are checked again through the simulator's own HTTP API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startConsoleApp, type ConsoleApp } from '../../src/app/console-app.js';
import { buildDar, type Field, type PackageDescription, type Type } from '../../src/daml-lf/index.js';
import {
  DAR_CHUNK_BYTES,
  type DarValidation,
  type PackageDetail,
  type PackageList,
  type Response,
  type VettingList,
} from '../../src/ipc/contract.js';
import type { IpcError } from '../../src/ipc/errors.js';
import { must } from '../support/must.js';
import { objectContaining, stringMatching } from '../support/matchers.js';

let app: ConsoleApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'packages-services-'));
  app = await startConsoleApp({ dataDir: dir, demo: true, transport: 'browser-host', keychainService: `packages-test-${process.pid}` });
});
afterAll(async () => {
  // unassigned when beforeAll failed before starting it
  await (app as ConsoleApp | undefined)?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function sim<T>(p: string, body?: unknown): Promise<T> {
  const res = await fetch(must(app.demoLedgerUrl, 'the demo ledger URL') + p, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
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

const T = {
  party: { kind: 'prim', prim: 'Party', args: [] } as Type,
  text: { kind: 'prim', prim: 'Text', args: [] } as Type,
  int: { kind: 'prim', prim: 'Int64', args: [] } as Type,
  opt: (t: Type): Type => ({ kind: 'prim', prim: 'Optional', args: [t] }),
};

function pkg(name: string, version: string, fields: Field[], upgradedPackageId?: string): PackageDescription {
  return {
    name,
    version,
    ...(upgradedPackageId ? { upgradedPackageId } : {}),
    modules: [
      {
        name: 'Main',
        templates: [
          {
            name: 'Asset',
            fields,
            choices: [
              { name: 'Give', argFields: [{ name: 'newOwner', type: T.party }] },
              { name: 'Peek', consuming: false, argFields: [] },
            ],
          },
        ],
      },
    ],
  };
}
const V1_FIELDS: Field[] = [
  { name: 'owner', type: T.party },
  { name: 'label', type: T.text },
  { name: 'amount', type: T.int },
];

/** Sends bytes through begin/chunk like the renderer does; returns the upload id. */
async function stage(bytes: Uint8Array, fileName = 'test.dar'): Promise<string> {
  const { uploadId, chunkBytes } = await ok<{ uploadId: string; chunkBytes: number }>('packages.upload.begin', {
    fileName,
    size: bytes.length,
  });
  expect(chunkBytes).toBe(DAR_CHUNK_BYTES);
  for (let off = 0; off < bytes.length; off += chunkBytes) {
    const data = bytes.subarray(off, Math.min(bytes.length, off + chunkBytes));
    await ok('packages.upload.chunk', { uploadId, offset: off, data });
  }
  return uploadId;
}

let syncs: string[] = [];
const stamp = Date.now().toString(36);
const NAME = `pkg-it-${stamp}`;
let v1Id = '';

describe('package list and detail', () => {
  it('lists the built-in package with name, version, LF version and vetting on every synchronizer', async () => {
    const list = await ok<PackageList>('packages.list', {});
    syncs = list.synchronizers.map((s) => s.synchronizerId);
    expect(syncs.length).toBeGreaterThanOrEqual(1);
    const demo = must(
      list.packages.find((p) => p.name === 'simulator-demo'),
      'the simulator-demo package',
    );
    expect(demo).toMatchObject({ version: '1.0.0', lfVersion: stringMatching(/^2\./), uploaded: true, decodeError: null });
    expect(demo.vetted.map((v) => v.synchronizerId).sort()).toEqual([...syncs].sort());
    expect(demo.templateCount).toBeGreaterThanOrEqual(3);
  });

  it('decodes a package: templates with fields and key, choices with argument fields and consuming flag, interfaces', async () => {
    const list = await ok<PackageList>('packages.list', {});
    const id = must(
      list.packages.find((p) => p.name === 'simulator-demo'),
      'the simulator-demo package',
    ).packageId;
    const d = await ok<PackageDetail>('packages.get', { packageId: id });
    const templates = d.modules.flatMap((m) => m.templates);
    const account = must(
      templates.find((t) => t.qualifiedName === 'Demo.Account:Account'),
      'the Account template',
    );
    expect(account.fields.map((f) => f.name)).toEqual(['bank', 'holder', 'accountId', 'label']);
    expect(account.key).toMatch(/AccountKey|bank/);
    const ping = must(
      account.choices.find((c) => c.name === 'Account_Ping'),
      'the Account_Ping choice',
    );
    expect(ping.consuming).toBe(false);
    expect(ping.argFields?.map((f) => f.name)).toEqual(['message']);
    expect(
      must(
        account.choices.find((c) => c.name === 'Account_Close'),
        'the Account_Close choice',
      ).consuming,
    ).toBe(true);
    const asset = must(
      d.modules.flatMap((m) => m.interfaces).find((i) => i.qualifiedName === 'Demo.Asset:Asset'),
      'the Asset interface',
    );
    expect(asset.viewFields?.map((f) => f.name)).toEqual(['owner', 'description', 'amount']);
    const iou = must(
      templates.find((t) => t.name === 'Iou'),
      'the Iou template',
    );
    expect(iou.implements.some((x) => x.endsWith(':Demo.Asset:Asset'))).toBe(true);
  });

  it('refuses a malformed package id and reports an unknown one with the participant error', async () => {
    expect((await fails('packages.get', { packageId: 'nope' })).code).toBe('BAD_REQUEST');
    const e = await fails('packages.get', { packageId: 'ab'.repeat(32) });
    expect(e.code).toBe('LEDGER_API_ERROR');
    expect(e.canton?.code).toBeTruthy();
  });
});

describe('DAR upload', () => {
  it('validates first, then uploads and vets; the package shows up decoded', async () => {
    const dar = buildDar(pkg(NAME, '1.0.0', V1_FIELDS), [], { sdkVersion: '3.4.0' });
    v1Id = dar.mainPackageId;
    const uploadId = await stage(dar.bytes, `${NAME}-1.0.0.dar`);
    // An upload before validation is refused.
    expect((await fails('packages.upload.commit', { uploadId })).code).toBe('CONFLICT');

    const v = await ok<DarValidation>('packages.upload.validate', { uploadId, synchronizerId: syncs[0] });
    expect(v.decodeError).toBeNull();
    expect(v.dar).toMatchObject({ mainPackageId: v1Id, name: NAME, version: '1.0.0', sdkVersion: '3.4.0' });
    expect(must(v.dar, 'the decoded DAR').packages[0]).toMatchObject({ main: true, alreadyUploaded: false, templateCount: 1 });
    expect(v.participant).toEqual({ ok: true, error: null, problems: [] });
    expect(v.crossCheck).toEqual([]);
    expect(v.canUpload).toBe(true);
    // Validation changes nothing on the participant.
    expect((await sim<{ packageIds: string[] }>('/v2/packages')).packageIds).not.toContain(v1Id);

    const r = await ok<Response<'packages.upload.commit'>>('packages.upload.commit', {
      uploadId,
      vetAllPackages: true,
      synchronizerId: syncs[0],
    });
    expect(r).toEqual({ mainPackageId: v1Id, packageIds: [v1Id], vetted: true });
    expect((await sim<{ packageIds: string[] }>('/v2/packages')).packageIds).toContain(v1Id);
    // The staged bytes are gone.
    expect((await fails('packages.upload.validate', { uploadId })).code).toBe('NOT_FOUND');

    const list = await ok<PackageList>('packages.list', {});
    const row = must(
      list.packages.find((p) => p.packageId === v1Id),
      'the uploaded package row',
    );
    expect(row).toMatchObject({ name: NAME, version: '1.0.0', uploaded: true, templateCount: 1 });
    expect(row.vetted.map((x) => x.synchronizerId)).toContain(syncs[0]);
    const d = await ok<PackageDetail>('packages.get', { packageId: v1Id });
    const t = must(must(d.modules[0], 'the first module').templates[0], 'the first template');
    expect(t.fields.map((f) => `${f.name}:${f.type}`)).toEqual(['owner:Party', 'label:Text', 'amount:Int64']);
    expect(
      must(
        t.choices.find((c) => c.name === 'Peek'),
        'the Peek choice',
      ).consuming,
    ).toBe(false);
  });

  it('names what broke in an incompatible upgrade (participant and console) and refuses to upload it', async () => {
    const bad = buildDar(
      pkg(
        NAME,
        '2.0.0',
        [must(V1_FIELDS[0], 'the owner field'), must(V1_FIELDS[2], 'the amount field'), { name: 'extra', type: T.text }],
        v1Id,
      ),
    );
    const uploadId = await stage(bad.bytes);
    const v = await ok<DarValidation>('packages.upload.validate', { uploadId, synchronizerId: syncs[0] });
    expect(v.canUpload).toBe(false);
    expect(v.participant?.ok).toBe(false);
    expect(v.participant?.error?.canton?.code).toBeTruthy();
    expect(v.participant?.problems.join('\n')).toMatch(/label|field/i);
    const check = must(
      v.crossCheck.find((c) => c.packageId === bad.mainPackageId),
      'the cross-check of the bad package',
    );
    expect(check).toMatchObject({ compatible: false, against: { packageId: v1Id, version: '1.0.0', direction: 'upgrades' } });
    expect(check.problems.join('\n')).toMatch(/Main:Asset.*field label was removed/);
    expect(check.problems.join('\n')).toMatch(/extra.*must be Optional/);
    expect((await fails('packages.upload.commit', { uploadId })).code).toBe('CONFLICT');
    expect((await sim<{ packageIds: string[] }>('/v2/packages')).packageIds).not.toContain(bad.mainPackageId);
  });

  it('accepts a compatible upgrade (new Optional field at the end) with both checks agreeing', async () => {
    const good = buildDar(pkg(NAME, '1.1.0', [...V1_FIELDS, { name: 'memo', type: T.opt(T.text) }], v1Id));
    const uploadId = await stage(good.bytes);
    const v = await ok<DarValidation>('packages.upload.validate', { uploadId, synchronizerId: syncs[0] });
    expect(v.participant?.ok).toBe(true);
    expect(v.crossCheck).toEqual([
      objectContaining({
        packageId: good.mainPackageId,
        compatible: true,
        problems: [],
        against: objectContaining({ packageId: v1Id }),
      }),
    ]);
    expect((await ok<{ cancelled: boolean }>('packages.upload.cancel', { uploadId })).cancelled).toBe(true);
    expect((await sim<{ packageIds: string[] }>('/v2/packages')).packageIds).not.toContain(good.mainPackageId);
  });

  it('refuses a corrupt file with the reader’s specific error, without asking the participant', async () => {
    const full = buildDar(pkg(`${NAME}-c`, '1.0.0', V1_FIELDS)).bytes;
    const truncated = full.slice(0, full.length - 10); // a download cut short
    for (const [bytes, code] of [
      [new TextEncoder().encode('definitely not a zip file'), 'NOT_A_ZIP'],
      [truncated, 'CORRUPT_ZIP'],
    ] as const) {
      const uploadId = await stage(bytes);
      const v = await ok<DarValidation>('packages.upload.validate', { uploadId });
      expect(v.dar).toBeNull();
      expect(v.decodeError?.code).toMatch(code);
      expect(v.participant).toBeNull();
      expect(v.canUpload).toBe(false);
      expect((await fails('packages.upload.commit', { uploadId })).code).toBe('CONFLICT');
    }
  });

  it('checks sizes and chunk order', async () => {
    const tooBig = await fails('packages.upload.begin', { fileName: 'x.dar', size: 64 * 1024 * 1024 + 1 });
    expect(tooBig.code).toBe('BAD_REQUEST');
    expect(tooBig.issues?.[0]?.message).toMatch(/64 MiB/);
    const { uploadId } = await ok<{ uploadId: string }>('packages.upload.begin', { fileName: 'x.dar', size: 10 });
    expect((await fails('packages.upload.chunk', { uploadId, offset: 4, data: new Uint8Array(3) })).message).toMatch(/byte 0/);
    await ok('packages.upload.chunk', { uploadId, offset: 0, data: Buffer.from('12345') });
    expect((await fails('packages.upload.validate', { uploadId })).message).toMatch(/incomplete: 5 of 10/);
    expect((await fails('packages.upload.chunk', { uploadId, offset: 5, data: Buffer.from('1234567') })).message).toMatch(/More bytes/);
    expect((await fails('packages.upload.validate', { uploadId: 'f'.repeat(32) })).code).toBe('NOT_FOUND');
  });
});

describe('vetting', () => {
  const localState = async (syncId: string) => {
    const l = await ok<VettingList>('packages.vetting.list', {});
    return must(
      l.states.find((s) => s.participantId === l.participantId && s.synchronizerId === syncId),
      `the local vetting state on ${syncId}`,
    );
  };

  it('dry run shows the unvet without changing anything; apply unvets; vet restores', async () => {
    expect(v1Id).not.toBe('');
    const sync0 = must(syncs[0], 'a synchronizer');
    const before = await localState(sync0);
    expect(before.packages.map((p) => p.packageId)).toContain(v1Id);

    const dry = await ok<Response<'packages.vetting.update'>>('packages.vetting.update', {
      synchronizerId: syncs[0],
      changes: [{ op: 'unvet', packageId: v1Id }],
      dryRun: true,
    });
    expect(dry.dryRun).toBe(true);
    expect(dry.unvetted.map((p) => p.packageId)).toEqual([v1Id]);
    expect(dry.vetted).toEqual([]);
    expect(dry.after.packages.map((p) => p.packageId)).not.toContain(v1Id);
    const stillThere = await sim<{ vettedPackages: Array<{ synchronizerId: string; packages: Array<{ packageId: string }> }> }>(
      '/v2/package-vetting/list',
      {},
    );
    const stillVetted = must(
      stillThere.vettedPackages.find((v) => v.synchronizerId === syncs[0]),
      'the simulator vetting state',
    );
    expect(stillVetted.packages.map((p) => p.packageId)).toContain(v1Id);

    const applied = await ok<Response<'packages.vetting.update'>>('packages.vetting.update', {
      synchronizerId: syncs[0],
      changes: [{ op: 'unvet', packageId: v1Id }],
      dryRun: false,
      expectedTopologySerial: before.topologySerial,
    });
    expect(applied.unvetted.map((p) => p.packageId)).toEqual([v1Id]);
    const after = await localState(sync0);
    expect(after.packages.map((p) => p.packageId)).not.toContain(v1Id);
    expect(after.topologySerial).toBeGreaterThan(before.topologySerial);

    // A change based on the old serial is refused (concurrent change guard) and changes nothing.
    const stale = await fails('packages.vetting.update', {
      synchronizerId: syncs[0],
      changes: [{ op: 'vet', packageId: v1Id }],
      dryRun: false,
      expectedTopologySerial: before.topologySerial,
    });
    expect(stale.code).toBe('LEDGER_API_ERROR');
    expect((await localState(sync0)).packages.map((p) => p.packageId)).not.toContain(v1Id);

    const vet = await ok<Response<'packages.vetting.update'>>('packages.vetting.update', {
      synchronizerId: syncs[0],
      changes: [{ op: 'vet', packageId: v1Id }],
      dryRun: false,
    });
    expect(vet.vetted.map((p) => p.packageId)).toEqual([v1Id]);
    expect((await localState(sync0)).packages.map((p) => p.packageId)).toContain(v1Id);
  });

  it('reports an unknown package with the participant’s error', async () => {
    const e = await fails('packages.vetting.update', {
      synchronizerId: syncs[0],
      changes: [{ op: 'vet', packageId: 'cd'.repeat(32) }],
      dryRun: true,
    });
    expect(e.code).toBe('LEDGER_API_ERROR');
    expect(e.canton?.code).toBeTruthy();
  });
});

describe('preferred packages', () => {
  it('answers per connected synchronizer, and names the failure for an unknown package', async () => {
    const party = (await sim<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: `Pref${stamp}` })).partyDetails.party;
    const r = await ok<Response<'packages.preferred'>>('packages.preferred', {
      requirements: [{ packageName: 'simulator-demo', parties: [party] }],
    });
    expect(r.results.map((x) => x.requestedSynchronizerId).sort()).toEqual([...syncs].sort());
    for (const x of r.results) {
      expect(x.error).toBeNull();
      expect(x.references).toEqual([expect.objectContaining({ packageName: 'simulator-demo', packageVersion: '1.0.0' })]);
    }
    const missing = await ok<Response<'packages.preferred'>>('packages.preferred', {
      requirements: [{ packageName: `no-such-${stamp}`, parties: [party] }],
      synchronizerId: syncs[0],
    });
    expect(missing.results).toHaveLength(1);
    expect(must(missing.results[0], 'the result').error?.canton?.code).toBeTruthy();
    expect((await fails('packages.preferred', { requirements: [{ packageName: 'x', parties: [] }] })).code).toBe('BAD_REQUEST');
  });
});
