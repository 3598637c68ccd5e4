/**
 * Errors raised by the Daml-LF / DAR reader. Every failure of the public API is a `DamlLfError` with a stable `code`,
 * so callers (the simulator's `POST /v2/dars`, the console's package view) can map it to a user-facing message.
 */
export type DamlLfErrorCode =
  /** The bytes are not a zip archive at all (no local-file or end-of-central-directory signature). */
  | 'NOT_A_ZIP'
  /** The bytes look like a zip but its structure is damaged (truncated, bad offsets, bad CRC, bad deflate stream). */
  | 'CORRUPT_ZIP'
  /** A zip feature this reader does not implement (encryption, zip64, a compression method other than store/deflate). */
  | 'UNSUPPORTED_ZIP'
  /** An entry (or the total) would decompress to more than the configured limit. */
  | 'TOO_LARGE'
  /** `META-INF/MANIFEST.MF` is absent. */
  | 'MISSING_MANIFEST'
  /** The manifest cannot be parsed, or lacks `Main-Dalf`. */
  | 'MALFORMED_MANIFEST'
  /** The manifest declares a format/encryption this reader does not handle. */
  | 'UNSUPPORTED_DAR_FORMAT'
  /** The manifest's `Main-Dalf` is not in the zip. */
  | 'MAIN_DALF_MISSING'
  /** A DALF listed in `Dalfs:` is not in the zip. */
  | 'DALF_MISSING'
  /** `Archive.hash` differs from the SHA-256 of `Archive.payload`. */
  | 'HASH_MISMATCH'
  /** `Archive.hash_function` is not SHA256. */
  | 'UNSUPPORTED_HASH_FUNCTION'
  /** Daml-LF major version 1 (or an unknown minor string): only LF2 packages are decoded. */
  | 'UNSUPPORTED_LF_VERSION'
  /** The `Archive` / `ArchivePayload` protobuf cannot be decoded. */
  | 'MALFORMED_ARCHIVE'
  /** The LF2 `Package` protobuf cannot be decoded or has dangling interning references. */
  | 'MALFORMED_PACKAGE'
  /** `encodeArchive` / `buildDar` was given an inconsistent package description. */
  | 'INVALID_DESCRIPTION';

export class DamlLfError extends Error {
  override readonly name = 'DamlLfError';
  readonly code: DamlLfErrorCode;
  /** Extra structured context (e.g. `{ dalf, declared, computed }` for HASH_MISMATCH). */
  readonly details: Readonly<Record<string, string | number>>;

  constructor(code: DamlLfErrorCode, message: string, details: Record<string, string | number> = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

export function isDamlLfError(e: unknown): e is DamlLfError {
  return e instanceof DamlLfError;
}
