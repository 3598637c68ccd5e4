/**
 * Ed25519 signing keys for external parties. Private key bytes (the 32-byte seed) live only in a SecretStore
 * (OS keychain by default, account `signing-key:<fingerprint>`); SQLite holds metadata only. No method returns or
 * logs private key material: callers get metadata, public keys and signatures.
 */
import * as ed from '@noble/ed25519';
import { z } from 'zod';
import type { AppDb } from '../app-db.js';
import type { SecretStore } from '../secret-store.js';
import { ConsoleError } from '../../ipc/errors.js';
import { equalBytes, fromBase64, toBase64, toHex, wipe } from './bytes.js';
import { cantonFingerprint, FINGERPRINT_PATTERN } from './fingerprint.js';
import { UnlockWindow } from './unlock-window.js';
import { derivedPublicKey, signEd25519 } from './ed25519-sync.js';

export const KeyBackendSchema = z.enum(['os-keychain', 'encrypted-file']);
export type KeyBackend = z.infer<typeof KeyBackendSchema>;

export const KeyMetadataSchema = z.object({
  fingerprint: z.string().regex(FINGERPRINT_PATTERN),
  label: z.string(),
  publicKeyHex: z.string(),
  publicKeyBase64: z.string(),
  backend: KeyBackendSchema,
  createdAt: z.string(),
  parties: z.array(z.string()),
  /** ISO time until which the key is unlocked in memory (unlock-window.ts), null when it is not. */
  unlockedUntil: z.string().nullable(),
});
export type KeyMetadata = z.infer<typeof KeyMetadataSchema>;

export const KeyLabelSchema = z.string().trim().min(1, 'A key needs a label').max(100, 'Labels are at most 100 characters');
/** `hint::namespace` where namespace is a Canton fingerprint. */
export const PartyIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-][A-Za-z0-9:_-]{0,184}::1220[0-9a-f]{64}$/, 'Not a Canton party id (hint::1220…)');

const SECRET_PREFIX = 'ed25519-seed:v1:';
export const secretAccount = (fingerprint: string): string => `signing-key:${fingerprint}`;

interface KeyRow {
  fingerprint: string;
  label: string;
  public_key_hex: string;
  backend: string;
  created_at: string;
}

/** A key opened for one signature: sign once (or not), then dispose — the seed is zeroised unless it is unlocked. */
export interface OpenedKey {
  sign(hash: Uint8Array): Promise<Uint8Array>;
  dispose(): void;
}

export interface ImportedKey {
  status: 'imported' | 'already-present';
  key: KeyMetadata;
}

export class KeyStore {
  private readonly defaultBackend: KeyBackend;
  private readonly window = new UnlockWindow();

  constructor(
    private readonly db: AppDb,
    private readonly backends: Partial<Record<KeyBackend, SecretStore>>,
    defaultBackend?: KeyBackend,
  ) {
    const available = KeyBackendSchema.options.filter((b) => backends[b]);
    const chosen = defaultBackend ?? available[0];
    if (!chosen || !backends[chosen]) throw new ConsoleError('INTERNAL', 'KeyStore needs at least one secret backend');
    this.defaultBackend = chosen;
  }

  /** Generates a new Ed25519 key; the private key goes to the secret backend, the metadata to SQLite. */
  async create(label: string, opts: { backend?: KeyBackend } = {}): Promise<KeyMetadata> {
    const name = parseLabel(label);
    const seed = ed.utils.randomSecretKey();
    try {
      const meta = await this.storeKey(seed, name, new Date().toISOString(), opts.backend ?? this.defaultBackend);
      return meta;
    } finally {
      wipe(seed);
    }
  }

  list(): KeyMetadata[] {
    const rows = this.db.prepare('SELECT * FROM signing_keys ORDER BY created_at, fingerprint').all() as KeyRow[];
    return rows.map((r) => this.toMetadata(r));
  }

  find(fingerprint: string): KeyMetadata | null {
    const row = this.db.prepare('SELECT * FROM signing_keys WHERE fingerprint = ?').get(fingerprint) as KeyRow | undefined;
    return row ? this.toMetadata(row) : null;
  }

  get(fingerprint: string): KeyMetadata {
    const key = this.find(fingerprint);
    if (!key) throw new ConsoleError('NOT_FOUND', `No signing key with fingerprint ${fingerprint}`);
    return key;
  }

  rename(fingerprint: string, label: string): KeyMetadata {
    const name = parseLabel(label);
    this.get(fingerprint);
    this.db.prepare('UPDATE signing_keys SET label = ? WHERE fingerprint = ?').run(name, fingerprint);
    return this.get(fingerprint);
  }

  /** Records that `partyId` is (or will be) an external party signed for by this key. Idempotent. */
  attachParty(fingerprint: string, partyId: string): KeyMetadata {
    const parsed = PartyIdSchema.safeParse(partyId);
    if (!parsed.success) throw new ConsoleError('BAD_REQUEST', `"${partyId}" is not a Canton party id (hint::1220…)`);
    this.get(fingerprint);
    this.db
      .prepare('INSERT OR IGNORE INTO signing_key_parties (fingerprint, party_id, attached_at) VALUES (?, ?, ?)')
      .run(fingerprint, partyId, new Date().toISOString());
    return this.get(fingerprint);
  }

  detachParty(fingerprint: string, partyId: string): KeyMetadata {
    this.get(fingerprint);
    this.db.prepare('DELETE FROM signing_key_parties WHERE fingerprint = ? AND party_id = ?').run(fingerprint, partyId);
    return this.get(fingerprint);
  }

  /** Removes the key: the secret-store entry first (so a failure leaves the key usable), then the metadata. */
  async delete(fingerprint: string): Promise<void> {
    const key = this.get(fingerprint);
    this.window.lock(fingerprint);
    await this.backend(key.backend).delete(secretAccount(fingerprint));
    this.db.prepare('DELETE FROM signing_keys WHERE fingerprint = ?').run(fingerprint);
  }

  publicKey(fingerprint: string): Uint8Array {
    return Uint8Array.from(Buffer.from(this.get(fingerprint).publicKeyHex, 'hex'));
  }

  /**
   * Signs raw hash bytes with the key. INTERNAL: only the SigningService calls this, after verification,
   * policy and audit. Returns the 64-byte Ed25519 signature.
   */
  async signHash(fingerprint: string, hash: Uint8Array): Promise<Uint8Array> {
    const opened = await this.open(fingerprint);
    try {
      return await opened.sign(hash);
    } finally {
      opened.dispose();
    }
  }

  /**
   * INTERNAL (SigningService): reads the private key (from the unlock window, else its secret store) so that the
   * read can overlap with verification; the caller signs only after verification passed, and always disposes.
   */
  async open(fingerprint: string): Promise<OpenedKey> {
    // inside a promise, so that a bad hash is a rejection like every other signing failure
    const publicKey = this.publicKey(fingerprint);
    const sign = (seed: Uint8Array, hash: Uint8Array) =>
      new Promise<Uint8Array>((resolve) => {
        if (hash.length < 16 || hash.length > 64) throw new ConsoleError('BAD_REQUEST', 'A hash to sign has 16 to 64 bytes');
        resolve(signEd25519(hash, seed, publicKey));
      });
    if (this.window.unlockedUntil(fingerprint)) {
      return {
        sign: async (hash) => {
          const sig = await this.window.use(fingerprint, (seed) => sign(seed, hash));
          if (sig) return sig;
          // the window closed between open and sign: read the key again
          return this.signHash(fingerprint, hash);
        },
        dispose: () => undefined,
      };
    }
    const seed = await this.loadSeed(fingerprint);
    return { sign: (hash) => sign(seed, hash), dispose: () => wipe(seed) };
  }

  /**
   * Keeps the key's private seed in memory for `seconds` (1..3600) so signatures skip the secret store. Off unless
   * asked; zeroised on lock, timeout and delete. Returns the end of the window.
   */
  async unlock(fingerprint: string, seconds: number): Promise<KeyMetadata> {
    const seed = await this.loadSeed(fingerprint);
    try {
      this.window.hold(fingerprint, seed, seconds);
    } catch (err) {
      wipe(seed);
      throw new ConsoleError('BAD_REQUEST', (err as Error).message);
    }
    return this.get(fingerprint);
  }

  /** Ends the key's unlock window (zeroises the seed); a key that was not unlocked is left as it is. */
  lock(fingerprint: string): KeyMetadata {
    this.get(fingerprint);
    this.window.lock(fingerprint);
    return this.get(fingerprint);
  }

  /** Zeroises every unlocked seed (on shutdown). */
  lockAll(): void {
    this.window.lockAll();
  }

  /** INTERNAL (encrypted backup): the private seeds of the given keys. Callers must wipe them. */
  async exportSeeds(fingerprints: string[]): Promise<Array<{ key: KeyMetadata; seed: Uint8Array }>> {
    const out: Array<{ key: KeyMetadata; seed: Uint8Array }> = [];
    for (const fp of fingerprints) out.push({ key: this.get(fp), seed: await this.loadSeed(fp) });
    return out;
  }

  /** INTERNAL (restore): stores a key from its seed; an already-present key is left as it is. */
  async importSeed(
    seed: Uint8Array,
    meta: { label: string; createdAt: string; parties: string[] },
    backend: KeyBackend = this.defaultBackend,
  ): Promise<ImportedKey> {
    const publicKey = await ed.getPublicKeyAsync(seed);
    const existing = this.find(await cantonFingerprint(publicKey));
    if (existing) return { status: 'already-present', key: existing };
    const key = await this.storeKey(seed, parseLabel(meta.label), meta.createdAt, backend);
    for (const p of meta.parties) this.attachParty(key.fingerprint, p);
    return { status: 'imported', key: this.get(key.fingerprint) };
  }

  private async storeKey(seed: Uint8Array, label: string, createdAt: string, backend: KeyBackend): Promise<KeyMetadata> {
    const secrets = this.backend(backend);
    const publicKey = await ed.getPublicKeyAsync(seed);
    const fingerprint = await cantonFingerprint(publicKey);
    const account = secretAccount(fingerprint);
    const encoded = SECRET_PREFIX + toBase64(seed);
    await secrets.set(account, encoded);
    try {
      // Read back: a keychain that silently drops writes must not leave us with an unusable key.
      const stored = await secrets.get(account);
      if (stored !== encoded) throw new ConsoleError('KEYCHAIN_UNAVAILABLE', 'The secret store did not keep the new key');
      this.db
        .prepare('INSERT INTO signing_keys (fingerprint, label, public_key_hex, backend, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(fingerprint, label, toHex(publicKey), backend, createdAt);
    } catch (err) {
      await secrets.delete(account).catch(() => false);
      throw err;
    }
    return this.get(fingerprint);
  }

  private async loadSeed(fingerprint: string): Promise<Uint8Array> {
    const key = this.get(fingerprint);
    const stored = await this.backend(key.backend).get(secretAccount(fingerprint));
    if (stored === null) {
      throw new ConsoleError('NOT_FOUND', `The private key of ${key.label} (${fingerprint}) is missing from the ${key.backend} store`);
    }
    if (!stored.startsWith(SECRET_PREFIX)) {
      throw new ConsoleError('INTERNAL', `The stored private key of ${fingerprint} has an unknown format`);
    }
    const seed = fromBase64(stored.slice(SECRET_PREFIX.length), 'stored key');
    const expected = Uint8Array.from(Buffer.from(key.publicKeyHex, 'hex'));
    let derived: Uint8Array | null = null;
    try {
      derived = derivedPublicKey(seed, expected);
    } catch {
      // not a 32-byte seed, or one OpenSSL refuses
    }
    if (derived === null || !equalBytes(derived, expected)) {
      wipe(seed);
      throw new ConsoleError('INTERNAL', `The stored private key does not belong to ${fingerprint}`);
    }
    return seed;
  }

  private backend(name: KeyBackend): SecretStore {
    const store = this.backends[name];
    if (!store) throw new ConsoleError('KEYCHAIN_UNAVAILABLE', `The ${name} key backend is not available on this machine`);
    return store;
  }

  private toMetadata(row: KeyRow): KeyMetadata {
    const parties = (
      this.db
        .prepare('SELECT party_id FROM signing_key_parties WHERE fingerprint = ? ORDER BY attached_at, party_id')
        .all(row.fingerprint) as Array<{ party_id: string }>
    ).map((p) => p.party_id);
    return {
      fingerprint: row.fingerprint,
      label: row.label,
      publicKeyHex: row.public_key_hex,
      publicKeyBase64: Buffer.from(row.public_key_hex, 'hex').toString('base64'),
      backend: KeyBackendSchema.parse(row.backend),
      createdAt: row.created_at,
      parties,
      unlockedUntil: this.window.unlockedUntil(row.fingerprint)?.toISOString() ?? null,
    };
  }
}

function parseLabel(label: string): string {
  const parsed = KeyLabelSchema.safeParse(label);
  if (!parsed.success) throw new ConsoleError('BAD_REQUEST', parsed.error.issues[0]?.message ?? 'Invalid label');
  return parsed.data;
}
