import { describe, expect, it } from 'vitest';
import { createRouter, type Handlers } from '../../src/ipc/router.js';
import { channels, subscriptions } from '../../src/ipc/contract.js';
import { withHandlers, withSubscriptions } from '../support/handlers.js';

const profile = {
  id: 'p1',
  name: 'P',
  kind: 'remote' as const,
  ledgerApiUrl: 'http://x',
  validatorApiUrl: null,
  auth: { mode: 'none' as const },
};
function makeRouter(overrides: Partial<Handlers> = {}) {
  const handlers: Partial<Handlers> = {
    'app.info': () => Promise.resolve({ name: 'n', version: 'v', transport: 'electron', demoMode: true }),
    'profiles.list': () => Promise.resolve({ profiles: [profile], activeId: 'p1' }),
    'profiles.save': () => Promise.resolve(profile),
    'profiles.delete': () => Promise.resolve({ deleted: true }),
    'profiles.select': () => Promise.resolve(profile),
    'dashboard.snapshot': () => Promise.reject(new Error('unreachable')),
    ...overrides,
  };
  return createRouter(withHandlers(handlers), withSubscriptions({}));
}

describe('IPC router', () => {
  it('has one request and one response schema per channel', () => {
    for (const spec of Object.values(channels)) {
      expect(spec.request).toBeDefined();
      expect(spec.response).toBeDefined();
    }
    for (const spec of Object.values(subscriptions)) {
      expect(spec.params).toBeDefined();
      expect(spec.event).toBeDefined();
    }
  });

  it('rejects unknown channels, including prototype keys', async () => {
    const r = makeRouter();
    for (const name of ['nope', '__proto__', 'constructor', 'toString', 42, null]) {
      expect(await r.invoke(name, {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    }
  });

  it('rejects extra fields on strict requests', async () => {
    const r = makeRouter();
    expect(await r.invoke('app.info', { evil: true })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await r.invoke('profiles.delete', { id: '../x' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });

  it('turns thrown errors into typed values without stack traces', async () => {
    const r = makeRouter();
    const res = await r.invoke('dashboard.snapshot', {});
    expect(res).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'unreachable' } });
  });

  it('refuses to return a response of the wrong shape', async () => {
    const r = makeRouter({ 'profiles.select': () => Promise.resolve({ ...profile, kind: 'bogus' } as never) });
    expect(await r.invoke('profiles.select', { id: 'p1' })).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });

  it('strips fields the contract does not declare from responses', async () => {
    const r = makeRouter({ 'profiles.select': () => Promise.resolve({ ...profile, token: 'SECRET' } as never) });
    const res = await r.invoke('profiles.select', { id: 'p1' });
    expect(JSON.stringify(res)).not.toContain('SECRET');
  });
});

describe('IPC router cancellation', () => {
  it("hands the transport's signal to the handler and answers CANCELLED as soon as it fires", async () => {
    let seen: AbortSignal | undefined;
    const r = makeRouter({
      'app.info': (_req, { signal }) => {
        seen = signal;
        // A handler that never finishes on its own: only the cancel ends the call.
        return new Promise(() => {});
      },
    });
    const controller = new AbortController();
    const pending = r.invoke('app.info', {}, controller.signal);
    await Promise.resolve();
    expect(seen?.aborted).toBe(false);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(seen?.aborted).toBe(true);
  });

  it('reports an error thrown because of the cancel as CANCELLED, not as the wrapped failure', async () => {
    const controller = new AbortController();
    const r = makeRouter({
      'app.info': (_req, { signal }) => {
        controller.abort();
        return Promise.reject(new Error(signal.aborted ? 'fetch failed: This operation was aborted' : 'other'));
      },
    });
    expect(await r.invoke('app.info', {}, controller.signal)).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
  });

  it('does not call the handler for a signal that fired before the call, and gives uncancellable calls a quiet signal', async () => {
    let called = 0;
    let signal: AbortSignal | undefined;
    const r = makeRouter({
      'app.info': (_req, ctx) => {
        called++;
        signal = ctx.signal;
        return Promise.resolve({ name: 'n', version: 'v', transport: 'electron', demoMode: true });
      },
    });
    const controller = new AbortController();
    controller.abort();
    expect(await r.invoke('app.info', {}, controller.signal)).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(called).toBe(0);
    expect(await r.invoke('app.info', {})).toMatchObject({ ok: true });
    expect(signal?.aborted).toBe(false);
  });
});
