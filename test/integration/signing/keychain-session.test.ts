/**
 * KeychainSecretStore keeps one Secret Service session per account (a new one costs a D-Bus connection and a
 * Diffie-Hellman OpenSession, most of what a signature used to cost) while still reading the real keychain at every
 * call. Against the real gnome-keyring under dbus-run-session; the D-Bus traffic is watched with dbus-monitor.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { AsyncEntry, Entry } from '@napi-rs/keyring';
import { KeychainSecretStore } from '../../../src/services/secret-store.js';

const SERVICE = `canton-console-test-session-${process.pid}-${Date.now()}`;
const monitors: ChildProcess[] = [];

afterAll(() => {
  for (const m of monitors) m.kill('SIGTERM');
  for (const account of ['a', 'b']) new Entry(SERVICE, account).deletePassword();
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
