/**
 * Electron main process: app lifecycle, the one BrowserWindow, and the IPC bridge from the preload
 * to the contract's router. Thin on purpose: the services live in src/ and know nothing of Electron;
 * every security setting lives in ./security.ts where unit tests check it.
 *
 * Bundled by scripts/build-electron.ts into dist/electron/main.cjs (CommonJS), next to preload.cjs;
 * the renderer build is expected in dist/renderer.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, protocol, session, type IpcMainEvent, type WebContents } from 'electron';
import { startConsoleApp, type ConsoleApp } from '../src/app/console-app.js';
import { saveDialogSink } from './exports.js';
import {
  ClientMessageSchema,
  ELECTRON_CANCEL,
  ELECTRON_EVENT,
  ELECTRON_INVOKE,
  ELECTRON_SUBSCRIBE,
  ELECTRON_UNSUBSCRIBE,
  ElectronCancelSchema,
  RequestIdSchema,
} from '../src/ipc/wire.js';
import type { IpcError } from '../src/ipc/errors.js';
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  FORBIDDEN_SENDER_ERROR,
  createAppProtocolHandler,
  guardedInvoke,
  isAllowedNavigation,
  isAllowedRequest,
  isTrustedSender,
  permissionCheckHandler,
  permissionRequestHandler,
  secureWebPreferences,
  windowOpenHandler,
  withContentSecurityPolicy,
} from './security.js';

// In the CJS bundle `import.meta.url` is defined as this file's URL (see scripts/build-electron.ts).
const HERE = path.dirname(fileURLToPath(import.meta.url));
const PRELOAD_PATH = path.join(HERE, 'preload.cjs');
const RENDERER_ROOT = path.resolve(HERE, '..', 'renderer');

// Must happen before `ready`.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
app.enableSandbox();

let mainWindow: BrowserWindow | null = null;
let consoleApp: ConsoleApp | null = null;

// ---------------------------------------------------------------------------------------------
// Hardening applied to every webContents the app ever creates (windows, devtools, anything).
// ---------------------------------------------------------------------------------------------

app.on('web-contents-created', (_event, contents) => {
  // A page that goes away (closed, crashed, reloaded) can read no answer: stop its calls' reads.
  const id = contents.id;
  contents.once('destroyed', () => abortCalls(id));
  contents.on('render-process-gone', () => abortCalls(id));
  contents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) abortCalls(id);
  });
  contents.on('will-navigate', (event) => {
    if (!isAllowedNavigation(event.url)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isAllowedNavigation(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAllowedNavigation(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(windowOpenHandler);
});

function hardenDefaultSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler(permissionRequestHandler);
  ses.setPermissionCheckHandler(permissionCheckHandler);
  ses.setDevicePermissionHandler(permissionCheckHandler);
  ses.webRequest.onBeforeRequest((details, callback) => {
    callback({ cancel: !isAllowedRequest(details.url) });
  });
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) });
  });
  // The renderer is served from app:// only; `protocol` here is the default session's.
  protocol.handle(APP_SCHEME, createAppProtocolHandler(RENDERER_ROOT));
}

// ---------------------------------------------------------------------------------------------
// IPC: one invoke channel and one subscription stream, both behind the sender check.
// ---------------------------------------------------------------------------------------------

/** Live subscriptions per renderer (webContents id → subscription id → unsubscribe). */
const subscriptionsByContents = new Map<number, Map<number, () => void>>();

/** Ends every subscription of a renderer; `forget` also drops its entry (webContents destroyed). */
function dropSubscriptions(contentsId: number, forget = false): void {
  const subs = subscriptionsByContents.get(contentsId);
  if (!subs) return;
  if (forget) subscriptionsByContents.delete(contentsId);
  const unsubscribes = [...subs.values()];
  subs.clear();
  for (const unsubscribe of unsubscribes) {
    try {
      unsubscribe();
    } catch (err) {
      console.error('unsubscribe failed', err);
    }
  }
}

function subscriptionsOf(contents: WebContents): Map<number, () => void> {
  let subs = subscriptionsByContents.get(contents.id);
  if (subs) return subs;
  subs = new Map();
  subscriptionsByContents.set(contents.id, subs);
  const id = contents.id;
  // Registered once per webContents: the entry lives until the webContents is destroyed.
  contents.once('destroyed', () => dropSubscriptions(id, true));
  contents.on('render-process-gone', () => dropSubscriptions(id));
  // A reload or navigation starts a new document whose preload knows nothing of the old ids.
  contents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) dropSubscriptions(id);
  });
  return subs;
}

function sendEvent(contents: WebContents, message: { id: number; event: unknown } | { id: number; error: IpcError }): void {
  if (!contents.isDestroyed()) contents.send(ELECTRON_EVENT, message);
}

/** Cancellable calls in flight, by `<webContents id>:<request id>` (ids are per renderer). */
const callsInFlight = new Map<string, AbortController>();

function abortCalls(contentsId: number): void {
  const prefix = `${contentsId}:`;
  for (const [key, controller] of callsInFlight) if (key.startsWith(prefix)) controller.abort();
}

function registerIpc(appInstance: ConsoleApp): void {
  const { router } = appInstance;

  ipcMain.handle(ELECTRON_INVOKE, async (event, channel: unknown, payload: unknown, requestId?: unknown) => {
    if (requestId === undefined) return guardedInvoke(router, event.senderFrame, channel, payload);
    const parsed = RequestIdSchema.safeParse(requestId);
    if (!parsed.success) return { ok: false, error: { code: 'BAD_REQUEST', message: 'Malformed request id' } };
    const key = `${event.sender.id}:${parsed.data}`;
    if (callsInFlight.has(key)) return { ok: false, error: { code: 'CONFLICT', message: `Request id ${parsed.data} is in use` } };
    const controller = new AbortController();
    callsInFlight.set(key, controller);
    try {
      return await guardedInvoke({ invoke: (c, p) => router.invoke(c, p, controller.signal) }, event.senderFrame, channel, payload);
    } finally {
      callsInFlight.delete(key);
    }
  });

  ipcMain.on(ELECTRON_CANCEL, (event: IpcMainEvent, message: unknown) => {
    const parsed = ElectronCancelSchema.safeParse(message);
    if (!parsed.success || !isTrustedSender(event.senderFrame, APP_ORIGIN)) return;
    callsInFlight.get(`${event.sender.id}:${parsed.data.requestId}`)?.abort();
  });

  ipcMain.on(ELECTRON_SUBSCRIBE, (event: IpcMainEvent, message: unknown) => {
    const parsed = ClientMessageSchema.safeParse(message);
    if (!parsed.success || parsed.data.type !== 'subscribe') {
      const id = (message as { id?: unknown } | null)?.id;
      if (typeof id === 'number' && Number.isSafeInteger(id)) {
        event.reply(ELECTRON_EVENT, { id, error: { code: 'BAD_REQUEST', message: 'Malformed subscribe message' } });
      }
      return;
    }
    const { id, channel, params } = parsed.data;
    if (!isTrustedSender(event.senderFrame, APP_ORIGIN)) {
      event.reply(ELECTRON_EVENT, { id, error: FORBIDDEN_SENDER_ERROR });
      return;
    }
    const contents = event.sender;
    const subs = subscriptionsOf(contents);
    if (subs.has(id)) {
      sendEvent(contents, { id, error: { code: 'CONFLICT', message: `Subscription id ${id} is already in use` } });
      return;
    }
    const result = router.subscribe(channel, params, (ev) => sendEvent(contents, { id, event: ev }));
    if (!result.ok) {
      sendEvent(contents, { id, error: result.error });
      return;
    }
    subs.set(id, result.unsubscribe);
  });

  ipcMain.on(ELECTRON_UNSUBSCRIBE, (event: IpcMainEvent, message: unknown) => {
    const parsed = ClientMessageSchema.safeParse(message);
    if (!parsed.success || parsed.data.type !== 'unsubscribe') return;
    if (!isTrustedSender(event.senderFrame, APP_ORIGIN)) return;
    const subs = subscriptionsByContents.get(event.sender.id);
    const unsubscribe = subs?.get(parsed.data.id);
    if (!subs || !unsubscribe) return;
    subs.delete(parsed.data.id);
    unsubscribe();
  });
}

// ---------------------------------------------------------------------------------------------
// Window and lifecycle
// ---------------------------------------------------------------------------------------------

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1360,
    height: 880,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Canton Operator Console',
    backgroundColor: '#101418',
    webPreferences: secureWebPreferences(PRELOAD_PATH),
  });
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(APP_ENTRY_URL);
  return win;
}

function focusMainWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

async function start(): Promise<void> {
  await app.whenReady();
  hardenDefaultSession();
  consoleApp = await startConsoleApp({
    dataDir: app.getPath('userData'),
    demo: !process.argv.includes('--no-demo'),
    transport: 'electron',
    // exports are saved where the operator chooses, through a save dialog over the console's window
    exportSink: saveDialogSink(() => mainWindow),
  });
  registerIpc(consoleApp);
  mainWindow = createWindow();

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });
}

let closing: Promise<void> | null = null;
let closed = false;

app.on('before-quit', (event) => {
  if (closed || !consoleApp) return;
  event.preventDefault();
  closing ??= consoleApp
    .close()
    .catch((err: unknown) => console.error('closing the console failed', err))
    .finally(() => {
      closed = true;
      app.quit();
    });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

if (!app.requestSingleInstanceLock()) {
  // Another console is running; it gets focused through its 'second-instance' handler.
  app.quit();
} else {
  app.on('second-instance', () => focusMainWindow());
  start().catch((err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    console.error('Canton Operator Console failed to start', err);
    dialog.showErrorBox('Canton Operator Console failed to start', message);
    app.exit(1);
  });
}
