/**
 * Every route the simulator registers (and every WebSocket channel) has an authorization rule, and the
 * table names no route that does not exist — so adding a route without deciding who may call it fails here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHZ_RULES, ruleFor, WALLET_PREFIX } from '../../src/simulator/authz-rules.js';
import { openSimContext } from '../../src/simulator/index.js';
import { Router } from '../../src/simulator/router.js';
import { registerAllRoutes } from '../../src/simulator/routes/index.js';
import { WS_CHANNEL_PATHS } from '../../src/simulator/ws/index.js';

describe('simulator authorization table', () => {
  let dir: string;
  let close: () => void;
  const router = new Router();
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sim-authz-'));
    const { sim, db } = openSimContext({ dataDir: dir });
    registerAllRoutes(router, sim);
    close = () => db.close();
  });
  afterAll(() => {
    close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has a rule for every registered route', () => {
    const routes = router.list();
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.filter((r) => ruleFor(r.method, r.pattern) === undefined).map((r) => `${r.method} ${r.pattern}`);
    expect(missing).toEqual([]);
  });

  it('has no rule for a route that does not exist', () => {
    const registered = new Set(router.list().map((r) => `${r.method} ${r.pattern}`));
    expect(Object.keys(AUTHZ_RULES).filter((k) => !registered.has(k))).toEqual([]);
  });

  it('delegates exactly the wallet API to its own authentication', () => {
    for (const r of router.list()) {
      const rule = ruleFor(r.method, r.pattern);
      expect(rule?.kind === 'delegated', `${r.method} ${r.pattern}`).toBe(r.pattern.startsWith(WALLET_PREFIX));
    }
  });

  it('authorizes every WebSocket channel with the rule of its HTTP POST route', () => {
    expect(WS_CHANNEL_PATHS.length).toBeGreaterThan(0);
    for (const p of WS_CHANNEL_PATHS) expect(ruleFor('POST', p)?.kind, p).toBe('claims');
  });
});
