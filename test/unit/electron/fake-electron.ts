/**
 * A recording stand-in for Electron's main-process API (the real Electron binary cannot run here), for running the
 * main bundle: app, BrowserWindow, ipcMain, protocol, session and dialog, each call recorded.
 */
type Listener = (...args: unknown[]) => unknown;

export class FakeEmitter {
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

export class FakeWebContents extends FakeEmitter {
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

export interface FakeElectron {
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

export function fakeElectron(userData: string, singleInstance: boolean): { electron: unknown; fake: FakeElectron } {
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

export async function until<T>(what: string, f: () => T | undefined | null | false, timeoutMs = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
