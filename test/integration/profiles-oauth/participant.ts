/**
 * The OAuth2 profile tests' fixture: the simulator started with HS256 JWT auth, a local OAuth2 token endpoint that
 * signs its tokens with the simulator's secret, a user with rights on the simulator for the issued tokens' subject,
 * and the real composition (startConsoleApp: contract router, SQLite on disk, the real OS keychain under a service
 * of its own). Each test file starts its own; the keychain entries it names are deleted after the file.
 */
import { afterAll, beforeAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Entry } from '@napi-rs/keyring';
import { startConsoleApp, type ConsoleApp } from '../../../src/app/console-app.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import type { ChannelName, Request, Response } from '../../../src/ipc/contract.js';
import type { IpcError } from '../../../src/ipc/errors.js';
import { startDownloads, type Downloads } from '../../support/exports.js';
import { must } from '../../support/must.js';
import { signHs256, startOAuth2Server, type RunningOAuth2Server } from '../../support/oauth2-server.js';

const JWT_SECRET = 'simulator-and-idp-shared-hs256-secret';
export const AUDIENCE = 'https://daml.com/jwt/aud/participant/sim-oauth-test';
export const CLIENT_SECRET = 'oauth-client-secret-7c1e9a';
/** The subject of the tokens the endpoint issues to the console's client. */
export const USER = 'ops-user';

type OAuthAuth = Extract<NonNullable<Request<'profiles.save'>['auth']>, { mode: 'oauth2-client-credentials' }>;

export class OAuthParticipant {
  /** The keychain service the console keeps its secrets under (unique per run, so a user's entries are never touched). */
  readonly service: string;
  #dir: string | undefined;
  #simDir: string | undefined;
  #sim: RunningSimulator | undefined;
  #idp: RunningOAuth2Server | undefined;
  #app: ConsoleApp | undefined;
  #downloads: Downloads | undefined;
  #party: string | undefined;
  readonly #accounts = new Set<string>();

  constructor(name: string) {
    this.service = `canton-console-test-${name}-${process.pid}-${Date.now()}`;
  }

  /** The console's data directory. */
  get dir(): string {
    return must(this.#dir, 'the data directory (made in beforeAll)');
  }
  get sim(): RunningSimulator {
    return must(this.#sim, 'the simulator (started in beforeAll)');
  }
  get idp(): RunningOAuth2Server {
    return must(this.#idp, 'the token endpoint (started in beforeAll)');
  }
  get app(): ConsoleApp {
    return must(this.#app, 'the console (started in beforeAll)');
  }
  get downloads(): Downloads {
    return must(this.#downloads, 'the downloads server (started in beforeAll)');
  }
  /** The user's primary party, with act-as and read-as rights. */
  get party(): string {
    return must(this.#party, 'the user party (allocated in beforeAll)');
  }

  async start(): Promise<void> {
    this.#dir = mkdtempSync(path.join(os.tmpdir(), 'profiles-oauth-'));
    this.#simDir = mkdtempSync(path.join(os.tmpdir(), 'profiles-oauth-sim-'));
    this.#sim = await startSimulator({ dataDir: this.#simDir, port: 0, auth: { mode: 'hs256', secret: JWT_SECRET, audience: AUDIENCE } });
    this.#idp = await startOAuth2Server({ clients: { console: { secret: CLIENT_SECRET, subject: USER } }, signingSecret: JWT_SECRET });
    const party = (await this.simAdmin<{ partyDetails: { party: string } }>('/v2/parties', { partyIdHint: `OAuthOps${Date.now()}` }))
      .partyDetails.party;
    this.#party = party;
    await this.simAdmin('/v2/users', {
      user: { id: USER, primaryParty: party, isDeactivated: false, identityProviderId: '' },
      // The dashboard reads participant-wide state (participant admins only); a party-wildcard update
      // stream needs CanReadAsAnyParty.
      rights: [
        { kind: { CanActAs: { value: { party } } } },
        { kind: { CanReadAs: { value: { party } } } },
        { kind: { ParticipantAdmin: { value: {} } } },
        { kind: { CanReadAsAnyParty: { value: {} } } },
      ],
    });
    this.#downloads = await startDownloads();
    this.#app = await startConsoleApp({
      dataDir: this.#dir,
      demo: false,
      transport: 'browser-host',
      keychainService: this.service,
      exportSink: this.#downloads.sink,
    });
  }

  async stop(): Promise<void> {
    // unassigned when beforeAll failed before starting them
    const started: Array<{ close(): Promise<void> } | undefined> = [this.#app, this.#sim, this.#idp, this.#downloads];
    for (const s of started) await s?.close();
    for (const a of this.#accounts) new Entry(this.service, a).deletePassword();
    for (const d of [this.#dir, this.#simDir]) if (d) rmSync(d, { recursive: true, force: true });
  }

  /** A participant admin's token, signed with the simulator's secret. */
  readonly adminToken = () => signHs256({ sub: 'participant_admin', aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 }, JWT_SECRET);

  /** A request to the simulator as a participant admin (setting up the ledger, not what is tested). */
  readonly simAdmin = async <T>(p: string, body: unknown): Promise<T> => {
    const res = await fetch(this.sim.url + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.adminToken()}` },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };

  readonly call = async <C extends ChannelName>(channel: C, req: Request<C>): Promise<Response<C>> => {
    const r = await this.app.router.invoke(channel, req);
    if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
    return r.value as Response<C>;
  };

  readonly callError = async <C extends ChannelName>(channel: C, req: Request<C>): Promise<IpcError> => {
    const r = await this.app.router.invoke(channel, req);
    if (r.ok) throw new Error(`${channel} unexpectedly succeeded`);
    return r.error;
  };

  /** A profile for the simulator that gets its tokens from the local endpoint (client credentials). */
  readonly oauthProfile = (extra: Partial<OAuthAuth> = {}) => ({
    name: 'JWT participant',
    ledgerApiUrl: this.sim.url,
    auth: {
      mode: 'oauth2-client-credentials' as const,
      tokenUrl: this.idp.tokenUrl,
      clientId: 'console',
      audience: AUDIENCE,
      clientSecret: CLIENT_SECRET,
      ...extra,
    },
  });

  /** The console's keychain entry `account` (null when absent); deleted after the file. */
  readonly keychain = (account: string) => {
    this.forget(account);
    return new Entry(this.service, account).getPassword();
  };

  /** A keychain account a test made the console write: deleted after the file. */
  readonly forget = (...accounts: string[]) => {
    for (const a of accounts) this.#accounts.add(a);
  };

  /**
   * The endpoint's next answer is a token for the user signed with another key: the participant refuses it (as after
   * a key rotation). The record of token requests starts empty.
   */
  readonly failNextWithForgedToken = (key: string) => {
    const forged = signHs256({ sub: USER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 3600 }, key);
    this.idp.failNext({ kind: 'status', status: 200, body: { access_token: forged, token_type: 'Bearer', expires_in: 3600 } });
    this.idp.requests.length = 0;
  };
}

/** The participant, token endpoint and console for one test file, started before its tests and cleaned up after. */
export function useOAuthParticipant(name: string): OAuthParticipant {
  const env = new OAuthParticipant(name);
  beforeAll(() => env.start());
  afterAll(() => env.stop());
  return env;
}
