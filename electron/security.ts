/**
 * Every security setting of the Electron shell, as data and small functions that unit tests can
 * check without starting Electron. `main.ts` only wires these into Electron's APIs.
 *
 * Only `import type` from 'electron' here: this module runs under plain Node in tests.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { CustomScheme, HandlerDetails, WebPreferences } from 'electron';
import type { Result } from '../src/ipc/contract.js';
import type { IpcError } from '../src/ipc/errors.js';
import type { Router } from '../src/ipc/router.js';

// ---------------------------------------------------------------------------------------------
// App origin: the renderer is served from app://console/, never file://, so that the origin of
// the page (and of every IPC sender) is a single, checkable value.
// ---------------------------------------------------------------------------------------------

export const APP_SCHEME = 'app';
export const APP_HOST = 'console';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * Registered before `app.ready` with `protocol.registerSchemesAsPrivileged`. `standard` gives the
 * scheme a real origin (so 'self' in the CSP and the sender check mean something), `secure` makes
 * it a secure context, `supportFetchAPI`/`corsEnabled` let Vite's module scripts (loaded in CORS
 * mode) and module preloads load from it. It does NOT bypass the CSP and cannot run service workers.
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: {
    standard: true,
    secure: true,
    supportFetchAPI: true,
    corsEnabled: true,
    codeCache: true,
    bypassCSP: false,
    allowServiceWorkers: false,
    stream: false,
  },
};

interface ParsedOrigin {
  protocol: string;
  host: string;
}

/**
 * Scheme + host (+ port) of a URL, or null. WHATWG `URL.origin` is "null" for non-special schemes
 * such as app:, so the origin is compared as scheme + host instead. URLs with credentials never match.
 */
function parseOrigin(url: string): ParsedOrigin | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.username || u.password) return null;
  if (!u.host) return null;
  return { protocol: u.protocol.toLowerCase(), host: u.host.toLowerCase() };
}

export function isSameOrigin(url: string, appOrigin: string = APP_ORIGIN): boolean {
  const a = parseOrigin(url);
  const b = parseOrigin(appOrigin);
  return a !== null && b !== null && a.protocol === b.protocol && a.host === b.host;
}

// ---------------------------------------------------------------------------------------------
// BrowserWindow webPreferences
// ---------------------------------------------------------------------------------------------

export function secureWebPreferences(preloadPath: string): WebPreferences {
  if (!path.isAbsolute(preloadPath)) throw new Error(`preload path must be absolute: ${preloadPath}`);
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    spellcheck: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    enableWebSQL: false,
  };
}

// ---------------------------------------------------------------------------------------------
// Content-Security-Policy
// ---------------------------------------------------------------------------------------------

/** Directive → sources. Nothing remote, no inline or eval'd script. */
export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
  'frame-src': ["'none'"],
  'worker-src': ["'none'"],
  'object-src': ["'none'"],
};

export const CONTENT_SECURITY_POLICY = Object.entries(CSP_DIRECTIVES)
  .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
  .join('; ');

/**
 * The response headers with our CSP set, replacing any CSP already present (whatever its casing),
 * for `session.webRequest.onHeadersReceived` and for the app:// protocol handler.
 */
export function withContentSecurityPolicy(headers: Record<string, string | string[]> | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'content-security-policy' || lower === 'content-security-policy-report-only') continue;
    out[name] = value;
  }
  out['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
  out['X-Content-Type-Options'] = ['nosniff'];
  return out;
}

// ---------------------------------------------------------------------------------------------
// Navigation, new windows, requests, permissions
// ---------------------------------------------------------------------------------------------

/** Navigation (will-navigate, will-frame-navigate, will-redirect) may only stay inside the app origin. */
export function isAllowedNavigation(url: string, appOrigin: string = APP_ORIGIN): boolean {
  return isSameOrigin(url, appOrigin);
}

/** The renderer needs no network: it talks to the main process only. Remote requests are cancelled. */
export function isAllowedRequest(url: string, appOrigin: string = APP_ORIGIN): boolean {
  if (isSameOrigin(url, appOrigin)) return true;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  switch (u.protocol) {
    case 'data:':
    case 'devtools:':
      return true;
    case 'blob:':
      return isSameOrigin(url.slice('blob:'.length), appOrigin);
    default:
      return false;
  }
}

/** `webContents.setWindowOpenHandler`: no window.open, no target=_blank, nothing. */
export function windowOpenHandler(_details?: HandlerDetails): { action: 'deny' } {
  return { action: 'deny' };
}

/** `session.setPermissionRequestHandler`: every permission request is refused. */
export function permissionRequestHandler(_webContents: unknown, _permission: string, callback: (granted: boolean) => void): void {
  callback(false);
}

/** `session.setPermissionCheckHandler` and `setDevicePermissionHandler`: always no. */
export function permissionCheckHandler(..._args: unknown[]): boolean {
  return false;
}

// ---------------------------------------------------------------------------------------------
// IPC sender check
// ---------------------------------------------------------------------------------------------

/** The parts of Electron's WebFrameMain the sender check reads. */
export interface SenderFrameLike {
  readonly url: string;
  readonly parent: unknown;
}

/**
 * True only for the main frame of a page served from the app origin. Subframes, other origins,
 * file:// pages and destroyed frames (null) are refused.
 */
export function isTrustedSender(senderFrame: SenderFrameLike | null | undefined, appOrigin: string = APP_ORIGIN): boolean {
  if (!senderFrame) return false;
  try {
    if (senderFrame.parent !== null) return false;
    return typeof senderFrame.url === 'string' && isSameOrigin(senderFrame.url, appOrigin);
  } catch {
    // Accessing a frame that is being torn down can throw.
    return false;
  }
}

export const FORBIDDEN_SENDER_ERROR: IpcError = {
  code: 'FORBIDDEN',
  message: 'IPC request refused: the sender is not the console window',
};

/** `ipcMain.handle(ELECTRON_INVOKE)`: the sender check, then the contract router. */
export async function guardedInvoke(
  router: Pick<Router, 'invoke'>,
  senderFrame: SenderFrameLike | null | undefined,
  channel: unknown,
  payload: unknown,
  appOrigin: string = APP_ORIGIN,
): Promise<Result<unknown>> {
  if (!isTrustedSender(senderFrame, appOrigin)) return { ok: false, error: FORBIDDEN_SENDER_ERROR };
  return router.invoke(channel, payload);
}

// ---------------------------------------------------------------------------------------------
// app:// protocol: serve files from the renderer build directory only
// ---------------------------------------------------------------------------------------------

/**
 * Maps an app:// URL to a file inside `root`, or null when the URL is not ours or would leave the
 * root (../, encoded separators, absolute or drive paths, NUL bytes). `/` maps to index.html.
 * Pure: no file system access.
 */
export function resolveAppPath(url: string, root: string, appOrigin: string = APP_ORIGIN): string | null {
  if (!isSameOrigin(url, appOrigin)) return null;
  // The raw path, before WHATWG dot-segment normalisation could hide a traversal attempt.
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(\/[^?#]*)?/i.exec(url);
  const rawPath = match?.[1] ?? '/';
  const rawSegments = rawPath.split('/').slice(1);
  const segments: string[] = [];
  for (const raw of rawSegments) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (seg === '..' || seg === '.') return null;
    if (/[\\/:\0]/.test(seg)) return null;
    if (seg === '') continue; // tolerate '//' and the trailing '/'
    segments.push(seg);
  }
  if (segments.length === 0 || rawPath.endsWith('/')) segments.push('index.html');
  const absRoot = path.resolve(root);
  const file = path.resolve(absRoot, ...segments);
  const rel = path.relative(absRoot, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return file;
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(file: string): string {
  return MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

function textResponse(status: number, body: string): Response {
  return new Response(body, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
  });
}

/**
 * The `protocol.handle(APP_SCHEME, …)` handler: GET/HEAD of files under `root` (symlinks that lead
 * outside are refused too), with the CSP on every response. Uses only the Fetch API's
 * Request/Response, so it runs and is tested under plain Node.
 */
export function createAppProtocolHandler(root: string, appOrigin: string = APP_ORIGIN): (request: Request) => Promise<Response> {
  const absRoot = path.resolve(root);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return textResponse(405, 'Method not allowed');
    const file = resolveAppPath(request.url, absRoot, appOrigin);
    if (file === null) return textResponse(404, 'Not found');
    try {
      const [rootReal, fileReal] = await Promise.all([fsp.realpath(absRoot), fsp.realpath(file)]);
      const rel = path.relative(rootReal, fileReal);
      if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return textResponse(404, 'Not found');
      const body = request.method === 'HEAD' ? null : await fsp.readFile(fileReal);
      return new Response(body, {
        status: 200,
        headers: {
          'content-type': contentTypeFor(fileReal),
          'content-security-policy': CONTENT_SECURITY_POLICY,
          'x-content-type-options': 'nosniff',
          'cache-control': 'no-cache',
        },
      });
    } catch {
      return textResponse(404, 'Not found');
    }
  };
}
