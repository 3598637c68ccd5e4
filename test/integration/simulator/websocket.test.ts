import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { allocate, asyncApi, createIou, ledgerEnd, startTestSim, submitTx, wildcard, wsText } from './helpers.js';
import type { TestSim } from './helpers.js';

interface Conn {
  messages: unknown[];
  closed: Promise<number>;
  waitFor(n: number, timeoutMs?: number): Promise<unknown[]>;
  close(): void;
}

function open(base: string, path: string, request: unknown, protocols: string[] = ['daml.ws.auth']): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + path, protocols);
    const messages: unknown[] = [];
    const waiters: (() => void)[] = [];
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.on('message', (d) => {
      messages.push(JSON.parse(wsText(d)));
      for (const w of waiters.splice(0)) w();
    });
    ws.on('error', reject);
    ws.on('open', () => {
      ws.send(JSON.stringify(request));
      resolve({
        messages,
        closed,
        close: () => ws.close(),
        waitFor: (n, timeoutMs = 5000) =>
          new Promise((res, rej) => {
            const t = setTimeout(
              () => rej(new Error(`timeout waiting for ${n} messages, got ${messages.length}: ${JSON.stringify(messages).slice(0, 500)}`)),
              timeoutMs,
            );
            const check = (): void => {
              if (messages.length >= n) {
                clearTimeout(t);
                res(messages);
              } else waiters.push(check);
            };
            check();
          }),
      });
    });
  });
}

describe('WebSocket streams (asyncapi channels)', () => {
  let sim: TestSim;
  let bank: string, alice: string;
  beforeAll(async () => {
    sim = await startTestSim();
    bank = await allocate(sim.url, 'Bank');
    alice = await allocate(sim.url, 'Alice');
    await submitTx(sim.url, [bank], [createIou(bank, alice, '1')]);
  });
  afterAll(async () => {
    await sim.dispose();
  });

  const validUpdate = asyncApi().schema('JsGetUpdatesResponse');

  it('/v2/updates: catch-up, checkpoint, then live tail as commits happen', async () => {
    const conn = await open(sim.url, '/v2/updates', {
      beginExclusive: 0,
      updateFormat: { includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: wildcard(alice) } },
    });
    const first = await conn.waitFor(1);
    expect(Object.keys((first[0] as { update: object }).update)).toEqual(['Transaction']);
    await submitTx(sim.url, [bank], [createIou(bank, alice, '2')]);
    await submitTx(sim.url, [bank], [createIou(bank, bank, '3')]); // invisible to Alice → checkpoint
    const all = await conn.waitFor(3);
    for (const m of all) expect(validUpdate(m), JSON.stringify(validUpdate.errors)).toBe(true);
    const kinds = all.map((m) => Object.keys((m as { update: object }).update)[0]);
    expect(kinds.slice(0, 3)).toEqual(['Transaction', 'Transaction', 'OffsetCheckpoint']);
    conn.close();
  });

  it('/v2/updates with endInclusive completes and closes', async () => {
    const end = await ledgerEnd(sim.url);
    const conn = await open(sim.url, '/v2/updates', { beginExclusive: 0, endInclusive: end, filter: wildcard(bank), verbose: false });
    expect(await conn.closed).toBe(1000);
    expect(conn.messages.length).toBeGreaterThan(0);
    for (const m of conn.messages) expect(validUpdate(m)).toBe(true);
  });

  it('/v2/updates/trees streams transaction trees (ledger effects)', async () => {
    const end = await ledgerEnd(sim.url);
    const conn = await open(sim.url, '/v2/updates/trees', { beginExclusive: 0, endInclusive: end, filter: wildcard(alice), verbose: true });
    expect(await conn.closed).toBe(1000);
    const v = asyncApi().schema('JsGetUpdateTreesResponse');
    for (const m of conn.messages) expect(v(m), JSON.stringify(v.errors)).toBe(true);
    expect(conn.messages.some((m) => 'TransactionTree' in (m as { update: object }).update)).toBe(true);
  });

  it('/v2/state/active-contracts streams the ACS and closes', async () => {
    const conn = await open(sim.url, '/v2/state/active-contracts', {
      activeAtOffset: await ledgerEnd(sim.url),
      eventFormat: wildcard(alice),
    });
    expect(await conn.closed).toBe(1000);
    const v = asyncApi().schema('JsGetActiveContractsResponse');
    expect(conn.messages).toHaveLength(2);
    for (const m of conn.messages) expect(v(m)).toBe(true);
  });

  it('/v2/commands/completions follows new completions', async () => {
    const conn = await open(sim.url, '/v2/commands/completions', { parties: [bank], beginExclusive: await ledgerEnd(sim.url) });
    await submitTx(sim.url, [bank], [createIou(bank, bank, '4')]);
    const msgs = await conn.waitFor(1);
    const v = asyncApi().schema('CompletionStreamResponse');
    expect(v(msgs[0])).toBe(true);
    expect(Object.keys((msgs[0] as { completionResponse: object }).completionResponse)).toEqual(['Completion']);
    conn.close();
  });

  it('accepts a JWT in the daml.ws.auth subprotocol and serves completions for its user', async () => {
    const payload = Buffer.from(JSON.stringify({ sub: 'ws-user' })).toString('base64url');
    const token = `eyJhbGciOiJIUzI1NiJ9.${payload}.sig`;
    const begin = await ledgerEnd(sim.url);
    const conn = await open(sim.url, '/v2/commands/command-completions', { parties: [bank], beginExclusive: begin }, [
      'daml.ws.auth',
      `jwt.token.${token}`,
    ]);
    // a command by another user is not this user's completion; one by ws-user is
    await submitTx(sim.url, [bank], [createIou(bank, bank, '5')]);
    const r = await fetch(`${sim.url}/v2/commands/submit-and-wait`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ commandId: 'ws-user-cmd', actAs: [bank], commands: [createIou(bank, bank, '6')] }),
    });
    expect(r.status).toBe(200);
    const msgs = await conn.waitFor(2);
    const completions = msgs.flatMap((m) => {
      const c = (m as { completionResponse: { Completion?: { value: { commandId: string; userId: string } } } }).completionResponse
        .Completion;
      return c ? [c.value] : [];
    });
    expect(completions).toEqual([expect.objectContaining({ commandId: 'ws-user-cmd', userId: 'ws-user' })]);
    conn.close();
  });

  it('refuses unknown channels', async () => {
    await expect(open(sim.url, '/v2/nothing', {})).rejects.toThrow(/404/);
  });

  it('sends a JsCantonError for a bad request and closes', async () => {
    const conn = await open(sim.url, '/v2/updates', { beginExclusive: 999999, filter: wildcard(bank) });
    await conn.closed;
    const v = asyncApi().schema('JsCantonError');
    expect(v(conn.messages[0])).toBe(true);
    expect((conn.messages[0] as { code: string }).code).toBe('OFFSET_AFTER_LEDGER_END');
    const garbage = await open(sim.url, '/v2/updates', 'not json at all');
    await garbage.closed;
    expect(v(garbage.messages[0])).toBe(true);
  });
});
