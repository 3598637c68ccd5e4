/**
 * The Electron shell's security settings, checked as data under plain Node (Electron cannot run
 * here). A failure means a window would get Node access, remote content, a navigation away from
 * the app, a granted permission, or IPC answered for a frame that is not the console.
 */
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Router } from '../../src/ipc/router.js';
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  CONTENT_SECURITY_POLICY,
  createAppProtocolHandler,
  guardedInvoke,
  isAllowedNavigation,
  isAllowedRequest,
  isTrustedSender,
  permissionCheckHandler,
  permissionRequestHandler,
  resolveAppPath,
  secureWebPreferences,
  windowOpenHandler,
  withContentSecurityPolicy,
  type SenderFrameLike,
} from '../../electron/security.js';
import { objectContaining } from '../support/matchers.js';

const PRELOAD = path.resolve('/opt/console/dist/electron/preload.cjs');

describe('webPreferences', () => {
  const prefs = secureWebPreferences(PRELOAD);

  it('isolates and sandboxes the renderer without Node', () => {
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  });

  it('keeps web security on and risky features off', () => {
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.experimentalFeatures).toBe(false);
    expect(prefs.spellcheck).toBe(false);
    expect(prefs.navigateOnDragDrop).toBe(false);
  });

  it('uses the given preload and refuses a relative one', () => {
    expect(prefs.preload).toBe(PRELOAD);
    expect(() => secureWebPreferences('dist/electron/preload.cjs')).toThrow(/absolute/);
  });

  it('sets nothing that would loosen the defaults', () => {
    expect(prefs).not.toHaveProperty('additionalArguments');
    expect(prefs).not.toHaveProperty('partition');
    expect(prefs.enableBlinkFeatures).toBeUndefined();
  });
});

describe('Content-Security-Policy', () => {
  const directives = new Map(
    CONTENT_SECURITY_POLICY.split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = '', ...sources] = d.split(/\s+/);
        return [name, sources] as const;
      }),
  );

  it('allows only same-origin scripts, with no inline or eval', () => {
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|unsafe-inline|unsafe-hashes|wasm-unsafe-eval|strict-dynamic|nonce-|sha256-/);
  });

  it('denies by default and locks base, forms, framing and plugins', () => {
    expect(directives.get('default-src')).toEqual(["'none'"]);
    for (const d of ['base-uri', 'form-action', 'frame-ancestors', 'object-src']) {
      expect(directives.get(d), d).toEqual(["'none'"]);
    }
  });

  it('names no remote origin or wildcard anywhere', () => {
    for (const [name, sources] of directives) {
      for (const source of sources) {
        const allowed = source === "'self'" || source === "'none'" || (name === 'img-src' && source === 'data:');
        expect(allowed, `${name} ${source}`).toBe(true);
      }
    }
  });

  it('replaces a CSP already present in response headers, whatever its casing', () => {
    const headers = withContentSecurityPolicy({
      'content-security-policy': ["default-src *; script-src 'unsafe-eval'"],
      'Content-Security-Policy-Report-Only': ['default-src *'],
      'Content-Type': ['text/html'],
    });
    const cspKeys = Object.keys(headers).filter((k) => k.toLowerCase().startsWith('content-security-policy'));
    expect(cspKeys).toEqual(['Content-Security-Policy']);
    expect(headers['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
    expect(headers['Content-Type']).toEqual(['text/html']);
    expect(withContentSecurityPolicy(undefined)['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
  });
});

describe('app:// scheme', () => {
  it('is standard and secure but neither bypasses the CSP nor runs service workers', () => {
    expect(APP_SCHEME_PRIVILEGES.scheme).toBe(APP_SCHEME);
    expect(APP_SCHEME_PRIVILEGES.privileges?.standard).toBe(true);
    expect(APP_SCHEME_PRIVILEGES.privileges?.secure).toBe(true);
    expect(APP_SCHEME_PRIVILEGES.privileges?.bypassCSP).not.toBe(true);
    expect(APP_SCHEME_PRIVILEGES.privileges?.allowServiceWorkers).not.toBe(true);
  });

  it('serves the entry page from the app origin, not file://', () => {
    expect(APP_ENTRY_URL.startsWith(`${APP_ORIGIN}/`)).toBe(true);
    expect(APP_ORIGIN).toBe('app://console');
  });
});

describe('navigation, new windows, requests, permissions', () => {
  it('allows navigation only inside the app origin', () => {
    expect(isAllowedNavigation('app://console/index.html')).toBe(true);
    expect(isAllowedNavigation('app://console/index.html#/contracts')).toBe(true);
    for (const url of [
      'https://evil.example/',
      'http://console/index.html',
      'file:///etc/passwd',
      'app://evil/index.html',
      'app://console.evil.example/',
      'app://console:8080/index.html',
      'app://user:pw@console/index.html',
      'javascript:alert(1)',
      'about:blank',
      'data:text/html,<script>alert(1)</script>',
      'not a url',
      '',
    ]) {
      expect(isAllowedNavigation(url), url).toBe(false);
    }
  });

  it('cancels every renderer request that leaves the app', () => {
    expect(isAllowedRequest('app://console/assets/index.js')).toBe(true);
    expect(isAllowedRequest('data:image/png;base64,AAAA')).toBe(true);
    expect(isAllowedRequest('blob:app://console/6d0c8e2e-1c1d-4bb4-9b8e-1c2f3a4b5c6d')).toBe(true);
    for (const url of [
      'https://evil.example/x.js',
      'http://127.0.0.1:7575/v2/state/ledger-end',
      'ws://127.0.0.1:1/',
      'file:///etc/passwd',
      'blob:https://evil.example/abc',
    ]) {
      expect(isAllowedRequest(url), url).toBe(false);
    }
  });

  it('denies every window.open', () => {
    expect(windowOpenHandler()).toEqual({ action: 'deny' });
    expect(windowOpenHandler({ url: 'app://console/index.html' } as never)).toEqual({ action: 'deny' });
  });

  it('refuses every permission request and check', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen', 'unknown']) {
      const answers: boolean[] = [];
      permissionRequestHandler({}, permission, (granted) => answers.push(granted));
      expect(answers, permission).toEqual([false]);
      expect(permissionCheckHandler({}, permission, APP_ORIGIN, {}), permission).toBe(false);
    }
  });
});

describe('IPC sender check', () => {
  const mainFrame = (url: string): SenderFrameLike => ({ url, parent: null });

  it("accepts the main frame of the app's own origin", () => {
    expect(isTrustedSender(mainFrame('app://console/index.html'), APP_ORIGIN)).toBe(true);
    expect(isTrustedSender(mainFrame('app://console/'), APP_ORIGIN)).toBe(true);
  });

  it('rejects other origins, file://, subframes and missing frames', () => {
    for (const url of [
      'https://evil.example/',
      'file:///opt/console/dist/renderer/index.html',
      'app://evil/index.html',
      'about:blank',
      'devtools://devtools/bundled/inspector.html',
      '',
    ]) {
      expect(isTrustedSender(mainFrame(url), APP_ORIGIN), url).toBe(false);
    }
    const parent = mainFrame('app://console/index.html');
    expect(isTrustedSender({ url: 'app://console/index.html', parent }, APP_ORIGIN)).toBe(false);
    expect(isTrustedSender(null, APP_ORIGIN)).toBe(false);
    expect(isTrustedSender(undefined, APP_ORIGIN)).toBe(false);
  });

  it('rejects a frame that throws while being torn down', () => {
    const dying = {
      parent: null,
      get url(): string {
        throw new Error('Render frame was disposed before WebFrameMain could be accessed');
      },
    };
    expect(isTrustedSender(dying, APP_ORIGIN)).toBe(false);
  });

  it('answers FORBIDDEN without calling the router for an untrusted sender', async () => {
    const calls: unknown[][] = [];
    const router: Pick<Router, 'invoke'> = {
      invoke: (channel, payload) => {
        calls.push([channel, payload]);
        return Promise.resolve({ ok: true, value: { channel } });
      },
    };
    const refused = await guardedInvoke(router, mainFrame('https://evil.example/'), 'profiles.list', {});
    expect(refused).toEqual({ ok: false, error: objectContaining({ code: 'FORBIDDEN' }) });
    const fromSubframe = await guardedInvoke(router, { url: APP_ENTRY_URL, parent: {} }, 'profiles.list', {});
    expect(fromSubframe.ok).toBe(false);
    expect(calls).toEqual([]);

    const allowed = await guardedInvoke(router, mainFrame(APP_ENTRY_URL), 'profiles.list', { a: 1 });
    expect(allowed).toEqual({ ok: true, value: { channel: 'profiles.list' } });
    expect(calls).toEqual([['profiles.list', { a: 1 }]]);
  });
});

describe('app:// path resolution', () => {
  const root = path.resolve('/opt/console/dist/renderer');

  it('maps app URLs to files inside the renderer root', () => {
    expect(resolveAppPath('app://console/', root)).toBe(path.join(root, 'index.html'));
    expect(resolveAppPath('app://console', root)).toBe(path.join(root, 'index.html'));
    expect(resolveAppPath('app://console/index.html?x=1#/a', root)).toBe(path.join(root, 'index.html'));
    expect(resolveAppPath('app://console/assets/index-Bx1.js', root)).toBe(path.join(root, 'assets', 'index-Bx1.js'));
    expect(resolveAppPath('app://console/assets/my%20font.woff2', root)).toBe(path.join(root, 'assets', 'my font.woff2'));
  });

  it('refuses path traversal in every spelling', () => {
    for (const url of [
      'app://console/../package.json',
      'app://console/assets/../../package.json',
      'app://console/%2e%2e/package.json',
      'app://console/.%2E/package.json',
      'app://console/..%2fpackage.json',
      'app://console/assets/..%2F..%2Fpackage.json',
      'app://console/..%5cpackage.json',
      'app://console/..\\package.json',
      'app://console/%2fetc%2fpasswd',
      'app://console/C:%5cWindows%5cwin.ini',
      'app://console/index.html%00.png',
      'app://console/%E0%A4%A',
      'app://console/./index.html',
    ]) {
      expect(resolveAppPath(url, root), url).toBeNull();
    }
  });

  it('refuses URLs of any other origin', () => {
    for (const url of [
      'app://evil/index.html',
      'https://console/index.html',
      'file:///opt/console/dist/renderer/index.html',
      'app://console:1/index.html',
    ]) {
      expect(resolveAppPath(url, root), url).toBeNull();
    }
  });
});

describe('app:// protocol handler', () => {
  let dir: string;
  let root: string;
  let handler: (request: Request) => Promise<Response>;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'console-protocol-'));
    root = path.join(dir, 'renderer');
    mkdirSync(path.join(root, 'assets'), { recursive: true });
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(path.join(root, 'assets', 'index-abc.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'secret.txt'), 'TOP SECRET');
    symlinkSync(path.join(dir, 'secret.txt'), path.join(root, 'assets', 'link.txt'));
    handler = createAppProtocolHandler(root);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the entry page with the CSP and a strict content type', async () => {
    const res = await handler(new Request('app://console/index.html'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<title>console</title>');
  });

  it('serves module scripts as JavaScript', async () => {
    const res = await handler(new Request('app://console/assets/index-abc.js'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it('answers 404 for missing files, other hosts and symlinks out of the root', async () => {
    for (const url of [
      'app://console/missing.js',
      'app://evil/index.html',
      'app://console/assets/link.txt',
      'app://console/assets/..%2F..%2Fsecret.txt',
    ]) {
      const res = await handler(new Request(url));
      expect(res.status, url).toBe(404);
      expect(await res.text(), url).not.toContain('TOP SECRET');
    }
  });

  it('refuses methods other than GET and HEAD', async () => {
    const res = await handler(new Request('app://console/index.html', { method: 'POST', body: 'x' }));
    expect(res.status).toBe(405);
  });
});
