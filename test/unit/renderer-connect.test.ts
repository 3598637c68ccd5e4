import { describe, expect, it } from 'vitest';
import type { Transport } from '../../src/ipc/client.js';
import type { WsLike } from '../../src/ipc/ws-transport.js';
import { connect, extractToken, hostSocketUrl, stripToken, TOKEN_STORAGE_KEY, type ConnectEnv } from '../../renderer/src/lib/connect.js';
import { must } from '../support/must.js';

type Listener = (ev: { data?: unknown }) => void;

class FakeSocket implements WsLike {
  readyState = 0;
  readonly sent: string[] = [];
  private readonly listeners = new Map<string, Listener[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
    this.emit('close');
  }
  emit(type: string, ev: { data?: unknown } = {}) {
    if (type === 'open') this.readyState = 1;
    for (const l of this.listeners.get(type) ?? []) l(ev);
  }
}

function env(opts: { hash?: string; stored?: string; protocol?: string; behaviour?: 'open' | 'error' | 'silent' } = {}) {
  const storage = new Map<string, string>(opts.stored ? [[TOKEN_STORAGE_KEY, opts.stored]] : []);
  const sockets: FakeSocket[] = [];
  const replaced: string[] = [];
  const e: ConnectEnv = {
    consoleApi: undefined,
    location: { hash: opts.hash ?? '', host: '127.0.0.1:4321', protocol: opts.protocol ?? 'http:', pathname: '/', search: '' },
    replaceUrl: (url) => replaced.push(url),
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) },
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      const behaviour = opts.behaviour ?? 'open';
      if (behaviour !== 'silent') queueMicrotask(() => s.emit(behaviour));
      return s;
    },
    timeoutMs: 50,
  };
  return { env: e, storage, sockets, replaced };
}

describe('renderer connect', () => {
  it('parses and strips the token fragment', () => {
    expect(extractToken('#token=abc-123')).toBe('abc-123');
    expect(extractToken('#/dashboard&token=x%2By')).toBe('x+y');
    expect(extractToken('#token=')).toBeNull();
    expect(extractToken('#/dashboard')).toBeNull();
    expect(stripToken('#token=abc')).toBe('');
    expect(stripToken('#/connections&token=abc')).toBe('#/connections');
    expect(hostSocketUrl({ protocol: 'https:', host: 'h:1' }, 'a b')).toBe('wss://h:1/ipc?token=a%20b');
  });

  it('uses the Electron preload API when present and opens no socket', async () => {
    const api: Transport = { invoke: () => Promise.resolve({ ok: true, value: null }), cancel: () => {}, subscribe: () => () => {} };
    const { env: e, sockets } = env({ hash: '#token=abc' });
    const c = await connect({ ...e, consoleApi: api });
    expect(c.ok && c.kind).toBe('electron');
    expect(c.ok && c.transport).toBe(api);
    expect(sockets).toHaveLength(0);
  });

  it('moves the token from the URL into sessionStorage and connects to /ipc with it', async () => {
    const { env: e, storage, sockets, replaced } = env({ hash: '#token=s3cret' });
    const c = await connect(e);
    expect(c.ok && c.kind).toBe('browser-host');
    expect(must(sockets[0], 'sockets[0]').url).toBe('ws://127.0.0.1:4321/ipc?token=s3cret');
    expect(storage.get(TOKEN_STORAGE_KEY)).toBe('s3cret');
    expect(replaced).toEqual(['/']);
  });

  it('reconnects after a reload with the token kept in sessionStorage', async () => {
    const { env: e, sockets, replaced } = env({ stored: 'kept' });
    const c = await connect(e);
    expect(c.ok).toBe(true);
    expect(must(sockets[0], 'sockets[0]').url).toBe('ws://127.0.0.1:4321/ipc?token=kept');
    expect(replaced).toEqual([]);
  });

  it('a token in the URL wins over an older stored one', async () => {
    const { env: e, sockets, storage } = env({ hash: '#token=new', stored: 'old' });
    await connect(e);
    expect(must(sockets[0], 'sockets[0]').url).toContain('token=new');
    expect(storage.get(TOKEN_STORAGE_KEY)).toBe('new');
  });

  it('reports a missing token without opening a socket', async () => {
    const { env: e, sockets } = env();
    const c = await connect(e);
    expect(c).toMatchObject({ ok: false, reason: 'no-token' });
    expect(sockets).toHaveLength(0);
  });

  it('reports a refused connection', async () => {
    const { env: e } = env({ hash: '#token=wrong', behaviour: 'error' });
    const c = await connect(e);
    expect(c).toMatchObject({ ok: false, reason: 'refused' });
  });

  it('gives up when the host never answers', async () => {
    const { env: e, sockets } = env({ hash: '#token=x', behaviour: 'silent' });
    const c = await connect(e);
    expect(c).toMatchObject({ ok: false, reason: 'refused' });
    expect(must(sockets[0], 'sockets[0]').readyState).toBe(3);
  });

  it('tells the app when an established connection drops', async () => {
    const { env: e, sockets } = env({ hash: '#token=x' });
    const c = await connect(e);
    let dropped = 0;
    if (c.ok) c.onClosed(() => dropped++);
    must(sockets[0], 'sockets[0]').emit('close');
    expect(dropped).toBe(1);
  });
});
