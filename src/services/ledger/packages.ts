/**
 * Packages over the JSON Ledger API v2: the package list enriched from the Daml-LF archives themselves
 * (`GET /v2/packages/{id}` decoded here with `src/daml-lf`; summaries cached per package id, which is a content
 * hash), DAR upload staged in chunks and validated first (the console's own reading and upgrade check, then
 * `/v2/dars/validate`), the upload itself (`/v2/dars`) and the preferred-package query.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import {
  checkUpgrade,
  compareVersions,
  isDamlLfError,
  readArchive,
  readDalf,
  typeToString,
  type Choice,
  type Dar,
  type Field,
  type PackageSummary,
} from '../../daml-lf/index.js';
import {
  DAR_CHUNK_BYTES,
  MAX_DAR_BYTES,
  type ChoiceView,
  type DarValidation,
  type FieldView,
  type PackageDetail,
  type PackageList,
  type PackageRow,
  type PreferredResult,
  type SynchronizerRef,
  type UpgradeCrossCheck,
  type VettingBounds,
} from '../../ipc/channels/packages.js';
import { ConsoleError, toIpcError, type CantonErrorDetails } from '../../ipc/errors.js';
import { darDecoder, DarDecoderError } from '../../dar-reader/dar-decoder.js';
import type { LedgerClient } from '../ledger-client.js';
import { listVettingStates } from './vetting.js';

type S = v3_5.components['schemas'];

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

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

// ---- List and detail -----------------------------------------------------------------------------

export async function listSynchronizers(client: LedgerClient): Promise<SynchronizerRef[]> {
  const res = await client.connectedSynchronizers();
  return (res.connectedSynchronizers ?? [])
    .map((s) => ({ synchronizerId: s.synchronizerId, alias: s.synchronizerAlias ?? '' }))
    .sort((a, b) => a.alias.localeCompare(b.alias) || a.synchronizerId.localeCompare(b.synchronizerId));
}

export async function listPackages(client: LedgerClient): Promise<PackageList> {
  const [ids, participant, synchronizers, states] = await Promise.all([
    client.read(client.api.GET('/v2/packages')),
    client.participantId(),
    listSynchronizers(client),
    listVettingStates(client),
  ]);
  const participantId = participant.participantId;
  const uploaded = new Set(ids.packageIds ?? []);
  /** Vetting by this participant, per package id; names/versions from the vetting state when the archive does not say. */
  const vetted = new Map<string, VettingBounds[]>();
  const named = new Map<string, { name: string; version: string }>();
  for (const st of states) {
    for (const p of st.packages) {
      if (p.packageName) named.set(p.packageId, { name: p.packageName, version: p.packageVersion });
      if (st.participantId !== participantId) continue;
      const list = vetted.get(p.packageId) ?? [];
      list.push({ synchronizerId: st.synchronizerId, participantId: st.participantId, validFrom: p.validFrom, validUntil: p.validUntil });
      vetted.set(p.packageId, list);
    }
  }
  const all = [...new Set([...uploaded, ...vetted.keys()])];
  const decoded = await mapLimit([...uploaded], 6, async (id) => {
    try {
      return await decodedPackage(client, id);
    } catch (err) {
      // One unreadable package must not hide the others; the row says why.
      return { packageId: id, summary: null, lfVersion: null, error: toIpcError(err).message, archiveBytes: 0 } satisfies DecodedPackage;
    }
  });
  const byId = new Map(decoded.map((d) => [d.packageId, d]));
  const rows: PackageRow[] = all.map((id) => {
    const d = byId.get(id);
    const s = d?.summary ?? null;
    const n = named.get(id);
    return {
      packageId: id,
      name: s?.name || n?.name || '',
      version: s?.version || n?.version || '',
      lfVersion: d?.lfVersion ?? null,
      uploaded: uploaded.has(id),
      vetted: vetted.get(id) ?? [],
      templateCount: s ? s.modules.reduce((k, m) => k + m.templates.length, 0) : 0,
      interfaceCount: s ? s.modules.reduce((k, m) => k + m.interfaces.length, 0) : 0,
      decodeError: d?.error ?? null,
    };
  });
  rows.sort(
    (a, b) =>
      (a.name === '' ? 1 : 0) - (b.name === '' ? 1 : 0) ||
      a.name.localeCompare(b.name) ||
      compareVersions(b.version, a.version) ||
      a.packageId.localeCompare(b.packageId),
  );
  return { participantId, synchronizers, packages: rows };
}

const fieldView = (f: Field): FieldView => ({ name: f.name, type: typeToString(f.type) });
const choiceView = (c: Choice): ChoiceView => ({
  name: c.name,
  consuming: c.consuming,
  argType: typeToString(c.argType),
  returnType: typeToString(c.returnType),
  argFields: c.argFields ? c.argFields.map(fieldView) : null,
});

export function packageDetail(summary: PackageSummary, archiveBytes: number): PackageDetail {
  return {
    packageId: summary.packageId,
    name: summary.name,
    version: summary.version,
    lfVersion: summary.lfVersion,
    upgradedPackageId: summary.upgradedPackageId ?? null,
    dependencies: [...summary.dependencies].sort(),
    archiveBytes,
    modules: [...summary.modules]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((m) => ({
        name: m.name,
        templates: m.templates.map((t) => ({
          name: t.name,
          qualifiedName: t.qualifiedName,
          fields: t.fields.map(fieldView),
          key: t.key ? typeToString(t.key) : null,
          choices: t.choices.map(choiceView),
          implements: t.implements,
        })),
        interfaces: m.interfaces.map((i) => ({
          name: i.name,
          qualifiedName: i.qualifiedName,
          viewType: typeToString(i.viewType),
          viewFields: i.viewFields ? i.viewFields.map(fieldView) : null,
          choices: i.choices.map(choiceView),
          methods: i.methods.map((x) => ({ name: x.name, type: typeToString(x.type) })),
          requires: i.requires,
        })),
        dataTypes: m.dataTypes
          .filter((d) => d.serializable)
          .map((d) => ({
            name: d.name,
            kind: d.kind,
            params: d.params,
            fields:
              d.kind === 'enum'
                ? d.constructors.map((c) => ({ name: c, type: '' }))
                : (d.kind === 'record' ? d.fields : d.constructors).map(fieldView),
          })),
      })),
  };
}

export async function getPackage(client: LedgerClient, packageId: string): Promise<PackageDetail> {
  const d = await decodedPackage(client, packageId);
  if (!d.summary) {
    throw new ConsoleError('INTERNAL', `Package ${packageId} could not be decoded: ${d.error ?? 'unknown reason'}`, undefined, [
      { path: 'packageId', message: d.error ?? 'not decodable' },
    ]);
  }
  return packageDetail(d.summary, d.archiveBytes);
}

// ---- DAR upload staging --------------------------------------------------------------------------

interface Staged {
  id: string;
  fileName: string;
  size: number;
  buffer: Buffer;
  received: number;
  touched: number;
  /** Set by a successful validation; an upload needs it. */
  validated: { dar: Dar; canUpload: boolean } | null;
}

const STAGE_TTL_MS = 15 * 60_000;
const MAX_STAGED = 4;

/** DARs being sent by the renderer in chunks: kept in memory only, for at most 15 minutes. */
export class DarUploads {
  private readonly staged = new Map<string, Staged>();

  constructor(private readonly now: () => number = Date.now) {}

  private sweep(): void {
    for (const [id, s] of this.staged) if (this.now() - s.touched > STAGE_TTL_MS) this.staged.delete(id);
  }

  begin(fileName: string, size: number): { uploadId: string; chunkBytes: number } {
    this.sweep();
    if (size > MAX_DAR_BYTES) throw new ConsoleError('BAD_REQUEST', `The file is larger than ${MAX_DAR_BYTES / 1024 / 1024} MiB`);
    if (this.staged.size >= MAX_STAGED) {
      // Drop the oldest abandoned upload rather than refusing the operator.
      const oldest = [...this.staged.values()].sort((a, b) => a.touched - b.touched)[0];
      if (oldest) this.staged.delete(oldest.id);
    }
    const id = randomBytes(16).toString('hex');
    this.staged.set(id, { id, fileName, size, buffer: Buffer.alloc(size), received: 0, touched: this.now(), validated: null });
    return { uploadId: id, chunkBytes: DAR_CHUNK_BYTES };
  }

  get(uploadId: string): Staged {
    this.sweep();
    const s = this.staged.get(uploadId);
    if (!s) throw new ConsoleError('NOT_FOUND', 'This upload was cancelled or has expired; choose the file again');
    s.touched = this.now();
    return s;
  }

  /** Chunks arrive in order; a gap or overlap is refused. */
  chunk(uploadId: string, offset: number, bytes: Uint8Array): number {
    const s = this.get(uploadId);
    if (offset !== s.received) throw new ConsoleError('BAD_REQUEST', `Expected the chunk at byte ${s.received}, got ${offset}`);
    if (bytes.length === 0 || bytes.length > DAR_CHUNK_BYTES) throw new ConsoleError('BAD_REQUEST', 'Chunk has a bad size');
    if (s.received + bytes.length > s.size) throw new ConsoleError('BAD_REQUEST', `More bytes than the announced ${s.size}`);
    s.buffer.set(bytes, s.received);
    s.received += bytes.length;
    s.validated = null;
    return s.received;
  }

  complete(uploadId: string): Staged {
    const s = this.get(uploadId);
    if (s.received !== s.size) throw new ConsoleError('BAD_REQUEST', `The upload is incomplete: ${s.received} of ${s.size} bytes received`);
    return s;
  }

  cancel(uploadId: string): boolean {
    return this.staged.delete(uploadId);
  }

  get size(): number {
    return this.staged.size;
  }
}

/** The problems named by a participant's refusal: the `Reason:` part of the cause, else the cause itself. */
export function problemsFromCanton(c: CantonErrorDetails | undefined): string[] {
  if (!c) return [];
  const out: string[] = [];
  const add = (text: string) => {
    // Several problems in one reason are separated by "; " before the next entity ("template X: …").
    for (const part of text.split(/;\s+(?=(?:template|interface|choice|field|data type|type|module|package|record|variant|enum|key)\b)/i)) {
      const p = part.trim();
      if (p && !out.includes(p)) out.push(p);
    }
  };
  const reason = /Reason:\s*([\s\S]+)$/.exec(c.cause);
  add(reason?.[1] ?? c.cause);
  for (const [k, v] of Object.entries(c.context ?? {})) if (/reason|problem|upgrade/i.test(k) && v) add(v);
  return out;
}

/**
 * The Daml standard library (`daml-prim`, `daml-stdlib`, `ghc-stdlib`) and its stable per-module packages
 * (`daml-stdlib-DA-Time-Types`, `ghc-stdlib-DA-Internal-Template`, …): Canton does not upgrade-check them, and a stable
 * package's name and version always denote the same package, so the console does not compare them either.
 */
const isStdlibPackage = (name: string): boolean => /^(daml-prim|daml-stdlib|ghc-stdlib)(-.+)?$/.test(name);

/** The console's own upgrade check of each new DAR package against the vetted packages of the same name. */
async function crossCheck(
  client: LedgerClient,
  dar: Dar,
  vettedByName: Map<string, Array<{ packageId: string; version: string }>>,
  uploaded: Set<string>,
): Promise<UpgradeCrossCheck[]> {
  const out: UpgradeCrossCheck[] = [];
  for (const pkg of dar.packages) {
    if (!pkg.name || uploaded.has(pkg.packageId) || isStdlibPackage(pkg.name)) continue;
    const same = (vettedByName.get(pkg.name) ?? []).filter((v) => v.packageId !== pkg.packageId);
    if (same.length === 0) continue;
    const clash = same.find((v) => compareVersions(v.version, pkg.version) === 0);
    if (clash) {
      out.push({
        packageId: pkg.packageId,
        packageName: pkg.name,
        version: pkg.version,
        against: { packageId: clash.packageId, version: clash.version, direction: 'upgrades' },
        compatible: false,
        problems: [`version ${pkg.version} of ${pkg.name} is already vetted as a different package (${clash.packageId.slice(0, 12)}…)`],
      });
      continue;
    }
    const lower = same.filter((v) => compareVersions(v.version, pkg.version) < 0).sort((a, b) => compareVersions(b.version, a.version))[0];
    const higher = same.filter((v) => compareVersions(v.version, pkg.version) > 0).sort((a, b) => compareVersions(a.version, b.version))[0];
    for (const [other, direction] of [
      [lower, 'upgrades'],
      [higher, 'upgraded-by'],
    ] as const) {
      if (!other) continue;
      const d = await decodedPackage(client, other.packageId).catch(() => null);
      if (!d?.summary) {
        out.push({
          packageId: pkg.packageId,
          packageName: pkg.name,
          version: pkg.version,
          against: { packageId: other.packageId, version: other.version, direction },
          compatible: false,
          problems: [`the vetted package ${other.packageId.slice(0, 12)}… could not be decoded: ${d?.error ?? 'not available'}`],
        });
        continue;
      }
      const r = direction === 'upgrades' ? checkUpgrade(d.summary, pkg) : checkUpgrade(pkg, d.summary);
      out.push({
        packageId: pkg.packageId,
        packageName: pkg.name,
        version: pkg.version,
        against: { packageId: other.packageId, version: other.version, direction },
        compatible: r.compatible,
        problems: r.problems,
      });
    }
  }
  return out;
}

function query(params: Record<string, string | boolean | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export async function validateDar(
  client: LedgerClient,
  uploads: DarUploads,
  uploadId: string,
  synchronizerId: string | null,
): Promise<DarValidation> {
  const s = uploads.complete(uploadId);
  const bytes = new Uint8Array(s.buffer.buffer, s.buffer.byteOffset, s.buffer.length);
  const base = {
    uploadId,
    fileName: s.fileName,
    size: s.size,
    sha256: createHash('sha256').update(s.buffer).digest('hex'),
    synchronizerId,
  };
  let dar: Dar;
  try {
    // in the DAR reader's worker thread: a large or hostile DAR must not stall the console's other calls
    dar = await darDecoder().decode(bytes);
  } catch (err) {
    s.validated = null;
    const decodeError = isDamlLfError(err)
      ? { code: err.code, message: err.message }
      : err instanceof DarDecoderError
        ? { code: err.kind === 'timeout' ? 'READ_TIMEOUT' : 'UNREADABLE', message: err.message }
        : { code: 'UNREADABLE', message: err instanceof Error ? err.message : String(err) };
    return { ...base, dar: null, decodeError, participant: null, crossCheck: [], canUpload: false };
  }

  const [ids, participant, states] = await Promise.all([
    client.read(client.api.GET('/v2/packages')),
    client.participantId(),
    listVettingStates(client),
  ]);
  const uploaded = new Set(ids.packageIds ?? []);
  const vettedByName = new Map<string, Array<{ packageId: string; version: string }>>();
  for (const st of states) {
    if (st.participantId !== participant.participantId) continue;
    if (synchronizerId && st.synchronizerId !== synchronizerId) continue;
    for (const p of st.packages) {
      if (!p.packageName) continue;
      const list = vettedByName.get(p.packageName) ?? [];
      if (!list.some((x) => x.packageId === p.packageId)) list.push({ packageId: p.packageId, version: p.packageVersion });
      vettedByName.set(p.packageName, list);
    }
  }

  let participantAnswer: NonNullable<DarValidation['participant']>;
  try {
    await client.postBytes<unknown>(`/v2/dars/validate${query({ synchronizerId })}`, bytes);
    participantAnswer = { ok: true, error: null, problems: [] };
  } catch (err) {
    if (!(err instanceof ConsoleError) || err.code !== 'LEDGER_API_ERROR') throw err;
    participantAnswer = { ok: false, error: err.toIpcError(), problems: problemsFromCanton(err.canton) };
  }
  const checks = await crossCheck(client, dar, vettedByName, uploaded);
  const canUpload = participantAnswer.ok;
  s.validated = { dar, canUpload };
  return {
    ...base,
    dar: {
      mainPackageId: dar.main.packageId,
      name: dar.main.name,
      version: dar.main.version,
      sdkVersion: dar.manifest.sdkVersion ?? '',
      packages: dar.packages.map((p) => ({
        packageId: p.packageId,
        name: p.name,
        version: p.version,
        lfVersion: p.lfVersion,
        templateCount: p.modules.reduce((k, m) => k + m.templates.length, 0),
        main: p.packageId === dar.main.packageId,
        alreadyUploaded: uploaded.has(p.packageId),
      })),
    },
    decodeError: null,
    participant: participantAnswer,
    crossCheck: checks,
    canUpload,
  };
}

export async function uploadDar(
  client: LedgerClient,
  uploads: DarUploads,
  req: { uploadId: string; vetAllPackages: boolean; synchronizerId: string | null },
): Promise<{ mainPackageId: string; packageIds: string[]; vetted: boolean }> {
  const s = uploads.complete(req.uploadId);
  if (!s.validated) throw new ConsoleError('CONFLICT', 'Validate the DAR before uploading it');
  if (!s.validated.canUpload)
    throw new ConsoleError('CONFLICT', 'The participant refused this DAR when it was validated; it was not uploaded');
  const bytes = new Uint8Array(s.buffer.buffer, s.buffer.byteOffset, s.buffer.length);
  await client.postBytes<S['UploadDarFileResponse']>(
    `/v2/dars${query({ vetAllPackages: req.vetAllPackages, synchronizerId: req.synchronizerId })}`,
    bytes,
  );
  const dar = s.validated.dar;
  // The archives are known now: seed the cache so the detail opens without another download.
  for (const a of dar.archives) if (!cache.has(a.packageId)) remember(decodeArchiveBytes(a.packageId, a.bytes));
  uploads.cancel(req.uploadId);
  return { mainPackageId: dar.main.packageId, packageIds: dar.packages.map((p) => p.packageId), vetted: req.vetAllPackages };
}

// ---- Preferred packages --------------------------------------------------------------------------

export async function preferredPackages(
  client: LedgerClient,
  req: { requirements: Array<{ packageName: string; parties: string[] }>; synchronizerId: string | null; vettingValidAt: string | null },
): Promise<PreferredResult> {
  const targets: Array<string | null> = req.synchronizerId
    ? [req.synchronizerId]
    : (await listSynchronizers(client)).map((s) => s.synchronizerId);
  if (targets.length === 0) targets.push(null);
  const results = await Promise.all(
    targets.map(async (sync) => {
      const body: S['GetPreferredPackagesRequest'] = {
        packageVettingRequirements: req.requirements.map((r) => ({ packageName: r.packageName, parties: r.parties })),
        ...(sync ? { synchronizerId: sync } : {}),
        ...(req.vettingValidAt ? { vettingValidAt: req.vettingValidAt } : {}),
      };
      try {
        const res = await client.read(client.api.POST('/v2/interactive-submission/preferred-packages', { body }));
        return {
          requestedSynchronizerId: sync,
          synchronizerId: res.synchronizerId ?? sync,
          references: (res.packageReferences ?? []).map((p) => ({
            packageId: p.packageId,
            packageName: p.packageName,
            packageVersion: p.packageVersion,
          })),
          error: null,
        };
      } catch (err) {
        if (err instanceof ConsoleError && err.code === 'UNREACHABLE') throw err;
        return { requestedSynchronizerId: sync, synchronizerId: sync, references: [], error: toIpcError(err) };
      }
    }),
  );
  return { results };
}
