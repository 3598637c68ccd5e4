/**
 * DAR reading and writing. A DAR is a zip whose `META-INF/MANIFEST.MF` names the main DALF (`Main-Dalf`) and all DALFs
 * (`Dalfs`); each DALF is a Daml-LF `Archive`.
 */
import { assertSupportedLfVersion, lfVersionString, readArchive, type EncodedArchive } from './archive.js';
import { DamlLfError } from './errors.js';
import { decodeLf2Package } from './lf2-package.js';
import type { PackageDescription } from './lf2-description.js';
import { encodeArchive } from './lf2-encode.js';
import { MANIFEST_PATH, parseManifest, renderManifest, type DarManifest } from './manifest.js';
import type { PackageSummary } from './types.js';
import { readZip, writeZip, type ZipLimits, type ZipWriteEntry } from './zip.js';

export interface DarArchive {
  /** Path of the DALF inside the DAR. */
  path: string;
  packageId: string;
  lfVersion: string;
  /** The DALF bytes (an encoded `Archive`), e.g. to serve `GET /v2/packages/{id}`. */
  bytes: Uint8Array;
}

export interface Dar {
  manifest: DarManifest;
  /** The main package. */
  main: PackageSummary;
  /** All packages of the DAR, main first, then the others in manifest order (duplicates by id removed). */
  packages: PackageSummary[];
  /** The DALFs, in the same order as `packages`. */
  archives: DarArchive[];
}

export type ReadDarOptions = ZipLimits;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Re-throws a DamlLfError with the DALF path prefixed and recorded in `details.dalf`. */
function inDalf<T>(path: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof DamlLfError) {
      const msg =
        e.code === 'HASH_MISMATCH'
          ? `${path}: archive declares package id ${String(e.details['declared'])} ` +
            `but its payload hashes to ${String(e.details['computed'])}`
          : `${path}: ${e.message}`;
      throw new DamlLfError(e.code, msg, { ...e.details, dalf: path });
    }
    throw e;
  }
}

/**
 * Reads a DAR: zip → manifest → every listed DALF (hash verified) → LF2 package summaries.
 * Every failure is a `DamlLfError` (see its `code`).
 */
export function readDar(bytes: Uint8Array, opts: ReadDarOptions = {}): Dar {
  const zip = readZip(bytes, opts);
  const manifestEntry = zip.entries.get(MANIFEST_PATH);
  if (manifestEntry === undefined) throw new DamlLfError('MISSING_MANIFEST', `the DAR has no ${MANIFEST_PATH}`);
  let text: string;
  try {
    text = decoder.decode(manifestEntry.read());
  } catch (e) {
    if (e instanceof DamlLfError) throw e;
    throw new DamlLfError('MALFORMED_MANIFEST', `${MANIFEST_PATH} is not valid UTF-8`);
  }
  const manifest = parseManifest(text);
  if (manifest.format !== undefined && manifest.format !== 'daml-lf') {
    throw new DamlLfError('UNSUPPORTED_DAR_FORMAT', `manifest Format "${manifest.format}" is not daml-lf`);
  }
  if (manifest.encryption !== undefined && manifest.encryption !== 'non-encrypted') {
    throw new DamlLfError('UNSUPPORTED_DAR_FORMAT', `manifest Encryption "${manifest.encryption}" is not supported`);
  }
  if (!zip.entries.has(manifest.mainDalf)) {
    throw new DamlLfError('MAIN_DALF_MISSING', `the manifest's Main-Dalf ${manifest.mainDalf} is not in the DAR`, {
      dalf: manifest.mainDalf,
    });
  }
  let listed = manifest.dalfs;
  if (listed.length === 0) listed = [...zip.entries.keys()].filter((n) => n.endsWith('.dalf'));
  const paths = [manifest.mainDalf, ...listed.filter((p) => p !== manifest.mainDalf)];

  const packages: PackageSummary[] = [];
  const archives: DarArchive[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    const entry = zip.entries.get(path);
    if (entry === undefined) throw new DamlLfError('DALF_MISSING', `${path} is listed in the manifest but not in the DAR`, { dalf: path });
    const dalf = entry.read();
    inDalf(path, () => {
      const archive = readArchive(dalf);
      if (seen.has(archive.packageId)) return;
      seen.add(archive.packageId);
      assertSupportedLfVersion(archive);
      const lfVersion = lfVersionString(archive);
      packages.push(decodeLf2Package(archive.packageBytes, archive.packageId, { lfVersion }));
      archives.push({ path, packageId: archive.packageId, lfVersion, bytes: dalf });
    });
  }
  const main = packages[0];
  if (main === undefined) throw new DamlLfError('MAIN_DALF_MISSING', 'the DAR has no main package');
  return { manifest, main, packages, archives };
}

/** Reads a single .dalf into a package summary (hash verified, LF2 only). */
export function readDalf(bytes: Uint8Array): PackageSummary {
  const archive = readArchive(bytes);
  assertSupportedLfVersion(archive);
  return decodeLf2Package(archive.packageBytes, archive.packageId, { lfVersion: lfVersionString(archive) });
}

export interface BuildDarOptions {
  sdkVersion?: string;
  /** Extra zip entries (e.g. sources), added after the DALFs. */
  extraEntries?: ZipWriteEntry[];
}

export interface BuiltDar {
  bytes: Uint8Array;
  mainPackageId: string;
  /** Package ids of all DALFs, main first. */
  packageIds: string[];
  manifest: string;
}

type DarInput = PackageDescription | { name: string; version: string; archive: EncodedArchive };

function toArchive(p: DarInput): { name: string; version: string; archive: EncodedArchive } {
  return 'archive' in p ? p : { name: p.name, version: p.version, archive: encodeArchive(p) };
}

/**
 * Builds a DAR in the layout damlc uses: `<name>-<version>-<id>/<name>-<version>-<id>.dalf` per package, and a manifest
 * with `Main-Dalf` and `Dalfs`. Inputs are package descriptions or already encoded archives.
 */
export function buildDar(main: DarInput, dependencies: readonly DarInput[] = [], opts: BuildDarOptions = {}): BuiltDar {
  const all = [main, ...dependencies].map(toArchive);
  const first = all[0] as { name: string; version: string; archive: EncodedArchive };
  const dir = `${first.name}-${first.version}-${first.archive.packageId}`;
  const paths = all.map((a) => `${dir}/${a.name}-${a.version}-${a.archive.packageId}.dalf`);
  const headers: [string, string][] = [
    ['Manifest-Version', '1.0'],
    ['Created-By', 'canton-operator-console daml-lf'],
    ['Name', first.name],
    ['Sdk-Version', opts.sdkVersion ?? '0.0.0'],
    ['Main-Dalf', paths[0] as string],
    ['Dalfs', paths.join(', ')],
    ['Format', 'daml-lf'],
    ['Encryption', 'non-encrypted'],
  ];
  const manifest = renderManifest(headers);
  const entries: ZipWriteEntry[] = [
    { name: MANIFEST_PATH, data: new TextEncoder().encode(manifest) },
    ...all.map((a, i) => ({ name: paths[i] as string, data: a.archive.bytes })),
    ...(opts.extraEntries ?? []),
  ];
  return { bytes: writeZip(entries), mainPackageId: first.archive.packageId, packageIds: all.map((a) => a.archive.packageId), manifest };
}
