/**
 * Where connection profiles keep their secrets (bearer token, OAuth2 client secret): the OS keychain, or the
 * passphrase-encrypted secret file the signing keys use, as the operator chooses per profile. A secret counts as
 * stored only once it was written and read back unchanged, so the console never claims a store that failed (a
 * keychain can accept a write and then refuse every read).
 */
import { ConsoleError } from '../ipc/errors.js';
import type { SecretStoreName, SecretStoresState } from '../ipc/contract.js';
import { canProbe, type SecretStore, type UnlockableSecretStore } from './secret-store.js';

const NAMES: Record<SecretStoreName, string> = { 'os-keychain': 'the OS keychain', 'encrypted-file': 'the encrypted secret file' };

export class ProfileSecrets {
  constructor(
    private readonly keychain: SecretStore,
    /** The encrypted secret file; absent in hosts that offer none (then choosing it is refused). */
    private readonly file: UnlockableSecretStore | null,
  ) {}

  /** The store of that name, unlocked (the encrypted file with `passphrase` when it is locked). */
  async open(name: SecretStoreName, passphrase?: string): Promise<SecretStore> {
    if (name === 'os-keychain') return this.keychain;
    if (!this.file) throw new ConsoleError('BAD_REQUEST', 'This console host has no encrypted secret file');
    if (!this.file.unlocked) {
      if (passphrase === undefined) {
        throw new ConsoleError(
          'BAD_REQUEST',
          this.file.exists
            ? 'The encrypted secret file is locked: enter its passphrase'
            : 'Choose a passphrase for the encrypted secret file (it is created with it)',
          undefined,
          [{ path: 'auth.passphrase', message: 'Enter the passphrase of the encrypted secret file' }],
        );
      }
      await this.file.unlock(passphrase);
    }
    return this.file;
  }

  /** The store of that name for reading a secret; a locked file says so (FORBIDDEN LOCKED) when it is read. */
  reader(name: SecretStoreName): SecretStore {
    if (name === 'encrypted-file' && this.file) return this.file;
    return this.keychain;
  }

  /** Writes the secret and reads it back; throws (and leaves nothing behind) unless the store returns it unchanged. */
  async write(name: SecretStoreName, store: SecretStore, account: string, secret: string): Promise<void> {
    await store.set(account, secret);
    let back: string | null;
    try {
      back = await store.get(account);
    } catch (err) {
      await store.delete(account).catch(() => false);
      throw err;
    }
    if (back !== secret) {
      await store.delete(account).catch(() => false);
      throw new ConsoleError(
        name === 'os-keychain' ? 'KEYCHAIN_UNAVAILABLE' : 'INTERNAL',
        `${NAMES[name]} accepted the secret but does not return it: nothing was stored`,
      );
    }
  }

  /** Deletes a secret from a store, reporting failures. */
  async remove(name: SecretStoreName, account: string): Promise<void> {
    await this.reader(name).delete(account);
  }

  /**
   * Deletes a secret the profile no longer keeps there (it moved or its mode changed): a store that cannot be reached
   * keeps nothing to delete.
   */
  async removeQuietly(name: SecretStoreName, account: string): Promise<void> {
    await this.reader(name)
      .delete(account)
      .catch(() => false);
  }

  async state(): Promise<SecretStoresState> {
    const problem = canProbe(this.keychain) ? await this.keychain.probe() : null;
    return {
      osKeychain: { available: problem === null, problem },
      encryptedFile: { exists: this.file?.exists ?? false, unlocked: this.file?.unlocked ?? false },
    };
  }

  async unlockFile(passphrase: string): Promise<SecretStoresState> {
    if (!this.file) throw new ConsoleError('BAD_REQUEST', 'This console host has no encrypted secret file');
    await this.file.unlock(passphrase);
    return this.state();
  }
}
