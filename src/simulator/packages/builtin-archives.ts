/**
 * The built-in packages' Daml-LF archives, without encoding them at every start.
 *
 * Encoding the built-in packages (`archiveOf`: describe, encode, SHA-256) was the largest single part of a simulator's
 * start-up (≈ 60 ms warm, ≈ 170 ms in a fresh process, before the JIT has seen the encoder). The archive is a pure
 * function of the package description and of the encoder's code, so:
 * - in a process, archives are memoised by the SHA-256 of the description (tests start many simulators);
 * - across processes, when the caller names a cache directory, `<digest>.dalf` files hold them. The caller must
 *   choose a directory that belongs to one build of the code (the command-line bundles use a folder named after
 *   their own bundle file and its modification time, `src/cli/bundle-cache.ts`), since the key covers the
 *   description only, not the encoder. A cached file is read back through `readArchive` (its package id is its
 *   payload's SHA-256, verified); one that is missing, unreadable or corrupt is encoded again and rewritten.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readArchive } from '../../daml-lf/index.js';
import { archiveOf, describePackage } from './lf.js';
import type { PackageIdResolver } from './lf.js';
import type { PackageDef } from './types.js';

export interface BuiltinArchive {
  packageId: string;
  /** The `.dalf` bytes. */
  bytes: Uint8Array;
}

/** Changes when the key's meaning changes. */
const KEY_FORMAT = 'builtin-archive/1';

const sha256Hex = (payload: Uint8Array): string => createHash('sha256').update(payload).digest('hex');

const memo = new Map<string, BuiltinArchive>();

function keyOf(def: PackageDef, packageIdOf: PackageIdResolver): string {
  const description = JSON.stringify(describePackage(def, packageIdOf), (_k, v: unknown) =>
    typeof v === 'bigint' ? { bigint: v.toString() } : v,
  );
  return createHash('sha256').update(KEY_FORMAT).update('\0').update(description).digest('hex');
}

function readCached(file: string): BuiltinArchive | undefined {
  try {
    const bytes = new Uint8Array(readFileSync(file));
    return { packageId: readArchive(bytes, sha256Hex).packageId, bytes };
  } catch {
    return undefined;
  }
}

function writeCached(dir: string, file: string, bytes: Uint8Array): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, bytes, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // a read-only or full disk only loses the speed-up
  }
}

/** The archive of built-in package `def` (see the file comment for the memo and the optional `cacheDir`). */
export function builtinArchive(def: PackageDef, packageIdOf: PackageIdResolver, cacheDir?: string): BuiltinArchive {
  const key = keyOf(def, packageIdOf);
  const known = memo.get(key);
  if (known !== undefined) return known;
  const file = cacheDir === undefined ? undefined : path.join(cacheDir, `${key}.dalf`);
  let archive = file === undefined ? undefined : readCached(file);
  if (archive === undefined) {
    const a = archiveOf(def, packageIdOf);
    archive = { packageId: a.packageId, bytes: a.bytes };
    if (cacheDir !== undefined && file !== undefined) writeCached(cacheDir, file, a.bytes);
  }
  memo.set(key, archive);
  return archive;
}

/** Forgets the in-process memo, so the next call reads the cache directory or encodes (tests of the cache). */
export function forgetBuiltinArchives(): void {
  memo.clear();
}
