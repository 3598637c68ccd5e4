/**
 * Picks the transport for the contract:
 *  - Electron: the preload exposes `window.consoleApi` (a Transport); use it as is.
 *  - Browser host: the console URL carries a one-time token in its fragment (`#token=…`). It is moved
 *    out of the visible URL into sessionStorage (a reload still works, the address bar and history
 *    no longer show it) and used to open `ws(s)://<host>/ipc?token=…`.
 */
import type { Transport } from '../../../src/ipc/client.js';
import { PRELOAD_GLOBAL } from '../../../src/ipc/preload-api.js';
import { WebSocketTransport, type WsLike } from '../../../src/ipc/ws-transport.js';

export const TOKEN_STORAGE_KEY = 'canton-console.host-token';
const CONNECT_TIMEOUT_MS = 10_000;

export type Connection =
  | {
      ok: true;
      kind: 'electron' | 'browser-host';
      transport: Transport;
      /** Registers a callback for when the host drops the connection (browser host only). */
      onClosed(callback: () => void): void;
    }
  | { ok: false; reason: 'no-token' | 'refused'; detail: string };

export interface ConnectEnv {
  consoleApi: Transport | undefined;
  location: { hash: string; host: string; protocol: string; pathname: string; search: string };
  replaceUrl(url: string): void;
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null;
  createSocket(url: string): WsLike;
  timeoutMs?: number;
}

/** The token in a fragment such as `#token=abc` or `#/dashboard&token=abc`; null when absent or empty. */
export function extractToken(hash: string): string | null {
  const match = /(?:^#|[#&?])token=([^&]*)/.exec(hash);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]) || null;
  } catch {
    return null;
  }
}

/** The fragment without its token parameter ('' when nothing else remains). */
export function stripToken(hash: string): string {
  const rest = hash
    .replace(/^#/, '')
    .split('&')
    .filter((part) => part !== '' && !/^token=/.test(part))
    .join('&');
  return rest ? `#${rest}` : '';
}

export function hostSocketUrl(location: { protocol: string; host: string }, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/ipc?token=${encodeURIComponent(token)}`;
}

function isTransport(value: unknown): value is Transport {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Transport).invoke === 'function' &&
    typeof (value as Transport).cancel === 'function' &&
    typeof (value as Transport).subscribe === 'function'
  );
}

export function browserEnv(): ConnectEnv {
  const candidate = (window as unknown as Record<string, unknown>)[PRELOAD_GLOBAL];
  let storage: ConnectEnv['storage'];
  try {
    storage = window.sessionStorage;
  } catch {
    storage = null;
  }
  return {
    consoleApi: isTransport(candidate) ? candidate : undefined,
    location: window.location,
    replaceUrl: (url) => history.replaceState(history.state, '', url),
    storage,
    createSocket: (url) => new WebSocket(url),
  };
}

export async function connect(env: ConnectEnv = browserEnv()): Promise<Connection> {
  if (env.consoleApi) {
    return { ok: true, kind: 'electron', transport: env.consoleApi, onClosed: () => {} };
  }

  const { location } = env;
  let token = extractToken(location.hash);
  if (token) {
    try {
      env.storage?.setItem(TOKEN_STORAGE_KEY, token);
    } catch {
      // Without sessionStorage a reload needs the printed URL again; the session itself still works.
    }
    env.replaceUrl(`${location.pathname}${location.search}${stripToken(location.hash)}`);
  } else {
    try {
      token = env.storage?.getItem(TOKEN_STORAGE_KEY) ?? null;
    } catch {
      token = null;
    }
  }
  if (!token) {
    return { ok: false, reason: 'no-token', detail: 'This page was opened without the access token.' };
  }

  let socket: WsLike;
  try {
    socket = env.createSocket(hostSocketUrl(location, token));
  } catch (err) {
    return { ok: false, reason: 'refused', detail: err instanceof Error ? err.message : String(err) };
  }
  const closedCallbacks: Array<() => void> = [];
  let opened = false;
  socket.addEventListener('close', () => {
    if (opened) for (const cb of closedCallbacks) cb();
  });
  const transport = new WebSocketTransport(socket);

  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), env.timeoutMs ?? CONNECT_TIMEOUT_MS);
  });
  try {
    await Promise.race([transport.whenReady(), timeout]);
  } catch {
    try {
      socket.close();
    } catch {
      // already closed
    }
    return {
      ok: false,
      reason: 'refused',
      detail: `The console host at ${location.host} refused the connection. The token may belong to an earlier run of the host.`,
    };
  } finally {
    clearTimeout(timer);
  }
  opened = true;
  return {
    ok: true,
    kind: 'browser-host',
    transport,
    onClosed: (callback) => {
      closedCallbacks.push(callback);
    },
  };
}
