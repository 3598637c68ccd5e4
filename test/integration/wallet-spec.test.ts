/**
 * The wallet services speak the Splice API as specified: a proxy between the services and the simulator's validator
 * app checks every request body against the operation's `requestBody` schema and every answer against its response
 * schema (the reference Splice YAML files, through the same ajv setup the simulator's spec tests use), and records
 * which operations were used. The services are exercised end to end: users, balance, holdings, history, offers,
 * preapprovals, traffic, delegations, external-party prepare/submit.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppDb, type AppDb } from '../../src/services/app-db.js';
import { LedgerClient } from '../../src/services/ledger-client.js';
import type { Profile } from '../../src/ipc/contract.js';
import type { SecretStore } from '../../src/services/secret-store.js';
import { createSigningServices } from '../../src/services/signing/index.js';
import { SigningFlows } from '../../src/services/signing-flows/index.js';
import { ExternalWallet, WalletService, WalletStore } from '../../src/services/wallet/index.js';
import { spliceSpecs, startTestSim, type TestSim } from './simulator/wallet-helpers.js';
import { must } from '../support/must.js';

let sim: TestSim;
let db: AppDb;
let proxy: http.Server;
let wallet: WalletService;
let external: ExternalWallet;
let flows: SigningFlows;
let signing: ReturnType<typeof createSigningServices>;

/** Keys in memory: this test is about the wire format, the keychain is covered by wallet-external.test.ts. */
class MemorySecrets implements SecretStore {
  private readonly m = new Map<string, string>();
  get(a: string): Promise<string | null> {
    return Promise.resolve(this.m.get(a) ?? null);
  }
  set(a: string, v: string): Promise<void> {
    this.m.set(a, v);
    return Promise.resolve();
  }
  delete(a: string): Promise<boolean> {
    return Promise.resolve(this.m.delete(a));
  }
}
const violations: string[] = [];
const used = new Set<string>();
/** Operations the simulator does not serve (its router's own 404, not a Splice answer). */
const unimplemented = new Set<string>();

/** `/v0/wallet/transfer-offers/abc/accept` → the spec's `/v0/wallet/transfer-offers/{contract_id}/accept`. */
function specPath(method: string, concrete: string): string | null {
  for (const doc of spliceSpecs().docs.values()) {
    for (const [p, ops] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown>>)) {
      if (!ops[method.toLowerCase()]) continue;
      const re = new RegExp(
        `^${p
          .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
          .replace(/\\?\{[^}]+\\?\}/g, '[^/]+')
          .replace(/\{[^}]+\}/g, '[^/]+')}$`,
      );
      if (re.test(concrete)) return p;
    }
  }
  return null;
}

/** The operation's JSON request-body schema, compiled with refs rewritten as the helper does for responses. */
function assertRequest(method: string, p: string, body: unknown): void {
  const { file, op } = spliceSpecs().operation(method, p);
  const schema = ((op.requestBody as { content?: Record<string, { schema: unknown }> } | undefined)?.content ?? {})['application/json']
    ?.schema;
  if (schema === undefined) return;
  const text = JSON.stringify(schema)
    .replaceAll(/"(?:\.\.\/)+common\/src\/main\/openapi\/(common-[a-z]+)\.yaml#/g, '"$1.json#')
    .replaceAll(/"\.\/([a-z-]+)\.yaml#/g, '"$1.json#')
    .replaceAll('"#/components/', `"${file}.json#/components/`);
  const v = spliceSpecs().ajv.compile(JSON.parse(text) as object);
  if (!v(body))
    throw new Error(
      `request of ${method} ${p} does not match the Splice spec: ${JSON.stringify(v.errors?.slice(0, 5))}\n` +
        `body: ${JSON.stringify(body).slice(0, 800)}`,
    );
}

beforeAll(async () => {
  sim = await startTestSim({ seedDemo: true });
  const upstream = `${sim.url}/api/validator`;
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    const forward = async (): Promise<void> => {
      const url = new URL(req.url ?? '/', 'http://x');
      const method = req.method ?? 'GET';
      const text = Buffer.concat(chunks).toString('utf8');
      const p = specPath(method, url.pathname);
      try {
        if (!p) throw new Error(`${method} ${url.pathname} is not a Splice operation`);
        used.add(`${method} ${p}`);
        if (text !== '') assertRequest(method, p, JSON.parse(text));
      } catch (err) {
        violations.push((err as Error).message);
      }
      const headers: Record<string, string> = {};
      for (const h of ['authorization', 'content-type', 'accept']) {
        const v = req.headers[h];
        if (typeof v === 'string') headers[h] = v;
      }
      const up = await fetch(upstream + (req.url ?? ''), { method, headers, ...(text !== '' ? { body: text } : {}) });
      const answer = await up.text();
      try {
        if (up.status === 404 && answer.includes('The requested resource could not be found')) unimplemented.add(`${method} ${p}`);
        else if (p && answer !== '') spliceSpecs().assertResponse(method, p, up.status, JSON.parse(answer));
      } catch (err) {
        violations.push((err as Error).message);
      }
      res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' }).end(answer);
    };
    // A failed forward is recorded and answered 502, so the test fails on it instead of hanging.
    req.on('end', () => {
      forward().catch((err: unknown) => {
        violations.push(`proxy: ${err instanceof Error ? err.message : 'forward failed'}`);
        res.writeHead(502).end();
      });
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  db = openAppDb(path.join(sim.dataDir, 'console'));
  const profile: Profile = {
    id: 'demo',
    name: 'Demo through a spec-checking proxy',
    kind: 'demo',
    ledgerApiUrl: sim.url,
    validatorApiUrl: proxyUrl,
    auth: { mode: 'none' },
  };
  wallet = new WalletService({
    profile: () => profile,
    profileToken: () => Promise.resolve(null),
    refreshProfileToken: () => Promise.resolve(null),
    ledger: () => new LedgerClient({ baseUrl: sim.url }),
    store: new WalletStore(db),
    demoOperatorUser: 'validator-operator',
  });
  signing = createSigningServices(db, { 'os-keychain': new MemorySecrets() }, 'os-keychain');
  const participant = () => ({ profileId: 'spec', profileName: 'Spec', client: new LedgerClient({ baseUrl: sim.url }) });
  flows = new SigningFlows(signing, participant);
  external = new ExternalWallet({ signing, wallet, participant, parties: () => flows.parties() });
});
afterAll(async () => {
  await new Promise<void>((r) => proxy.close(() => r()));
  db.close();
  await sim.dispose();
});

describe('wallet services against the Splice specs', () => {
  it('sends only spec-conformant requests and accepts only spec-conformant answers', async () => {
    const ctx = await wallet.users.context();
    expect(ctx.users).toEqual(expect.arrayContaining(['alice', 'bob']));
    const { partyId: erin } = await wallet.users.onboard('erin');
    await wallet.balance.tap('erin', '300');
    const alice = await wallet.balance.overview('alice');
    expect(alice.holdings.length).toBeGreaterThan(0);
    await wallet.balance.history('alice', null, 10);
    const offer = await wallet.transfers.createOffer({
      user: 'alice',
      receiver: erin,
      amount: '12.5',
      description: 'spec check',
      expiresInMinutes: 30,
    });
    const other = await wallet.transfers.createOffer({
      user: 'alice',
      receiver: erin,
      amount: '1',
      description: 'to reject',
      expiresInMinutes: 30,
    });
    const third = await wallet.transfers.createOffer({
      user: 'alice',
      receiver: erin,
      amount: '2',
      description: 'to withdraw',
      expiresInMinutes: 30,
    });
    await wallet.transfers.offers('erin');
    await wallet.transfers.act('erin', offer.contractId, 'accept');
    await wallet.transfers.act('erin', other.contractId, 'reject');
    await wallet.transfers.act('alice', third.contractId, 'withdraw');
    const tracked = (await wallet.transfers.offers('alice')).tracked;
    expect(tracked.map((t) => t.status.status)).toEqual(expect.arrayContaining(['completed', 'failed']));
    expect((await wallet.transfers.ownPreapproval('erin')).preapproval).toBeNull();
    await wallet.transfers.createPreapproval('erin');
    await wallet.transfers.createPreapproval('erin');
    expect((await wallet.transfers.ownPreapproval('erin')).preapproval?.contractId).toMatch(/^00/);
    await wallet.transfers.preapprovalSend({ user: 'alice', receiver: erin, amount: '3', description: 'one step' });
    // the price before buying: amulet price of the open round, traffic price of the AmuletRules (scan proxy)
    const q = await wallet.traffic.trafficQuote({ user: 'erin', trafficBytes: 10_000 });
    expect(q).toMatchObject({ trafficBytes: 10_000, amuletPriceUsd: '0.0050000000', trafficPriceUsdPerMb: '60', minTopupBytes: 200_000 });
    expect(q.costUsd).toBe('0.6000000000');
    expect(q.costCc).toBe('120.0000000000');
    const before = must((await wallet.balance.overview('erin')).balance, 'erin’s balance').unlocked;
    await wallet.traffic.buyTraffic({ user: 'erin', trafficBytes: 10_000 });
    // what was charged is what was quoted
    const after = must((await wallet.balance.overview('erin')).balance, 'erin’s balance after buying').unlocked;
    expect(Number(before) - Number(after)).toBeCloseTo(120, 6);
    expect((await wallet.traffic.trafficRequests('erin')).requests[0]?.status.status).toBe('completed');
    await wallet.delegations.list('erin');

    // External party: setup proposal, prepare/submit accept, balance, prepare/submit send.
    const key = await signing.keys.create('spec');
    const onb = await flows.onboardPrepare({ fingerprint: key.fingerprint, partyHint: 'specext', observationOnly: false });
    if (onb.status !== 'verified') throw new Error(JSON.stringify(onb));
    const allocated = await flows.onboardConfirm(onb.sessionId);
    if (allocated.status !== 'allocated') throw new Error(JSON.stringify(allocated));
    const party = allocated.partyId;
    const setup = await external.preparePreapproval({ party, fingerprint: key.fingerprint });
    if (setup.status !== 'verified') throw new Error(JSON.stringify(setup));
    expect((await external.confirm({ sessionId: setup.sessionId, blindConfirmation: 'BLIND' })).status).toBe('submitted');
    await wallet.transfers.preapprovalSend({ user: 'alice', receiver: party, amount: '20', description: 'fund' });
    const send = await external.prepareSend({
      party,
      fingerprint: key.fingerprint,
      receiver: erin,
      amount: '4',
      description: 'spec',
      expiresInMinutes: 10,
      nonce: null,
    });
    if (send.status !== 'verified') throw new Error(JSON.stringify(send));
    expect((await external.confirm({ sessionId: send.sessionId, blindConfirmation: 'BLIND' })).status).toBe('submitted');
    expect((await external.parties())[0]?.balance?.unlocked).toMatch(/^16\./);

    expect(violations).toEqual([]);
    // Every operation the console used is served by the embedded validator.
    expect([...unimplemented].sort()).toEqual([]);
    expect([...used].sort()).toEqual(
      expect.arrayContaining([
        'GET /v0/admin/users',
        'POST /v0/admin/users',
        'GET /v0/wallet/user-status',
        'GET /v0/wallet/balance',
        'GET /v0/wallet/amulets',
        'POST /v0/wallet/tap',
        'POST /v0/wallet/transactions',
        'POST /v0/wallet/transfer-offers',
        'GET /v0/wallet/transfer-offers',
        'GET /v0/wallet/accepted-transfer-offers',
        'POST /v0/wallet/transfer-offers/{tracking_id}/status',
        'POST /v0/wallet/transfer-offers/{contract_id}/accept',
        'POST /v0/wallet/transfer-offers/{contract_id}/reject',
        'POST /v0/wallet/transfer-offers/{contract_id}/withdraw',
        'POST /v0/wallet/transfer-preapproval',
        'POST /v0/wallet/transfer-preapproval/send',
        'POST /v0/wallet/buy-traffic-requests',
        'GET /v0/scan-proxy/open-and-issuing-mining-rounds',
        'GET /v0/scan-proxy/amulet-rules',
        'GET /v0/scan-proxy/transfer-preapprovals/by-party/{party}',
        'POST /v0/wallet/buy-traffic-requests/{tracking_id}/status',
        'GET /v0/wallet/minting-delegations',
        'GET /v0/admin/external-party/setup-proposal',
        'POST /v0/admin/external-party/setup-proposal',
        'POST /v0/admin/external-party/setup-proposal/prepare-accept',
        'POST /v0/admin/external-party/setup-proposal/submit-accept',
        'POST /v0/admin/external-party/transfer-preapproval/prepare-send',
        'POST /v0/admin/external-party/transfer-preapproval/submit-send',
        'GET /v0/admin/external-party/balance',
      ]),
    );
  });
});
