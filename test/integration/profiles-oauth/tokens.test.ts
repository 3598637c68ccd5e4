/**
 * OAuth2 client-credentials profiles using their tokens, through the real composition (contract router, SQLite on
 * disk, the real OS keychain) against the simulator with HS256 JWT auth and a local OAuth2 token endpoint
 * (participant.ts): the JWT-protected participant reached with a cached token, "Test connection", a refused client
 * secret, the one retry after a 401, and the WebSocket streams and an export authenticated with the obtained token and
 * reconnected once after the participant refuses it.
 */
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Entry } from '@napi-rs/keyring';
import type { SubscriptionEvent } from '../../../src/ipc/contract.js';
import { arrayContaining, stringMatching } from '../../support/matchers.js';
import { must } from '../../support/must.js';
import { AUDIENCE, USER, useOAuthParticipant } from './participant.js';

const env = useOAuthParticipant('oauth-tokens');
const { call, callError, oauthProfile, simAdmin, forget, failNextWithForgedToken } = env;

describe('OAuth2 client-credentials profiles: tokens with the participant', () => {
  it('reaches the JWT-protected participant with an obtained token, caching it across requests', async () => {
    const p = await call('profiles.save', oauthProfile());
    await call('profiles.select', { id: p.id });
    env.idp.requests.length = 0;
    const snap = await call('dashboard.snapshot', {});
    expect(snap.participantId).toBe(env.sim.participantId);
    await call('dashboard.snapshot', {});
    expect(env.idp.requests).toEqual([
      expect.objectContaining({ clientId: 'console', clientAuth: 'post', audience: AUDIENCE, outcome: 'issued' }),
    ]);

    // Without a token the same participant refuses: the token really is what lets the console in.
    const res = await fetch(`${env.sim.url}/v2/authenticated-user`);
    expect(res.status).toBe(401);
    await call('profiles.delete', { id: p.id });
  });

  it('tests the connection: token and expiry, API version, authenticated user, rights', async () => {
    const p = await call('profiles.save', oauthProfile({ clientAuthMethod: 'client_secret_basic' }));
    env.idp.requests.length = 0;
    const before = Date.now();
    const t = await call('profiles.test', { id: p.id });
    expect(t.ok).toBe(true);
    expect(env.idp.requests).toEqual([expect.objectContaining({ clientAuth: 'basic' })]);
    expect(t.token).toMatchObject({ status: 'ok', source: 'oauth2-client-credentials' });
    if (t.token.status !== 'ok') throw new Error('unreachable');
    expect(Date.parse(t.token.expiresAt ?? '')).toBeGreaterThanOrEqual(before + 3_590_000);
    expect(t.ledger).toMatchObject({ status: 'ok', apiVersion: stringMatching(/^3\./) });
    expect(t.user).toEqual({ status: 'ok', userId: USER, primaryParty: env.party, isDeactivated: false, identityProviderId: '' });
    expect(t.rights).toEqual({
      status: 'ok',
      rights: arrayContaining([
        { kind: 'CanActAs', party: env.party },
        { kind: 'CanReadAs', party: env.party },
        { kind: 'ParticipantAdmin' },
      ]),
    });
    expect(JSON.stringify(t)).not.toContain(env.idp.issued.at(-1));
    await call('profiles.delete', { id: p.id });
  });

  it('reports a refused client secret as a failed token step (AUTH_FAILED, invalid_client) and skips the rest', async () => {
    const p = await call('profiles.save', oauthProfile({ clientSecret: 'not-the-secret' }));
    const t = await call('profiles.test', { id: p.id });
    expect(t).toMatchObject({
      ok: false,
      token: { status: 'failed', error: { code: 'AUTH_FAILED', canton: { code: 'invalid_client', httpStatus: 401 } } },
      ledger: { status: 'skipped' },
      user: { status: 'skipped' },
      rights: { status: 'skipped' },
    });
    await call('profiles.select', { id: p.id });
    expect(await callError('dashboard.snapshot', {})).toMatchObject({ code: 'AUTH_FAILED' });
    // Fixing only the secret (config kept) makes it work: the cached provider is dropped on save.
    await call('profiles.save', { id: p.id, name: p.name, ledgerApiUrl: env.sim.url, auth: { ...oauthProfile().auth } });
    expect((await call('profiles.test', { id: p.id })).ok).toBe(true);
    await call('profiles.delete', { id: p.id });
  });

  it('after a 401 from the participant obtains a new token and retries once', async () => {
    const p = await call('profiles.save', oauthProfile());
    await call('profiles.select', { id: p.id });
    // The endpoint first hands out a token the participant cannot verify (as after a key rotation).
    failNextWithForgedToken('some-other-key');
    const snap = await call('dashboard.snapshot', {});
    expect(snap.participantId).toBe(env.sim.participantId);
    expect(env.idp.requests).toHaveLength(2);
    await call('profiles.delete', { id: p.id });
  });

  it('opens the participant WebSocket with the obtained token (daml.ws.auth subprotocol)', async () => {
    const p = await call('profiles.save', oauthProfile());
    await call('profiles.select', { id: p.id });
    const events: SubscriptionEvent<'updates.stream'>[] = [];
    const sub = env.app.router.subscribe(
      'updates.stream',
      { streamId: 'oauth-stream-1', filter: { includeTopology: true }, beginExclusive: null, backlog: 0 },
      (e) => events.push(e as SubscriptionEvent<'updates.stream'>),
    );
    if (!sub.ok) throw new Error(sub.error.message);
    try {
      await expect
        .poll(() => events.find((e) => e.type === 'state' && e.state === 'live') ?? events.find((e) => e.type === 'error'), {
          timeout: 10_000,
        })
        .toMatchObject({
          type: 'state',
          state: 'live',
        });
      // The participant authorized the stream with that token: a new update arrives.
      await simAdmin('/v2/parties', { partyIdHint: `StreamSeen${Date.now()}` });
      await expect.poll(() => events.flatMap((e) => (e.type === 'batch' ? e.items : [])).length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(events.filter((e) => e.type === 'error')).toEqual([]);
    } finally {
      sub.unsubscribe();
      await call('profiles.delete', { id: p.id });
    }
  });

  it('reconnects the participant WebSocket once with a new token after the participant refuses the token', async () => {
    const p = await call('profiles.save', oauthProfile());
    await call('profiles.select', { id: p.id });
    failNextWithForgedToken('rotated-away-key');
    const events: SubscriptionEvent<'updates.stream'>[] = [];
    // beginExclusive given: no HTTP request precedes the socket, so the socket is what meets the forged token.
    const sub = env.app.router.subscribe(
      'updates.stream',
      { streamId: 'oauth-stream-2', filter: { includeTopology: true }, beginExclusive: 0 },
      (e) => events.push(e as SubscriptionEvent<'updates.stream'>),
    );
    if (!sub.ok) throw new Error(sub.error.message);
    try {
      // The simulator refuses the forged token with UNAUTHENTICATED; the stream gets a new token and reconnects.
      await expect.poll(() => env.idp.requests.length, { timeout: 10_000 }).toBe(2);
      await simAdmin('/v2/parties', { partyIdHint: `AfterReconnect${Date.now()}` });
      await expect.poll(() => events.flatMap((e) => (e.type === 'batch' ? e.items : [])).length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(events.filter((e) => e.type === 'error')).toEqual([]);
      expect(events.filter((e) => e.type === 'state').at(-1)).toMatchObject({ state: 'live' });
    } finally {
      sub.unsubscribe();
      await call('profiles.delete', { id: p.id });
    }
  });

  it('reconnects the completions WebSocket once with a new token after the participant refuses the token', async () => {
    const p = await call('profiles.save', oauthProfile());
    await call('profiles.select', { id: p.id });
    failNextWithForgedToken('rotated-away-key');
    const events: SubscriptionEvent<'commands.completions'>[] = [];
    // beginExclusive given: the socket is the first request, so it meets the forged token.
    const sub = env.app.router.subscribe('commands.completions', { parties: [env.party], beginExclusive: 0 }, (e) =>
      events.push(e as SubscriptionEvent<'commands.completions'>),
    );
    if (!sub.ok) throw new Error(sub.error.message);
    try {
      await expect.poll(() => env.idp.requests.length, { timeout: 10_000 }).toBe(2);
      await expect.poll(() => events.filter((e) => e.type === 'state').at(-1), { timeout: 10_000 }).toMatchObject({ state: 'live' });
      expect(events.filter((e) => e.type === 'error')).toEqual([]);
    } finally {
      sub.unsubscribe();
      await call('profiles.delete', { id: p.id });
    }
  });

  it('an NDJSON export survives a refused token: its WebSocket reconnects with the refreshed one', async () => {
    const p = await call('profiles.save', oauthProfile());
    await call('profiles.select', { id: p.id });
    await simAdmin('/v2/parties', { partyIdHint: `ExportMe${Date.now()}` });
    failNextWithForgedToken('rotated-away-key');
    try {
      const out = await env.downloads.run(env.app.router, {
        kind: 'updates',
        filter: { includeTopology: true },
        fileName: `oauth-export-${Date.now()}.ndjson`,
      });
      expect(out.done.lines).toBeGreaterThan(0);
      expect(out.text.trim().split('\n')).toHaveLength(must(out.done.lines, 'the exported line count'));
    } finally {
      await call('profiles.delete', { id: p.id });
    }
  });
});

describe('401 from the participant (local server recording Authorization headers)', () => {
  it('retries once with a different token and never loops; an unchanged static token is not retried', async () => {
    const seen: Array<string | undefined> = [];
    let accept = 'Bearer token-B';
    const participant = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      const ok = req.headers.authorization === accept;
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { version: '3.5.0', features: {} } : { code: 'UNAUTHENTICATED', cause: 'bad token', context: {} }));
    });
    await new Promise<void>((r) => participant.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(participant.address() as AddressInfo).port}`;
    try {
      const p = await call('profiles.save', { name: 'Header recorder', ledgerApiUrl: url, auth: { mode: 'static', token: 'token-A' } });
      await call('profiles.select', { id: p.id });
      // Unchanged static token: one request, the 401 is reported.
      const first = await call('profiles.test', { id: p.id });
      expect(first.ledger).toMatchObject({ status: 'failed', error: { canton: { httpStatus: 401 } } });
      expect(seen).toEqual(['Bearer token-A']);

      // A static token is read from the keychain per request: a replaced entry applies at once.
      new Entry(env.service, `profile:${p.id}:bearer-token`).setPassword('token-B');
      forget(`profile:${p.id}:bearer-token`);
      seen.length = 0;
      accept = 'Bearer token-B';
      const second = await call('profiles.test', { id: p.id });
      expect(second.ledger).toMatchObject({ status: 'ok', apiVersion: '3.5.0' });
      expect(seen).toEqual(['Bearer token-B', 'Bearer token-B']);

      // A participant that refuses everything: one resend at most per request, no loop.
      accept = 'never';
      const oauth = await call('profiles.save', { ...oauthProfile(), ledgerApiUrl: url });
      env.idp.requests.length = 0;
      seen.length = 0;
      const third = await call('profiles.test', { id: oauth.id });
      expect(third.ledger).toMatchObject({ status: 'failed', error: { canton: { httpStatus: 401 } } });
      expect(seen).toHaveLength(2);
      expect(seen[0]).not.toBe(seen[1]);
      expect(env.idp.requests).toHaveLength(2);
      await call('profiles.delete', { id: p.id });
      await call('profiles.delete', { id: oauth.id });
    } finally {
      await new Promise<void>((r) => participant.close(() => r()));
    }
  });
});
