/**
 * DAR upload over the JSON Ledger API v2: staged in chunks from the renderer, validated first (the console's own
 * reading and upgrade check against what the participant vets, then `/v2/dars/validate`), then uploaded (`/v2/dars`).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import { checkUpgrade, compareVersions, isDamlLfError, type Dar } from '../../daml-lf/index.js';
import { DAR_CHUNK_BYTES, MAX_DAR_BYTES, type DarValidation, type UpgradeCrossCheck } from '../../ipc/channels/packages.js';
import { ConsoleError, type CantonErrorDetails } from '../../ipc/errors.js';
import { darDecoder, DarDecoderError } from '../../dar-reader/dar-decoder.js';
import type { LedgerClient } from '../ledger-client.js';
import { listVettingStates } from './vetting.js';

import { decodedPackage, rememberArchive } from './package-cache.js';

type S = v3_5.components['schemas'];

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
  for (const [k, v] of Object.entries(c.context)) if (/reason|problem|upgrade/i.test(k) && v) add(v);
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
  const uploaded = new Set(ids.packageIds);
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
  for (const a of dar.archives) rememberArchive(a.packageId, a.bytes);
  uploads.cancel(req.uploadId);
  return { mainPackageId: dar.main.packageId, packageIds: dar.packages.map((p) => p.packageId), vetted: req.vetAllPackages };
}
