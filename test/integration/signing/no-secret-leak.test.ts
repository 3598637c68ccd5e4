/**
 * Private key bytes never leave the secret store: every service call is exercised with console.* instrumented,
 * and the logs, returned objects, thrown errors, written files and the SQLite database are searched for the
 * key bytes in hex, base64 and base64url.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Entry } from '@napi-rs/keyring';
import { openAppDb, type AppDb } from '../../../src/services/app-db.js';
import { referenceTypes } from '../../support/reference-packages.js';
import { KeychainSecretStore } from '../../../src/services/secret-store.js';
import { KeyStore, secretAccount } from '../../../src/services/signing/key-store.js';
import { AuditLog } from '../../../src/services/signing/audit-log.js';
import { PolicyStore } from '../../../src/services/signing/policy-store.js';
import { PolicyChecks } from '../../../src/services/signing/policy-checks.js';
import { SigningService } from '../../../src/services/signing/signing-service.js';
import { OfflineSigner } from '../../../src/services/signing/offline-signer.js';
import { createSigningRequest, importSignatureResponse, SignatureCollector } from '../../../src/services/signing/offline-files.js';
import { exportKeyBackup, previewKeyBackup, restoreKeyBackup } from '../../../src/services/signing/key-backup.js';
import { EncryptedFileSecretStore } from '../../../src/services/signing/encrypted-file-secret-store.js';
import { externalPartyId } from '../../../src/services/signing/fingerprint.js';
import {
  iouSplit,
  multiHashOf,
  PARTICIPANT,
  prepareResponse,
  tampered,
  tokenTransfer,
  topologyTransactions,
} from '../../unit/signing/fixtures.js';
import { must } from '../../support/must.js';

const SERVICE = `canton-console-test-leak-${process.pid}-${Date.now()}`;
const BOB = 'bob::1220' + '22'.repeat(32);
let dir: string;
let db: AppDb;
const created = new Set<string>();
const METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'leak-'));
  db = openAppDb(dir);
});
afterEach(() => {
  vi.restoreAllMocks();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  for (const fp of created) new Entry(SERVICE, secretAccount(fp)).deletePassword();
});

function serialise(v: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(v, (_k, val: unknown) => {
    if (typeof val === 'bigint') return val.toString();
    if (val instanceof Uint8Array) return Buffer.from(val).toString('hex') + '|' + Buffer.from(val).toString('base64');
    if (val instanceof Error) return { ...Object.fromEntries(Object.entries(val)), name: val.name, message: val.message, stack: val.stack };
    if (val && typeof val === 'object') {
      if (seen.has(val)) return '[circular]';
      seen.add(val);
    }
    return val;
  });
}
function allFiles(d: string): string {
  return readdirSync(d)
    .map((f) => path.join(d, f))
    .filter((p) => statSync(p).isFile())
    .map((p) => readFileSync(p).toString('latin1') + readFileSync(p).toString('hex'))
    .join('\n');
}

describe('private key material', { timeout: 90_000 }, () => {
  it('never appears in logs, results, errors, files or the database', async () => {
    const logged: unknown[][] = [];
    for (const m of METHODS) vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void logged.push(args));
    const outputs: unknown[] = [];
    const capture = async <T>(p: Promise<T> | T): Promise<T | undefined> => {
      try {
        const v = await p;
        outputs.push(v);
        return v;
      } catch (err) {
        outputs.push(err);
        return undefined;
      }
    };

    const keys = new KeyStore(db, { 'os-keychain': new KeychainSecretStore(SERVICE) });
    const audit = new AuditLog(db);
    const policies = new PolicyStore(db);
    const types = referenceTypes(db);
    const fetchPackage = types.fetch;
    const service = new SigningService(keys, policies, audit, types.packages);
    const k = must(await capture(keys.create('Leak test key')), 'a created key');
    created.add(k.fingerprint);
    const party = externalPartyId('leak', k.fingerprint);
    await capture(keys.list());
    await capture(keys.get(k.fingerprint));
    await capture(keys.rename(k.fingerprint, 'Renamed'));
    await capture(keys.attachParty(k.fingerprint, party));
    await capture(policies.set(k.fingerprint, { maxAmountPerTransaction: '1000' }));

    const good = await prepareResponse(tokenTransfer({ sender: party, receiver: BOB, amount: '5.0' }));
    await capture(service.preview({ fingerprint: k.fingerprint, party, prepared: good, fetchPackage }));
    await capture(service.sign({ fingerprint: k.fingerprint, party, prepared: good, fetchPackage }));
    await capture(
      service.sign({
        fetchPackage,
        fingerprint: k.fingerprint,
        party,
        prepared: await prepareResponse(iouSplit({ owner: party, amount: '1.0', counterparty: BOB })),
        acknowledgeBlind: true,
      }),
    );
    await capture(
      service.sign({
        fetchPackage,
        fingerprint: k.fingerprint,
        party,
        prepared: await tampered(
          tokenTransfer({ sender: party, receiver: BOB, amount: '5.0' }),
          (tx) => (must(tx.metadata, 'metadata').mediatorGroup = 3),
        ),
      }),
    );
    await capture(
      service.sign({
        fetchPackage,
        fingerprint: k.fingerprint,
        party,
        prepared: await prepareResponse(tokenTransfer({ sender: party, receiver: BOB, amount: '5000.0' })),
      }),
    );
    const txs = topologyTransactions({ partyId: party, publicKey: keys.publicKey(k.fingerprint) });
    await capture(
      service.signTopology({
        fingerprint: k.fingerprint,
        topology: { partyId: party, publicKeyFingerprint: k.fingerprint, topologyTransactions: txs, multiHash: await multiHashOf(txs) },
      }),
    );

    const req = must(
      await capture(
        createSigningRequest({
          prepared: good,
          party,
          signers: [{ fingerprint: k.fingerprint, publicKeyBase64: k.publicKeyBase64 }],
          participantId: PARTICIPANT,
          types,
        }),
      ),
      'a signing request',
    );
    const offline = new OfflineSigner(keys, service, audit, types.packages, new PolicyChecks(keys, policies, service, audit));
    await capture(offline.inspect(req.text));
    const resp = must(await capture(offline.sign(req.text)), 'a signing response');
    await capture(importSignatureResponse(req.request, resp.text));
    const collector = new SignatureCollector(req.request);
    await capture(collector.add(resp.text));
    await capture(collector.partySignatures());

    const backup = must(await capture(exportKeyBackup(keys, [k.fingerprint], 'leak test passphrase')), 'a key backup');
    await capture(previewKeyBackup(backup, 'leak test passphrase'));
    await capture(previewKeyBackup(backup, 'wrong passphrase!'));
    await capture(restoreKeyBackup(keys, backup, 'leak test passphrase'));
    const fileStore = await EncryptedFileSecretStore.open(path.join(dir, 'keys.enc.json'), 'file store passphrase');
    const fileKeys = new KeyStore(db, { 'encrypted-file': fileStore });
    await keys.delete(k.fingerprint); // move the key to the file backend via the backup
    await capture(restoreKeyBackup(fileKeys, backup, 'leak test passphrase', { backend: 'encrypted-file' }));
    await capture(fileKeys.signHash(k.fingerprint, new Uint8Array(32)));
    await capture(audit.export());
    await capture(audit.verifyChain());
    await capture(keys.signHash('1220' + '00'.repeat(32), new Uint8Array(32)));

    const seed = Buffer.from(
      must(await fileStore.get(secretAccount(k.fingerprint)), 'the key in the file store').slice('ed25519-seed:v1:'.length),
      'base64',
    );
    expect(seed).toHaveLength(32);
    const forms = [
      seed.toString('hex'),
      seed.toString('hex').toUpperCase(),
      seed.toString('base64'),
      seed.toString('base64').replace(/=+$/, ''),
      seed.toString('base64url'),
    ];
    db.pragma('wal_checkpoint(TRUNCATE)');
    const haystacks = {
      logs: serialise(logged),
      outputs: serialise(outputs),
      files: allFiles(dir),
    };
    // sanity: the haystacks really contain what was produced (signatures, summaries, backups)
    expect(haystacks.outputs).toContain(k.publicKeyHex);
    expect(haystacks.outputs).toContain('HASH_MISMATCH');
    expect(haystacks.outputs).toContain('canton-console/key-backup');
    for (const [where, text] of Object.entries(haystacks)) {
      for (const f of forms) expect(text.includes(f), `${where} contains the private key (${f.length} chars)`).toBe(false);
    }
  });
});
