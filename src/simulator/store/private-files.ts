/**
 * The simulator's data directory is its user's alone: the directory 0700, the database and its WAL/SHM 0600, on
 * creation and tightened when an existing directory has looser modes. (The simulator imports nothing of the
 * console, so it keeps this small helper of its own.) No-op on Windows.
 */
import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, openSync } from 'node:fs';

const POSIX = process.platform !== 'win32';

function tighten(p: string): void {
  const st = lstatSync(p, { throwIfNoEntry: false });
  if (!st || st.isSymbolicLink() || (st.mode & 0o077) === 0) return;
  chmodSync(p, st.mode & 0o700);
}

/** Creates the data directory 0700 (tightening an existing one) and the database file 0600, so SQLite's WAL and SHM inherit it. */
export function privateDataDir(dataDir: string, dbFile: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (!existsSync(dbFile)) closeSync(openSync(dbFile, 'a', 0o600));
  if (!POSIX) return;
  tighten(dataDir);
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}-journal`]) if (existsSync(f)) tighten(f);
}
