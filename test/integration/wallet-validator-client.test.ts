/**
 * The wallet's validator client over real HTTP: a 401 answered by the profile's token refresh is resent once
 * with the fresh token (GET, POST and the simulator-only PUT), a second 401 is reported, and Splice error bodies
 * keep the validator's message.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConsoleError } from '../../src/ipc/errors.js';
import { ValidatorClient } from '../../src/services/wallet/validator-client.js';

let server: http.Server;
let baseUrl: string;
const seen: { method: string; auth: string | undefined }[] = [];
let validToken = 'fresh';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', auth: req.headers.authorization });
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== `Bearer ${validToken}`) {
        res.writeHead(401).end(JSON.stringify({ error: 'token expired' }));
        return;
      }
      res.writeHead(200).end(JSON.stringify({ ok: req.method }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/validator`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const Ok = z.object({ ok: z.string() });

function client(refreshed: string | null) {
  const refreshes: string[] = [];
  const c = new ValidatorClient({
    baseUrl,
    getToken: () => Promise.resolve('stale'),
    onUnauthorized: (rejected) => {
      refreshes.push(rejected);
      return Promise.resolve(refreshed);
    },
  });
  return { c, refreshes };
}

describe('ValidatorClient token refresh', () => {
  it('resends GET, POST and PUT once with the refreshed token', async () => {
    validToken = 'fresh';
    const { c, refreshes } = client('fresh');
    seen.length = 0;
    expect(await c.get('/v0/wallet/balance', Ok)).toEqual({ ok: 'GET' });
    expect(await c.post('/v0/wallet/transfer-offers', {}, Ok)).toEqual({ ok: 'POST' });
    expect(await c.put('/v0/sim/automation', {}, Ok)).toEqual({ ok: 'PUT' });
    expect(refreshes).toEqual(['stale', 'stale', 'stale']);
    expect(seen.map((s) => `${s.method} ${s.auth}`)).toEqual([
      'GET Bearer stale',
      'GET Bearer fresh',
      'POST Bearer stale',
      'POST Bearer fresh',
      'PUT Bearer stale',
      'PUT Bearer fresh',
    ]);
  });

  it('reports the 401 with the validator message when no fresh token exists', async () => {
    validToken = 'fresh';
    const { c, refreshes } = client(null);
    const err = await c.get('/v0/wallet/balance', Ok).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConsoleError);
    expect((err as ConsoleError).code).toBe('FORBIDDEN');
    expect((err as ConsoleError).message).toContain('token expired');
    expect(refreshes).toEqual(['stale']);
  });

  it('does not loop when the refreshed token is refused too', async () => {
    validToken = 'never';
    const { c, refreshes } = client('fresh');
    seen.length = 0;
    await expect(c.get('/v0/wallet/balance', Ok)).rejects.toBeInstanceOf(ConsoleError);
    expect(refreshes).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });
});
