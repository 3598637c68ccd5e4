/**
 * Secrets (bearer tokens, client secrets, signing keys) behind one interface: the OS keychain by default, through
 * @napi-rs/keyring (maintained, N-API prebuilt), or the passphrase-encrypted file (signing-flows/file-store.ts) the
 * operator chooses on machines without a keychain.
 */
import { AsyncEntry } from '@napi-rs/keyring';
import { ConsoleError } from '../ipc/errors.js';

export interface SecretStore {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

/** A store that must be unlocked with a passphrase first (the encrypted secret file). */
export interface UnlockableSecretStore extends SecretStore {
  readonly exists: boolean;
  readonly unlocked: boolean;
  /** Opens the store with its passphrase, creating it when absent. */
  unlock(passphrase: string): Promise<void>;
}

/** A store that can tell whether it answers right now without touching a secret: null = it does, else why not. */
export interface ProbedSecretStore extends SecretStore {
  probe(): Promise<string | null>;
}

export const canProbe = (s: SecretStore): s is ProbedSecretStore => typeof (s as Partial<ProbedSecretStore>).probe === 'function';

function keychainError(op: string, err: unknown): ConsoleError {
  const detail = err instanceof Error ? err.message : String(err);
  const hint = /dbus|autolaunch|AccessDenied|org\.freedesktop/i.test(detail)
    ? ' — no Secret Service is reachable (on Linux run a keyring daemon such as gnome-keyring inside a D-Bus session)'
    : '';
  return new ConsoleError('KEYCHAIN_UNAVAILABLE', `OS keychain ${op} failed: ${detail}${hint}`);
}

/** The user said no to the keychain's unlock prompt: asking again at once would only prompt again. */
const promptDismissed = (err: unknown): boolean => err instanceof Error && /prompt was dismissed/i.test(err.message);

const MAX_KEPT_ENTRIES = 32;

/**
 * An entry of the OS keychain. On Linux it is pinned to the Secret Service: left to itself, @napi-rs/keyring falls
 * back to the kernel's keyutils keyring when no Secret Service answers — in memory only, gone at the next reboot — so
 * a token "stored in the OS keychain" would have been lost, and whether the probe saw the fallback depended on the
 * process (seen: a console without a Secret Service reported the keychain available). Pinned, it fails instead.
 * The option is ignored on macOS and Windows.
 */
const keychainEntry = (service: string, account: string): AsyncEntry =>
  new AsyncEntry(service, account, { linux: { store: 'secret-service' } });

export class KeychainSecretStore implements SecretStore {
  /**
   * One entry per account, kept for the life of the store. Constructing an entry opens a Secret Service connection
   * and an encrypted session (on Linux: D-Bus Hello, OpenSession with a Diffie-Hellman exchange — ~6–7 ms, most of
   * what a signature used to cost); a kept entry reuses both, so a read is one SearchItems + GetSecret round trip
   * (~0.7 ms). The item is still looked up and read from the keychain at every call: nothing secret is cached here.
   */
  private readonly entries = new Map<string, AsyncEntry>();

  constructor(private readonly service: string) {}

  async get(account: string): Promise<string | null> {
    // async: the Secret Service round trip runs off the main thread, so it neither blocks the event loop nor keeps a
    // signature from overlapping the key read with verification
    return (await this.withEntry(account, 'read', (e) => e.getPassword())) ?? null;
  }

  async set(account: string, secret: string): Promise<void> {
    await this.withEntry(account, 'write', (e) => e.setPassword(secret));
  }

  async delete(account: string): Promise<boolean> {
    const deleted = await this.withEntry(account, 'delete', (e) => e.deletePassword());
    this.entries.delete(account);
    return deleted;
  }

  /** Reads an account that never holds a secret (on a fresh entry): null when the keychain answers, else why not. */
  async probe(): Promise<string | null> {
    try {
      await keychainEntry(this.service, 'console:probe').getPassword();
      return null;
    } catch (err) {
      return keychainError('read', err).message;
    }
  }

  /**
   * Runs `op` on the account's kept entry. When a kept entry fails (the keyring daemon restarted, its session is
   * gone), it is dropped and the operation retried once on a new entry, which opens a new session.
   */
  private async withEntry<T>(account: string, what: string, op: (e: AsyncEntry) => Promise<T>): Promise<T> {
    const kept = this.entries.get(account);
    if (kept) {
      try {
        return await op(kept);
      } catch (err) {
        this.entries.delete(account);
        if (promptDismissed(err)) throw keychainError(what, err);
      }
    }
    try {
      const entry = keychainEntry(this.service, account);
      const result = await op(entry);
      this.entries.set(account, entry);
      // each kept entry holds a D-Bus connection: keep the most recently opened few (keys and profile tokens)
      if (this.entries.size > MAX_KEPT_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      return result;
    } catch (err) {
      throw keychainError(what, err);
    }
  }
}
