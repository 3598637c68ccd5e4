/**
 * Passphrase encryption shared by the encrypted secret file and key backups:
 * scrypt (N=2^17, r=8, p=1) → 64 bytes = 32-byte XChaCha20-Poly1305 key ‖ 32-byte check key.
 * The check value tells a wrong passphrase apart from an altered file; the AEAD (with the header as
 * associated data) authenticates everything else. Random 16-byte salt and 24-byte nonce per seal.
 */
import { scrypt } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { randomBytes } from '@noble/ciphers/utils.js';
import { z } from 'zod';
import { canonicalJson } from './canonical-json.js';
import { equalBytes, fromBase64, toBase64, utf8, wipe } from './bytes.js';
import { SigningRefusal } from './errors.js';

export const DEFAULT_SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;
/** The weakest N still read (files of earlier test builds); r and p must be what the console writes. */
export const MIN_SCRYPT_N = 2 ** 14;
/** scrypt needs 128·N·r bytes: 128 MiB at the parameters the console writes; nothing a file says may need more. */
const SCRYPT_MAXMEM = 128 * DEFAULT_SCRYPT.N * DEFAULT_SCRYPT.r * DEFAULT_SCRYPT.p + 2 ** 20;
export const MIN_PASSPHRASE_LENGTH = 8;

/**
 * The N new files are written with: DEFAULT_SCRYPT.N, except in a test process that chose the weakest N still read
 * (`useTestScryptCost`). Only N changes, within what the console reads anyway, so a file written by a test is one the
 * console would also accept from an older build; r and p never change.
 */
let writeN: number = DEFAULT_SCRYPT.N;

/**
 * Tests only (vitest's setup file test/support/test-kdf-cost.ts): new files are written with N=2^14 instead of 2^17,
 * 8× less CPU per derivation; `false` restores the console's parameters. Refused outside a vitest worker
 * (`VITEST=true`), and no product code calls it (test/unit/signing/kdf-test-cost.test.ts checks the sources).
 */
export function useTestScryptCost(on: boolean): void {
  if (process.env.VITEST !== 'true') throw new Error('useTestScryptCost is for the test suite only');
  writeN = on ? MIN_SCRYPT_N : DEFAULT_SCRYPT.N;
}

/** scrypt by Node's crypto (native code in the thread pool: the event loop keeps running while it derives). */
function deriveBytes(passphrase: Uint8Array, salt: Uint8Array, params: Pick<KdfParams, 'N' | 'r' | 'p'>): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    scrypt(passphrase, salt, 64, { N: params.N, r: params.r, p: params.p, maxmem: SCRYPT_MAXMEM }, (err, key) =>
      err ? reject(err) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength)),
    ),
  );
}

const b64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64');
/**
 * The shape only: the cost parameters are bounded by `checkKdfCost` before any derivation, with an error that names
 * them, so a crafted file cannot make the console spend minutes of CPU and gigabytes of memory.
 */
export const KdfSchema = z.object({
  name: z.literal('scrypt'),
  N: z.number().int().positive(),
  r: z.number().int().positive(),
  p: z.number().int().positive(),
  salt: b64,
});
export const SealedSchema = z.object({
  kdf: KdfSchema,
  cipher: z.literal('xchacha20poly1305'),
  keyCheck: b64,
  nonce: b64,
  ciphertext: b64,
});
export type Sealed = z.infer<typeof SealedSchema>;
export type KdfParams = z.infer<typeof KdfSchema>;

/** A derived key kept in memory so repeated writes need not re-run scrypt. Wipe with `destroy()`. */
export class DerivedKey {
  private constructor(
    readonly kdf: KdfParams,
    private readonly encKey: Uint8Array,
    readonly keyCheck: string,
  ) {}

  static async derive(passphrase: string, kdf?: KdfParams): Promise<DerivedKey> {
    const params = kdf ?? { name: 'scrypt' as const, ...DEFAULT_SCRYPT, N: writeN, salt: toBase64(randomBytes(16)) };
    checkKdfCost(params);
    const out = await deriveBytes(utf8(passphrase.normalize('NFKC')), fromBase64(params.salt, 'salt'), params);
    const encKey = out.slice(0, 32);
    const check = toBase64(sha256(new Uint8Array([...utf8('canton-console key check v1'), ...out.slice(32)])));
    wipe(out);
    return new DerivedKey(params, encKey, check);
  }

  seal(plaintext: Uint8Array, context: string): Sealed {
    const nonce = randomBytes(24);
    const header = { kdf: this.kdf, cipher: 'xchacha20poly1305' as const, keyCheck: this.keyCheck };
    const ciphertext = xchacha20poly1305(this.encKey, nonce, aad(context, header)).encrypt(plaintext);
    return { ...header, nonce: toBase64(nonce), ciphertext: toBase64(ciphertext) };
  }

  /** Throws WRONG_PASSPHRASE if the key does not match the file, FILE_ALTERED if authentication fails. */
  open(sealed: Sealed, context: string): Uint8Array {
    if (!equalBytes(utf8(sealed.keyCheck), utf8(this.keyCheck))) {
      throw new SigningRefusal('FORBIDDEN', 'WRONG_PASSPHRASE', 'Wrong passphrase (or the file’s key-derivation header was altered)');
    }
    const header = { kdf: sealed.kdf, cipher: sealed.cipher, keyCheck: sealed.keyCheck };
    try {
      return xchacha20poly1305(this.encKey, fromBase64(sealed.nonce, 'nonce'), aad(context, header)).decrypt(
        fromBase64(sealed.ciphertext, 'ciphertext'),
      );
    } catch {
      throw new SigningRefusal('BAD_REQUEST', 'FILE_ALTERED', 'The file was altered or corrupted: authentication failed');
    }
  }

  destroy(): void {
    wipe(this.encKey);
  }
}

/**
 * Refuses key-derivation parameters beyond what this console writes (scrypt N=2^17, r=8, p=1), before deriving
 * anything: the cost of reading a file is bounded by the console, not by the file.
 */
export function checkKdfCost(kdf: Pick<KdfParams, 'N' | 'r' | 'p'>): void {
  const { N, r, p } = kdf;
  const powerOfTwo = Number.isSafeInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N < MIN_SCRYPT_N || N > DEFAULT_SCRYPT.N || r !== DEFAULT_SCRYPT.r || p !== DEFAULT_SCRYPT.p) {
    const n = powerOfTwo ? `2^${Math.log2(N)}` : String(N);
    throw new SigningRefusal(
      'BAD_REQUEST',
      'UNSUPPORTED_KDF',
      `The file asks for scrypt N=${n}, r=${r}, p=${p}; this console reads only the parameters it writes ` +
        `(N=2^14..2^17, r=${DEFAULT_SCRYPT.r}, p=${DEFAULT_SCRYPT.p}), ` +
        'so a crafted file cannot tie up its CPU and memory. Nothing was read.',
    );
  }
}

function aad(context: string, header: object): Uint8Array {
  return utf8(canonicalJson({ context, header }));
}

export function checkPassphraseStrength(passphrase: string): void {
  if (passphrase.normalize('NFKC').length < MIN_PASSPHRASE_LENGTH) {
    throw new SigningRefusal('BAD_REQUEST', 'WEAK_PASSPHRASE', `A passphrase needs at least ${MIN_PASSPHRASE_LENGTH} characters`);
  }
}

/** One-shot helpers. */
export async function sealWithPassphrase(plaintext: Uint8Array, passphrase: string, context: string): Promise<Sealed> {
  checkPassphraseStrength(passphrase);
  const key = await DerivedKey.derive(passphrase);
  try {
    return key.seal(plaintext, context);
  } finally {
    key.destroy();
  }
}

export async function openWithPassphrase(sealed: Sealed, passphrase: string, context: string): Promise<Uint8Array> {
  const key = await DerivedKey.derive(passphrase, sealed.kdf);
  try {
    return key.open(sealed, context);
  } finally {
    key.destroy();
  }
}
