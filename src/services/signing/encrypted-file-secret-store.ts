/**
 * SecretStore backend for machines without an OS keychain: all secrets in one passphrase-encrypted JSON file
 * (scrypt + XChaCha20-Poly1305, see passphrase-envelope.ts), rewritten atomically on every change.
 * The derived key stays in memory while the store is unlocked; `lock()` wipes it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { SecretStore } from '../secret-store.js';
import { ConsoleError } from '../../ipc/errors.js';
import { utf8 } from './bytes.js';
import { writeFileAtomic } from './atomic-file.js';
import { SigningRefusal } from './errors.js';
import { checkPassphraseStrength, DerivedKey, SealedSchema } from './passphrase-envelope.js';

export const SECRET_FILE_FORMAT = 'canton-console/secret-file';
const CONTEXT = `${SECRET_FILE_FORMAT}/v1`;

const FileHeaderSchema = z.object({ format: z.literal(SECRET_FILE_FORMAT), version: z.number().int() });
const FileV1Schema = SealedSchema.extend({ format: z.literal(SECRET_FILE_FORMAT), version: z.literal(1) });
const PlaintextSchema = z.object({ secrets: z.record(z.string(), z.string()) });

export class EncryptedFileSecretStore implements SecretStore {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly filePath: string,
    private key: DerivedKey | null,
    private secrets: Map<string, string>,
  ) {}

  /**
   * Opens (or, if absent and `create` is true, creates) the secret file.
   * Wrong passphrase → SigningRefusal WRONG_PASSPHRASE; altered file → FILE_ALTERED; other versions → UNKNOWN_FILE_VERSION.
   */
  static async open(filePath: string, passphrase: string, opts: { create?: boolean } = {}): Promise<EncryptedFileSecretStore> {
    if (!existsSync(filePath)) {
      if (opts.create === false) throw new ConsoleError('NOT_FOUND', `No secret file at ${filePath}`);
      checkPassphraseStrength(passphrase);
      const store = new EncryptedFileSecretStore(filePath, await DerivedKey.derive(passphrase), new Map());
      store.persist();
      return store;
    }
    const sealed = parseSecretFile(readFileSync(filePath, 'utf8'));
    const key = await DerivedKey.derive(passphrase, sealed.kdf);
    try {
      const plain = key.open(sealed, CONTEXT);
      let parsed: z.infer<typeof PlaintextSchema>;
      try {
        parsed = PlaintextSchema.parse(JSON.parse(new TextDecoder().decode(plain)));
      } finally {
        plain.fill(0);
      }
      return new EncryptedFileSecretStore(filePath, key, new Map(Object.entries(parsed.secrets)));
    } catch (err) {
      key.destroy();
      throw err;
    }
  }

  get isLocked(): boolean {
    return this.key === null;
  }

  async get(account: string): Promise<string | null> {
    return this.serial(() => {
      this.unlocked();
      return this.secrets.get(account) ?? null;
    });
  }

  async set(account: string, secret: string): Promise<void> {
    await this.serial(() => {
      this.unlocked();
      const previous = this.secrets.get(account);
      this.secrets.set(account, secret);
      try {
        this.persist();
      } catch (err) {
        if (previous === undefined) this.secrets.delete(account);
        else this.secrets.set(account, previous);
        throw new ConsoleError('INTERNAL', `Could not write the secret file: ${(err as Error).message}`);
      }
    });
  }

  async delete(account: string): Promise<boolean> {
    return this.serial(() => {
      this.unlocked();
      const previous = this.secrets.get(account);
      if (previous === undefined) return false;
      this.secrets.delete(account);
      try {
        this.persist();
      } catch (err) {
        this.secrets.set(account, previous);
        throw new ConsoleError('INTERNAL', `Could not write the secret file: ${(err as Error).message}`);
      }
      return true;
    });
  }

  /** Re-encrypts the file under a new passphrase (new salt). */
  async changePassphrase(newPassphrase: string): Promise<void> {
    checkPassphraseStrength(newPassphrase);
    const next = await DerivedKey.derive(newPassphrase);
    await this.serial(() => {
      this.unlocked();
      const old = this.key;
      this.key = next;
      try {
        this.persist();
      } catch (err) {
        this.key = old;
        next.destroy();
        throw err;
      }
      old?.destroy();
    });
  }

  /** Forgets the derived key and the decrypted secrets; reopen with `open()` to use the file again. */
  lock(): void {
    this.key?.destroy();
    this.key = null;
    this.secrets.clear();
  }

  private unlocked(): void {
    if (!this.key) throw new SigningRefusal('FORBIDDEN', 'LOCKED', 'The encrypted key file is locked; unlock it with its passphrase');
  }

  private persist(): void {
    if (!this.key) throw new SigningRefusal('FORBIDDEN', 'LOCKED', 'The encrypted key file is locked');
    const plain = utf8(JSON.stringify({ secrets: Object.fromEntries(this.secrets) }));
    const sealed = this.key.seal(plain, CONTEXT);
    plain.fill(0);
    writeFileAtomic(this.filePath, JSON.stringify({ format: SECRET_FILE_FORMAT, version: 1, ...sealed }, null, 2) + '\n');
  }

  private serial<T>(fn: () => T): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function parseSecretFile(text: string): z.infer<typeof FileV1Schema> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', 'The secret file is not valid JSON');
  }
  const header = FileHeaderSchema.safeParse(json);
  if (!header.success) throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', 'Not a Canton console secret file');
  if (header.data.version !== 1) {
    throw new SigningRefusal('BAD_REQUEST', 'UNKNOWN_FILE_VERSION', `Unsupported secret file version ${header.data.version}`);
  }
  const parsed = FileV1Schema.safeParse(json);
  if (!parsed.success) {
    throw new SigningRefusal('BAD_REQUEST', 'FILE_ALTERED', `The secret file is malformed: ${parsed.error.issues[0]?.message}`);
  }
  return parsed.data;
}
