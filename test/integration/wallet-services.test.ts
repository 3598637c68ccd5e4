/**
 * Wallet channels through the real composition (startConsoleApp in demo mode: contract router → wallet services →
 * the embedded validator app over HTTP). Every answer the services read was parsed with the Splice-spec schemas;
 * effects are checked again through the validator's own HTTP API with the wallet user's token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startConsoleApp, type ConsoleApp } from '../../src/app/console-app.js';
import type { Response } from '../../src/ipc/contract.js';
import type { IpcError } from '../../src/ipc/errors.js';
import { mintDemoToken } from '../../src/services/wallet/demo-token.js';
import { reconstruct } from '../../src/services/wallet/wallet-balance.js';
import { stringMatching } from '../support/matchers.js';
import { must } from '../support/must.js';

let app: ConsoleApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'wallet-services-'));
  app = await startConsoleApp({ dataDir: dir, demo: true, transport: 'browser-host', keychainService: `wallet-test-${process.pid}` });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

async function ok<C extends string>(
  channel: C,
  payload: unknown,
): Promise<C extends keyof Channels ? Response<C & keyof Channels> : never> {
  const r = await app.router.invoke(channel, payload);
  if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`);
  return r.value as never;
}
type Channels = typeof import('../../src/ipc/contract.js').channels;
async function fails(channel: string, payload: unknown): Promise<IpcError> {
  const r = await app.router.invoke(channel, payload);
  if (r.ok) throw new Error(`${channel} unexpectedly succeeded: ${JSON.stringify(r.value)}`);
  return r.error;
}
/** The validator's own answer for wallet user `user` (checks effects independently of the console's mapping). */
async function validator<T>(user: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${app.demoLedgerUrl}/api/validator${p}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${mintDemoToken(user)}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

describe('wallet users', () => {
  it('lists the demo users through the admin API and onboards a new one', async () => {
    const ctx = await ok('wallet.context', {});
    expect(ctx.available).toBe(true);
    expect(ctx.demo).toBe(true);
    expect(ctx.automation).toBe(true);
    expect(ctx.users).toEqual(expect.arrayContaining(['alice', 'bob']));
    const { partyId } = await ok('wallet.users.onboard', { name: 'carol' });
    expect(partyId).toMatch(/^carol.*::/);
    expect((await ok('wallet.context', {})).users).toContain('carol');
    const status = await validator<{ party_id: string; user_onboarded: boolean }>('carol', '/v0/wallet/user-status');
    expect(status).toMatchObject({ party_id: partyId, user_onboarded: true });
  });

  it('refuses a malformed user name before calling the validator', async () => {
    const err = await fails('wallet.users.onboard', { name: 'no spaces please' });
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.issues?.[0]?.path).toBe('name');
  });
});

describe('balance, holdings and history', () => {
  it('shows the seeded balance, holdings with fees and ages, and a chart that starts from the history', async () => {
    const o = await ok('wallet.overview', { user: 'alice' });
    expect(o.onboarded).toBe(true);
    const b = await validator<{ effective_unlocked_qty: string; effective_locked_qty: string }>('alice', '/v0/wallet/balance');
    expect(o.balance?.unlocked).toBe(b.effective_unlocked_qty);
    expect(o.balance?.locked).toBe(b.effective_locked_qty);
    // The seed tapped 1000 + 250 and locked 42.5 in an offer: unlocked and locked holdings.
    expect(o.holdings.some((h) => h.locked)).toBe(true);
    expect(o.holdings.every((h) => Number(h.amount) > 0 && !Number.isNaN(Date.parse(h.createdAt)) && h.feeAccrued !== '')).toBe(true);
    expect(o.series.filter((s) => s.source === 'history').length).toBeGreaterThanOrEqual(2);
    expect(o.series.at(-1)?.source).toBe('sample');
    expect(o.series.at(-1)?.total).toBeCloseTo(Number(b.effective_unlocked_qty) + Number(b.effective_locked_qty), 6);
  });

  it('taps coin and shows it in balance and history', async () => {
    const before = await ok('wallet.overview', { user: 'carol' });
    expect(before.balance?.unlocked).toBe('0.0000000000');
    await ok('wallet.tap', { user: 'carol', amount: '500' });
    const after = await ok('wallet.overview', { user: 'carol' });
    expect(Number(after.balance?.unlocked)).toBeCloseTo(500, 6);
    expect(after.series.at(-1)?.total).toBeCloseTo(500, 6);
    const h = await ok('wallet.history', { user: 'carol' });
    expect(h.items[0]).toMatchObject({ type: 'balance_change', operation: 'tap', delta: '500.0000000000' });
  });

  it('refuses a bad amount with a field issue', async () => {
    const err = await fails('wallet.tap', { user: 'carol', amount: '-3' });
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.issues?.[0]?.path).toBe('amount');
  });

  it('reconstructs balances backwards from the current one', () => {
    const pts = reconstruct(
      [
        {
          transaction_type: 'balance_change',
          transaction_subtype: { template_id: 't', choice: 'c' },
          event_id: '2',
          date: '2026-01-02T00:00:00Z',
          receivers: [{ party: 'p', amount: '-10' }],
        },
        {
          transaction_type: 'balance_change',
          transaction_subtype: { template_id: 't', choice: 'c' },
          event_id: '1',
          date: '2026-01-01T00:00:00Z',
          receivers: [{ party: 'p', amount: '100' }],
        },
      ],
      'p',
      '90',
      '0',
    );
    expect(pts.map((p) => Number(p.unlocked))).toEqual([0, 100, 90]);
  });
});

describe('transfer offers', () => {
  it('carol offers to bob, bob accepts, the tracked status goes to completed; another offer is withdrawn', async () => {
    const bob = (await ok('wallet.overview', { user: 'bob' })).partyId;
    const first = await ok('wallet.offers.create', {
      user: 'carol',
      receiver: bob,
      amount: '20',
      description: 'first',
      expiresInMinutes: 60,
    });
    const second = await ok('wallet.offers.create', { user: 'carol', receiver: bob, amount: '5', description: 'second' });
    const bobOffers = await ok('wallet.offers', { user: 'bob' });
    expect(bobOffers.incoming.map((o) => o.contractId)).toEqual(expect.arrayContaining([first.contractId, second.contractId]));
    const carolOffers = await ok('wallet.offers', { user: 'carol' });
    expect(carolOffers.outgoing.find((o) => o.contractId === first.contractId)).toMatchObject({
      amount: stringMatching(/^20(\.0+)?$/),
      description: 'first',
      stage: 'offer',
    });
    expect(carolOffers.tracked.find((t) => t.trackingId === first.trackingId)?.status.status).toBe('created');

    const acc = await ok('wallet.offers.act', { user: 'bob', contractId: first.contractId, action: 'accept' });
    expect(acc.acceptedContractId).toBeTruthy();
    await ok('wallet.offers.act', { user: 'carol', contractId: second.contractId, action: 'withdraw' });

    const tracked = (await ok('wallet.offers', { user: 'carol' })).tracked;
    expect(tracked.find((t) => t.trackingId === first.trackingId)?.status.status).toBe('completed');
    expect(tracked.find((t) => t.trackingId === second.trackingId)?.status).toMatchObject({ status: 'failed', failureKind: 'withdrawn' });
    // Independently: the validator's status for the tracking id.
    expect((await validator<{ status: string }>('carol', `/v0/wallet/transfer-offers/${first.trackingId}/status`, {})).status).toBe(
      'completed',
    );
  });

  it('only the receiver accepts: the validator’s refusal comes back with its message', async () => {
    const bob = (await ok('wallet.overview', { user: 'bob' })).partyId;
    const o = await ok('wallet.offers.create', { user: 'carol', receiver: bob, amount: '1' });
    const err = await fails('wallet.offers.act', { user: 'carol', contractId: o.contractId, action: 'accept' });
    expect(err.code).toBe('FORBIDDEN');
    expect(err.canton?.cause).toMatch(/receiver/);
    await ok('wallet.offers.act', { user: 'bob', contractId: o.contractId, action: 'reject' });
  });
});

describe('preapprovals and traffic', () => {
  it('bob creates a preapproval, carol sends to him in one step', async () => {
    const bob = (await ok('wallet.overview', { user: 'bob' })).partyId;
    const created = await ok('wallet.preapproval.create', { user: 'bob' });
    expect(created.contractId).toBeTruthy();
    const again = await ok('wallet.preapproval.create', { user: 'bob' });
    expect(again).toMatchObject({ contractId: created.contractId, created: false });
    const before = Number((await ok('wallet.overview', { user: 'bob' })).balance?.unlocked);
    await ok('wallet.preapproval.send', { user: 'carol', receiver: bob, amount: '7.5', description: 'one step' });
    const after = Number((await ok('wallet.overview', { user: 'bob' })).balance?.unlocked);
    expect(after - before).toBeCloseTo(7.5, 4);
  });

  it('buys traffic and follows its status', async () => {
    await ok('wallet.tap', { user: 'carol', amount: '5000' });
    const r = await ok('wallet.traffic.buy', { user: 'carol', trafficBytes: 100_000 });
    const list = await ok('wallet.traffic.requests', { user: 'carol' });
    expect(list.requests.find((x) => x.trackingId === r.trackingId)?.status.status).toBe('completed');
    expect((await ok('wallet.history', { user: 'carol' })).items.some((i) => i.operation === 'buy_member_traffic')).toBe(true);
  });
});

describe('merge delegation', () => {
  it('is read from the ledger; on the simulator it is proposed, accepted by the provider and cancelled', async () => {
    expect((await ok('wallet.delegations', { user: 'carol' })).merge).toEqual({ status: 'none', contractId: null, operator: null });
    const active = await ok('wallet.mergeDelegation.set', { user: 'carol', action: 'propose' });
    expect(active.status).toBe('active');
    const read = (await ok('wallet.delegations', { user: 'carol' })).merge;
    expect(read).toMatchObject({
      status: 'active',
      contractId: active.contractId,
      operator: stringMatching(/^validator-operator::/),
    });
    expect((await ok('wallet.mergeDelegation.set', { user: 'carol', action: 'cancel' })).status).toBe('none');
    const err = await fails('wallet.mergeDelegation.set', { user: 'carol', action: 'cancel' });
    expect(err.code).toBe('NOT_FOUND');
  });
});

describe('simulator automation settings', () => {
  it('reads the settings flattened and typed', async () => {
    const { settings } = await ok('wallet.automation.get', {});
    const byKey = new Map(settings.map((s) => [s.key, s] as const));
    expect(byKey.get('autoCompleteAcceptedOffers')).toMatchObject({ kind: 'boolean', value: true });
    expect(byKey.get('mergeThreshold')).toMatchObject({ kind: 'number', value: 0 });
    expect(byKey.get('trafficTopup.targetThroughput')?.kind).toBe('number');
    expect(byKey.get('sweeps')).toMatchObject({ kind: 'json', value: '{}' });
  });

  it('changes the merge threshold: the simulator merges the holdings above it', async () => {
    await ok('wallet.tap', { user: 'carol', amount: '1' });
    await ok('wallet.tap', { user: 'carol', amount: '2' });
    expect((await ok('wallet.overview', { user: 'carol' })).holdings.filter((h) => !h.locked).length).toBeGreaterThan(2);
    const r = await ok('wallet.automation.set', { settings: [{ key: 'mergeThreshold', value: 2 }] });
    expect(r.settings.find((s) => s.key === 'mergeThreshold')?.value).toBe(2);
    expect((await ok('wallet.overview', { user: 'carol' })).holdings.filter((h) => !h.locked).length).toBeLessThanOrEqual(2);
    expect((await ok('wallet.delegations', { user: 'carol' })).holdingCount).toBeLessThanOrEqual(2);
    await ok('wallet.automation.set', { settings: [{ key: 'mergeThreshold', value: 0 }] });
  });

  it('refuses bad changes plainly and changes nothing', async () => {
    const before = (await ok('wallet.automation.get', {})).settings;
    const unknown = await fails('wallet.automation.set', { settings: [{ key: 'noSuchSetting', value: true }] });
    expect(unknown).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'settings.0.key' }] });
    const badJson = await fails('wallet.automation.set', { settings: [{ key: 'sweeps', value: '{ nope' }] });
    expect(badJson.issues?.[0]?.path).toBe('settings.0.value');
    const wrongType = await fails('wallet.automation.set', { settings: [{ key: 'mergeThreshold', value: 'many' }] });
    expect(wrongType.code).toBe('BAD_REQUEST');
    // The simulator checks the whole configuration: a sweep to an unknown party is refused with its message.
    const refused = await fails('wallet.automation.set', {
      settings: [
        {
          key: 'sweeps',
          value: JSON.stringify({
            'nobody::1220ab': { receiver: 'x::1', maxBalanceUSD: '10', minBalanceUSD: '1', useTransferPreapproval: false },
          }),
        },
      ],
    });
    expect(refused.canton?.cause).toMatch(/unknown/i);
    expect((await ok('wallet.automation.get', {})).settings).toEqual(before);
  });
});

describe('a remote profile', () => {
  it('acts as its token’s user only; listing users needs the operator', async () => {
    const profile = await ok('profiles.save', {
      name: 'bob’s validator',
      ledgerApiUrl: must(app.demoLedgerUrl, 'the demo ledger URL'),
      validatorApiUrl: `${app.demoLedgerUrl}/api/validator`,
      auth: { mode: 'static', token: mintDemoToken('bob') },
    });
    await ok('profiles.select', { id: profile.id });
    try {
      const ctx = await ok('wallet.context', {});
      expect(ctx).toMatchObject({ available: true, demo: false, tokenUser: 'bob', users: null, automation: false });
      expect(ctx.usersError?.code).toBe('FORBIDDEN');
      expect((await ok('wallet.overview', { user: 'bob' })).onboarded).toBe(true);
      const err = await fails('wallet.overview', { user: 'alice' });
      expect(err).toMatchObject({ code: 'FORBIDDEN' });
      expect(err.message).toContain('opens the wallet of user bob only');
      expect((await fails('wallet.automation.get', {})).code).toBe('FORBIDDEN');
      expect((await fails('wallet.mergeDelegation.set', { user: 'bob', action: 'propose' })).code).toBe('FORBIDDEN');
    } finally {
      await ok('profiles.select', { id: 'demo' });
      await ok('profiles.delete', { id: profile.id });
    }
  });

  it('without a validator URL the wallet says so', async () => {
    const profile = await ok('profiles.save', {
      name: 'participant only',
      ledgerApiUrl: must(app.demoLedgerUrl, 'the demo ledger URL'),
      validatorApiUrl: null,
    });
    await ok('profiles.select', { id: profile.id });
    try {
      expect(await ok('wallet.context', {})).toMatchObject({ available: false, users: null });
      const err = await fails('wallet.overview', { user: 'bob' });
      expect(err.code).toBe('NOT_FOUND');
      expect(err.message).toContain('has no validator API URL');
    } finally {
      await ok('profiles.select', { id: 'demo' });
      await ok('profiles.delete', { id: profile.id });
    }
  });
});
