/**
 * The encrypted-file key backend as the console uses it: present from the start (so the KeyStore knows it),
 * locked until the operator enters the passphrase, which opens (or creates) `<dataDir>/keys.enc.json` for a bounded
 * window (default 5 minutes, at most an hour). When the window ends the derived key and the decrypted secrets are
 * wiped and the next signature asks for the passphrase again. Creating the file needs the passphrase typed twice.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { SecretStore } from '../secret-store.js';
import { ConsoleError } from '../../ipc/errors.js';
import { EncryptedFileSecretStore, SigningRefusal } from '../signing/index.js';

export const DEFAULT_FILE_UNLOCK_SECONDS = 5 * 60;
export const MAX_FILE_UNLOCK_SECONDS = 60 * 60;

export class LockableFileSecretStore implements SecretStore {
  private store: EncryptedFileSecretStore | null = null;
  private until = 0;
  private timer: NodeJS.Timeout | null = null;
  readonly filePath: string;

  constructor(
    dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.filePath = path.join(dataDir, 'keys.enc.json');
  }

  get exists(): boolean {
    return existsSync(this.filePath);
  }
  get unlocked(): boolean {
    return this.store !== null && !this.store.isLocked && this.until > this.now();
  }
  /** End of the unlock window; null when locked. */
  get unlockedUntil(): Date | null {
    return this.unlocked ? new Date(this.until) : null;
  }

  /**
   * Opens the file with the passphrase for `seconds` (creates it when absent: then `confirmation` must repeat the
   * passphrase). Wrong passphrase → WRONG_PASSPHRASE; nothing changes on any error.
   */
  async unlock(passphrase: string, opts: { seconds?: number; confirmation?: string | undefined } = {}): Promise<Date> {
    const seconds = opts.seconds ?? DEFAULT_FILE_UNLOCK_SECONDS;
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_FILE_UNLOCK_SECONDS) {
      throw new ConsoleError('BAD_REQUEST', `The key file unlocks for 1 second to ${MAX_FILE_UNLOCK_SECONDS / 60} minutes`);
    }
    if (!this.exists && opts.confirmation !== passphrase) {
      throw new ConsoleError('BAD_REQUEST', 'Creating the encrypted key file: type the new passphrase twice', undefined, [
        {
          path: 'passphraseConfirmation',
          message: opts.confirmation === undefined ? 'Repeat the new passphrase' : 'The passphrases do not match',
        },
      ]);
    }
    const opened = await EncryptedFileSecretStore.open(this.filePath, passphrase);
    this.lock();
    this.store = opened;
    this.until = this.now() + seconds * 1000;
    this.timer = setTimeout(() => this.lock(), seconds * 1000);
    // an unlocked key file must not keep the process alive
    this.timer.unref();
    return new Date(this.until);
  }

  /** Wipes the derived key and the decrypted secrets; true when the file was unlocked. */
  lock(): boolean {
    const was = this.unlocked;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.store?.lock();
    this.store = null;
    this.until = 0;
    return was;
  }

  private open(): EncryptedFileSecretStore {
    if (!this.store || this.store.isLocked || this.until <= this.now()) {
      if (this.store) this.lock();
      throw new SigningRefusal(
        'FORBIDDEN',
        'LOCKED',
        'The encrypted key file is locked: enter its passphrase (Keys → Unlock key file) and try again',
      );
    }
    return this.store;
  }

  async get(account: string): Promise<string | null> {
    return this.open().get(account);
  }
  async set(account: string, secret: string): Promise<void> {
    return this.open().set(account, secret);
  }
  async delete(account: string): Promise<boolean> {
    return this.open().delete(account);
  }
}
