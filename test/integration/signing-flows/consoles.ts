/**
 * The signing integration tests' fixture: an online console (the real composition with its embedded demo simulator
 * over HTTP, the real keychain) and, when a test file asks for it, a second console without network as the air-gapped
 * signer. Each test file starts its own pair, so no file depends on state another file left behind. Every answer
 * that crosses the contract and every console.* line is recorded, for the check that no private key byte leaks.
 */
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Entry } from '@napi-rs/keyring';
import { startConsoleApp, type ConsoleApp } from '../../../src/app/console-app.js';
import type { ChannelName, Request, Response, SigningPolicyWire } from '../../../src/ipc/contract.js';
import type { IpcError } from '../../../src/ipc/errors.js';
import { secretAccount } from '../../../src/services/signing/key-store.js';
import { startDownloads, type Downloads } from '../../support/exports.js';
import { must } from '../../support/must.js';

export const IOU = '#simulator-demo:Demo.Iou:Iou';

/** The command that creates an Iou (the demo package's template), as the Compose form sends it. */
export const createIouCommand = (issuer: string, owner: string, currency: string, amount: string) =>
  ({
    kind: 'create',
    templateId: IOU,
    argumentsJson: JSON.stringify({ issuer, owner, currency, amount, observers: [] }),
  }) as const;

/** The command that hands an Iou to a new owner. */
export const transferIou = (contractId: string, newOwner: string) =>
  ({ kind: 'exercise', templateId: IOU, contractId, choice: 'Iou_Transfer', argumentsJson: JSON.stringify({ newOwner }) }) as const;

/** A policy that allows everything: tests change the one rule they are about. */
export const OPEN_POLICY: SigningPolicyWire = {
  allowedTemplates: null,
  allowedChoices: null,
  allowedCounterparties: null,
  maxAmountPerTransaction: null,
  requireOfflineConfirmation: false,
  allowBlindSigning: true,
  quorum: null,
};

/** One console of the pair: its app once started, its keychain service and data directory, and typed calls. */
export class SigningConsole {
  #app: ConsoleApp | undefined;
  #downloads: Downloads | undefined;

  constructor(
    readonly role: 'online' | 'air-gapped',
    /** The keychain service its keys live under (unique per run, so a user's entries are never touched). */
    readonly service: string,
    readonly dataDir: string,
    private readonly wire: string[],
  ) {}

  get app(): ConsoleApp {
    return must(this.#app, `the ${this.role} console (started in beforeAll)`);
  }
  get started(): boolean {
    return this.#app !== undefined;
  }

  async start(downloads: Downloads): Promise<void> {
    this.#downloads = downloads;
    this.#app = await startConsoleApp({
      exportSink: downloads.sink,
      dataDir: this.dataDir,
      demo: this.role === 'online',
      transport: 'browser-host',
      keychainService: this.service,
    });
  }

  /** The answer's value; a refusal throws with its code (and carries the IPC error as `ipc`). */
  async call<C extends ChannelName>(channel: C, req: Request<C>): Promise<Response<C>> {
    const r = await this.app.router.invoke(channel, req);
    this.wire.push(JSON.stringify(r));
    if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.code} ${r.error.message}`), { ipc: r.error });
    return r.value as Response<C>;
  }

  /** The IPC error of a request that must be refused (the request is untyped: it may be deliberately malformed). */
  async callError(channel: ChannelName, req: unknown): Promise<IpcError> {
    const r = await this.app.router.invoke(channel, req);
    this.wire.push(JSON.stringify(r));
    if (r.ok) throw new Error(`${channel} unexpectedly succeeded`);
    return r.error;
  }

  /** A sealed file (key backup, policy file) as the operator gets it: through exports.run and the browser download. */
  exportFile(kind: 'keys.backup' | 'policy', req: { fingerprints: string[]; passphrase: string }) {
    return must(this.#downloads, 'the downloads server').run(this.app.router, { kind, ...req });
  }

  async fingerprints(): Promise<string[]> {
    return (await this.call('signing.keys.list', {})).keys.map((k) => k.fingerprint);
  }

  /** Removes its keys from the keychain and closes; nothing to do when beforeAll failed before starting it. */
  async close(): Promise<void> {
    if (!this.#app) return;
    const keys = await this.#app.router.invoke('signing.keys.list', {});
    for (const k of keys.ok ? (keys.value as Response<'signing.keys.list'>).keys : []) {
      new Entry(this.service, secretAccount(k.fingerprint)).deletePassword();
    }
    await this.#app.close();
  }
}

export interface Onboarded {
  party: string;
  /** The first key, as created (fingerprint, public key, label). */
  key: Response<'signing.keys.create'>;
  /** All the party's key fingerprints, the first key's first. */
  keys: string[];
}

export class SigningConsoles {
  /** Every answer and event that crossed the contract, for the leak check. */
  readonly wire: string[] = [];
  readonly consoleOut: string[] = [];
  readonly online: SigningConsole;
  readonly air: SigningConsole;
  readonly #dir: string;
  #downloads: Downloads | undefined;
  #commands = 0;

  constructor(readonly name: string) {
    this.#dir = mkdtempSync(path.join(os.tmpdir(), `${name}-`));
    const unique = `${process.pid}-${Date.now()}`;
    this.online = new SigningConsole('online', `${name}-a-${unique}`, path.join(this.#dir, 'online'), this.wire);
    this.air = new SigningConsole('air-gapped', `${name}-b-${unique}`, path.join(this.#dir, 'air'), this.wire);
  }

  get downloads(): Downloads {
    return must(this.#downloads, 'the downloads server (started in beforeAll)');
  }

  async start(withAir: boolean): Promise<void> {
    for (const m of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const orig = console[m].bind(console);
      vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
        // JSON.stringify answers undefined (which its type does not say) for undefined and functions
        this.consoleOut.push(
          args.map((a) => (typeof a === 'string' ? a : ((JSON.stringify(a) as string | undefined) ?? String(a)))).join(' '),
        );
        orig(...args);
      });
    }
    this.#downloads = await startDownloads();
    await this.online.start(this.#downloads);
    if (withAir) await this.air.start(this.#downloads);
  }

  async stop(): Promise<void> {
    vi.restoreAllMocks();
    await this.online.close();
    await this.air.close();
    rmSync(this.#dir, { recursive: true, force: true });
    await this.#downloads?.close();
  }

  ledgerUrl(): string {
    return must(this.online.app.demoLedgerUrl, "the online console's demo ledger URL");
  }

  /** A request straight to the online console's simulator (setting up the ledger, or checking what reached it). */
  async sim<T>(p: string, body?: unknown): Promise<T> {
    const res = await fetch(
      this.ledgerUrl() + p,
      body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  async allocate(hint: string): Promise<string> {
    return (await this.sim<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: hint })).partyDetails.party;
  }

  /** An Iou the issuer creates for the owner directly on the simulator: a contract for the console to act on. */
  async createIou(issuer: string, owner: string, amount: string): Promise<string> {
    const r = await this.sim<{ transaction: { events: Array<{ CreatedEvent?: { contractId: string } }> } }>(
      '/v2/commands/submit-and-wait-for-transaction',
      {
        commands: {
          commandId: `${this.name}-iou-${process.pid}-${++this.#commands}`,
          actAs: [issuer],
          commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer, owner, currency: 'USD', amount, observers: [] } } }],
        },
      },
    );
    return must(r.transaction.events.find((e) => e.CreatedEvent)?.CreatedEvent, 'a created Iou').contractId;
  }

  /** An external party onboarded online with new keychain keys (threshold 1), for tests about what comes after. */
  async onboard(label: string, hint: string, extra: string[] = []): Promise<Onboarded> {
    const key = await this.online.call('signing.keys.create', { label, backend: 'os-keychain' });
    const extraKeys: string[] = [];
    for (const l of extra)
      extraKeys.push((await this.online.call('signing.keys.create', { label: l, backend: 'os-keychain' })).fingerprint);
    const onb = await this.online.call('signing.onboard.prepare', {
      fingerprint: key.fingerprint,
      partyHint: hint,
      extraFingerprints: extraKeys,
      signingThreshold: 1,
    });
    if (onb.status !== 'verified') throw new Error(onb.message);
    const done = await this.online.call('signing.onboard.confirm', { sessionId: onb.sessionId });
    if (done.status !== 'allocated') throw new Error(done.message);
    return { party: done.partyId, key, keys: [key.fingerprint, ...extraKeys] };
  }

  /**
   * No private key of either console, whole or as a 12-byte window, in any answer that crossed the contract or in the
   * console output. The seeds are read where they are (the keychain), so the check can fail.
   */
  async expectNoKeyLeak(least: { keys: number; answers: number }): Promise<void> {
    const keys: Array<readonly [string, string]> = [];
    for (const c of [this.online, this.air]) {
      if (c.started) for (const fp of await c.fingerprints()) keys.push([c.service, fp] as const);
    }
    expect(keys.length).toBeGreaterThanOrEqual(least.keys);
    const needles: string[] = [];
    for (const [service, fp] of keys) {
      const stored = new Entry(service, secretAccount(fp)).getPassword();
      expect(stored, fp).toMatch(/^ed25519-seed:v1:/);
      const seed = Buffer.from(must(stored, `the stored key ${fp}`).slice('ed25519-seed:v1:'.length), 'base64');
      expect(seed).toHaveLength(32);
      needles.push(seed.toString('hex'), seed.toString('base64').replace(/=+$/, ''), seed.toString('base64url'));
      // also any 12+ byte window (partial leaks), in hex
      for (let i = 0; i + 12 <= 32; i += 10) needles.push(seed.subarray(i, i + 12).toString('hex'));
    }
    expect(this.wire.length).toBeGreaterThan(least.answers);
    const haystack = (this.wire.join('\n') + '\n' + this.consoleOut.join('\n')).toLowerCase();
    for (const n of needles) expect(haystack.includes(n.toLowerCase()), 'a private key leaked').toBe(false);
    expect(needles.length).toBeGreaterThan(0);
  }
}

/** The pair for one test file, started before its tests and cleaned up after (keychain entries, directories). */
export function useSigningConsoles(name: string, opts: { air: boolean }): SigningConsoles {
  const consoles = new SigningConsoles(name);
  beforeAll(() => consoles.start(opts.air), 60_000);
  afterAll(() => consoles.stop());
  return consoles;
}
