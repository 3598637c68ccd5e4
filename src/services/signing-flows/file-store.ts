/**
 * The passphrase-encrypted secret file as the console uses it (`<dataDir>/keys.enc.json`): present from the start (so
 * the KeyStore and the profiles know it), locked until the operator enters the passphrase, which opens (or creates)
 * it. It holds signing keys and, where the operator chose it, connection secrets.
 *
 * Signing keys in it are usable only within a bounded **signing window** (default 5 minutes, at most an hour) that
 * entering the passphrase in Keys opens: when it ends, reads of signing keys are refused (LOCKED) until the passphrase
 * is entered again, so a key file cannot make signature after signature unnoticed. Connection secrets stay readable
 * while the file is open (a live connection must not stop every five minutes); Lock closes the signing window.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { UnlockableSecretStore } from '../secret-store.js';
import { ConsoleError } from '../../ipc/errors.js';
import { EncryptedFileSecretStore, secretAccount, SigningRefusal } from '../signing/index.js';

export const DEFAULT_FILE_UNLOCK_SECONDS = 5 * 60;
export const MAX_FILE_UNLOCK_SECONDS = 60 * 60;
const SIGNING_ACCOUNT_PREFIX = secretAccount('');

export class LockableFileSecretStore implements UnlockableSecretStore {
  private store: EncryptedFileSecretStore | null = null;
  private signingUntilMs = 0;
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
  /** The file is open (its passphrase was entered this session). */
  get unlocked(): boolean {
    return this.store !== null && !this.store.isLocked;
  }
  /** End of the signing window; null when signing keys in the file are locked. */
  get signingUntil(): Date | null {
    return this.unlocked && this.signingUntilMs > this.now() ? new Date(this.signingUntilMs) : null;
  }

  /**
   * Opens the file with the passphrase (creates it when absent); with `signingSeconds`, also opens the signing window.
   * Creating it with `confirmation` (or `requireConfirmation`) needs the passphrase typed twice. Wrong passphrase →
   * WRONG_PASSPHRASE; nothing changes on any error.
   */
  async unlock(
    passphrase: string,
    opts: { signingSeconds?: number; confirmation?: string | undefined; requireConfirmation?: boolean } = {},
  ): Promise<void> {
    const seconds = opts.signingSeconds;
    if (seconds !== undefined && (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_FILE_UNLOCK_SECONDS)) {
      throw new ConsoleError('BAD_REQUEST', `The key file unlocks for 1 second to ${MAX_FILE_UNLOCK_SECONDS / 60} minutes`);
    }
    if (!this.exists && (opts.requireConfirmation || opts.confirmation !== undefined) && opts.confirmation !== passphrase) {
      throw new ConsoleError('BAD_REQUEST', 'Creating the encrypted key file: type the new passphrase twice', undefined, [
        {
          path: 'passphraseConfirmation',
          message: opts.confirmation === undefined ? 'Repeat the new passphrase' : 'The passphrases do not match',
        },
      ]);
    }
    const opened = await EncryptedFileSecretStore.open(this.filePath, passphrase);
    this.store?.lock();
    this.store = opened;
    if (seconds !== undefined) this.openSigningWindow(seconds);
  }

  /** Ends the signing window; true when it was open. Connection secrets stay readable. */
  lockSigning(): boolean {
    const was = this.signingUntil !== null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.signingUntilMs = 0;
    return was;
  }

  /** Closes the file: the derived key and the decrypted secrets are wiped. */
  lock(): void {
    this.lockSigning();
    this.store?.lock();
    this.store = null;
  }

  private openSigningWindow(seconds: number): void {
    this.lockSigning();
    this.signingUntilMs = this.now() + seconds * 1000;
    this.timer = setTimeout(() => this.lockSigning(), seconds * 1000);
    // an open signing window must not keep the process alive
    this.timer.unref();
  }

  private open(account: string): EncryptedFileSecretStore {
    if (!this.store || this.store.isLocked) {
      throw new SigningRefusal('FORBIDDEN', 'LOCKED', 'The encrypted secret file is locked: enter its passphrase first');
    }
    if (account.startsWith(SIGNING_ACCOUNT_PREFIX) && this.signingUntil === null) {
      throw new SigningRefusal(
        'FORBIDDEN',
        'LOCKED',
        'The signing keys in the encrypted key file are locked: enter its passphrase (Keys → Unlock key file) and try again',
      );
    }
    return this.store;
  }

  async get(account: string): Promise<string | null> {
    return this.open(account).get(account);
  }
  async set(account: string, secret: string): Promise<void> {
    return this.open(account).set(account, secret);
  }
  async delete(account: string): Promise<boolean> {
    return this.open(account).delete(account);
  }
}
