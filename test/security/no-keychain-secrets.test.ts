/**
 * Issue #13 item 11: on a machine without a Secret Service, saving a bearer-token profile said "Token stored in OS
 * keychain" and the Test then failed with KEYCHAIN_UNAVAILABLE. Here the real console runs with a D-Bus address that
 * leads nowhere (no keychain at all). It must say so (profiles.secretStores), refuse to claim a keychain it cannot
 * use (nothing saved), and keep a bearer token or an OAuth2 client secret in the passphrase-encrypted secret file when
 * the operator chooses it — then Test passes against a participant that checks tokens, also after a restart once the
 * file is unlocked. No secret reaches SQLite, the process output or an IPC answer.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IpcCallError, type ConsoleClient } from '../../src/ipc/client.js';
import type { ConsoleError, IpcError } from '../../src/ipc/errors.js';
import { openAppDb } from '../../src/services/app-db.js';
import { ProfileService } from '../../src/services/profiles.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import type { ConsoleProcess } from '../support/console-process.js';
import { withConsoleClient } from '../support/console-ipc.js';
import { signHs256, startOAuth2Server, type RunningOAuth2Server } from '../support/oauth2-server.js';
import { startConsole } from './net-helpers.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

const JWT_SECRET = 'no-keychain-test-shared-hs256-secret';
const AUDIENCE = 'https://daml.com/jwt/aud/participant/no-keychain';
const CLIENT_SECRET = 'no-keychain-client-secret-5d21';
const PASSPHRASE = 'correct horse battery staple 13';
const adminToken = signHs256({ sub: 'participant_admin', aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 3600 }, JWT_SECRET);

/** No Secret Service: the session bus address points at a socket that does not exist. */
const NO_KEYCHAIN_ENV: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/no-secret-service' };

let dataDir: string;
let simDir: string;
let sim: RunningSimulator;
let idp: RunningOAuth2Server;
let proc: ConsoleProcess;
const start = () => startConsole([], { dataDir, env: NO_KEYCHAIN_ENV });

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'no-keychain-'));
  simDir = mkdtempSync(path.join(os.tmpdir(), 'no-keychain-sim-'));
  sim = await startSimulator({ dataDir: simDir, port: 0, auth: { mode: 'hs256', secret: JWT_SECRET, audience: AUDIENCE } });
  idp = await startOAuth2Server({
    clients: { console: { secret: CLIENT_SECRET, subject: 'participant_admin' } },
    signingSecret: JWT_SECRET,
  });
  proc = await start();
}, 60_000);
afterAll(async () => {
  await ifAssigned(proc)?.stop();
  await ifAssigned(sim)?.close();
  await ifAssigned(idp)?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(simDir, { recursive: true, force: true });
});

const ipc = <T>(use: (c: ConsoleClient) => Promise<T>): Promise<T> => withConsoleClient(proc, use);
async function failure(p: Promise<unknown>): Promise<IpcError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof IpcCallError) return err.error;
    throw err;
  }
  throw new Error('expected the call to fail');
}

describe('connection secrets on a machine without a keychain', () => {
  it('the console says the OS keychain is not available', async () => {
    const state = await ipc((c) => c.call('profiles.secretStores', {}));
    expect(state.osKeychain.available).toBe(false);
    expect(state.osKeychain.problem).toMatch(/Secret Service|keychain/i);
    expect(state.encryptedFile).toEqual({ exists: false, unlocked: false });
  });

  it('saving a token "in the OS keychain" fails with KEYCHAIN_UNAVAILABLE and saves nothing', async () => {
    const err = await failure(
      ipc((c) => c.call('profiles.save', { name: 'Keychain', ledgerApiUrl: sim.url, auth: { mode: 'static', token: adminToken } })),
    );
    expect(err.code).toBe('KEYCHAIN_UNAVAILABLE');
    const list = await ipc((c) => c.call('profiles.list', {}));
    expect(list.profiles.map((p) => p.name)).not.toContain('Keychain');
  });

  it('the encrypted file needs a passphrase; with one it keeps the token, and Test passes', async () => {
    const locked = await failure(
      ipc((c) =>
        c.call('profiles.save', {
          name: 'File',
          ledgerApiUrl: sim.url,
          auth: { mode: 'static', token: adminToken, secretStore: 'encrypted-file' },
        }),
      ),
    );
    expect(locked.code).toBe('BAD_REQUEST');
    expect(locked.issues?.map((i) => i.path)).toContain('auth.passphrase');

    const saved = await ipc((c) =>
      c.call('profiles.save', {
        name: 'File',
        ledgerApiUrl: sim.url,
        auth: { mode: 'static', token: adminToken, secretStore: 'encrypted-file', passphrase: PASSPHRASE },
      }),
    );
    expect(saved.auth).toEqual({ mode: 'static', hasToken: true, secretStore: 'encrypted-file' });
    expect(statSync(path.join(dataDir, 'keys.enc.json')).mode & 0o777).toBe(0o600);
    const test = await ipc((c) => c.call('profiles.test', { id: saved.id }));
    expect(test.ok, JSON.stringify(test)).toBe(true);
    expect(test.user).toMatchObject({ status: 'ok', userId: 'participant_admin' });
  });

  it('an OAuth2 client secret goes to the encrypted file too, and Test obtains a token with it', async () => {
    const saved = await ipc((c) =>
      c.call('profiles.save', {
        name: 'OAuth file',
        ledgerApiUrl: sim.url,
        auth: {
          mode: 'oauth2-client-credentials',
          tokenUrl: idp.tokenUrl,
          clientId: 'console',
          audience: AUDIENCE,
          clientSecret: CLIENT_SECRET,
          secretStore: 'encrypted-file',
        },
      }),
    );
    expect(saved.auth).toMatchObject({ mode: 'oauth2-client-credentials', hasClientSecret: true, secretStore: 'encrypted-file' });
    const test = await ipc((c) => c.call('profiles.test', { id: saved.id }));
    expect(test.ok, JSON.stringify(test)).toBe(true);
  });

  it('after a restart the file is locked: Test says so; unlocked (wrong passphrase refused), Test passes again', async () => {
    await proc.stop();
    proc = await start();
    const { profiles } = await ipc((c) => c.call('profiles.list', {}));
    const file = must(
      profiles.find((p) => p.name === 'File'),
      "profiles.find((p) => p.name === 'File')",
    );
    expect(file.auth).toEqual({ mode: 'static', hasToken: true, secretStore: 'encrypted-file' });
    const lockedTest = await ipc((c) => c.call('profiles.test', { id: file.id }));
    expect(lockedTest.ok).toBe(false);
    expect(lockedTest.token).toMatchObject({ status: 'failed', error: { code: 'FORBIDDEN' } });
    expect(JSON.stringify(lockedTest.token)).toMatch(/locked/i);

    const wrong = await failure(ipc((c) => c.call('profiles.unlockSecretFile', { passphrase: 'not the passphrase at all' })));
    expect(wrong.code).toBe('FORBIDDEN');
    const state = await ipc((c) => c.call('profiles.unlockSecretFile', { passphrase: PASSPHRASE }));
    expect(state.encryptedFile).toEqual({ exists: true, unlocked: true });
    expect((await ipc((c) => c.call('profiles.test', { id: file.id }))).ok).toBe(true);
  }, 60_000);

  it('the secrets are nowhere but in the encrypted file', async () => {
    const sqlite = ['console.sqlite', 'console.sqlite-wal']
      .map((f) => path.join(dataDir, f))
      .map((f) => {
        try {
          return readFileSync(f).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');
    const keyFile = readFileSync(path.join(dataDir, 'keys.enc.json'), 'utf8');
    const answers = JSON.stringify(await ipc((c) => c.call('profiles.list', {})));
    for (const secret of [adminToken, CLIENT_SECRET]) {
      expect(sqlite).not.toContain(secret);
      expect(keyFile).not.toContain(secret);
      expect(answers).not.toContain(secret);
      expect(proc.output()).not.toContain(secret);
    }
  });
});

describe('a keychain that accepts a write but returns nothing (as some locked Secret Services do)', () => {
  /** Stands in for such a keychain: the real one here either works or refuses both. */
  class WriteOnlyKeychain {
    writes = 0;
    get(): Promise<string | null> {
      return Promise.resolve(null);
    }
    set(): Promise<void> {
      this.writes++;
      return Promise.resolve();
    }
    delete(): Promise<boolean> {
      return Promise.resolve(true);
    }
  }

  it('the profile does not claim a stored token: the save fails with KEYCHAIN_UNAVAILABLE and nothing is saved', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'write-only-keychain-'));
    const db = openAppDb(dir);
    try {
      const keychain = new WriteOnlyKeychain();
      const profiles = new ProfileService(db, keychain, null);
      const err = await profiles
        .save({ name: 'Write only', ledgerApiUrl: 'http://127.0.0.1:1', validatorApiUrl: null, auth: { mode: 'static', token: 'a-token' } })
        .then(
          () => undefined,
          (e: unknown) => e as ConsoleError,
        );
      expect(keychain.writes).toBe(1);
      expect(err?.code).toBe('KEYCHAIN_UNAVAILABLE');
      expect(err?.message).toContain('accepted the secret but does not return it');
      expect(profiles.list()).toEqual([]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
