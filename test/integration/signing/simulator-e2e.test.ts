/**
 * End to end against the embedded simulator over real HTTP: onboard an external party whose key lives in the real
 * keychain (generate-topology → verify + sign → allocate), then prepare → verify + sign → execute. A tampered
 * prepare response never reaches execute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Entry } from '@napi-rs/keyring';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { openAppDb, type AppDb } from '../../../src/services/app-db.js';
import { KeychainSecretStore } from '../../../src/services/secret-store.js';
import { secretAccount } from '../../../src/services/signing/key-store.js';
import { createSigningServices, executeSubmissionRequest, type SigningServices } from '../../../src/services/signing/index.js';
import { must } from '../../support/must.js';

const SERVICE = `canton-console-test-e2e-${process.pid}-${Date.now()}`;
const IOU = '#simulator-demo:Demo.Iou:Iou';
let sim: RunningSimulator;
let simDir: string;
let dir: string;
let db: AppDb;
let svc: SigningServices;
const created: string[] = [];
/** What beforeAll started, in order: a failing beforeAll leaves the rest unassigned. */
const closers: Array<() => unknown> = [];

async function post(p: string, body: unknown): Promise<{ status: number; json: unknown; text: string }> {
  const res = await fetch(sim.url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

beforeAll(async () => {
  simDir = mkdtempSync(path.join(os.tmpdir(), 'sign-e2e-sim-'));
  dir = mkdtempSync(path.join(os.tmpdir(), 'sign-e2e-console-'));
  sim = await startSimulator({ dataDir: simDir, port: 0 });
  closers.push(() => sim.close());
  db = openAppDb(dir);
  closers.push(() => db.close());
  svc = createSigningServices(db, { 'os-keychain': new KeychainSecretStore(SERVICE) });
});
afterAll(async () => {
  for (const close of closers) await close();
  for (const fp of created) new Entry(SERVICE, secretAccount(fp)).deletePassword();
  rmSync(simDir, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

describe('signing against the simulator', () => {
  it('onboards an external party and executes a transaction signed by the console', async () => {
    const syncs = (await (await fetch(`${sim.url}/v2/state/connected-synchronizers`)).json()) as {
      connectedSynchronizers: Array<{ synchronizerId: string }>;
    };
    const synchronizer = must(syncs.connectedSynchronizers[0], 'a connected synchronizer').synchronizerId;
    const key = await svc.keys.create('E2E wallet');
    created.push(key.fingerprint);

    const gen = await post('/v2/parties/external/generate-topology', {
      synchronizer,
      partyHint: 'e2e-wallet',
      publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: key.publicKeyBase64, keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' },
    });
    expect(gen.status, gen.text).toBe(200);
    const topology = gen.json as { partyId: string; publicKeyFingerprint: string; topologyTransactions: string[]; multiHash: string };
    expect(topology.publicKeyFingerprint).toBe(key.fingerprint);
    const onboard = await svc.signing.signTopology({ fingerprint: key.fingerprint, topology });
    expect(onboard.summary.partyId).toBe(`e2e-wallet::${key.fingerprint}`);
    expect(onboard.summary.hostingParticipants.map((h) => h.participantUid)).toEqual([sim.participantId.replace(/^PAR::/, '')]);
    const alloc = await post('/v2/parties/external/allocate', {
      synchronizer,
      onboardingTransactions: topology.topologyTransactions.map((transaction) => ({ transaction })),
      multiHashSignatures: onboard.multiHashSignatures,
    });
    expect(alloc.status, alloc.text).toBe(200);
    const ext = (alloc.json as { partyId: string }).partyId;
    expect(svc.keys.get(key.fingerprint).parties).toContain(ext);

    const bank = ((await post('/v2/parties', { partyIdHint: 'E2EBank' })).json as { partyDetails: { party: string } }).partyDetails.party;
    const bob = ((await post('/v2/parties', { partyIdHint: 'E2EBob' })).json as { partyDetails: { party: string } }).partyDetails.party;
    const iouTx = await post('/v2/commands/submit-and-wait-for-transaction', {
      commands: {
        commandId: `e2e-iou-${process.pid}`,
        actAs: [bank],
        commands: [
          {
            CreateCommand: { templateId: IOU, createArguments: { issuer: bank, owner: ext, currency: 'USD', amount: '25', observers: [] } },
          },
        ],
      },
      transactionFormat: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: { filtersByParty: { [bank]: {} } } },
    });
    expect(iouTx.status, iouTx.text).toBe(200);
    const iouEvents = (iouTx.json as { transaction: { events: Array<{ CreatedEvent?: { contractId: string } }> } }).transaction.events;
    const iou = must(iouEvents[0]?.CreatedEvent, 'the created Iou').contractId;

    const prep = await post('/v2/interactive-submission/prepare', {
      commandId: `e2e-transfer-${process.pid}`,
      actAs: [ext],
      commands: [{ ExerciseCommand: { templateId: IOU, contractId: iou, choice: 'Iou_Transfer', choiceArgument: { newOwner: bob } } }],
    });
    expect(prep.status, prep.text).toBe(200);
    const prepared = prep.json as { preparedTransaction: string; preparedTransactionHash: string; hashingSchemeVersion: string };

    // a participant that lies about the hash is refused before anything is executed
    const lying = { ...prepared, preparedTransactionHash: Buffer.alloc(32, 7).toString('base64') };
    await expect(
      svc.signing.sign({ fingerprint: key.fingerprint, party: ext, prepared: lying, acknowledgeBlind: true }),
    ).rejects.toMatchObject({
      reason: 'HASH_MISMATCH',
    });

    // without a participant to fetch the package from, nothing is known about its types: blind
    const offline = await svc.signing.preview({ fingerprint: key.fingerprint, party: ext, prepared });
    expect(offline.summary.mode).toBe('blind');
    expect(offline.summary.description.missingPackages).toHaveLength(1);

    // with the participant: the package is fetched, its id verified, and the transfer described field by field
    const fetchPackage = async (id: string) => new Uint8Array(await (await fetch(`${sim.url}/v2/packages/${id}`)).arrayBuffer());
    const preview = await svc.signing.preview({ fingerprint: key.fingerprint, party: ext, prepared, fetchPackage });
    expect(preview.summary.exercises[0]).toMatchObject({ choice: 'Iou_Transfer', root: true, actingParties: [ext] });
    expect(preview.summary.mode).toBe('described');
    expect(preview.summary.headline).toContain('Iou_Transfer on Demo.Iou:Iou');
    expect(preview.summary.headline).toContain('newOwner E2EBob::');
    const root = must(preview.summary.description.nodes[0], 'a described node');
    expect(root.argument).toMatchObject({ kind: 'record', fields: [{ name: 'newOwner', value: { kind: 'party', party: bob } }] });
    expect(svc.packages.has(must(preview.summary.packages[0], 'a used package').packageId)).toBe(true);
    const signed = await svc.signing.sign({ fingerprint: key.fingerprint, party: ext, prepared });
    const exec = await post(
      '/v2/interactive-submission/executeAndWait',
      executeSubmissionRequest(prepared, signed.partySignatures, { submissionId: `e2e-sub-${process.pid}` }),
    );
    expect(exec.status, exec.text).toBe(200);
    expect(svc.audit.list().map((r) => [r.entry.subject, r.entry.decision, r.entry.reason])).toEqual([
      ['prepared-transaction', 'signed', null],
      ['prepared-transaction', 'refused', 'HASH_MISMATCH'],
      ['topology', 'signed', null],
    ]);
    expect(svc.audit.verifyChain().ok).toBe(true);
  });
});
