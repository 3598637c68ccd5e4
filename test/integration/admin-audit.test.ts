/**
 * Operator features through the real composition (startConsoleApp in demo mode, embedded simulator over HTTP):
 * party allocation on a chosen synchronizer and its per-synchronizer hosting, commands on a chosen synchronizer with
 * a disclosed contract, pruning with its dry read, and every administrative action (party allocation, rights, IDPs,
 * a real reference DAR upload, vetting, pruning) recorded in the audit log with who and what — the chain still
 * verifying. Effects are checked again through the simulator's own HTTP API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startConsoleApp, type ConsoleApp } from '../../src/app/console-app.js';
import type { AuditRecordWire, PartyRow, PruningPreview, Response } from '../../src/ipc/contract.js';
import type { IpcError } from '../../src/ipc/errors.js';
import { readDar } from '../../src/daml-lf/index.js';
import { referenceDir } from './simulator/helpers.js';
import { must } from '../support/must.js';

let app: ConsoleApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'admin-audit-'));
  app = await startConsoleApp({ dataDir: dir, demo: true, transport: 'browser-host', keychainService: `admin-audit-test-${process.pid}` });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

async function sim<T>(p: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(must(app.demoLedgerUrl, 'the demo ledger URL') + p, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    ...(init.body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) } : {}),
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
const audit = async (): Promise<AuditRecordWire[]> =>
  (await ok<{ records: AuditRecordWire[] }>('signing.audit.list', { limit: 1000 })).records;
const lastAdmin = async (action: string): Promise<AuditRecordWire> => {
  const r = (await audit()).find((x) => x.decision === 'admin' && x.action === action);
  if (!r) throw new Error(`no ${action} entry in the audit log`);
  return r;
};

const IOU = '#simulator-demo:Demo.Iou:Iou';
const ASSET = '#simulator-demo:Demo.Asset:Asset';
let syncs: Array<{ synchronizerId: string; alias: string }>;

describe('synchronizer choice and hosting', () => {
  it('allocates a party on the chosen synchronizer, shows its hosting per synchronizer, and audits it', async () => {
    syncs = (await ok<{ synchronizers: Array<{ synchronizerId: string; alias: string }> }>('contracts.synchronizers', {})).synchronizers;
    expect(syncs.length).toBe(2);
    const target = must(syncs[1], 'a second synchronizer').synchronizerId;
    const hint = `Ops${Date.now()}`;
    const p = await ok<PartyRow>('parties.allocate', { partyIdHint: hint, synchronizerId: target });
    expect(p.hint).toBe(hint);
    const hosting = await ok<Response<'parties.hosting'>>('parties.hosting', { party: p.party });
    expect(hosting.participantId).toMatch(/::/);
    expect(hosting.synchronizers.map((s) => s.synchronizerId)).toContain(target);
    expect(hosting.synchronizers.every((s) => s.permission === 'PARTICIPANT_PERMISSION_SUBMISSION')).toBe(true);

    const entry = await lastAdmin('party-allocation');
    expect(entry.summary).toBe(`Allocated party ${p.party} on ${target}`);
    expect(entry.actor).toMatch(/\(no token: demo access\)$/);
    expect(entry.party).toBe(p.party);
    expect(entry.reason).toBeNull();
  });

  it('a failed admin action is audited with its reason, and changes nothing', async () => {
    const before = (await sim<{ partyDetails: unknown[] }>('/v2/parties')).partyDetails.length;
    const err = await fails('parties.allocate', { partyIdHint: `Nowhere${Date.now()}`, synchronizerId: 'no-such::sync' });
    expect(err.code).toBe('LEDGER_API_ERROR');
    const entry = await lastAdmin('party-allocation');
    expect(entry.summary).toMatch(/on no-such::sync — failed$/);
    expect(entry.reason).toBe(err.canton?.code);
    expect((await sim<{ partyDetails: unknown[] }>('/v2/parties')).partyDetails.length).toBe(before);
  });
});

describe('onboarding', () => {
  it('onboards an external party on the chosen synchronizer; an unknown one is refused before anything is generated', async () => {
    const key = await ok<{ fingerprint: string }>('signing.keys.create', { label: `Sync ${Date.now()}`, backend: 'os-keychain' });
    const hint = `ext-${Date.now()}`;
    const bad = await fails('signing.onboard.prepare', { fingerprint: key.fingerprint, partyHint: hint, synchronizerId: 'no-such::sync' });
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.issues?.[0]?.path).toBe('synchronizerId');
    const prep = await ok<{ status: string; sessionId: string; message?: string }>('signing.onboard.prepare', {
      fingerprint: key.fingerprint,
      partyHint: hint,
      synchronizerId: must(syncs[1], 'a second synchronizer').synchronizerId,
    });
    expect(prep.status, prep.message).toBe('verified');
    const done = await ok<{ status: string; partyId: string }>('signing.onboard.confirm', { sessionId: prep.sessionId });
    expect(done.status).toBe('allocated');
    expect(
      (await sim<{ partyDetails: Array<{ party: string }> }>(`/v2/parties/${encodeURIComponent(done.partyId)}`)).partyDetails,
    ).toHaveLength(1);
  });
});

describe('commands', () => {
  it('submits on a chosen synchronizer and uses a disclosed contract the submitter cannot see', async () => {
    const [bank, alice, carol] = await Promise.all(
      ['Bank', 'Alice', 'Carol'].map(async (h) => (await ok<PartyRow>('parties.allocate', { partyIdHint: `${h}${Date.now()}` })).party),
    );
    const target = must(syncs[1], 'a second synchronizer').synchronizerId;
    const created = await ok<Response<'commands.submit'>>('commands.submit', {
      commands: [
        { kind: 'create', templateId: IOU, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '9', observers: [] } },
      ],
      actAs: [bank],
      commandId: `c-${Date.now()}`,
      variant: 'transaction',
      synchronizerId: target,
    });
    const iou = must(created.createdContractIds[0], 'the created IOU');
    const byId = await sim<{ createdEvent: { createdEventBlob: string; templateId: string } }>('/v2/contracts/contract-by-id', {
      body: { contractId: iou, queryingParties: [alice] },
    });
    const end = (await sim<{ offset: number }>('/v2/state/ledger-end')).offset;
    const acs = await sim<
      Array<{ contractEntry: { JsActiveContract?: { createdEvent: { contractId: string }; synchronizerId: string } } }>
    >('/v2/state/active-contracts', {
      body: { activeAtOffset: end, eventFormat: { filtersByParty: { [must(alice, 'alice')]: { cumulative: [] } }, verbose: false } },
    });
    const active = acs.map((e) => e.contractEntry.JsActiveContract).find((c) => c?.createdEvent.contractId === iou);
    expect(active?.synchronizerId).toBe(target);

    const describe = {
      kind: 'exercise',
      templateId: ASSET,
      contractId: iou,
      choice: 'Asset_Describe',
      choiceArgument: { viewer: carol },
    } as const;
    const hidden = await fails('commands.submit', { commands: [describe], actAs: [carol], commandId: `h-${Date.now()}` });
    expect(hidden.canton?.code).toBe('CONTRACT_NOT_FOUND');
    const disclosed = { contractId: iou, templateId: byId.createdEvent.templateId, createdEventBlob: byId.createdEvent.createdEventBlob };
    const seen = await ok<Response<'commands.submit'>>('commands.submit', {
      commands: [describe],
      actAs: [carol],
      commandId: `d-${Date.now()}`,
      disclosedContracts: [{ ...disclosed, synchronizerId: target }],
    });
    expect(seen.updateId).toBeTruthy();
    const tampered = Buffer.from(
      Buffer.from(disclosed.createdEventBlob, 'base64').toString('utf8').replace('9.0000000000', '99.0000000000'),
    ).toString('base64');
    const bad = await fails('commands.submit', {
      commands: [describe],
      actAs: [carol],
      commandId: `t-${Date.now()}`,
      disclosedContracts: [{ ...disclosed, createdEventBlob: tampered }],
    });
    expect(bad.canton?.code).toBe('INVALID_ARGUMENT');
    expect((await fails('commands.submit', { commands: [describe], actAs: [carol], disclosedContracts: [{ contractId: iou }] })).code).toBe(
      'BAD_REQUEST',
    );
  });
});

describe('admin actions in the audit log', () => {
  it('records user rights, IDPs, a real DAR upload and vetting with who and what', async () => {
    const party = (await ok<PartyRow>('parties.allocate', { partyIdHint: `Rights${Date.now()}` })).party;
    const userId = `auditor-${Date.now()}`;
    await ok('users.create', { userId, primaryParty: '', rights: [], annotations: {}, identityProviderId: '' });
    await ok('users.rights.grant', { userId, rights: [{ kind: 'CanReadAs', party }] });
    expect((await lastAdmin('user-create')).summary).toBe(`Create user ${userId}`);
    expect((await lastAdmin('rights-grant')).summary).toBe(`Grant CanReadAs ${party} to user ${userId}`);

    const idp = `idp-${Date.now()}`;
    await ok('idps.create', {
      identityProviderId: idp,
      issuer: `https://${idp}.example.com`,
      jwksUrl: `https://${idp}.example.com/jwks`,
      audience: '',
      isDeactivated: false,
    });
    expect((await lastAdmin('idp-create')).summary).toBe(`Create identity provider ${idp} (issuer https://${idp}.example.com)`);

    const file = 'splice-util-0.1.7.dar';
    const bytes = new Uint8Array(readFileSync(path.join(referenceDir, 'dars', file)));
    const main = readDar(bytes).main;
    const { uploadId, chunkBytes } = await ok<{ uploadId: string; chunkBytes: number }>('packages.upload.begin', {
      fileName: file,
      size: bytes.length,
    });
    for (let off = 0; off < bytes.length; off += chunkBytes)
      await ok('packages.upload.chunk', { uploadId, offset: off, data: bytes.slice(off, Math.min(bytes.length, off + chunkBytes)) });
    expect((await ok<{ canUpload: boolean }>('packages.upload.validate', { uploadId, synchronizerId: null })).canUpload).toBe(true);
    await ok('packages.upload.commit', { uploadId, vetAllPackages: true, synchronizerId: null });
    const upload = await lastAdmin('dar-upload');
    expect(upload.summary).toMatch(
      new RegExp(`^Uploaded DAR ${file.replace(/\./g, '\\.')}: main package ${main.packageId} and \\d+ dependencies, vetted$`),
    );

    const sync = must(syncs[0], 'a synchronizer').synchronizerId;
    const unvet = { synchronizerId: sync, changes: [{ op: 'unvet', packageId: main.packageId }], force: [] };
    await ok('packages.vetting.update', { ...unvet, dryRun: true });
    expect((await audit()).filter((r) => r.action === 'vetting')).toHaveLength(0); // a dry run changes nothing and is not audited
    await ok('packages.vetting.update', { ...unvet, dryRun: false });
    expect((await lastAdmin('vetting')).summary).toBe(`Unvet ${main.packageId} on ${sync}`);

    const verify = await ok<{ ok: boolean }>('signing.audit.verify', {});
    expect(verify.ok).toBe(true);
  }, 120_000);
});

describe('pruning', () => {
  it('dry-reads what pruning removes, prunes the simulator, and audits it', async () => {
    const [bank, alice] = await Promise.all(
      ['PBank', 'PAlice'].map(async (h) => (await ok<PartyRow>('parties.allocate', { partyIdHint: `${h}${Date.now()}` })).party),
    );
    const submitted = (
      await ok<Response<'commands.submit'>>('commands.submit', {
        commands: [
          { kind: 'create', templateId: IOU, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '1', observers: [] } },
        ],
        actAs: [bank],
        commandId: `p-${Date.now()}`,
      })
    ).createdContractIds[0];
    const iou = must(submitted, 'the created IOU');
    await ok('commands.submit', {
      commands: [{ kind: 'exercise', templateId: IOU, contractId: iou, choice: 'Archive', choiceArgument: {} }],
      actAs: [bank, alice],
      commandId: `a-${Date.now()}`,
    });
    const end = (await sim<{ offset: number }>('/v2/state/ledger-end')).offset;
    const preview = await ok<PruningPreview>('pruning.preview', { offset: end });
    expect(preview).toMatchObject({ offset: end, ledgerEnd: end, prunedUpTo: 0, complete: true });
    expect(preview.transactions).toBeGreaterThanOrEqual(2);
    expect(preview.archivedContracts).toBeGreaterThanOrEqual(1);
    expect(preview.createdEvents).toBeGreaterThanOrEqual(preview.archivedContracts);
    // the dry read changed nothing
    expect((await sim<{ participantPrunedUpToInclusive: number }>('/v2/state/latest-pruned-offsets')).participantPrunedUpToInclusive).toBe(
      0,
    );
    expect((await fails('pruning.preview', { offset: end + 1000 })).issues?.[0]?.path).toBe('offset');

    expect(await ok('pruning.prune', { offset: end })).toEqual({ prunedUpTo: end });
    expect((await sim<{ participantPrunedUpToInclusive: number }>('/v2/state/latest-pruned-offsets')).participantPrunedUpToInclusive).toBe(
      end,
    );
    expect((await lastAdmin('pruning')).summary).toBe(`Pruned the participant up to offset ${end}`);
    expect((await fails('pruning.preview', { offset: end })).message).toMatch(/pruned up to/);
    expect((await ok<{ ok: boolean }>('signing.audit.verify', {})).ok).toBe(true);
  });
});
