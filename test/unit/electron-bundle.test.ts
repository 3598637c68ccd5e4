/**
 * Builds the Electron bundles with the real build script into a temporary directory, then:
 * - the sandboxed preload is one self-contained file whose only require is 'electron', and,
 *   run against a recording stand-in for Electron's contextBridge/ipcRenderer, exposes exactly
 *   `consoleApi` with invoke/subscribe speaking the channel names and messages main expects;
 * - the main bundle exists, parses as CommonJS, has no `import.meta` left, and loads nothing at
 *   run time but Node built-ins, Electron and the native modules.
 */
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { MAIN_EXTERNALS } from '../../scripts/build-electron.js';
import { requiresIn, runCommonJs, useBuiltElectron } from './electron/bundles.js';
import { referenceDir } from '../integration/simulator/helpers.js';
import {
  ClientMessageSchema,
  ELECTRON_CANCEL,
  ELECTRON_EVENT,
  ELECTRON_INVOKE,
  ELECTRON_SUBSCRIBE,
  ELECTRON_UNSUBSCRIBE,
} from '../../src/ipc/wire.js';
import { PRELOAD_GLOBAL } from '../../src/ipc/preload-api.js';
import type { ConsoleApi } from '../../src/ipc/preload-api.js';

const built = useBuiltElectron();

interface Recorded {
  exposed: [string, unknown][];
  listeners: Map<string, ((event: unknown, ...args: unknown[]) => void)[]>;
  sent: [string, unknown][];
  invoked: unknown[][];
  invokeImpl: (...args: unknown[]) => Promise<unknown>;
}

/** Runs the preload bundle as Electron would (CJS, `require('electron')` only). */
function runPreload(): Recorded {
  const rec: Recorded = {
    exposed: [],
    listeners: new Map(),
    sent: [],
    invoked: [],
    invokeImpl: () => Promise.resolve({ ok: true, value: null }),
  };
  const electron = {
    contextBridge: {
      exposeInMainWorld: (key: string, value: unknown) => rec.exposed.push([key, value]),
    },
    ipcRenderer: {
      on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
        rec.listeners.set(channel, [...(rec.listeners.get(channel) ?? []), listener]);
      },
      send: (channel: string, message: unknown) => rec.sent.push([channel, message]),
      invoke: (...args: unknown[]) => {
        rec.invoked.push(args);
        return rec.invokeImpl(...args);
      },
    },
  };
  const fakeRequire = (id: string) => {
    if (id === 'electron') return electron;
    throw new Error(`sandboxed preload cannot require ${id}`);
  };
  const module = { exports: {} };
  runCommonJs(built().preloadCode, { require: fakeRequire, module, exports: module.exports });
  return rec;
}

function emit(rec: Recorded, message: unknown): void {
  const ipcEvent = { sender: { secret: 'ipcRenderer internals' }, ports: [] };
  for (const l of rec.listeners.get(ELECTRON_EVENT) ?? []) l(ipcEvent, message);
}

describe('preload bundle', () => {
  it("requires nothing but 'electron'", () => {
    const requires = requiresIn(built().preloadCode);
    expect(requires).toEqual(['electron']);
    expect(built().preloadCode).not.toMatch(/\bimport\s*\(/);
    expect(built().preloadCode).not.toMatch(/import\.meta/);
  });

  it('is small: no schema library or service code pulled in', () => {
    expect(built().preloadCode.length).toBeLessThan(20_000);
    expect(built().preloadCode).not.toMatch(/zod|better-sqlite3|keyring/i);
  });

  it('exposes exactly one object, consoleApi, with invoke, cancel and subscribe functions', () => {
    const rec = runPreload();
    expect(rec.exposed.map(([k]) => k)).toEqual([PRELOAD_GLOBAL]);
    const api = rec.exposed[0]?.[1] as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['cancel', 'invoke', 'subscribe']);
    expect(typeof api.cancel).toBe('function');
    expect(typeof api.invoke).toBe('function');
    expect(typeof api.subscribe).toBe('function');
  });

  it("invokes on wire.ts's channel and passes the result through", async () => {
    const rec = runPreload();
    const api = rec.exposed[0]?.[1] as ConsoleApi;
    rec.invokeImpl = () => Promise.resolve({ ok: true, value: { name: 'x' } });
    await expect(api.invoke('app.info', {})).resolves.toEqual({ ok: true, value: { name: 'x' } });
    expect(rec.invoked).toEqual([[ELECTRON_INVOKE, 'app.info', {}]]);
  });

  it("sends the request id of a cancellable call and cancels it on wire.ts's cancel channel", async () => {
    const rec = runPreload();
    const api = rec.exposed[0]?.[1] as ConsoleApi;
    await api.invoke('updates.range', { beginExclusive: 0 }, 'abc-1');
    expect(rec.invoked).toEqual([[ELECTRON_INVOKE, 'updates.range', { beginExclusive: 0 }, 'abc-1']]);
    expect(rec.invoked[0]).toHaveLength(4);
    api.cancel('abc-1');
    expect(rec.sent).toEqual([[ELECTRON_CANCEL, { requestId: 'abc-1' }]]);
  });

  it('turns an IPC failure into an INTERNAL error value instead of throwing', async () => {
    const rec = runPreload();
    const api = rec.exposed[0]?.[1] as ConsoleApi;
    rec.invokeImpl = () => Promise.reject(new Error("Error invoking remote method 'console:invoke': boom"));
    const result = await api.invoke('app.info', {});
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('INTERNAL');
      expect(result.error.message).toContain('boom');
      expect(Object.keys(result.error).sort()).toEqual(['code', 'message']);
    }
  });

  it('subscribes with messages main accepts, delivers only payloads, and unsubscribes once', () => {
    const rec = runPreload();
    const api = rec.exposed[0]?.[1] as ConsoleApi;
    const events: unknown[] = [];
    const errors: unknown[] = [];
    const unsubscribe = api.subscribe(
      'dashboard.live',
      { intervalMs: 1000 },
      (e) => events.push(e),
      (e) => errors.push(e),
    );

    expect(rec.sent).toHaveLength(1);
    const [channel, message] = rec.sent[0] ?? [];
    expect(channel).toBe(ELECTRON_SUBSCRIBE);
    const parsed = ClientMessageSchema.parse(message);
    expect(parsed).toMatchObject({ type: 'subscribe', channel: 'dashboard.live', params: { intervalMs: 1000 } });
    const id = (parsed as { id: number }).id;

    emit(rec, { id, event: { ok: true, n: 1 } });
    emit(rec, { id: id + 1000, event: { ok: true, n: 2 } }); // someone else's id
    expect(events).toEqual([{ ok: true, n: 1 }]);

    unsubscribe();
    unsubscribe();
    const unsubs = rec.sent.filter(([c]) => c === ELECTRON_UNSUBSCRIBE);
    expect(unsubs).toHaveLength(1);
    expect(ClientMessageSchema.parse(unsubs[0]?.[1])).toEqual({ type: 'unsubscribe', id });

    emit(rec, { id, event: { ok: true, n: 3 } });
    expect(events).toEqual([{ ok: true, n: 1 }]);
    expect(errors).toEqual([]);
  });

  it('reports a subscription error once and then forgets the subscription', () => {
    const rec = runPreload();
    const api = rec.exposed[0]?.[1] as ConsoleApi;
    const events: unknown[] = [];
    const errors: unknown[] = [];
    const unsubscribe = api.subscribe(
      'nope',
      {},
      (e) => events.push(e),
      (e) => errors.push(e),
    );
    const id = (ClientMessageSchema.parse(rec.sent[0]?.[1]) as { id: number }).id;
    const error = { code: 'UNKNOWN_CHANNEL', message: 'Unknown subscription: nope' };
    emit(rec, { id, error });
    emit(rec, { id, event: { late: true } });
    expect(errors).toEqual([error]);
    expect(events).toEqual([]);
    unsubscribe(); // nothing left to cancel in main
    expect(rec.sent.filter(([c]) => c === ELECTRON_UNSUBSCRIBE)).toEqual([]);
  });

  it('gives every subscription its own id', () => {
    const rec = runPreload();
    const api = rec.exposed[0]?.[1] as ConsoleApi;
    api.subscribe(
      'dashboard.live',
      {},
      () => {},
      () => {},
    );
    api.subscribe(
      'dashboard.live',
      {},
      () => {},
      () => {},
    );
    const ids = rec.sent.map(([, m]) => (m as { id: number }).id);
    expect(new Set(ids).size).toBe(2);
  });
});

describe('main bundle', () => {
  it('exists and parses as a CommonJS script', () => {
    expect(built().mainCode.length).toBeGreaterThan(1000);
    expect(() => new vm.Script(built().mainCode, { filename: 'main.cjs' })).not.toThrow();
    expect(built().mainCode).not.toMatch(/^\s*(import|export)\s/m);
  });

  it('has no import.meta left (a CJS bundle would see it as {})', () => {
    expect(built().mainCode).not.toMatch(/import\.meta/);
    expect(built().mainCode).not.toMatch(/import_meta\s*=\s*\{\s*\}/);
  });

  it('requires at run time only Node built-ins, Electron and the native modules', () => {
    // ws probes these optional accelerators inside try/catch; absent, it falls back to JS.
    const optional = new Set(['bufferutil', 'utf-8-validate']);
    const externals = new Set<string>(MAIN_EXTERNALS);
    const offending = requiresIn(built().mainCode).filter((id) => id === null || !(isBuiltin(id) || externals.has(id) || optional.has(id)));
    expect(offending).toEqual([]);
    expect(requiresIn(built().mainCode)).toContain('electron');
    expect(requiresIn(built().mainCode)).toContain('better-sqlite3');
  });
});

describe('DAR reader worker bundle', () => {
  it('requires only Node built-ins and reads a real DAR when run as a worker thread', async () => {
    const file = path.join(built().outDir, 'dar-worker.cjs');
    const code = readFileSync(file, 'utf8');
    expect(requiresIn(code).filter((id) => id === null || !isBuiltin(id))).toEqual([]);
    const bytes = readFileSync(path.join(referenceDir, 'dars', 'splice-util-0.1.7.dar'));
    const worker = new Worker(file);
    try {
      const res = await new Promise<{ ok: boolean; dar?: { main: { name: string } } }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        const copy = new Uint8Array(bytes).slice();
        worker.postMessage({ id: 1, bytes: copy.buffer }, [copy.buffer]);
      });
      expect(res.ok).toBe(true);
      expect(res.dar?.main.name).toBe('splice-util');
    } finally {
      await worker.terminate();
    }
  });
});
