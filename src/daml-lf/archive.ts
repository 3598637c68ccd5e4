/**
 * Daml-LF `Archive` and `ArchivePayload` (daml_lf.proto): the envelope of a .dalf file.
 * Package id = lowercase hex SHA-256 of `Archive.payload`, which must equal `Archive.hash`.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { DamlLfError } from './errors.js';
import { ProtoReader, ProtoWriter, WireType } from './protobuf-wire.js';

// daml_lf.proto, message Archive
const ARCHIVE_HASH_FUNCTION = 1; // HashFunction hash_function = 1
const ARCHIVE_PAYLOAD = 3; // bytes payload = 3
const ARCHIVE_HASH = 4; // string hash = 4
// daml_lf.proto, message ArchivePayload
const PAYLOAD_MINOR = 3; // string minor = 3
const PAYLOAD_PATCH = 5; // int32 patch = 5
const PAYLOAD_DAML_LF_1 = 2; // bytes daml_lf_1 = 2 (oneof Sum)
const PAYLOAD_DAML_LF_2 = 4; // bytes daml_lf_2 = 4 (oneof Sum)
// daml_lf.proto, enum HashFunction
const HASH_FUNCTION_SHA256 = 0;

export interface DecodedArchive {
  /** Lowercase hex SHA-256 of `payload` (verified equal to `Archive.hash`). */
  packageId: string;
  hashFunction: 'SHA256';
  /** 1 or 2, from which `ArchivePayload.Sum` case is set. */
  lfMajor: 1 | 2;
  /** `ArchivePayload.minor`, e.g. `1` or `dev`. */
  lfMinor: string;
  /** `ArchivePayload.patch`. */
  lfPatch: number;
  /** The `Archive.payload` bytes (an encoded `ArchivePayload`), exactly as hashed. */
  payload: Uint8Array;
  /** The encoded Daml-LF package (`daml_lf_1` or `daml_lf_2` bytes). */
  packageBytes: Uint8Array;
}

export function toHex(bytes: Uint8Array): string {
  return bytesToHex(bytes);
}

/** Package id of an `Archive.payload`: lowercase hex SHA-256. */
export function computePackageId(payload: Uint8Array): string {
  return toHex(sha256(payload));
}

/**
 * Decodes a .dalf (`Archive`), verifies its hash and decodes the `ArchivePayload` envelope (not the package).
 * `packageIdOf` computes the payload's id (default `computePackageId`); Node callers may pass `node:crypto`'s SHA-256,
 * which is much faster than the portable one in a process that has not warmed it up.
 */
export function readArchive(bytes: Uint8Array, packageIdOf: (payload: Uint8Array) => string = computePackageId): DecodedArchive {
  const r = new ProtoReader(bytes, 'MALFORMED_ARCHIVE', 'Archive');
  let hashFunction = HASH_FUNCTION_SHA256;
  let payload: Uint8Array | undefined;
  let hash: string | undefined;
  while (!r.done) {
    const { field, wireType } = r.tag();
    switch (field) {
      case ARCHIVE_HASH_FUNCTION:
        r.expect(field, wireType, WireType.VARINT);
        hashFunction = r.int32();
        break;
      case ARCHIVE_PAYLOAD:
        r.expect(field, wireType, WireType.LEN);
        payload = r.bytes();
        break;
      case ARCHIVE_HASH:
        r.expect(field, wireType, WireType.LEN);
        hash = r.string();
        break;
      default:
        r.skip(wireType);
    }
  }
  if (hashFunction !== HASH_FUNCTION_SHA256) {
    throw new DamlLfError('UNSUPPORTED_HASH_FUNCTION', `Archive.hash_function ${hashFunction} is not SHA256`);
  }
  if (payload === undefined || payload.length === 0) throw new DamlLfError('MALFORMED_ARCHIVE', 'Archive: payload is missing');
  if (hash === undefined || hash === '') throw new DamlLfError('MALFORMED_ARCHIVE', 'Archive: hash is missing');
  const computed = packageIdOf(payload);
  if (computed !== hash) {
    throw new DamlLfError('HASH_MISMATCH', `Archive declares package id ${hash} but its payload hashes to ${computed}`, {
      declared: hash,
      computed,
    });
  }

  const p = new ProtoReader(payload, 'MALFORMED_ARCHIVE', 'ArchivePayload');
  let minor = '';
  let patch = 0;
  let lfMajor: 1 | 2 | undefined;
  let packageBytes: Uint8Array | undefined;
  while (!p.done) {
    const { field, wireType } = p.tag();
    switch (field) {
      case PAYLOAD_MINOR:
        p.expect(field, wireType, WireType.LEN);
        minor = p.string();
        break;
      case PAYLOAD_PATCH:
        p.expect(field, wireType, WireType.VARINT);
        patch = p.int32();
        break;
      case PAYLOAD_DAML_LF_1:
        p.expect(field, wireType, WireType.LEN);
        lfMajor = 1;
        packageBytes = p.bytes();
        break;
      case PAYLOAD_DAML_LF_2:
        p.expect(field, wireType, WireType.LEN);
        lfMajor = 2;
        packageBytes = p.bytes();
        break;
      default:
        p.skip(wireType);
    }
  }
  if (lfMajor === undefined || packageBytes === undefined) {
    throw new DamlLfError('MALFORMED_ARCHIVE', 'ArchivePayload: neither daml_lf_1 nor daml_lf_2 is set');
  }
  return { packageId: computed, hashFunction: 'SHA256', lfMajor, lfMinor: minor, lfPatch: patch, payload, packageBytes };
}

/** `2.1`, `2.dev`, ... */
export function lfVersionString(a: Pick<DecodedArchive, 'lfMajor' | 'lfMinor'>): string {
  return `${a.lfMajor}.${a.lfMinor}`;
}

/** Throws UNSUPPORTED_LF_VERSION unless the archive is Daml-LF 2.x with a numeric or `dev` minor. */
export function assertSupportedLfVersion(a: Pick<DecodedArchive, 'lfMajor' | 'lfMinor' | 'packageId'>): void {
  if (a.lfMajor !== 2) {
    throw new DamlLfError(
      'UNSUPPORTED_LF_VERSION',
      `package ${a.packageId} is Daml-LF ${a.lfMajor}.${a.lfMinor}; only Daml-LF 2.x is supported`,
      { packageId: a.packageId, lfVersion: `${a.lfMajor}.${a.lfMinor}` },
    );
  }
  if (!/^(?:[1-9][0-9]{0,3}|dev)$/.test(a.lfMinor)) {
    throw new DamlLfError('UNSUPPORTED_LF_VERSION', `package ${a.packageId} has unknown Daml-LF minor version "${a.lfMinor}"`, {
      packageId: a.packageId,
      lfVersion: `2.${a.lfMinor}`,
    });
  }
}

export interface EncodedArchive {
  packageId: string;
  /** The encoded `Archive` (the .dalf file contents). */
  bytes: Uint8Array;
  /** The encoded `ArchivePayload` (what the package id hashes). */
  payload: Uint8Array;
}

/** Low level: wraps already encoded LF `Package` bytes into `ArchivePayload` + `Archive`. */
export function wrapArchive(packageBytes: Uint8Array, opts: { lfMinor?: string; lfPatch?: number; lfMajor?: 1 | 2 } = {}): EncodedArchive {
  const pw = new ProtoWriter();
  pw.string(PAYLOAD_MINOR, opts.lfMinor ?? '1');
  if ((opts.lfPatch ?? 0) !== 0) pw.int(PAYLOAD_PATCH, opts.lfPatch ?? 0);
  pw.bytes((opts.lfMajor ?? 2) === 1 ? PAYLOAD_DAML_LF_1 : PAYLOAD_DAML_LF_2, packageBytes);
  const payload = pw.finish();
  const packageId = computePackageId(payload);
  const aw = new ProtoWriter();
  // hash_function SHA256 = 0 is the proto3 default and therefore not written.
  aw.bytes(ARCHIVE_PAYLOAD, payload);
  aw.string(ARCHIVE_HASH, packageId);
  return { packageId, bytes: aw.finish(), payload };
}
