/**
 * Daml-LF packages the console verified itself — the archive's package id is the SHA-256 of its payload, checked on
 * every add — kept in the app database so transactions can be described field by field without a participant (the
 * air-gapped signer). Archives come from the participant (`GET /v2/packages/{id}`) or from a signing-request file;
 * either way only the hash decides what a package id means.
 */
import { randomUUID } from 'node:crypto';
import { isDamlLfError, readArchive, readDalf, type PackageSummary } from '../../daml-lf/index.js';
import type { AppDb } from '../app-db.js';

export type PackageSource = 'participant' | 'signing-request' | 'import';

/** Fetches a package's archive bytes (a `.dalf`) from somewhere untrusted; the store verifies them. */
export type PackageFetcher = (packageId: string) => Promise<Uint8Array>;

export interface LoadResult {
  packages: PackageSummary[];
  failures: Array<{ packageId: string; reason: string }>;
}

const PACKAGE_ID = /^[0-9a-f]{64}$/;
const MEMO_LIMIT = 64;

export class VerifiedPackages {
  /** Distinguishes stores in one process (verification results are remembered per store). */
  readonly instanceId = randomUUID();
  /** Decoded summaries, most recently used last (decoding a large package takes tens of milliseconds). */
  private readonly memo = new Map<string, PackageSummary>();

  constructor(private readonly db: AppDb) {}

  has(packageId: string): boolean {
    return this.memo.has(packageId) || this.db.prepare('SELECT 1 FROM verified_packages WHERE package_id = ?').get(packageId) !== undefined;
  }

  /** The archive bytes of a stored package. */
  archive(packageId: string): Uint8Array | undefined {
    const row = this.db.prepare('SELECT archive FROM verified_packages WHERE package_id = ?').get(packageId) as
      { archive: Buffer } | undefined;
    return row ? new Uint8Array(row.archive) : undefined;
  }

  /** The decoded summary of a stored package (re-verified when read from the database). */
  summary(packageId: string): PackageSummary | undefined {
    const hit = this.memo.get(packageId);
    if (hit) {
      this.memo.delete(packageId);
      this.memo.set(packageId, hit);
      return hit;
    }
    const bytes = this.archive(packageId);
    if (!bytes) return undefined;
    return this.remember(verify(bytes, packageId));
  }

  /**
   * Verifies an archive (its payload hashes to `expectedId`, when given) and stores it. Returns its summary; throws a
   * `PackageVerificationError` naming the problem otherwise.
   */
  add(bytes: Uint8Array, source: PackageSource, expectedId?: string): PackageSummary {
    const summary = verify(bytes, expectedId);
    this.db
      .prepare('INSERT OR IGNORE INTO verified_packages (package_id, name, version, archive, source, added_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(summary.packageId, summary.name, summary.version, Buffer.from(bytes), source, new Date().toISOString());
    return this.remember(summary);
  }

  /** Stored packages among `ids`, then the others through `fetch` (verified and stored); what fails is reported. */
  async load(ids: Iterable<string>, fetch?: PackageFetcher): Promise<LoadResult> {
    const out: LoadResult = { packages: [], failures: [] };
    for (const id of new Set(ids)) {
      if (!PACKAGE_ID.test(id)) {
        out.failures.push({ packageId: id, reason: 'not a package id (64 hex digits)' });
        continue;
      }
      try {
        const known = this.summary(id);
        if (known) {
          out.packages.push(known);
          continue;
        }
        if (!fetch) {
          out.failures.push({ packageId: id, reason: 'not on this machine' });
          continue;
        }
        out.packages.push(this.add(await fetch(id), 'participant', id));
      } catch (err) {
        out.failures.push({ packageId: id, reason: err instanceof Error ? err.message : String(err) });
      }
    }
    return out;
  }

  private remember(s: PackageSummary): PackageSummary {
    this.memo.set(s.packageId, s);
    while (this.memo.size > MEMO_LIMIT) this.memo.delete(this.memo.keys().next().value as string);
    return s;
  }
}

export class PackageVerificationError extends Error {}

function verify(bytes: Uint8Array, expectedId?: string): PackageSummary {
  try {
    const env = readArchive(bytes);
    if (expectedId !== undefined && env.packageId !== expectedId)
      throw new PackageVerificationError(`the archive's payload hashes to ${env.packageId}, not to the package id ${expectedId}`);
    return readDalf(bytes);
  } catch (err) {
    if (err instanceof PackageVerificationError) throw err;
    throw new PackageVerificationError(
      isDamlLfError(err) ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err),
    );
  }
}
