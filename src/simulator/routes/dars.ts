/**
 * DAR upload and validation: `POST /v2/dars`, `POST /v2/packages` (same), `POST /v2/dars/validate`.
 *
 * A DAR is read with `src/daml-lf` (zip, manifest, every DALF's hash verified, LF2 decoded). Checks, in order:
 * parse (INVALID_DAR / DAR_PARSE_ERROR / ZIP_BOMB), dependencies present in the DAR or already known
 * (TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES), name+version not taken by a different package (KNOWN_PACKAGE_VERSION),
 * and — when the packages get vetted, and always for validate — upgrade compatibility with the packages of the same
 * name vetted on the target synchronizer(s) (NOT_VALID_UPGRADE_PACKAGE). The upload is one SQLite transaction; any
 * failure leaves the participant unchanged. Uploading the same DAR again is a no-op (and re-vets with vetAllPackages).
 */
import { checkUpgrade, compareVersions, DamlLfError } from '../../daml-lf/index.js';
import type { Dar, DamlLfErrorCode, PackageSummary, ZipLimits } from '../../daml-lf/index.js';
import { microsToIso } from '../clock.js';
import type { SimContext } from '../context.js';
import { CantonError, DecodeError } from '../errors.js';
import type { ErrorCode } from '../errors.js';
import { darDecoder, DarDecoderError } from '../../dar-reader/dar-decoder.js';
import { isUtilityPackage } from '../packages/registry.js';
import type { RequestCtx, Router } from '../router.js';
import { oneAtATime, readDarBody } from './dar-body.js';
import { ok } from '../router.js';
import type { VettingBounds } from '../store/packages.js';

const PARSE_CODES: Partial<Record<DamlLfErrorCode, ErrorCode>> = {
  TOO_LARGE: 'ZIP_BOMB',
  HASH_MISMATCH: 'DAR_PARSE_ERROR',
  UNSUPPORTED_HASH_FUNCTION: 'DAR_PARSE_ERROR',
  UNSUPPORTED_LF_VERSION: 'DAR_PARSE_ERROR',
  MALFORMED_ARCHIVE: 'DAR_PARSE_ERROR',
  MALFORMED_PACKAGE: 'DAR_PARSE_ERROR',
};

/**
 * Reads a DAR in the DAR reader's worker thread (off the event loop); reader failures become INVALID_DAR (container),
 * DAR_PARSE_ERROR (archives) or ZIP_BOMB, a reader that runs out of time or memory INVALID_DAR / ZIP_BOMB.
 */
export async function parseDar(bytes: Uint8Array, limits?: ZipLimits): Promise<Dar> {
  if (bytes.length === 0) throw new CantonError('INVALID_DAR', 'The DAR is empty', { context: { damlLfCode: 'NOT_A_ZIP' } });
  try {
    return await darDecoder().decode(bytes, limits);
  } catch (e) {
    if (e instanceof DarDecoderError) {
      if (e.kind === 'unavailable') throw new CantonError('INTERNAL', e.message);
      throw new CantonError(e.kind === 'timeout' ? 'INVALID_DAR' : 'ZIP_BOMB', `Invalid DAR: ${e.message}`, {
        context: { reader: e.kind },
      });
    }
    if (!(e instanceof DamlLfError)) throw e;
    const context: Record<string, string> = { damlLfCode: e.code };
    for (const [k, v] of Object.entries(e.details)) if (typeof v === 'string' || typeof v === 'number') context[k] = String(v);
    throw new CantonError(PARSE_CODES[e.code] ?? 'INVALID_DAR', `Invalid DAR: ${e.message}`, { context });
  }
}

interface Plan {
  dar: Dar;
  /** Packages of the DAR not known yet. */
  fresh: PackageSummary[];
  /** Synchronizers the DAR's packages get vetted on. */
  vetOn: string[];
}

function targetSynchronizers(sim: SimContext, synchronizerId: string | null): string[] {
  if (synchronizerId === null || synchronizerId === '') return sim.synchronizers.map((s) => s.id);
  if (!sim.synchronizers.some((s) => s.id === synchronizerId))
    throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${synchronizerId}`, { context: { synchronizerId } });
  return [synchronizerId];
}

/**
 * Summaries of the uploaded packages vetted on a synchronizer. Built-in packages take no part in upgrade checks: their
 * behaviour is TypeScript and their archives only mirror its signatures, so a real package of the same name (e.g. the
 * real `splice-amulet`, or the token-standard APIs a DAR bundles) is neither an upgrade of them nor checked against them.
 */
export function vettedSummaries(sim: SimContext, synchronizerId: string): PackageSummary[] {
  return [...sim.registry.vetted(synchronizerId).keys()].flatMap((id) => {
    const p = sim.registry.package(id);
    return p?.uploaded ? [p.summary] : [];
  });
}

/**
 * Upgrade compatibility of `pkgs` with the packages of the same name in `vetted` (the vetting state they join): each
 * package must be a valid upgrade of the next lower version and be upgraded by the next higher one.
 */
export function checkUpgrades(sim: SimContext, pkgs: PackageSummary[], vetted: PackageSummary[], synchronizerId: string): void {
  const pool = new Map<string, PackageSummary>(vetted.map((p) => [p.packageId, p]));
  for (const pkg of pkgs) {
    if (isUtilityPackage(pkg.name) || sim.registry.package(pkg.packageId)?.uploaded === false) continue;
    const same = [...pool.values()].filter((q) => q.name === pkg.name && q.packageId !== pkg.packageId);
    const lower = same.filter((q) => compareVersions(q.version, pkg.version) < 0).sort((a, b) => compareVersions(b.version, a.version))[0];
    const higher = same.filter((q) => compareVersions(q.version, pkg.version) > 0).sort((a, b) => compareVersions(a.version, b.version))[0];
    for (const [older, newer] of [
      [lower, pkg],
      [pkg, higher],
    ] as const) {
      if (!older || !newer) continue;
      const r = checkUpgrade(older, newer);
      if (!r.compatible)
        throw new CantonError(
          'NOT_VALID_UPGRADE_PACKAGE',
          `Upgrade checks indicate that ${newer.packageId} (${newer.name} v${newer.version}) cannot be an ` +
            `upgrade of ${older.packageId} (${older.name} v${older.version}). Reason: ${r.problems.join('; ')}`,
          {
            context: {
              oldPackage: `${older.packageId} (${older.name} v${older.version})`,
              newPackage: `${newer.packageId} (${newer.name} v${newer.version})`,
              problems: r.problems.join('; '),
              synchronizerId,
            },
          },
        );
    }
  }
}

/** The checks of an upload, against the current state: run synchronously right before the commit. */
function plan(sim: SimContext, dar: Dar, vetOn: string[]): Plan {
  const inDar = new Set(dar.packages.map((p) => p.packageId));
  for (const p of dar.packages) {
    const missing = p.dependencies.filter((d) => !inDar.has(d) && !sim.registry.package(d));
    if (missing.length > 0)
      throw new CantonError(
        'TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES',
        `Package ${p.packageId} (${p.name} v${p.version}) depends on packages that ` +
          `are neither in the DAR nor known to the participant: ${missing.join(', ')}`,
        { context: { packageId: p.packageId, missingPackages: missing.join(',') } },
      );
  }
  for (const p of dar.packages) {
    // every SDK ships its own daml-prim 0.0.0 (real DARs bundle several): the standard library is exempt, as in Canton
    if (isUtilityPackage(p.name) || sim.registry.package(p.packageId)) continue;
    // built-in packages give way: only uploaded packages claim a name and version
    const clash = sim.registry.packages.find((q) => q.uploaded && q.def.name === p.name && q.def.version === p.version);
    if (clash)
      throw new CantonError(
        'KNOWN_PACKAGE_VERSION',
        `Tried to upload package ${p.packageId} (${p.name} v${p.version}), but a different ` +
          `package ${clash.id} with the same name and version has previously been uploaded.`,
        { context: { uploadedPackage: p.packageId, existingPackage: clash.id, packageVersion: p.version } },
      );
  }
  const uploadable = dar.packages.filter((p) => sim.registry.package(p.packageId)?.uploaded !== false);
  for (const s of vetOn) checkUpgrades(sim, uploadable, [...vettedSummaries(sim, s), ...uploadable], s);
  return { dar, fresh: dar.packages.filter((p) => !sim.registry.package(p.packageId)), vetOn };
}

function flag(ctx: RequestCtx, name: string, dflt: boolean): boolean {
  const v = ctx.query.get(name);
  if (v === null) return dflt;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new DecodeError(`Invalid value for: query parameter ${name} (expected a boolean, got '${v}')`);
}

export function registerDarRoutes(router: Router, sim: SimContext): void {
  // size cap and one upload at a time (dar-body.ts): uploads cannot exhaust the process's memory
  const inTurn = oneAtATime();
  const readDar = (ctx: RequestCtx): Promise<Dar> =>
    inTurn(async () => parseDar(await readDarBody(ctx.req, sim.settings.maxDarBytes), sim.settings.darUncompressed));
  const upload = async (ctx: RequestCtx) => {
    const vetAll = flag(ctx, 'vetAllPackages', true);
    const syncs = targetSynchronizers(sim, ctx.query.get('synchronizerId'));
    const dar = await readDar(ctx);
    const p = plan(sim, dar, vetAll ? syncs : []);
    const store = sim.registry.packageStore;
    if (!store) throw new CantonError('INTERNAL', 'package store not attached');
    const now = microsToIso(sim.clock.nowMicros());
    const byId = new Map(p.dar.archives.map((a) => [a.packageId, a]));
    const stored = p.fresh.map((s) => {
      const a = byId.get(s.packageId);
      return {
        packageId: s.packageId,
        name: s.name,
        version: s.version,
        lfVersion: s.lfVersion,
        archive: a?.bytes ?? new Uint8Array(),
        uploadedAt: now,
      };
    });
    store.transaction(() => {
      store.insertPackages(stored);
      store.insertDar(
        p.dar.main.packageId,
        p.dar.main.name,
        p.dar.main.version,
        p.dar.packages.map((x) => x.packageId),
        now,
      );
      for (const s of p.vetOn) {
        const state = sim.registry.vetted(s);
        const before = state.size;
        let changed = false;
        for (const x of p.dar.packages) {
          const cur = state.get(x.packageId);
          if (!cur || cur.validFrom !== null || cur.validUntil !== null) {
            state.set(x.packageId, { validFrom: null, validUntil: null } satisfies VettingBounds);
            changed = true;
          }
        }
        if (changed || state.size !== before) sim.registry.writeVetting(s, state);
      }
    });
    for (const s of stored)
      sim.registry.addUploaded(
        s,
        p.fresh.find((x) => x.packageId === s.packageId),
      );
    sim.registry.reloadVetting();
    return ok({});
  };
  router.add('POST', '/v2/dars', upload);
  router.add('POST', '/v2/packages', upload);

  router.add('POST', '/v2/dars/validate', async (ctx) => {
    const syncs = targetSynchronizers(sim, ctx.query.get('synchronizerId'));
    plan(sim, await readDar(ctx), syncs);
    return { status: 200, empty: true };
  });
}
