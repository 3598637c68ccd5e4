/**
 * What the console writes is the user's alone: directories 0700, files 0600 — on creation, and tightened when an
 * existing data directory (an older version's, a copy, a restored backup) has looser modes. Symbolic links are
 * neither followed nor changed. No-op on Windows, where access is governed by the profile directory's ACLs.
 */
import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import path from 'node:path';

const POSIX = process.platform !== 'win32';

/** Removes the group and other bits of `p` if it has any (never follows a symbolic link). */
function tighten(p: string): void {
  const st = lstatSync(p, { throwIfNoEntry: false });
  if (!st || st.isSymbolicLink() || (st.mode & 0o077) === 0) return;
  chmodSync(p, st.mode & 0o700);
}

/** Creates `dir` (and missing parents) 0700 and tightens it if it already existed. Returns `dir`. */
export function privateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (POSIX) tighten(dir);
  return dir;
}

/** Creates `file` empty with mode 0600 if absent (so SQLite's WAL and SHM files inherit 0600), else tightens it. */
export function privateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  if (POSIX) tighten(file);
}

/** A SQLite database file and its companions (WAL, SHM, rollback journal): created 0600, tightened if present. */
export function privateDatabase(file: string): void {
  privateFile(file);
  if (POSIX) for (const suffix of ['-wal', '-shm', '-journal']) if (existsSync(file + suffix)) tighten(file + suffix);
}

/** Tightens `dir` and everything below it (directories and regular files; links are left alone). */
export function privateTree(dir: string): void {
  privateDir(dir);
  if (!POSIX) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) privateTree(p);
    else if (e.isFile()) tighten(p);
  }
}
