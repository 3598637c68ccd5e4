/**
 * External-party wallet through the real composition (demo mode, real keychain): a key and an external party made in
 * the console, its transfer preapproval set up and a preapproved send, each prepared by the validator, verified by the
 * console (hash recomputed), signed with the keychain key and submitted — online, and offline through the
 * signing-request / response files. A validator that lies about the hash is refused before anything is signed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Entry } from '@napi-rs/keyring';
import { startConsoleApp, type ConsoleApp } from '../../src/app/console-app.js';
import type { ChannelName, Request, Response } from '../../src/ipc/contract.js';
import type { IpcError } from '../../src/ipc/errors.js';
import { mintDemoToken } from '../../src/services/wallet/demo-token.js';
import { startDownloads, type Downloads } from '../support/exports.js';
import { must } from '../support/must.js';
import { anyNumber } from '../support/matchers.js';

let app: ConsoleApp;
let airGapped: ConsoleApp;
let dir: string;
let downloads: Downloads;
const service = `wallet-ext-test-${process.pid}-${Date.now()}`;
const fingerprints: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'wallet-external-'));
  downloads = await startDownloads();
  app = await startConsoleApp({
    dataDir: path.join(dir, 'online'),
    demo: true,
    transport: 'browser-host',
    keychainService: service,
    exportSink: downloads.sink,
  });
  airGapped = await startConsoleApp({
    dataDir: path.join(dir, 'offline'),
    demo: false,
    transport: 'browser-host',
    keychainService: `${service}-offline`,
  });
});
afterAll(async () => {
  for (const [svc, fp] of fingerprints.map((f) => f.split('|') as [string, string])) {
    try {
      new Entry(svc, `signing-key:${fp}`).deletePassword();
    } catch {
      // deleted already
    }
  }
  await app.close();
  await airGapped.close();
  rmSync(dir, { recursive: true, force: true });
  await downloads.close();
});

async function ok<C extends ChannelName>(a: ConsoleApp, channel: C, payload: Request<C>): Promise<Response<C>> {
  const r = await a.router.invoke(channel, payload);
  if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`);
  return r.value as Response<C>;
}
/** Narrows a "verified / submitted / created | refused" answer, failing the test with the refusal. */
function is<T extends { status: string }, S extends T['status']>(v: T, status: S): Extract<T, { status: S }> {
  if (v.status !== status) throw new Error(`expected ${status}, got ${JSON.stringify(v)}`);
  return v as Extract<T, { status: S }>;
}
async function fails(a: ConsoleApp, channel: ChannelName, payload: unknown): Promise<IpcError> {
  const r = await a.router.invoke(channel, payload);
  if (r.ok) throw new Error(`${channel} unexpectedly succeeded`);
  return r.error;
}
async function externalBalance(party: string): Promise<number> {
  const res = await fetch(`${app.demoLedgerUrl}/api/validator/v0/admin/external-party/balance?party_id=${encodeURIComponent(party)}`, {
    headers: { authorization: `Bearer ${mintDemoToken('validator-operator')}` },
  });
  if (!res.ok) throw new Error(`balance: ${res.status} ${await res.text()}`);
  return Number(((await res.json()) as { total_unlocked_coin: string }).total_unlocked_coin);
}

const bobUnlocked = async () => Number((await ok(app, 'wallet.overview', { user: 'bob' })).balance?.unlocked);
let party = '';
let fingerprint = '';

describe('external-party wallet', () => {
  it('lists no party before one is onboarded', async () => {
    expect((await ok(app, 'wallet.external.parties', {})).parties).toEqual([]);
  });

  it('onboards an external party with a keychain key; its balance is read from the validator', async () => {
    const key = await ok(app, 'signing.keys.create', { label: 'wallet-ext' });
    fingerprint = key.fingerprint;
    fingerprints.push(`${service}|${fingerprint}`);
    const prep = is(await ok(app, 'signing.onboard.prepare', { fingerprint, partyHint: 'walletext' }), 'verified');
    party = is(await ok(app, 'signing.onboard.confirm', { sessionId: prep.sessionId }), 'allocated').partyId;
    const list = (await ok(app, 'wallet.external.parties', {})).parties;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ party, preapproval: null, balanceError: null, balance: { unlocked: '0.0000000000' } });
  });

  it('sets up the transfer preapproval: prepared by the validator, verified and signed in the console, submitted', async () => {
    const v = is(await ok(app, 'wallet.external.preapproval.prepare', { party, fingerprint }), 'verified');
    expect(v).toMatchObject({ status: 'verified', kind: 'preapproval-setup', party, fingerprint });
    expect(v.summary.hashingSchemeVersion).toBe('HASHING_SCHEME_VERSION_V2');
    // The hash the console recomputed (base64 in the summary) is the validator's hex tx_hash.
    expect(Buffer.from(v.summary.hashBase64, 'base64').toString('hex')).toBe(v.txHashHex);
    // recognised (and typed from the validator's packages, their ids verified): no blind signature
    expect(v.summary.mode).toBe('clear');
    expect(v.summary.clearSign).toMatchObject({ kind: 'preapproval-setup', title: 'Transfer pre-approval setup' });
    expect(v.summary.headline).toMatch(
      new RegExp(`^Accept the wallet setup of validator .*: pre-approve incoming Canton Coin transfers to ${party}`),
    );
    const r = is(await ok(app, 'wallet.external.confirm', { sessionId: v.sessionId }), 'submitted');
    expect(r).toMatchObject({ status: 'submitted', kind: 'preapproval-setup' });
    expect(r.contractId).toBeTruthy();
    expect(r.auditSeq).toBeGreaterThan(0);
    // The session is spent: confirming again is refused plainly.
    expect((await fails(app, 'wallet.external.confirm', { sessionId: v.sessionId })).code).toBe('NOT_FOUND');
    const list = (await ok(app, 'wallet.external.parties', {})).parties;
    expect(must(list[0], 'the onboarded party').preapproval).not.toBeNull();
  });

  it('sends to a party with a preapproval, signed online; the nonce is read from the ledger', async () => {
    // Fund the external party (alice → one-step transfer to its fresh preapproval) and give bob a preapproval.
    await ok(app, 'wallet.preapproval.send', { user: 'alice', receiver: party, amount: '100' });
    expect(await externalBalance(party)).toBeCloseTo(100, 6);
    await ok(app, 'wallet.preapproval.create', { user: 'bob' });
    const bob = (await ok(app, 'wallet.overview', { user: 'bob' })).partyId;
    const bobBefore = await bobUnlocked();

    const v = is(
      await ok(app, 'wallet.external.send.prepare', { party, fingerprint, receiver: bob, amount: '25', description: 'from the console' }),
      'verified',
    );
    expect(v.kind).toBe('send');
    expect(v.summary.mode).toBe('clear');
    expect(v.summary.clearSign).toMatchObject({ kind: 'amulet-transfer', title: 'Canton Coin transfer' });
    expect(v.summary.headline).toBe(
      `Transfer 25 Canton Coin from ${party} to ${bob} via ${v.summary.clearSign?.fields[3]?.value} (memo: from the console)`,
    );
    const r = await ok(app, 'wallet.external.confirm', { sessionId: v.sessionId });
    expect(r).toMatchObject({ status: 'submitted', kind: 'send' });
    await expect.poll(async () => (await bobUnlocked()) - bobBefore, { timeout: 10_000 }).toBeCloseTo(25, 4);
    expect(await externalBalance(party)).toBeCloseTo(75, 4);
  });

  it('shows a policy refusal with the rule, audits it once, and offers offline signing only when offline would work', async () => {
    const bob = (await ok(app, 'wallet.overview', { user: 'bob' })).partyId;
    const open = {
      allowedTemplates: null,
      allowedChoices: null,
      allowedCounterparties: null,
      maxAmountPerTransaction: '10',
      requireOfflineConfirmation: false,
      allowBlindSigning: true,
      quorum: null,
    };
    await ok(app, 'signing.policy.set', { fingerprint, policy: open });
    const over = is(
      await ok(app, 'wallet.external.send.prepare', { party, fingerprint, receiver: bob, amount: '15', description: '' }),
      'verified',
    );
    // refused on every path: not "use offline signing"; the disabled button is recorded once, with the rule and the hash
    expect(over.policy).toMatchObject({ allowed: false, reason: 'POLICY_AMOUNT', offlineAllowed: false, auditSeq: anyNumber() });
    const entry = must((await ok(app, 'signing.audit.list', { limit: 1 })).records[0], 'the refusal audit record');
    expect(entry).toMatchObject({ seq: over.policy.auditSeq, decision: 'refused', reason: 'POLICY_AMOUNT', hash: over.summary.hashBase64 });
    // forced past the disabled buttons: refused again (and audited again), online and offline
    expect(await ok(app, 'wallet.external.confirm', { sessionId: over.sessionId, blindConfirmation: 'BLIND' })).toMatchObject({
      status: 'refused',
      reason: 'POLICY_AMOUNT',
    });
    // offline only and within the limit: not a refusal, offline signing is what works
    await ok(app, 'signing.policy.set', {
      fingerprint,
      policy: { ...open, maxAmountPerTransaction: null, requireOfflineConfirmation: true },
    });
    const routed = is(
      await ok(app, 'wallet.external.send.prepare', { party, fingerprint, receiver: bob, amount: '5', description: '' }),
      'verified',
    );
    expect(routed.policy).toMatchObject({ allowed: false, reason: 'POLICY_OFFLINE_ONLY', offlineAllowed: true, auditSeq: null });
    await ok(app, 'wallet.external.discard', { sessionId: routed.sessionId });
    await ok(app, 'signing.policy.set', { fingerprint, policy: { ...open, maxAmountPerTransaction: null } });
  });

  it('sends again, signed offline on an air-gapped console through request and response files', async () => {
    const bob = (await ok(app, 'wallet.overview', { user: 'bob' })).partyId;
    const bobBefore = await bobUnlocked();
    // The key travels to the air-gapped console as an encrypted backup.
    const passphrase = 'correct horse battery staple';
    const backup = await downloads.run(app.router, { kind: 'keys.backup', fingerprints: [fingerprint], passphrase });
    is(await ok(airGapped, 'signing.keys.restore', { text: backup.text, passphrase: 'correct horse battery staple' }), 'ok');
    fingerprints.push(`${service}-offline|${fingerprint}`);

    const v = is(await ok(app, 'wallet.external.send.prepare', { party, fingerprint, receiver: bob, amount: '10' }), 'verified');
    const req = is(await ok(app, 'wallet.external.offline.create', { sessionId: v.sessionId, ttlMinutes: 30 }), 'created');
    // the request carries the packages: the air-gapped console clear-signs it without a network
    const ins = is(await ok(airGapped, 'signing.offline.inspect', { text: req.text }), 'verified');
    expect(ins.summary).toMatchObject({ mode: 'clear', clearSign: { kind: 'amulet-transfer' } });
    const signed = is(await ok(airGapped, 'signing.offline.sign', { text: req.text }), 'signed');
    const r = await ok(app, 'wallet.external.offline.submit', { requestId: req.requestId, responseText: signed.text });
    expect(r).toMatchObject({ status: 'submitted', kind: 'send' });
    await expect.poll(async () => (await bobUnlocked()) - bobBefore, { timeout: 10_000 }).toBeCloseTo(10, 4);
    expect((await fails(app, 'wallet.external.offline.submit', { requestId: req.requestId, responseText: signed.text })).code).toBe(
      'CONFLICT',
    );
  });

  it('refuses a validator whose tx_hash is not the hash of its transaction: nothing is signed, the refusal is audited', async () => {
    // A remote profile on the same simulator whose validator URL goes through a proxy that alters prepare-send's tx_hash.
    const receiver = (await ok(app, 'wallet.overview', { user: 'bob' })).partyId;
    const proxy = await lyingValidator(`${app.demoLedgerUrl}/api/validator`);
    try {
      const profile = await ok(app, 'profiles.save', {
        name: 'lying validator',
        ledgerApiUrl: must(app.demoLedgerUrl, 'the demo ledger URL'),
        validatorApiUrl: proxy.url,
        auth: { mode: 'static', token: mintDemoToken('validator-operator') },
      });
      await ok(app, 'profiles.select', { id: profile.id });
      const r = await ok(app, 'wallet.external.send.prepare', { party, fingerprint, receiver, amount: '1' });
      expect(is(r, 'refused')).toMatchObject({ reason: 'HASH_MISMATCH', auditSeq: anyNumber() });
      expect(proxy.submits()).toBe(0);
    } finally {
      await ok(app, 'profiles.select', { id: 'demo' });
      await proxy.close();
    }
  });

  it('refuses a key that is not the party’s, before asking the validator', async () => {
    const other = await ok(app, 'signing.keys.create', { label: 'not-the-party' });
    fingerprints.push(`${service}|${other.fingerprint}`);
    const err = await fails(app, 'wallet.external.send.prepare', { party, fingerprint: other.fingerprint, receiver: party, amount: '1' });
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toMatch(/not a signing key of/);
  });
});

/** A validator that lies: forwards to the real one, but answers prepare-send with a different tx_hash. */
async function lyingValidator(target: string): Promise<{ url: string; submits: () => number; close: () => Promise<void> }> {
  let submits = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    const forward = async (): Promise<void> => {
      if (req.url?.endsWith('/submit-send')) submits++;
      const headers: Record<string, string> = {};
      for (const h of ['authorization', 'content-type', 'accept']) {
        const value = req.headers[h];
        if (typeof value === 'string') headers[h] = value;
      }
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const up = await fetch(target + (req.url ?? ''), {
        method: req.method ?? 'GET',
        headers,
        ...(body && req.method !== 'GET' ? { body } : {}),
      });
      let text = await up.text();
      if (req.url?.endsWith('/prepare-send') && up.ok) {
        const j = JSON.parse(text) as { tx_hash: string };
        j.tx_hash = j.tx_hash.slice(0, -2) + (j.tx_hash.endsWith('00') ? '11' : '00');
        text = JSON.stringify(j);
      }
      res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' }).end(text);
    };
    // A failed forward answers 502, so the console sees an error instead of a hung request.
    req.on('end', () => void forward().catch((e: unknown) => res.writeHead(502).end(e instanceof Error ? e.message : 'forward failed')));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    submits: () => submits,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
