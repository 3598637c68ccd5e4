/**
 * The audit log's secret: 32 random bytes kept in the OS keychain (never in console.sqlite), loaded once at start.
 * From it: an HMAC-SHA256 key that authenticates every chain hash and the chain head (so only a process that can read
 * the keychain entry can extend or rewrite the log), and an Ed25519 key that signs the head of every export (so an
 * auditor holding the public key can check an exported log without the secret).
 * The holder exposes MACs, signatures and the public key — never the secret.
 */
import * as ed from '@noble/ed25519';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { randomBytes } from '@noble/ciphers/utils.js';
import type { SecretStore } from '../secret-store.js';
import { ConsoleError } from '../../ipc/errors.js';
import { equalBytes, fromBase64, toBase64, toHex, utf8, wipe } from './bytes.js';

const PREFIX = 'audit-key:v1:';
/** Keychain account of a console's audit key; `logId` distinguishes data directories sharing one keychain service. */
export const auditKeyAccount = (logId: string): string => `signing-audit-key:${logId}`;

export class AuditKey {
  private constructor(
    private readonly macKey: Uint8Array,
    private readonly signSeed: Uint8Array,
    /** The Ed25519 public key that signs exported heads (hex). */
    readonly publicKeyHex: string,
    /**
     * The first entry this key authenticates: 1 for a log created with the key; for a log that existed before it,
     * the entry after its last one then. Kept with the secret, so it cannot be moved by editing the database.
     */
    readonly keyedFrom: number,
  ) {}

  /**
   * Reads the console's audit key from the keychain, or creates it (keyed from `nextSeq`, the log's next entry) when
   * there is none. A keychain that is unreachable throws KEYCHAIN_UNAVAILABLE; nothing is created then.
   */
  static async loadOrCreate(store: SecretStore, account: string, nextSeq: number): Promise<AuditKey> {
    const stored = await store.get(account);
    if (stored !== null) return AuditKey.decode(stored);
    const secret = randomBytes(32);
    const encoded = `${PREFIX}${toBase64(secret)}:${nextSeq}`;
    wipe(secret);
    await store.set(account, encoded);
    // read back: a keychain that silently drops writes must not leave entries MAC'd with a key nobody keeps
    const back = await store.get(account);
    if (back !== encoded) throw new ConsoleError('KEYCHAIN_UNAVAILABLE', 'The OS keychain did not keep the new audit key');
    return AuditKey.decode(encoded);
  }

  /** For tests and tools: a key from given secret bytes. */
  static async fromSecret(secret: Uint8Array, keyedFrom = 1): Promise<AuditKey> {
    if (secret.length !== 32) throw new ConsoleError('INTERNAL', 'An audit key has 32 bytes');
    const macKey = hmac(sha256, secret, utf8('canton-console audit hmac v1'));
    const signSeed = hmac(sha256, secret, utf8('canton-console audit ed25519 v1'));
    const publicKeyHex = toHex(await ed.getPublicKeyAsync(signSeed));
    return new AuditKey(macKey, signSeed, publicKeyHex, keyedFrom);
  }

  private static async decode(stored: string): Promise<AuditKey> {
    const m = /^audit-key:v1:([A-Za-z0-9+/]+={0,2}):([1-9][0-9]{0,15})$/.exec(stored);
    const [, secretBase64, keyedFrom] = m ?? [];
    if (secretBase64 === undefined || keyedFrom === undefined) {
      throw new ConsoleError('INTERNAL', 'The audit key in the OS keychain has an unknown format');
    }
    const secret = fromBase64(secretBase64, 'audit key');
    try {
      return await AuditKey.fromSecret(secret, Number(keyedFrom));
    } finally {
      wipe(secret);
    }
  }

  /** MAC of an entry's chain hash (hex). */
  entryMac(hashHex: string): string {
    return toHex(hmac(sha256, this.macKey, utf8(`entry:${hashHex}`)));
  }

  /** MAC of the chain head (seq and hash of the last entry). */
  headMac(seq: number, hashHex: string): string {
    return toHex(hmac(sha256, this.macKey, utf8(`head:${seq}:${hashHex}`)));
  }

  /** Constant-time comparison of a stored MAC with the expected one. */
  static macEquals(stored: string | null, expected: string): boolean {
    return stored !== null && stored.length === expected.length && equalBytes(utf8(stored), utf8(expected));
  }

  /** Ed25519 signature (base64) over `message`. */
  async sign(message: Uint8Array): Promise<string> {
    return toBase64(await ed.signAsync(message, this.signSeed));
  }
}
