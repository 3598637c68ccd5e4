/**
 * KeychainSecretStore keeps one Secret Service session per account (a new one costs a D-Bus connection and a
 * Diffie-Hellman OpenSession, most of what a signature used to cost) while still reading the real keychain at every
 * call. Against the real gnome-keyring under dbus-run-session; the D-Bus traffic is watched with dbus-monitor.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AsyncEntry, Entry } from '@napi-rs/keyring';
import { KeychainSecretStore } from '../../../src/services/secret-store.js';
import { must } from '../../support/must.js';

const SERVICE = `canton-console-test-session-${process.pid}-${Date.now()}`;
const monitors: ChildProcess[] = [];
const scratch = mkdtempSync(path.join(os.tmpdir(), 'keychain-session-'));
let busPid = 0;

// A private session bus with its own unlocked gnome-keyring for this file: the monitor below counts every
// OpenSession on the bus, and other test files running in parallel use the shared bus's keyring.
beforeAll(() => {
  const [address, pid] = execFileSync('dbus-daemon', ['--session', '--fork', '--print-address=1', '--print-pid=1'], {
    encoding: 'utf8',
  }).split('\n');
  process.env.DBUS_SESSION_BUS_ADDRESS = must(address, "dbus-daemon's bus address").trim();
  busPid = Number(pid);
  execFileSync('gnome-keyring-daemon', ['--unlock', '--components=secrets'], {
    input: 'test',
    env: { ...process.env, XDG_DATA_HOME: scratch },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
});

afterAll(() => {
  for (const m of monitors) m.kill('SIGTERM');
  for (const account of ['a', 'b']) new Entry(SERVICE, account).deletePassword();
  if (busPid > 0) process.kill(busPid, 'SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('KeychainSecretStore sessions', () => {
  it('reads every call from the keychain, so changes made outside the kept session are seen', async () => {
    const store = new KeychainSecretStore(SERVICE);
    await store.set('a', 'one');
    expect(await store.get('a')).toBe('one');
    new Entry(SERVICE, 'a').setPassword('two');
    expect(await store.get('a')).toBe('two');
    new Entry(SERVICE, 'a').deletePassword();
    expect(await store.get('a')).toBeNull();
    await store.set('a', 'three');
    expect(new Entry(SERVICE, 'a').getPassword()).toBe('three');
    expect(await Promise.all(Array.from({ length: 8 }, () => store.get('a')))).toEqual(Array(8).fill('three'));
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
  });

  it('opens no new Secret Service session per read', async () => {
    const store = new KeychainSecretStore(SERVICE);
    await store.set('b', 'seed');
    let sessions = 0;
    const mon = spawn('dbus-monitor', ['--session', "type='method_call',interface='org.freedesktop.Secret.Service',member='OpenSession'"]);
    monitors.push(mon);
    mon.stdout.on('data', (d: Buffer) => (sessions += d.toString().match(/member=OpenSession/g)?.length ?? 0));
    // a fresh entry opens a session: once the monitor reports one, it is watching
    const fresh = () => new AsyncEntry(SERVICE, 'b').getPassword();
    await until(async () => (await fresh()) === 'seed' && sessions > 0, 'dbus-monitor to see an OpenSession');
    const before = sessions;
    for (let i = 0; i < 20; i++) expect(await store.get('b')).toBe('seed');
    // the bus delivers in order: when the monitor has seen this last fresh entry's session, it has seen the reads'
    await fresh();
    await until(() => sessions >= before + 1, 'the last OpenSession');
    expect(sessions - before).toBe(1);
  });
});
