/**
 * WebSocket streams in HS256 mode: the token comes in the `jwt.token.<JWT>` subprotocol (or the
 * Authorization header); the stream is authorized when the first request message arrives, with the rule
 * of the same path's HTTP route. A refusal is one JsCantonError message (AsyncAPI schema), then the close.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { bearer, hsToken, SECRET, send } from './auth-helpers.js';
import { asyncApi, createIou, startTestSim, wsText } from './helpers.js';
import type { TestSim } from './helpers.js';

interface Outcome {
  messages: unknown[];
  code: number;
}

/** Opens a channel, sends the request, collects messages until the server closes (or `stopAfter` arrive). */
function stream(
  base: string,
  path: string,
  request: unknown,
  opts: { token?: string; header?: string; stopAfter?: number; until?: (m: unknown) => boolean } = {},
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const protocols = ['daml.ws.auth', ...(opts.token ? [`jwt.token.${opts.token}`] : [])];
    const ws = new WebSocket(
      base.replace(/^http/, 'ws') + path,
      protocols,
      opts.header ? { headers: { authorization: `Bearer ${opts.header}` } } : {},
    );
    const messages: unknown[] = [];
    const timer = setTimeout(() => reject(new Error(`no close within 5 s; got ${JSON.stringify(messages).slice(0, 300)}`)), 5000);
    ws.on('message', (d) => {
      messages.push(JSON.parse(wsText(d)));
      if ((opts.stopAfter !== undefined && messages.length >= opts.stopAfter) || opts.until?.(messages.at(-1))) ws.close();
    });
    ws.on('close', (code) => {
      clearTimeout(timer);
      resolve({ messages, code });
    });
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify(request)));
  });
}

describe('WebSocket authentication and authorization', () => {
  let sim: TestSim;
  let alice: string;
  let request: (party: string) => unknown;
  const isError = asyncApi().schema('JsCantonError');

  beforeAll(async () => {
    sim = await startTestSim({ auth: { mode: 'hs256', secret: SECRET } });
    const admin = bearer(await hsToken('participant_admin'));
    const party = await send(sim.url, 'POST', '/v2/parties', { headers: admin, body: { partyIdHint: 'Alice' } });
    alice = (party.json as { partyDetails: { party: string } }).partyDetails.party;
    await send(sim.url, 'POST', '/v2/users', {
      headers: admin,
      body: { user: { id: 'alice' }, rights: [{ kind: { CanActAs: { value: { party: alice } } } }] },
    });
    await send(sim.url, 'POST', '/v2/users', { headers: admin, body: { user: { id: 'nobody' } } });
    const submitted = await send(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      headers: bearer(await hsToken('alice')),
      body: { commandId: 'ws-1', actAs: [alice], commands: [createIou(alice, alice, '3')] },
    });
    expect(submitted.status, submitted.text).toBe(200);
    request = (p) => ({
      beginExclusive: 0,
      endInclusive: (submitted.json as { completionOffset: number }).completionOffset,
      updateFormat: {
        includeTransactions: { eventFormat: { filtersByParty: { [p]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
      },
    });
  });
  afterAll(async () => {
    await sim.dispose();
  });

  const refusedWith = (o: Outcome, code: string): void => {
    expect(o.messages).toHaveLength(1);
    expect(isError(o.messages[0]), JSON.stringify(isError.errors)).toBe(true);
    expect((o.messages[0] as { code: string }).code).toBe(code);
  };

  it('refuses a stream without a token or with an invalid one (UNAUTHENTICATED)', async () => {
    refusedWith(await stream(sim.url, '/v2/updates', request(alice)), 'UNAUTHENTICATED');
    refusedWith(
      await stream(sim.url, '/v2/updates', request(alice), { token: await hsToken('alice', {}, 'wrong-secret-wrong-secret-0000000') }),
      'UNAUTHENTICATED',
    );
    refusedWith(
      await stream(sim.url, '/v2/updates', request(alice), { token: await hsToken('alice', { expiresIn: -1 }) }),
      'UNAUTHENTICATED',
    );
  });

  it('refuses a user without read rights on the filter parties (PERMISSION_DENIED)', async () => {
    refusedWith(await stream(sim.url, '/v2/updates', request(alice), { token: await hsToken('nobody') }), 'PERMISSION_DENIED');
    // filtersForAnyParty needs CanReadAsAnyParty, which alice does not have
    const anyParty = {
      beginExclusive: 0,
      updateFormat: { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
    };
    refusedWith(await stream(sim.url, '/v2/updates', anyParty, { token: await hsToken('alice') }), 'PERMISSION_DENIED');
    refusedWith(
      await stream(
        sim.url,
        '/v2/state/active-contracts',
        { activeAtOffset: 0, eventFormat: { filtersByParty: { [alice]: {} } } },
        { token: await hsToken('nobody') },
      ),
      'PERMISSION_DENIED',
    );
  });

  it('ends an open stream with UNAUTHENTICATED when its token expires; a long-lived token keeps it open', async () => {
    const tail = {
      beginExclusive: 0,
      updateFormat: {
        includeTransactions: { eventFormat: { filtersByParty: { [alice]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
      },
    };
    // a token valid for years must not trip the timer (setTimeout cannot wait that long in one go)
    const isWs2 = (m: unknown): boolean => JSON.stringify(m).includes('"commandId":"ws-2"');
    const longLived = stream(sim.url, '/v2/updates', tail, {
      token: await hsToken('alice', { expiresIn: 5 * 365 * 24 * 3600 }),
      until: isWs2,
    });
    const started = Date.now();
    const o = await stream(sim.url, '/v2/updates', tail, { token: await hsToken('alice', { expiresIn: 2 }) });
    expect(Date.now() - started).toBeGreaterThan(500);
    const last = o.messages.at(-1);
    expect(isError(last), JSON.stringify(isError.errors)).toBe(true);
    expect((last as { code: string; cause: string }).code).toBe('UNAUTHENTICATED');
    expect((last as { cause: string }).cause).toMatch(/expired/);
    expect(o.messages.length).toBeGreaterThan(1); // it streamed before the token expired
    // the long-lived stream was still open: one more commit reaches it
    await send(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      headers: bearer(await hsToken('alice')),
      body: { commandId: 'ws-2', actAs: [alice], commands: [createIou(alice, alice, '4')] },
    });
    const kept = await longLived;
    expect(kept.messages.some(isWs2)).toBe(true);
    expect(kept.messages.every((m) => !isError(m))).toBe(true);
  }, 15_000);

  it('streams for a user with the right, with the token in the subprotocol or the Authorization header', async () => {
    const valid = asyncApi().schema('JsGetUpdatesResponse');
    for (const o of [
      await stream(sim.url, '/v2/updates', request(alice), { token: await hsToken('alice') }),
      await stream(sim.url, '/v2/updates', request(alice), { header: await hsToken('alice') }),
    ]) {
      expect(o.messages.length).toBeGreaterThan(0);
      for (const m of o.messages) expect(valid(m), JSON.stringify(valid.errors)).toBe(true);
      expect(o.messages.some((m) => 'update' in (m as object) && 'Transaction' in (m as { update: object }).update)).toBe(true);
    }
  });
});
