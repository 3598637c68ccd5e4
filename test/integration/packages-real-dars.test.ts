/**
 * The console's package work on the real Splice DARs (../shared/reference/dars, must exist), through the real
 * composition (contract router → services → embedded simulator over HTTP): every DAR is staged in chunks, validated by
 * the console and the participant, inspected (templates with fields, choices with argument types, interfaces with
 * views, dependencies) and uploaded with its real package ids; splice-amulet 0.1.22 checks as a compatible upgrade of
 * 0.1.21 in the console's own check; a real package is unvetted and vetted again through the vetting channel (dry run
 * first); uploading the same DARs again changes nothing; a truncated real DAR gets the reader's specific reason and
 * nothing is sent on; a hostile DAR is read in the worker while the console answers its other calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startConsoleApp, type ConsoleApp } from '../../src/app/console-app.js';
import { readDar, type Dar } from '../../src/daml-lf/index.js';
import type { DarValidation, PackageDetail, PackageList, Response } from '../../src/ipc/contract.js';
import { referenceDir } from './simulator/helpers.js';
import { darDecoder } from '../../src/dar-reader/dar-decoder.js';
import { hostileDar, until } from '../support/hostile-dar.js';

const DARS = path.join(referenceDir, 'dars');
const darFiles = (): string[] => readdirSync(DARS).filter((f) => f.endsWith('.dar'));
const bytesOf = (f: string): Uint8Array => new Uint8Array(readFileSync(path.join(DARS, f)));
/** Decoded once before the console (and its embedded simulator, same process) starts: decoding them all takes seconds. */
const decoded = new Map<string, Dar>();
const dar = (f: string): Dar => decoded.get(f) ?? (decoded.set(f, readDar(bytesOf(f))).get(f) as Dar);

let app: ConsoleApp;
let dir: string;
let syncs: string[] = [];

/** Built before the console starts: building it blocks this (the console's) process for seconds. */
let hostile: Uint8Array;

beforeAll(async () => {
  for (const f of darFiles()) dar(f);
  // 24 distinct copies of the amulet package to decode, then an archive with a wrong hash: refused after all that work
  hostile = hostileDar(dar('splice-amulet-0.1.21.dar'), 24, { badLast: true });
  dir = mkdtempSync(path.join(os.tmpdir(), 'packages-real-'));
  app = await startConsoleApp({ dataDir: dir, demo: true, transport: 'browser-host', keychainService: `packages-real-${process.pid}` });
  const list = await ok<PackageList>('packages.list', {});
  syncs = list.synchronizers.map((s) => s.synchronizerId);
});
afterAll(async () => {
  // unassigned when beforeAll failed before starting it
  await (app as ConsoleApp | undefined)?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function ok<T>(channel: string, payload: unknown): Promise<T> {
  const r = await app.router.invoke(channel, payload);
  if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`);
  return r.value as T;
}

async function stage(bytes: Uint8Array, fileName: string): Promise<string> {
  const { uploadId, chunkBytes } = await ok<{ uploadId: string; chunkBytes: number }>('packages.upload.begin', {
    fileName,
    size: bytes.length,
  });
  for (let off = 0; off < bytes.length; off += chunkBytes)
    await ok('packages.upload.chunk', {
      uploadId,
      offset: off,
      data: bytes.slice(off, Math.min(bytes.length, off + chunkBytes)),
    });
  return uploadId;
}

describe('real Splice DARs in the console', () => {
  it('the reference folder holds the real DARs', () => {
    expect(darFiles().length).toBeGreaterThanOrEqual(11);
  });

  it('validates, inspects and uploads every DAR with its real package ids, vetted on every synchronizer', async () => {
    // 0.1.21 before 0.1.22, so the pair is checked as an upgrade below
    for (const f of darFiles().sort()) {
      const bytes = bytesOf(f);
      const declared = dar(f);
      const uploadId = await stage(bytes, f);
      const v = await ok<DarValidation>('packages.upload.validate', { uploadId, synchronizerId: null });
      expect(v.decodeError, f).toBeNull();
      expect(v.participant?.ok, `${f}: ${JSON.stringify(v.participant?.error)}`).toBe(true);
      expect(v.canUpload).toBe(true);
      expect(v.dar?.mainPackageId).toBe(declared.main.packageId);
      expect(v.dar?.packages.map((p) => p.packageId).sort()).toEqual(declared.packages.map((p) => p.packageId).sort());
      if (f === 'splice-amulet-0.1.22.dar') {
        const pair = v.crossCheck.find((c) => c.packageName === 'splice-amulet' && c.against.version === '0.1.21');
        expect(pair, JSON.stringify(v.crossCheck)).toMatchObject({ compatible: true, against: { direction: 'upgrades' } });
      }
      const r = await ok<Response<'packages.upload.commit'>>('packages.upload.commit', {
        uploadId,
        vetAllPackages: true,
        synchronizerId: null,
      });
      expect(r.mainPackageId).toBe(declared.main.packageId);
    }
    const list = await ok<PackageList>('packages.list', {});
    for (const f of darFiles()) {
      const main = dar(f).main;
      const row = list.packages.find((p) => p.packageId === main.packageId);
      expect(row, f).toMatchObject({ name: main.name, version: main.version, decodeError: null });
      expect(row?.vetted.map((x) => x.synchronizerId).sort()).toEqual([...syncs].sort());
    }
  }, 300_000);

  it('inspects a real package: templates and fields, choices with argument types, interfaces with views, dependencies', async () => {
    const amulet = dar('splice-amulet-0.1.21.dar').main;
    const d = await ok<PackageDetail>('packages.get', { packageId: amulet.packageId });
    expect(d).toMatchObject({ name: 'splice-amulet', version: '0.1.21' });
    expect(d.dependencies.length).toBeGreaterThan(5);
    const templates = d.modules.flatMap((m) => m.templates);
    const instr = templates.find((t) => t.qualifiedName === 'Splice.AmuletTransferInstruction:AmuletTransferInstruction');
    expect(instr?.fields.map((f) => f.name)).toEqual(['lockedAmulet', 'transfer']);
    expect(instr?.implements.some((i) => i.endsWith(':Splice.Api.Token.TransferInstructionV1:TransferInstruction'))).toBe(true);
    const tap = templates
      .find((t) => t.qualifiedName === 'Splice.AmuletRules:AmuletRules')
      ?.choices.find((c) => c.name === 'AmuletRules_DevNet_Tap');
    expect(tap?.argFields?.map((f) => `${f.name}: ${f.type}`)).toEqual([
      'receiver: Party',
      'amount: Numeric 10',
      'openRound: ContractId Splice.Round:OpenMiningRound',
    ]);
    const api = dar('splice-api-token-transfer-instruction-v1-1.0.0.dar').main;
    const ad = await ok<PackageDetail>('packages.get', { packageId: api.packageId });
    const factory = ad.modules
      .flatMap((m) => m.interfaces)
      .find((i) => i.qualifiedName === 'Splice.Api.Token.TransferInstructionV1:TransferFactory');
    expect(factory?.viewType).toBe('Splice.Api.Token.TransferInstructionV1:TransferFactoryView');
    expect(factory?.choices.find((c) => c.name === 'TransferFactory_Transfer')?.argFields?.map((f) => f.name)).toEqual([
      'expectedAdmin',
      'transfer',
      'extraArgs',
    ]);
  });

  it('uploading the same real DARs again through the console is idempotent: same packages, same vetting', async () => {
    const state = (l: PackageList) =>
      l.packages
        .map(
          (p) =>
            `${p.packageId} ${p.vetted
              .map((v) => v.synchronizerId)
              .sort()
              .join(',')}`,
        )
        .sort();
    const before = state(await ok<PackageList>('packages.list', {}));
    for (const f of ['splice-util-0.1.7.dar', 'splice-amulet-0.1.22.dar']) {
      const uploadId = await stage(bytesOf(f), f);
      const v = await ok<DarValidation>('packages.upload.validate', { uploadId, synchronizerId: null });
      expect(v.participant?.ok, `${f}: ${JSON.stringify(v.participant?.error)}`).toBe(true);
      expect(v.crossCheck.filter((c) => !c.compatible)).toEqual([]);
      expect(v.canUpload).toBe(true);
      const r = await ok<Response<'packages.upload.commit'>>('packages.upload.commit', {
        uploadId,
        vetAllPackages: true,
        synchronizerId: null,
      });
      expect(r.mainPackageId).toBe(dar(f).main.packageId);
    }
    expect(state(await ok<PackageList>('packages.list', {}))).toEqual(before);
  }, 120_000);

  it('unvets and vets a real package again (dry run first)', async () => {
    const util = dar('splice-util-0.1.7.dar').main;
    // unvetting it alone is refused while a package that depends on it stays vetted: take its dependents along (transitively)
    const all = darFiles().flatMap((f) => dar(f).packages);
    const group = new Set([util.packageId]);
    for (let grew = true; grew;) {
      grew = false;
      for (const p of all)
        if (!group.has(p.packageId) && p.dependencies.some((d) => group.has(d))) {
          group.add(p.packageId);
          grew = true;
        }
    }
    const ids = [...group];
    const sync = syncs[0] as string;
    const unvet = ids.map((packageId) => ({ op: 'unvet' as const, packageId }));
    const dry = await ok<{ dryRun: boolean; after: { packages: { packageId: string }[] } }>('packages.vetting.update', {
      synchronizerId: sync,
      changes: unvet,
      dryRun: true,
    });
    expect(dry.dryRun).toBe(true);
    expect(dry.after.packages.map((p) => p.packageId)).not.toContain(util.packageId);
    await ok('packages.vetting.update', { synchronizerId: sync, changes: unvet, dryRun: false });
    let list = await ok<PackageList>('packages.list', {});
    expect(list.packages.find((p) => p.packageId === util.packageId)?.vetted.map((v) => v.synchronizerId)).not.toContain(sync);
    await ok('packages.vetting.update', {
      synchronizerId: sync,
      changes: ids.map((packageId) => ({ op: 'vet', packageId })),
      dryRun: false,
    });
    list = await ok<PackageList>('packages.list', {});
    expect(list.packages.find((p) => p.packageId === util.packageId)?.vetted.map((v) => v.synchronizerId)).toContain(sync);
  });

  it('a hostile DAR being read by the console stalls none of its other calls (the reading runs in the worker)', async () => {
    const uploadId = await stage(hostile, 'hostile.dar');
    const decoder = darDecoder();
    expect(decoder.pending).toBe(0);
    let settled = false;
    const validation = ok<DarValidation>('packages.upload.validate', { uploadId, synchronizerId: null }).finally(() => (settled = true));
    await until(() => decoder.pending > 0 || settled);
    expect(settled, 'the console read the hostile DAR before anything else could be asked').toBe(false);
    const answered: string[] = [];
    const step = async <T>(name: string, p: Promise<T>): Promise<T> => {
      const r = await p;
      if (!settled && decoder.pending > 0) answered.push(name);
      return r;
    };
    const list = await step('packages.list', ok<PackageList>('packages.list', {}));
    const util = dar('splice-util-0.1.7.dar').main.packageId;
    await step('packages.get', ok<PackageDetail>('packages.get', { packageId: util }));
    const small = await step('stage another DAR', stage(bytesOf('splice-api-token-metadata-v1-1.0.0.dar'), 'metadata.dar'));
    await step('cancel it', ok('packages.upload.cancel', { uploadId: small }));
    expect(list.packages.some((p) => p.packageId === util)).toBe(true);
    const v = await validation;
    expect(answered).toEqual(['packages.list', 'packages.get', 'stage another DAR', 'cancel it']);
    expect(v.decodeError?.code).toBe('HASH_MISMATCH');
    expect(v.decodeError?.message).toContain('hostile/bad.dalf');
    expect(v.participant).toBeNull();
    expect(v.canUpload).toBe(false);
  }, 180_000);

  it('a truncated real DAR is refused by the console with the reader’s reason; nothing is sent to the participant', async () => {
    const bytes = bytesOf('splice-util-0.1.7.dar');
    const uploadId = await stage(bytes.slice(0, bytes.length - 100), 'truncated.dar');
    const v = await ok<DarValidation>('packages.upload.validate', { uploadId, synchronizerId: null });
    expect(v.decodeError?.code).toMatch(/CORRUPT_ZIP|NOT_A_ZIP/);
    expect(v.participant).toBeNull();
    expect(v.canUpload).toBe(false);
  });
});
