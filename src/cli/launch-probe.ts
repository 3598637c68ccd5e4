/**
 * Finds Electron's executable on disk without importing the `electron` module: importing it when
 * the binary is missing triggers a download attempt, which fails on machines without that access.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export function electronBinary(root: string): string | null {
  const pkg = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const exe = path.join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(exe) ? exe : null;
}
