/**
 * Issue #13 item 6: signing followed whichever profile was active at confirm time, so a profile switch (or another tab
 * switching it) between prepare and confirm sent a signed transaction to another participant, and an offline request's
 * recorded participant id was never compared. Through the real composition (contract router, real keychain, embedded
 * simulator as participant A, a second simulator behind a recording proxy as participant B): every such confirm or
 * execute is refused and audited, and participant B receives nothing but the participant-id read that detects it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Entry } from '@napi-rs/keyring';
import { startConsoleApp, type ConsoleApp } from '../../src/app/console-app.js';
import type { ChannelName, Request, Response } from '../../src/ipc/contract.js';
import { secretAccount } from '../../src/services/signing/key-store.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

const IOU = '#simulator-demo:Demo.Iou:Iou';
const SERVICE = `profile-switch-${process.pid}-${Date.now()}`;
let app: ConsoleApp;
let other: RunningSimulator;
let proxy: Server;
let proxyUrl = '';
/** Every request participant B received, as "METHOD path". */
const seenByB: string[] = [];
let dir: string;
let fingerprint = '';
let party = '';
let demoId = '';

async function call<C extends ChannelName>(channel: C, req: Request<C>): Promise<Response<C>> {
  const r = await app.router.invoke(channel, req);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
  return r.value as Response<C>;
}
async function ledgerEndA(): Promise<number> {
  return ((await (await fetch(`${app.demoLedgerUrl}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
}
const iouArgs = () => JSON.stringify({ issuer: party, owner: party, currency: 'CHF', amount: '3', observers: [] });
async function prepareOnActive() {
  const r = await call('signing.prepare', { party, fingerprint, command: { kind: 'create', templateId: IOU, argumentsJson: iouArgs() } });
  if (r.status !== 'verified') throw new Error(`prepare refused: ${r.message}`);
  return r;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'profile-switch-'));
  app = await startConsoleApp({ dataDir: path.join(dir, 'console'), demo: true, transport: 'browser-host', keychainService: SERVICE });
  other = await startSimulator({ dataDir: path.join(dir, 'participant-b'), port: 0 });
  // participant B behind a proxy that records every request
  proxy = createServer((req, res) => {
    seenByB.push(`${req.method} ${req.url}`);
    const up = httpRequest(other.url + (req.url ?? '/'), { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  demoId = must(
    (await call('profiles.list', {})).profiles.find((p) => p.kind === 'demo'),
    'the demo profile',
  ).id;
  const key = await call('signing.keys.create', { label: 'Switch test', backend: 'os-keychain' });
  fingerprint = key.fingerprint;
  const onb = await call('signing.onboard.prepare', {
    fingerprint,
    partyHint: 'switch',
    observationOnly: false,
    extraFingerprints: [],
    signingThreshold: 1,
  });
  if (onb.status !== 'verified') throw new Error(onb.message);
  const done = await call('signing.onboard.confirm', { sessionId: onb.sessionId });
  if (done.status !== 'allocated') throw new Error(done.message);
  party = done.partyId;
});
afterAll(async () => {
  try {
    new Entry(SERVICE, secretAccount(fingerprint)).deletePassword();
  } catch {
    // not created
  }
  await ifAssigned(app)?.close();
  const started = ifAssigned(proxy);
  if (started) await new Promise<void>((r) => started.close(() => r()));
  await ifAssigned(other)?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('signing is bound to the participant it was prepared on', () => {
  it('refuses a confirm after a profile switch, sends nothing to the other participant, and confirms after switching back', async () => {
    const verified = await prepareOnActive();
    const b = await call('profiles.save', { name: 'Participant B', ledgerApiUrl: proxyUrl });
    await call('profiles.select', { id: b.id });
    const endA = await ledgerEndA();
    seenByB.length = 0;

    const refused = await call('signing.confirm', { sessionId: verified.sessionId, mode: 'executeAndWait', blindConfirmation: 'BLIND' });
    expect(refused).toMatchObject({ status: 'refused', reason: 'PARTICIPANT_CHANGED' });
    if (refused.status !== 'refused') return;
    expect(refused.message).toMatch(
      /prepared on profile “Demo — embedded simulator”.*active profile is now “Participant B”.*Nothing was signed or sent/,
    );
    expect(seenByB).toEqual([]);
    expect(await ledgerEndA()).toBe(endA);
    // audited with the transaction hash, and nothing was signed
    const [entry] = (await call('signing.audit.list', { limit: 2 })).records;
    expect(entry).toMatchObject({
      seq: refused.auditSeq,
      decision: 'refused',
      reason: 'PARTICIPANT_CHANGED',
      hash: verified.summary.hashBase64,
    });
    const forThisTx = (await call('signing.audit.list', { limit: 50 })).records.filter((r) => r.hash === verified.summary.hashBase64);
    expect(forThisTx.map((r) => r.decision)).toEqual(['refused']);

    await call('profiles.select', { id: demoId });
    const executed = await call('signing.confirm', { sessionId: verified.sessionId, mode: 'executeAndWait', blindConfirmation: 'BLIND' });
    expect(executed).toMatchObject({ status: 'executed' });
    expect(await ledgerEndA()).toBeGreaterThan(endA);
    expect(seenByB).toEqual([]);
  });

  it('refuses to export an offline request or execute one while another profile is active', async () => {
    const verified = await prepareOnActive();
    const b = must(
      (await call('profiles.list', {})).profiles.find((p) => p.name === 'Participant B'),
      'profile Participant B',
    );
    await call('profiles.select', { id: b.id });
    seenByB.length = 0;
    expect(await call('signing.offline.createRequest', { sessionId: verified.sessionId, ttlMinutes: 60 })).toMatchObject({
      status: 'refused',
      reason: 'PARTICIPANT_CHANGED',
    });
    await call('profiles.select', { id: demoId });
    const created = await call('signing.offline.createRequest', { sessionId: verified.sessionId, ttlMinutes: 60 });
    if (created.status !== 'created') throw new Error(created.message);
    const response = await call('signing.offline.sign', { text: created.text, blindConfirmation: 'BLIND' });
    if (response.status !== 'signed') throw new Error(response.message);
    expect(await call('signing.offline.importResponse', { requestId: created.requestId, text: response.text })).toMatchObject({
      status: 'collected',
    });
    await call('profiles.select', { id: b.id });
    const endA = await ledgerEndA();
    expect(await call('signing.offline.execute', { requestId: created.requestId, mode: 'executeAndWait' })).toMatchObject({
      status: 'refused',
      reason: 'PARTICIPANT_CHANGED',
    });
    expect(seenByB).toEqual([]);
    expect(await ledgerEndA()).toBe(endA);
    await call('profiles.select', { id: demoId });
    expect(await call('signing.offline.execute', { requestId: created.requestId, mode: 'executeAndWait' })).toMatchObject({
      status: 'executed',
    });
  });

  it('compares the participant id recorded in an offline request with the participant it is executed on', async () => {
    // profile C reaches participant A, the request records A's participant id; then C is pointed at participant B
    const c = await call('profiles.save', { name: 'Participant C', ledgerApiUrl: must(app.demoLedgerUrl, 'app.demoLedgerUrl') });
    await call('profiles.select', { id: c.id });
    const verified = await prepareOnActive();
    const created = await call('signing.offline.createRequest', { sessionId: verified.sessionId, ttlMinutes: 60 });
    if (created.status !== 'created') throw new Error(created.message);
    const participantA = (JSON.parse(created.text) as { participantId: string }).participantId;
    const response = await call('signing.offline.sign', { text: created.text, blindConfirmation: 'BLIND' });
    if (response.status !== 'signed') throw new Error(response.message);
    await call('signing.offline.importResponse', { requestId: created.requestId, text: response.text });
    await call('profiles.save', { id: c.id, name: 'Participant C', ledgerApiUrl: proxyUrl });
    seenByB.length = 0;
    const refused = await call('signing.offline.execute', { requestId: created.requestId, mode: 'executeAndWait' });
    expect(refused).toMatchObject({ status: 'refused', reason: 'PARTICIPANT_CHANGED' });
    if (refused.status === 'refused') expect(refused.message).toContain(`prepared for participant ${participantA}`);
    // B was only asked who it is
    expect(seenByB).toEqual(['GET /v2/parties/participant-id']);
    await call('profiles.select', { id: demoId });
  });
});
