/**
 * What the signing specs share: each spec's own console processes (an online demo console and, where the spec signs
 * air-gapped, a `--no-demo` one; each with its own data dir, port and keychain service), the keys it made in the real
 * keychain (deleted after the spec), screenshots of whole pages in both themes and the navigation.
 */
import { test, type Browser, type Page } from '@playwright/test';
import { Entry } from '@napi-rs/keyring';
import { startConsoleProcess, type ConsoleProcess } from './console-process.js';
import { callSimulator } from './e2e.js';
import { must } from './must.js';

export interface SigningConsoles {
  /** The spec's online console (demo mode: the embedded simulator), started in its beforeAll. */
  online: () => ConsoleProcess;
  /** The spec's air-gapped console (`--no-demo`); only when asked for. */
  air: () => ConsoleProcess;
  /** Keys the spec created, by keychain service and fingerprint: deleted from the keychain after the spec. */
  keys: Array<[service: string, fp: string]>;
  /** GET or POST to the online console's embedded simulator. */
  sim: <T>(path: string, body?: unknown) => Promise<T>;
  /** A local party allocated on the simulator. */
  allocate: (hint: string) => Promise<string>;
}

/** Starts the calling spec's consoles (beforeAll); stops them and deletes the spec's keys afterwards (afterAll). */
export function useSigningConsoles(opts: { airGapped: boolean }): SigningConsoles {
  let online: ConsoleProcess | undefined;
  let air: ConsoleProcess | undefined;
  const keys: Array<[service: string, fp: string]> = [];
  test.beforeAll(async () => {
    [online, air] = await Promise.all([
      startConsoleProcess(),
      opts.airGapped ? startConsoleProcess(['--no-demo']) : Promise.resolve(undefined),
    ]);
  });
  test.afterAll(async () => {
    for (const [service, fp] of keys) {
      try {
        new Entry(service, `signing-key:${fp}`).deletePassword();
      } catch {
        // already deleted by the test
      }
    }
    await online?.stop();
    await air?.stop();
  });
  const sim = <T>(path: string, body?: unknown) => callSimulator<T>(must(online, 'the online console'), path, body);
  return {
    online: () => must(online, 'the online console of this spec'),
    air: () => must(air, 'the air-gapped console of this spec'),
    keys,
    sim,
    allocate: async (hint) =>
      (await sim<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: hint, identityProviderId: '' })).partyDetails.party,
  };
}

/** Whole-page screenshots `<prefix>-<name>-light.png` and `-dark.png` (the theme follows prefers-color-scheme). */
export function fullPageShots(prefix: string): (page: Page, name: string) => Promise<void> {
  return async (page, name) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: `test/e2e/screenshots/${prefix}-${name}-light.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `test/e2e/screenshots/${prefix}-${name}-dark.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
  };
}

/** Opens a view from the navigation. */
export async function go(page: Page, name: RegExp): Promise<void> {
  await page.getByRole('link', { name }).first().click();
}

/** A page on each console, the online one (`on`) and the air-gapped one (`off`), each at its start page. */
export async function openBoth(browser: Browser, consoles: SigningConsoles): Promise<{ on: Page; off: Page }> {
  const [on, off] = await Promise.all([browser.newPage(), browser.newPage()]);
  await on.goto(consoles.online().url);
  await off.goto(consoles.air().url);
  return { on, off };
}
