/**
 * The encrypted-file key backend as the console uses it: present from the start (so the KeyStore knows it),
 * locked until the operator enters the passphrase, which opens (or creates) `<dataDir>/keys.enc.json`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { SecretStore } from '../secret-store.js';
import { EncryptedFileSecretStore, SigningRefusal } from '../signing/index.js';

export class LockableFileSecretStore implements SecretStore {
  private store: EncryptedFileSecretStore | null = null;
  readonly filePath: string;

  constructor(dataDir: string) {
    this.filePath = path.join(dataDir, 'keys.enc.json');
  }

  get exists(): boolean {
    return existsSync(this.filePath);
  }
  get unlocked(): boolean {
    return this.store !== null && !this.store.isLocked;
  }

  /** Opens the file with the passphrase (creates it when absent). Wrong passphrase → WRONG_PASSPHRASE. */
  async unlock(passphrase: string): Promise<void> {
    const opened = await EncryptedFileSecretStore.open(this.filePath, passphrase);
    this.store?.lock();
    this.store = opened;
  }

  lock(): void {
    this.store?.lock();
    this.store = null;
  }

  private open(): EncryptedFileSecretStore {
    if (!this.store || this.store.isLocked) {
      throw new SigningRefusal('FORBIDDEN', 'LOCKED', 'The encrypted key file is locked: enter its passphrase first');
    }
    return this.store;
  }

  get(account: string): Promise<string | null> {
    return this.open().get(account);
  }
  set(account: string, secret: string): Promise<void> {
    return this.open().set(account, secret);
  }
  delete(account: string): Promise<boolean> {
    return this.open().delete(account);
  }
}
