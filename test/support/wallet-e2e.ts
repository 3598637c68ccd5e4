/**
 * What the wallet specs share: each spec's own console process (its own data dir, port and keychain service), the
 * validator's own HTTP API to check effects against, and the wallet view's navigation.
 */
import { test, expect, type Page } from '@playwright/test';
import { Entry } from '@napi-rs/keyring';
import { mintDemoToken } from '../../src/services/wallet/demo-token.js';
import { startConsoleProcess, type ConsoleProcess } from './console-process.js';
import { simulatorUrl, waitForSimulatorUrl } from './e2e.js';
import { must } from './must.js';

export interface WalletConsole {
  /** The spec's console process, started in its beforeAll. */
  proc: () => ConsoleProcess;
  /** Fingerprints of the keys the spec created in the keychain: deleted after the spec. */
  keys: string[];
  /** The validator's own answer for a wallet user (demo tokens: the simulator decodes, does not verify). */
  validator: <T>(user: string, path: string) => Promise<T>;
  /** The user's unlocked coin, as the validator reports it. */
  unlocked: (user: string) => Promise<number>;
  openWallet: (page: Page) => Promise<void>;
}

/** Starts a console process for the calling spec (beforeAll) and stops it and deletes its keys afterwards (afterAll). */
export function useWalletConsole(): WalletConsole {
  let started: ConsoleProcess | undefined;
  const keys: string[] = [];
  test.beforeAll(async () => {
    started = await startConsoleProcess();
    await waitForSimulatorUrl(started);
  });
  test.afterAll(async () => {
    if (!started) return;
    for (const fp of keys) {
      try {
        new Entry(started.keychainService, `signing-key:${fp}`).deletePassword();
      } catch {
        // deleted already
      }
    }
    await started.stop();
  });
  const proc = () => must(started, 'the console process of this spec');
  const validator = async <T>(user: string, p: string): Promise<T> => {
    const res = await fetch(`${simulatorUrl(proc())}/api/validator${p}`, {
      headers: { authorization: `Bearer ${mintDemoToken(user)}` },
    });
    if (!res.ok) throw new Error(`${p}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    proc,
    keys,
    validator,
    unlocked: async (user) =>
      Number((await validator<{ effective_unlocked_qty: string }>(user, '/v0/wallet/balance')).effective_unlocked_qty),
    openWallet: async (page) => {
      await page.goto(proc().url);
      await page
        .getByRole('link', { name: /^Wallet/ })
        .first()
        .click();
      await expect(page.getByTestId('wallet')).toBeVisible();
    },
  };
}

export async function selectUser(page: Page, user: string): Promise<void> {
  await page.getByTestId('wallet-user').selectOption(user);
}

export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}
