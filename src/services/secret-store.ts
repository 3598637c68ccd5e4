/**
 * Secrets (bearer tokens now, signing keys later) live only in the OS keychain. One interface,
 * the OS keychain as default backend through @napi-rs/keyring (maintained, N-API prebuilt).
 */
import { AsyncEntry, Entry } from '@napi-rs/keyring';
import { ConsoleError } from '../ipc/errors.js';

export interface SecretStore {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

function keychainError(op: string, err: unknown): ConsoleError {
  const detail = err instanceof Error ? err.message : String(err);
  const hint = /dbus|autolaunch|AccessDenied|org\.freedesktop/i.test(detail)
    ? ' — no Secret Service is reachable (on Linux run a keyring daemon such as gnome-keyring inside a D-Bus session)'
    : '';
  return new ConsoleError('KEYCHAIN_UNAVAILABLE', `OS keychain ${op} failed: ${detail}${hint}`);
}

export class KeychainSecretStore implements SecretStore {
  constructor(private readonly service: string) {}

  async get(account: string): Promise<string | null> {
    try {
      // async: the Secret Service round trip (several ms over D-Bus) runs off the main thread, so it neither blocks
      // the event loop nor keeps a signature from overlapping the key read with verification
      return (await new AsyncEntry(this.service, account).getPassword()) ?? null;
    } catch (err) {
      throw keychainError('read', err);
    }
  }

  async set(account: string, secret: string): Promise<void> {
    try {
      new Entry(this.service, account).setPassword(secret);
    } catch (err) {
      throw keychainError('write', err);
    }
  }

  async delete(account: string): Promise<boolean> {
    try {
      return new Entry(this.service, account).deletePassword();
    } catch (err) {
      throw keychainError('delete', err);
    }
  }
}
