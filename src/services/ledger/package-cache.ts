/**
 * Decoded Daml-LF archives per package id (`GET /v2/packages/{id}` decoded with `src/daml-lf`), cached for the whole
 * console: a package id is a content hash, so an entry never goes stale. Concurrent requests share one download.
 */
import { isDamlLfError, readArchive, readDalf, type PackageSummary } from '../../daml-lf/index.js';
import { ConsoleError } from '../../ipc/errors.js';
import type { LedgerClient } from '../ledger-client.js';

// ---- Decoded archive cache -----------------------------------------------------------------------

export interface DecodedPackage {
  packageId: string;
  summary: PackageSummary | null;
  /** From the archive envelope, even when the package itself could not be decoded (e.g. LF 1.x). */
  lfVersion: string | null;
  error: string | null;
  archiveBytes: number;
}

const CACHE_LIMIT = 4000;
/** Package id → decoded summary. Package ids hash the archive payload, so an entry never goes stale. */
const cache = new Map<string, DecodedPackage>();
const inflight = new Map<string, Promise<DecodedPackage>>();

function remember(p: DecodedPackage): DecodedPackage {
  cache.delete(p.packageId);
  cache.set(p.packageId, p);
  while (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  return p;
}

/** Decodes archive bytes into a cache entry; never throws for a bad archive (the error is recorded). */
export function decodeArchiveBytes(packageId: string, bytes: Uint8Array): DecodedPackage {
  let lfVersion: string | null = null;
  try {
    const env = readArchive(bytes);
    lfVersion = `${env.lfMajor}.${env.lfMinor}`;
    if (env.packageId !== packageId) {
      return {
        packageId,
        summary: null,
        lfVersion,
        error: `the archive's hash is ${env.packageId}, not the requested package id`,
        archiveBytes: bytes.length,
      };
    }
    const summary = readDalf(bytes);
    return { packageId, summary, lfVersion: summary.lfVersion, error: null, archiveBytes: bytes.length };
  } catch (err) {
    const message = isDamlLfError(err) ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
    return { packageId, summary: null, lfVersion, error: message, archiveBytes: bytes.length };
  }
}

/** The decoded package, fetched from the participant once per package id. */
export async function decodedPackage(client: LedgerClient, packageId: string): Promise<DecodedPackage> {
  const hit = cache.get(packageId);
  if (hit) return hit;
  const pending = inflight.get(packageId);
  if (pending) {
    try {
      return await pending;
    } catch (err) {
      // Another caller's cancel aborted the shared download; this caller still wants the package.
      if (!(err instanceof ConsoleError && err.code === 'CANCELLED')) throw err;
    }
  }
  const p = (async () => {
    try {
      const bytes = await client.getBytes(`/v2/packages/${encodeURIComponent(packageId)}`);
      return remember(decodeArchiveBytes(packageId, bytes));
    } finally {
      inflight.delete(packageId);
    }
  })();
  inflight.set(packageId, p);
  return p;
}

/** For tests: forget every decoded package. */
export function clearPackageCache(): void {
  cache.clear();
}

/** Seeds the cache with an archive already in hand (the packages of a DAR just uploaded). */
export function rememberArchive(packageId: string, bytes: Uint8Array): void {
  if (!cache.has(packageId)) remember(decodeArchiveBytes(packageId, bytes));
}
