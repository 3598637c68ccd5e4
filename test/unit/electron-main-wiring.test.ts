/**
 * The main bundle, built by the real build script and run against a recording stand-in for Electron's main-process
 * API (the real Electron binary cannot run here). Everything else is real: the console app, SQLite, the router.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommonJs, useBuiltElectron } from './electron/bundles.js';
import { FakeWebContents, fakeElectron, until, type FakeElectron } from './electron/fake-electron.js';
import { ELECTRON_CANCEL, ELECTRON_EVENT, ELECTRON_INVOKE, ELECTRON_SUBSCRIBE, ELECTRON_UNSUBSCRIBE } from '../../src/ipc/wire.js';
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

const built = useBuiltElectron();

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
    runCommonJs(built().mainCode, {
      require: requireForBundle,
      module,
      exports: module.exports,
      __filename: filename,
      __dirname: distElectron,
    });
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
