/**
 * Builds the Electron bundles with the real build script into a temporary directory, then:
 * - the sandboxed preload is one self-contained file whose only require is 'electron', and,
 *   run against a recording stand-in for Electron's contextBridge/ipcRenderer, exposes exactly
 *   `consoleApi` with invoke/subscribe speaking the channel names and messages main expects;
 * - the main bundle exists, parses as CommonJS, has no `import.meta` left, and loads nothing at
 *   run time but Node built-ins, Electron and the native modules.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElectron, MAIN_EXTERNALS } from '../../scripts/build-electron.js';
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
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  APP_SCHEME_PRIVILEGES,
  CONTENT_SECURITY_POLICY,
  secureWebPreferences,
} from '../../electron/security.js';
import { ifAssigned } from '../support/if-assigned.js';
import { must } from '../support/must.js';
import { objectContaining } from '../support/matchers.js';

let outDir: string;
let preloadCode: string;
let mainCode: string;

beforeAll(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), 'console-electron-bundle-'));
  await buildElectron({ outDir });
  preloadCode = readFileSync(path.join(outDir, 'preload.cjs'), 'utf8');
  mainCode = readFileSync(path.join(outDir, 'main.cjs'), 'utf8');
}, 60_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** Every `require(...)` call in a bundle: the literal specifier, or null for a computed one. */
function requiresIn(code: string): (string | null)[] {
  const found: (string | null)[] = [];
  for (const m of code.matchAll(/\brequire\s*\(\s*([^)]*?)\s*\)/g)) {
    const arg = m[1] ?? '';
    const literal = /^(["'`])([^"'`]+)\1$/.exec(arg);
    found.push(literal ? (literal[2] ?? null) : null);
  }
  return found;
}

interface Recorded {
  exposed: [string, unknown][];
  listeners: Map<string, ((event: unknown, ...args: unknown[]) => void)[]>;
  sent: [string, unknown][];
  invoked: unknown[][];
  invokeImpl: (...args: unknown[]) => Promise<unknown>;
}

/** Runs a CommonJS bundle's code with the given module-scope bindings, as Node's and Electron's loaders wrap a file. */
function runCommonJs(code: string, scope: Record<string, unknown>): void {
  const names = Object.keys(scope);
  const run = vm.compileFunction(code, names) as (...args: unknown[]) => void;
  run(...names.map((n) => scope[n]));
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
  runCommonJs(preloadCode, { require: fakeRequire, module, exports: module.exports });
  return rec;
}

function emit(rec: Recorded, message: unknown): void {
  const ipcEvent = { sender: { secret: 'ipcRenderer internals' }, ports: [] };
  for (const l of rec.listeners.get(ELECTRON_EVENT) ?? []) l(ipcEvent, message);
}

describe('preload bundle', () => {
  it("requires nothing but 'electron'", () => {
    const requires = requiresIn(preloadCode);
    expect(requires).toEqual(['electron']);
    expect(preloadCode).not.toMatch(/\bimport\s*\(/);
    expect(preloadCode).not.toMatch(/import\.meta/);
  });

  it('is small: no schema library or service code pulled in', () => {
    expect(preloadCode.length).toBeLessThan(20_000);
    expect(preloadCode).not.toMatch(/zod|better-sqlite3|keyring/i);
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
    expect(mainCode.length).toBeGreaterThan(1000);
    expect(() => new vm.Script(mainCode, { filename: 'main.cjs' })).not.toThrow();
    expect(mainCode).not.toMatch(/^\s*(import|export)\s/m);
  });

  it('has no import.meta left (a CJS bundle would see it as {})', () => {
    expect(mainCode).not.toMatch(/import\.meta/);
    expect(mainCode).not.toMatch(/import_meta\s*=\s*\{\s*\}/);
  });

  it('requires at run time only Node built-ins, Electron and the native modules', () => {
    // ws probes these optional accelerators inside try/catch; absent, it falls back to JS.
    const optional = new Set(['bufferutil', 'utf-8-validate']);
    const externals = new Set<string>(MAIN_EXTERNALS);
    const offending = requiresIn(mainCode).filter((id) => id === null || !(isBuiltin(id) || externals.has(id) || optional.has(id)));
    expect(offending).toEqual([]);
    expect(requiresIn(mainCode)).toContain('electron');
    expect(requiresIn(mainCode)).toContain('better-sqlite3');
  });
});

describe('DAR reader worker bundle', () => {
  it('requires only Node built-ins and reads a real DAR when run as a worker thread', async () => {
    const file = path.join(outDir, 'dar-worker.cjs');
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

// ---------------------------------------------------------------------------------------------
// The main bundle, run against a recording stand-in for Electron's main-process API (the real
// Electron binary cannot run here). Everything else is real: the console app, SQLite, the router.
// ---------------------------------------------------------------------------------------------

type Listener = (...args: unknown[]) => unknown;

class FakeEmitter {
  readonly listeners = new Map<string, Listener[]>();
  on(name: string, l: Listener) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), l]);
    return this;
  }
  once(name: string, l: Listener) {
    return this.on(name, l);
  }
  emit(name: string, ...args: unknown[]) {
    for (const l of this.listeners.get(name) ?? []) l(...args);
  }
}

class FakeWebContents extends FakeEmitter {
  static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  readonly sent: [string, unknown][] = [];
  destroyed = false;
  windowOpenHandler: Listener | null = null;
  send(channel: string, message: unknown) {
    this.sent.push([channel, message]);
  }
  isDestroyed() {
    return this.destroyed;
  }
  setWindowOpenHandler(h: Listener) {
    this.windowOpenHandler = h;
  }
}

interface FakeElectron {
  calls: string[];
  app: FakeEmitter & Record<string, unknown>;
  windows: (FakeEmitter & { options: { webPreferences?: unknown }; loaded: string[]; focused: number })[];
  ipcHandlers: Map<string, Listener>;
  ipcListeners: Map<string, Listener>;
  protocolHandlers: Map<string, (r: Request) => Promise<Response>>;
  privileged: unknown[];
  session: Record<string, Listener>;
  errors: string[];
  exitCode: number | null;
}

function fakeElectron(userData: string, singleInstance: boolean): { electron: unknown; fake: FakeElectron } {
  const fake: FakeElectron = {
    calls: [],
    app: new FakeEmitter() as FakeElectron['app'],
    windows: [],
    ipcHandlers: new Map(),
    ipcListeners: new Map(),
    protocolHandlers: new Map(),
    privileged: [],
    session: {},
    errors: [],
    exitCode: null,
  };
  Object.assign(fake.app, {
    enableSandbox: () => fake.calls.push('enableSandbox'),
    requestSingleInstanceLock: () => singleInstance,
    whenReady: () => {
      fake.calls.push('whenReady');
      return Promise.resolve();
    },
    getPath: (name: string) => {
      if (name !== 'userData') throw new Error(`unexpected getPath(${name})`);
      return userData;
    },
    quit: () => {
      fake.calls.push('quit');
    },
    exit: (code: number) => {
      fake.exitCode = code;
    },
  });
  class BrowserWindow extends FakeEmitter {
    readonly loaded: string[] = [];
    focused = 0;
    constructor(readonly options: { webPreferences?: unknown }) {
      super();
      fake.windows.push(this);
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    isMinimized() {
      return false;
    }
    restore() {}
    show() {}
    focus() {
      this.focused++;
    }
    static getAllWindows() {
      return fake.windows;
    }
  }
  const defaultSession = {
    setPermissionRequestHandler: (h: Listener) => (fake.session.permissionRequest = h),
    setPermissionCheckHandler: (h: Listener) => (fake.session.permissionCheck = h),
    setDevicePermissionHandler: (h: Listener) => (fake.session.devicePermission = h),
    webRequest: {
      onBeforeRequest: (h: Listener) => (fake.session.beforeRequest = h),
      onHeadersReceived: (h: Listener) => (fake.session.headersReceived = h),
    },
  };
  const electron = {
    app: fake.app,
    BrowserWindow,
    dialog: { showErrorBox: (title: string, message: string) => fake.errors.push(`${title}: ${message}`) },
    ipcMain: {
      handle: (channel: string, h: Listener) => fake.ipcHandlers.set(channel, h),
      on: (channel: string, h: Listener) => fake.ipcListeners.set(channel, h),
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => {
        if (fake.calls.includes('whenReady')) throw new Error('registerSchemesAsPrivileged after ready');
        fake.privileged.push(...schemes);
      },
      handle: (scheme: string, h: (r: Request) => Promise<Response>) => fake.protocolHandlers.set(scheme, h),
    },
    session: { defaultSession },
  };
  return { electron, fake };
}

async function until<T>(what: string, f: () => T | undefined | null | false, timeoutMs = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('main bundle wiring (with a stand-in for Electron)', () => {
  let appDir: string;
  let fake: FakeElectron;
  const savedArgv = process.argv;

  function loadMain(electron: unknown, argv: string[]) {
    const distElectron = path.join(appDir, 'dist', 'electron');
    const nodeRequire = createRequire(path.resolve('package.json'));
    const requireForBundle = (id: string): unknown => (id === 'electron' ? electron : nodeRequire(id));
    const module = { exports: {} };
    process.argv = [...savedArgv.slice(0, 1), path.join(distElectron, 'main.cjs'), ...argv];
    const filename = path.join(distElectron, 'main.cjs');
    runCommonJs(mainCode, { require: requireForBundle, module, exports: module.exports, __filename: filename, __dirname: distElectron });
  }

  beforeAll(async () => {
    appDir = mkdtempSync(path.join(tmpdir(), 'console-electron-main-'));
    mkdirSync(path.join(appDir, 'dist', 'renderer'), { recursive: true });
    writeFileSync(path.join(appDir, 'dist', 'renderer', 'index.html'), '<!doctype html><title>renderer</title>');
    const userData = path.join(appDir, 'userData');
    mkdirSync(userData);
    const built = fakeElectron(userData, true);
    fake = built.fake;
    loadMain(built.electron, ['--no-demo']);
    await until('the window', () => fake.windows[0]);
  }, 30_000);

  afterAll(async () => {
    process.argv = savedArgv;
    // Quit the way Electron would, so the console app closes its database before the files go.
    const prevent = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    ifAssigned(fake)?.app.emit('before-quit', prevent);
    if (prevent.prevented) await until('quit after close', () => fake.calls.includes('quit'));
    rmSync(appDir, { recursive: true, force: true });
  });

  it('registers app:// as privileged before ready and enables the sandbox', () => {
    expect(fake.privileged).toEqual([APP_SCHEME_PRIVILEGES]);
    expect(fake.calls.indexOf('enableSandbox')).toBeLessThan(fake.calls.indexOf('whenReady'));
    expect(fake.calls).toContain('enableSandbox');
  });

  it('opens one secure window on app://console with the bundled preload', () => {
    expect(fake.windows).toHaveLength(1);
    const win = must(fake.windows[0], 'fake.windows[0]');
    expect(win.options.webPreferences).toEqual(secureWebPreferences(path.join(appDir, 'dist', 'electron', 'preload.cjs')));
    expect(win.loaded).toEqual([APP_ENTRY_URL]);
  });

  it('serves the renderer from dist/renderer through the app:// handler, with the CSP', async () => {
    const handler = fake.protocolHandlers.get('app');
    expect(handler).toBeDefined();
    const res = await must(handler, 'handler')(new Request('app://console/index.html'));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>renderer</title>');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect((await must(handler, 'handler')(new Request('app://console/..%2Fuserdata'))).status).toBe(404);
  });

  it('denies permissions and remote requests, and sets the CSP on responses', () => {
    const granted: boolean[] = [];
    must(fake.session.permissionRequest, 'fake.session.permissionRequest')({}, 'media', (g: boolean) => granted.push(g), {});
    expect(granted).toEqual([false]);
    expect(must(fake.session.permissionCheck, 'fake.session.permissionCheck')({}, 'notifications', APP_ORIGIN, {})).toBe(false);
    expect(must(fake.session.devicePermission, 'fake.session.devicePermission')({})).toBe(false);
    const answers: unknown[] = [];
    must(fake.session.beforeRequest, 'fake.session.beforeRequest')({ url: 'https://evil.example/x.js' }, (r: unknown) => answers.push(r));
    must(fake.session.beforeRequest, 'fake.session.beforeRequest')({ url: 'app://console/assets/index.js' }, (r: unknown) =>
      answers.push(r),
    );
    expect(answers).toEqual([{ cancel: true }, { cancel: false }]);
    must(fake.session.headersReceived, 'fake.session.headersReceived')(
      { responseHeaders: { 'Content-Security-Policy': ['default-src *'] } },
      (r: unknown) => answers.push(r),
    );
    expect(answers[2]).toEqual({ responseHeaders: objectContaining({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] }) });
  });

  it('hardens every new webContents: no navigation away, no window.open, no webview', () => {
    const contents = new FakeWebContents();
    fake.app.emit('web-contents-created', {}, contents);
    const navigate = (name: string, url: string) => {
      const ev = {
        url,
        prevented: false,
        preventDefault() {
          this.prevented = true;
        },
      };
      contents.emit(name, ev, url);
      return ev.prevented;
    };
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
      expect(navigate(name, 'https://evil.example/'), name).toBe(true);
      expect(navigate(name, 'file:///etc/passwd'), name).toBe(true);
      expect(navigate(name, 'app://console/index.html'), name).toBe(false);
    }
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    const attach = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    contents.emit('will-attach-webview', attach, {}, {});
    expect(attach.prevented).toBe(true);
  });

  it('answers invoke through the real console app for the console window only', async () => {
    const invoke = must(fake.ipcHandlers.get(ELECTRON_INVOKE), 'fake.ipcHandlers.get(ELECTRON_INVOKE)');
    const trusted = { senderFrame: { url: APP_ENTRY_URL, parent: null } };
    await expect(invoke(trusted, 'app.info', {})).resolves.toEqual({
      ok: true,
      value: objectContaining({ transport: 'electron', demoMode: false }),
    });
    const evil = { senderFrame: { url: 'https://evil.example/', parent: null } };
    await expect(invoke(evil, 'app.info', {})).resolves.toEqual({ ok: false, error: objectContaining({ code: 'FORBIDDEN' }) });
    const sub = { senderFrame: { url: APP_ENTRY_URL, parent: { url: APP_ENTRY_URL } } };
    await expect(invoke(sub, 'app.info', {})).resolves.toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    await expect(invoke(trusted, 'no.such.channel', {})).resolves.toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
  });

  it('streams subscription events to the sender and stops them when its webContents is destroyed', async () => {
    const contents = new FakeWebContents();
    const replies: unknown[] = [];
    const event = (sender: FakeWebContents, url = APP_ENTRY_URL) => ({
      sender,
      senderFrame: { url, parent: null },
      reply: (channel: string, message: unknown) => replies.push([channel, message]),
    });
    const subscribe = must(fake.ipcListeners.get(ELECTRON_SUBSCRIBE), 'fake.ipcListeners.get(ELECTRON_SUBSCRIBE)');

    subscribe(event(contents, 'https://evil.example/'), {
      type: 'subscribe',
      id: 1,
      channel: 'dashboard.live',
      params: { intervalMs: 250 },
    });
    expect(replies).toEqual([[ELECTRON_EVENT, { id: 1, error: objectContaining({ code: 'FORBIDDEN' }) }]]);
    expect(contents.sent).toEqual([]);

    subscribe(event(contents), { type: 'subscribe', id: 2, channel: 'nope', params: {} });
    expect(contents.sent).toEqual([[ELECTRON_EVENT, { id: 2, error: objectContaining({ code: 'UNKNOWN_CHANNEL' }) }]]);

    // No profile without demo mode: the live dashboard reports that as an event, every 250 ms.
    subscribe(event(contents), { type: 'subscribe', id: 3, channel: 'dashboard.live', params: { intervalMs: 250 } });
    const forId3 = () => contents.sent.filter(([, m]) => (m as { id: number }).id === 3);
    await until('two live events', () => forId3().length >= 2);
    expect(forId3()[0]).toEqual([ELECTRON_EVENT, { id: 3, event: { ok: false, error: objectContaining({ code: 'NOT_FOUND' }) } }]);

    contents.destroyed = true;
    contents.emit('destroyed');
    const count = forId3().length;
    await new Promise((r) => setTimeout(r, 700));
    expect(forId3().length).toBe(count);
  });

  it('keeps streams across in-page (hash) navigation and ends them when the page reloads', async () => {
    const contents = new FakeWebContents();
    const ev = { sender: contents, senderFrame: { url: APP_ENTRY_URL, parent: null }, reply: () => {} };
    must(fake.ipcListeners.get(ELECTRON_SUBSCRIBE), 'fake.ipcListeners.get(ELECTRON_SUBSCRIBE)')(ev, {
      type: 'subscribe',
      id: 5,
      channel: 'dashboard.live',
      params: { intervalMs: 250 },
    });
    await until('a live event', () => contents.sent.length >= 1);
    contents.emit('did-start-navigation', { url: `${APP_ENTRY_URL}#/parties`, isMainFrame: true, isSameDocument: true });
    const before = contents.sent.length;
    await until('events after a hash navigation', () => contents.sent.length > before);

    contents.emit('did-start-navigation', { url: APP_ENTRY_URL, isMainFrame: true, isSameDocument: false });
    const count = contents.sent.length;
    await new Promise((r) => setTimeout(r, 700));
    expect(contents.sent.length).toBe(count);
  });

  it('unsubscribe stops the stream', async () => {
    const contents = new FakeWebContents();
    const ev = { sender: contents, senderFrame: { url: APP_ENTRY_URL, parent: null }, reply: () => {} };
    must(fake.ipcListeners.get(ELECTRON_SUBSCRIBE), 'fake.ipcListeners.get(ELECTRON_SUBSCRIBE)')(ev, {
      type: 'subscribe',
      id: 7,
      channel: 'dashboard.live',
      params: { intervalMs: 250 },
    });
    await until('a live event', () => contents.sent.length >= 1);
    must(fake.ipcListeners.get(ELECTRON_UNSUBSCRIBE), 'fake.ipcListeners.get(ELECTRON_UNSUBSCRIBE)')(ev, { type: 'unsubscribe', id: 7 });
    const count = contents.sent.length;
    await new Promise((r) => setTimeout(r, 700));
    expect(contents.sent.length).toBe(count);
  });

  it('cancels a call by its request id: the participant request is aborted and the answer is CANCELLED', async () => {
    // Runs after the subscription tests, which expect no active profile.
    // A participant that never answers /v2/parties: the read hangs until it is cancelled.
    const seen: string[] = [];
    const closed: string[] = [];
    const server = createServer((req, res) => {
      if (req.url?.startsWith('/v2/parties')) {
        seen.push(req.url);
        res.on('close', () => closed.push(req.url ?? ''));
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const invoke = must(fake.ipcHandlers.get(ELECTRON_INVOKE), 'fake.ipcHandlers.get(ELECTRON_INVOKE)');
      const cancel = must(fake.ipcListeners.get(ELECTRON_CANCEL), 'fake.ipcListeners.get(ELECTRON_CANCEL)');
      const contents = new FakeWebContents();
      const ev = { sender: contents, senderFrame: { url: APP_ENTRY_URL, parent: null } };
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const saved = (await invoke(ev, 'profiles.save', { name: 'Hanging', ledgerApiUrl: url })) as { ok: true; value: { id: string } };
      expect(saved.ok).toBe(true);
      await invoke(ev, 'profiles.select', { id: saved.value.id });

      await expect(invoke(ev, 'app.info', {}, 'bad id!')).resolves.toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
      const pending = invoke(ev, 'updates.parties', {}, 'r-1');
      await until('the participant request', () => seen.length === 1);
      cancel({ sender: contents, senderFrame: { url: 'https://evil.example/', parent: null } }, { requestId: 'r-1' });
      cancel(ev, { requestId: 'bad id!' });
      await new Promise((r) => setTimeout(r, 200));
      expect(closed).toEqual([]);
      cancel(ev, { requestId: 'r-1' });
      await expect(pending).resolves.toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
      await until('the participant socket closed', () => closed.length === 1);

      // A window that goes away cancels its calls in flight; a hash navigation does not.
      const window2 = new FakeWebContents();
      fake.app.emit('web-contents-created', {}, window2);
      const ev2 = { sender: window2, senderFrame: { url: APP_ENTRY_URL, parent: null } };
      const second = invoke(ev2, 'updates.parties', {}, 'r-2');
      await until('the second participant request', () => seen.length === 2);
      window2.emit('did-start-navigation', { url: `${APP_ENTRY_URL}#/parties`, isMainFrame: true, isSameDocument: true });
      await new Promise((r) => setTimeout(r, 200));
      expect(closed).toHaveLength(1);
      window2.destroyed = true;
      window2.emit('destroyed');
      await expect(second).resolves.toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
      await until('the second participant socket closed', () => closed.length === 2);
      await invoke(ev, 'profiles.delete', { id: saved.value.id });
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('focuses the existing window when a second instance starts', () => {
    const before = must(fake.windows[0], 'fake.windows[0]').focused;
    fake.app.emit('second-instance', {}, [], '/');
    expect(must(fake.windows[0], 'fake.windows[0]').focused).toBe(before + 1);
  });

  it('a second instance quits without starting services or opening a window', async () => {
    const built = fakeElectron(path.join(appDir, 'other'), false);
    loadMain(built.electron, []);
    await new Promise((r) => setTimeout(r, 50));
    expect(built.fake.calls).toContain('quit');
    expect(built.fake.calls).not.toContain('whenReady');
    expect(built.fake.windows).toEqual([]);
    expect(built.fake.ipcHandlers.size).toBe(0);
  });
});
