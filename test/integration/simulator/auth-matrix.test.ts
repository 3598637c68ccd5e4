/**
 * Authorization matrix: EVERY route the simulator registers × {no token, a user without the right, a user
 * with the right}, in HS256 mode over real HTTP. No token → 401 UNAUTHENTICATED, the wrong user → 403
 * PERMISSION_DENIED, the right user → the operation's own answer (never 401/403). Error bodies are checked
 * against the JsCantonError schema and, for operations of the reference spec, against the operation's
 * responses. A route registered without a case here fails the test (as one without a rule fails authz).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSimContext } from '../../../src/simulator/index.js';
import { Router } from '../../../src/simulator/router.js';
import { registerAllRoutes } from '../../../src/simulator/routes/index.js';
import { bearer, hsToken, SECRET, send } from './auth-helpers.js';
import type { RawResponse } from './auth-helpers.js';
import { createIou, IOU, openApi, startTestSim } from './helpers.js';
import type { TestSim } from './helpers.js';
import { anyString } from '../../support/matchers.js';
import { CASES, type Data, type Who } from './auth-matrix-cases.js';

const WALLET = '/api/validator/';
const WALLET_OPERATOR = 'validator-operator';

function registeredRoutes(): { method: string; pattern: string }[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-matrix-routes-'));
  const { sim, db } = openSimContext({ dataDir: dir });
  const router = new Router();
  registerAllRoutes(router, sim);
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return router.list();
}

const inSpec = (method: string, pattern: string): boolean => {
  const paths = openApi().doc.paths as Record<string, Record<string, unknown>>;
  return paths[pattern]?.[method.toLowerCase()] !== undefined;
};

function expectRefusal(r: RawResponse, method: string, pattern: string, status: 401 | 403): void {
  expect(r.status, `${method} ${pattern}: ${r.text.slice(0, 300)}`).toBe(status);
  const v = openApi().schema('JsCantonError');
  expect(v(r.json), `${method} ${pattern}: ${JSON.stringify(v.errors)}`).toBe(true);
  expect((r.json as { code: string }).code).toBe(status === 401 ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED');
  if (inSpec(method, pattern)) openApi().assertResponse(method, pattern, status, r.json);
}

describe('authorization matrix (every route × no token / wrong user / right user)', () => {
  let sim: TestSim;
  let data: Data;
  const tokens = {} as Record<Who, Record<string, string>>;
  const routes = registeredRoutes();

  beforeAll(async () => {
    sim = await startTestSim({ auth: { mode: 'hs256', secret: SECRET } });
    for (const who of ['admin', 'nobody', 'actor', 'reader'] as const)
      tokens[who] = bearer(await hsToken(who === 'admin' ? 'participant_admin' : who));
    const post = async <T = unknown>(p: string, body: unknown, who: Who = 'admin'): Promise<T> => {
      const r = await send(sim.url, 'POST', p, { headers: tokens[who], body });
      if (r.status !== 200) throw new Error(`setup ${p}: ${r.status} ${r.text}`);
      return r.json as T;
    };
    const alice = (await post<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: 'Alice' })).partyDetails.party;
    const right = (kind: string, party?: string) => ({ kind: { [kind]: { value: party === undefined ? {} : { party } } } });
    await post('/v2/users', { user: { id: 'nobody' } });
    await post('/v2/users', { user: { id: 'actor' }, rights: [right('CanActAs', alice)] });
    await post('/v2/users', { user: { id: 'reader' }, rights: [right('CanReadAs', alice)] });
    await post('/v2/users', { user: { id: 'target' } });
    await post('/v2/users', { user: { id: 'doomed' } });
    await post('/v2/idps', {
      identityProviderConfig: { identityProviderId: 'idp-keep', issuer: 'https://keep.example.com', jwksUrl: 'https://keep.example.com/j' },
    });
    await post('/v2/idps', {
      identityProviderConfig: {
        identityProviderId: 'idp-doomed',
        issuer: 'https://doomed.example.com',
        jwksUrl: 'https://doomed.example.com/j',
      },
    });
    type Tx = { updateId: string; offset: number; events: { CreatedEvent: { contractId: string; templateId: string } }[] };
    const tx = (
      await post<{ transaction: Tx }>(
        '/v2/commands/submit-and-wait-for-transaction',
        {
          commands: { commandId: 'setup-1', actAs: [alice], commands: [createIou(alice, alice, '5')] },
          transactionFormat: { eventFormat: { filtersByParty: { [alice]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
        },
        'actor',
      )
    ).transaction;
    const created = tx.events[0]?.CreatedEvent;
    if (!created || !created.templateId.endsWith(IOU.split(':').slice(1).join(':'))) throw new Error('setup: no Iou created');
    const prepared: string[] = [];
    for (let i = 0; i < 3; i++)
      prepared.push(
        (
          await post<{ preparedTransaction: string }>(
            '/v2/interactive-submission/prepare',
            { commandId: `setup-p-${i}`, actAs: [alice], commands: [createIou(alice, alice, '2')] },
            'actor',
          )
        ).preparedTransaction,
      );
    const syncs = (await send(sim.url, 'GET', '/v2/state/connected-synchronizers', { headers: tokens.nobody })).json as {
      connectedSynchronizers: { synchronizerId: string }[];
    };
    data = {
      alice,
      contractId: created.contractId,
      updateId: tx.updateId,
      offset: tx.offset,
      sync: [syncs.connectedSynchronizers[0]?.synchronizerId ?? '', syncs.connectedSynchronizers[1]?.synchronizerId ?? ''],
      prepared,
    };
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('has a case for every registered Ledger API and simulator route, and none for a missing one', () => {
    const keys = routes.filter((r) => !r.pattern.startsWith(WALLET)).map((r) => `${r.method} ${r.pattern}`);
    expect(keys.filter((k) => !(k in CASES))).toEqual([]);
    expect(Object.keys(CASES).filter((k) => !keys.includes(k))).toEqual([]);
  });

  it('Ledger API and simulator routes: 401 without a token, 403 for the wrong user, served for the right one', async () => {
    let checked = 0;
    for (const { method, pattern } of routes) {
      if (pattern.startsWith(WALLET)) continue;
      const c = CASES[`${method} ${pattern}`];
      if (!c) continue; // reported by the test above
      const p = c.path ? c.path(data) : pattern;
      const body = c.body ? c.body(data) : undefined;
      const isBinary = typeof body === 'string';
      const req = (headers: Record<string, string>) =>
        send(sim.url, method, p, {
          headers: isBinary ? { ...headers, 'content-type': 'application/octet-stream' } : headers,
          ...(body !== undefined ? { body } : {}),
        });

      const anonymous = await req({});
      if (c.public) expect(anonymous.status, `${method} ${pattern} public`).toBe(200);
      else expectRefusal(anonymous, method, pattern, 401);

      if (c.wrong) expectRefusal(await req(tokens[c.wrong]), method, pattern, 403);

      const served = await req(tokens[c.right]);
      expect(served.status, `${method} ${pattern} as ${c.right}: ${served.text.slice(0, 300)}`).toBe(c.status ?? 200);
      if (served.json !== undefined && inSpec(method, pattern)) openApi().assertResponse(method, pattern, served.status, served.json);
      checked++;
    }
    expect(checked).toBe(Object.keys(CASES).length);
  });

  it('wallet API routes: a protected route refuses no token and a forged one (401); the operator is never refused', async () => {
    const walletRoutes = routes.filter((r) => r.pattern.startsWith(WALLET));
    expect(walletRoutes.length).toBeGreaterThan(0);
    const operator = bearer(await hsToken(WALLET_OPERATOR));
    const forged = bearer(await hsToken(WALLET_OPERATOR, {}, 'forged-secret-forged-secret-000000'));
    let protectedRoutes = 0;
    let operatorOnly = 0;
    for (const { method, pattern } of walletRoutes) {
      const p = pattern.replace(/\{[^}]+\}/g, 'x');
      const body = method === 'GET' ? undefined : {};
      const req = (headers: Record<string, string>) => send(sim.url, method, p, { headers, ...(body !== undefined ? { body } : {}) });
      const anonymous = await req({});
      const withForged = await req(forged);
      if (anonymous.status === 401) {
        // protected: a forged token is no better than none
        protectedRoutes++;
        expect(anonymous.json).toMatchObject({ error: anyString() });
        expect(withForged.status, `${method} ${pattern} with a forged token: ${withForged.text}`).toBe(401);
        // a verified user that is not the operator is authenticated; operator-only routes answer 403
        const user = await req(tokens.nobody);
        expect(user.status, `${method} ${pattern} as a wallet user: ${user.text}`).not.toBe(401);
        if (user.status === 403) operatorOnly++;
      } else {
        // public (Splice serves some validator info without a token): the token plays no part
        expect(withForged.status, `${method} ${pattern} public, with a forged token`).toBe(anonymous.status);
      }
      const asOperator = await req(operator);
      expect([401, 403], `${method} ${pattern} as operator: ${asOperator.text}`).not.toContain(asOperator.status);
    }
    const adminRoutes = walletRoutes.filter((r) => r.pattern.startsWith(`${WALLET}v0/admin/`)).length;
    expect(protectedRoutes).toBeGreaterThanOrEqual(adminRoutes);
    // the validator admin API is operator-only
    expect(operatorOnly).toBeGreaterThanOrEqual(adminRoutes);
  });
});
