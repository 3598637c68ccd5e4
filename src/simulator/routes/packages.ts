/**
 * Package endpoints: list / get (Daml-LF archive bytes) / status, preferred packages, package vetting (list, update,
 * deprecated GET/POST /v2/package-vetting). DAR upload and validation live in `dars.ts`.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import { z } from 'zod';
import { compareVersions } from '../../daml-lf/index.js';
import { microsToIso } from '../clock.js';
import type { SimContext } from '../context.js';
import { CantonError, partyNotKnown } from '../errors.js';
import { decodeJson } from '../http.js';
import type { ResolvedPackage } from '../packages/registry.js';
import type { RequestCtx, Router } from '../router.js';
import { ok } from '../router.js';
import { GetPreferredPackagesRequestSchema, ListVettedPackagesRequestSchema, optionalString } from '../schemas.js';
import { PackageStore } from '../store/packages.js';
import type { VettingBounds } from '../store/packages.js';
import { body } from './common.js';
import { checkUpgrades, registerDarRoutes } from './dars.js';

type S = v3_5.components['schemas'];

const RefSchema = z.object({ packageId: optionalString, packageName: optionalString, packageVersion: optionalString });
const UpdateVettedPackagesRequestSchema = z.object({
  changes: z.array(
    z.object({
      operation: z
        .union([
          z.object({ Empty: z.looseObject({}) }),
          z.object({ Unvet: z.object({ value: z.object({ packages: z.array(RefSchema) }) }) }),
          z.object({
            Vet: z.object({
              value: z.object({
                packages: z.array(RefSchema),
                newValidFromInclusive: optionalString,
                newValidUntilExclusive: optionalString,
              }),
            }),
          }),
        ])
        .optional(),
    }),
  ),
  dryRun: z.boolean().optional(),
  synchronizerId: optionalString,
  expectedTopologySerial: z
    .object({
      serial: z
        .union([
          z.object({ Empty: z.looseObject({}) }),
          z.object({ NoPrior: z.looseObject({}) }),
          z.object({ Prior: z.object({ value: z.number().int() }) }),
        ])
        .optional(),
    })
    .optional(),
  updateVettedPackagesForceFlags: z.array(z.string()).optional(),
});
type UpdateRequest = z.infer<typeof UpdateVettedPackagesRequestSchema>;

const FORCE_INCOMPATIBLE = 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES';
const FORCE_UNVETTED_DEPS = 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES';

export function registerPackageRoutes(router: Router, sim: SimContext): void {
  sim.registry.attachStore(
    new PackageStore(sim.store.db),
    sim.synchronizers.map((s) => s.id),
  );
  registerDarRoutes(router, sim);
  const nowIso = (): string => microsToIso(sim.clock.nowMicros());

  router.add('GET', '/v2/packages', () => {
    const res: S['ListPackagesResponse'] = { packageIds: sim.registry.packages.map((p) => p.id) };
    return ok(res);
  });
  router.add('GET', '/v2/packages/{package-id}/status', (ctx) => {
    const known = sim.registry.package(ctx.params['package-id'] ?? '') !== undefined;
    const res: S['GetPackageStatusResponse'] = { packageStatus: known ? 'PACKAGE_STATUS_REGISTERED' : 'PACKAGE_STATUS_UNSPECIFIED' };
    return ok(res);
  });
  router.add('GET', '/v2/packages/{package-id}', (ctx) => {
    const id = ctx.params['package-id'] ?? '';
    const p = sim.registry.package(id);
    if (!p) throw new CantonError('PACKAGE_NOT_FOUND', `Package not found: ${id}`, { context: { packageId: id } });
    // A real Daml-LF 2 Archive: SHA-256(payload) = package id.
    return { status: 200, binary: Buffer.from(p.archive), contentType: 'application/octet-stream' };
  });

  // ---------------------------------------------------------------------------------------------
  // Preferred packages: the highest version per name vetted (on this participant, which hosts every party)
  // ---------------------------------------------------------------------------------------------
  const preferred = (
    packageName: string,
    parties: string[],
    synchronizerId: string | undefined,
    at: string | undefined,
  ): S['PackagePreference'] | undefined => {
    if (synchronizerId !== undefined && !sim.synchronizers.some((x) => x.id === synchronizerId))
      throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${synchronizerId}`, { context: { synchronizerId } });
    for (const p of parties) if (!sim.store.hasParty(p)) throw partyNotKnown(p);
    const when = at ?? nowIso();
    let best: { pkg: ResolvedPackage; sync: string } | undefined;
    for (const s of synchronizerId !== undefined ? [synchronizerId] : sim.synchronizers.map((x) => x.id)) {
      const pkg = sim.registry.preferred(packageName, s, when);
      if (pkg && (!best || compareVersions(pkg.def.version, best.pkg.def.version) > 0)) best = { pkg, sync: s };
    }
    if (!best) return undefined;
    return {
      synchronizerId: best.sync,
      packageReference: { packageId: best.pkg.id, packageName: best.pkg.def.name, packageVersion: best.pkg.def.version },
    };
  };

  router.add('POST', '/v2/interactive-submission/preferred-packages', async (ctx) => {
    const req = await body(ctx, GetPreferredPackagesRequestSchema);
    if (req.packageVettingRequirements.length === 0)
      throw new CantonError('MISSING_FIELD', 'packageVettingRequirements must be non-empty', {
        context: { field: 'packageVettingRequirements' },
      });
    // all references on one synchronizer: the requested one, or the first where every name resolves
    const candidates = req.synchronizerId !== undefined ? [req.synchronizerId] : sim.synchronizers.map((s) => s.id);
    let answer: S['GetPreferredPackagesResponse'] | undefined;
    let firstMissing: string | undefined;
    for (const sync of candidates) {
      const prefs = req.packageVettingRequirements.map((r) => ({ r, p: preferred(r.packageName, r.parties, sync, req.vettingValidAt) }));
      const missing = prefs.find((x) => x.p === undefined);
      if (missing) {
        firstMissing ??= missing.r.packageName;
        continue;
      }
      answer = { packageReferences: prefs.map((x) => (x.p as S['PackagePreference']).packageReference), synchronizerId: sync };
      break;
    }
    if (!answer)
      throw new CantonError('PACKAGE_NOT_FOUND', `No package with name '${firstMissing ?? ''}' is vetted for the given parties`, {
        context: { packageName: firstMissing ?? '' },
      });
    return ok(answer);
  });

  router.add('GET', '/v2/interactive-submission/preferred-package-version', (ctx) => {
    const name = ctx.query.get('package-name') ?? '';
    const parties = ctx.query
      .getAll('parties')
      .flatMap((p) => p.split(','))
      .filter(Boolean);
    const pref = preferred(name, parties, ctx.query.get('synchronizer-id') ?? undefined, ctx.query.get('vetting_valid_at') ?? undefined);
    const res: S['GetPreferredPackageVersionResponse'] = pref ? { packagePreference: pref } : {};
    return ok(res);
  });

  // ---------------------------------------------------------------------------------------------
  // Vetting
  // ---------------------------------------------------------------------------------------------
  const vettedPackage = (id: string, b: VettingBounds): S['VettedPackage'] => {
    const p = sim.registry.package(id);
    return {
      packageId: id,
      ...(b.validFrom !== null ? { validFromInclusive: b.validFrom } : {}),
      ...(b.validUntil !== null ? { validUntilExclusive: b.validUntil } : {}),
      ...(p ? { packageName: p.def.name, packageVersion: p.def.version } : {}),
    };
  };
  const sortPackages = (xs: S['VettedPackage'][]): S['VettedPackage'][] =>
    xs.sort(
      (a, b) =>
        (a.packageName ?? '').localeCompare(b.packageName ?? '') ||
        compareVersions(a.packageVersion ?? '0', b.packageVersion ?? '0') ||
        a.packageId.localeCompare(b.packageId),
    );
  const vettedPackages = (
    sync: string,
    state: Map<string, VettingBounds>,
    serial: number,
    filter: (p: S['VettedPackage']) => boolean = () => true,
  ): S['VettedPackages'] => ({
    participantId: sim.participantId,
    synchronizerId: sync,
    topologySerial: serial,
    packages: sortPackages([...state].map(([id, b]) => vettedPackage(id, b)).filter(filter)),
  });

  const list = async (ctx: RequestCtx): Promise<S['ListVettedPackagesResponse']> => {
    const text = await ctx.body();
    const req = text.trim() === '' ? {} : decodeJson(text, ListVettedPackagesRequestSchema);
    const ids = req.packageMetadataFilter?.packageIds ?? [];
    const prefixes = req.packageMetadataFilter?.packageNamePrefixes ?? [];
    const matches = (p: S['VettedPackage']): boolean =>
      (ids.length === 0 && prefixes.length === 0) || ids.includes(p.packageId) || prefixes.some((x) => (p.packageName ?? '').startsWith(x));
    const syncFilter = req.topologyStateFilter?.synchronizerIds ?? [];
    const partFilter = req.topologyStateFilter?.participantIds ?? [];
    if (partFilter.length > 0 && !partFilter.includes(sim.participantId)) return { vettedPackages: [], nextPageToken: '' };
    const all = sim.synchronizers
      .map((x) => x.id)
      .filter((s) => syncFilter.length === 0 || syncFilter.includes(s))
      .sort()
      .map((s) => vettedPackages(s, sim.registry.vetted(s), sim.registry.serial(s), matches))
      .filter((v) => v.packages.length > 0);
    // pages of VettedPackages (one per synchronizer), token = last synchronizer id returned
    const after = req.pageToken ? Buffer.from(req.pageToken, 'base64url').toString('utf8') : '';
    const rest = all.filter((v) => v.synchronizerId > after);
    const size = req.pageSize && req.pageSize > 0 ? req.pageSize : rest.length;
    const page = rest.slice(0, size);
    const more = rest.length > page.length;
    return {
      vettedPackages: page,
      nextPageToken: more ? Buffer.from(page[page.length - 1]?.synchronizerId ?? '').toString('base64url') : '',
    };
  };
  router.add('GET', '/v2/package-vetting', async (ctx) => ok(await list(ctx)));
  router.add('POST', '/v2/package-vetting/list', async (ctx) => ok(await list(ctx)));

  const resolveRefs = (refs: z.infer<typeof RefSchema>[], exactlyOne: boolean): ResolvedPackage[] => {
    if (refs.length === 0)
      throw new CantonError('INVALID_ARGUMENT', 'A vetting change must name at least one package', { context: { field: 'packages' } });
    const out: ResolvedPackage[] = [];
    for (const r of refs) {
      const id = r.packageId ?? '';
      const name = r.packageName ?? '';
      const version = r.packageVersion ?? '';
      const text = JSON.stringify(r);
      if (id === '' && name === '')
        throw new CantonError('INVALID_ARGUMENT', `Package reference ${text} needs a packageId or a packageName`, {
          context: { reference: text },
        });
      const matching = sim.registry.packages.filter(
        (p) => (id === '' || p.id === id) && (name === '' || p.def.name === name) && (version === '' || p.def.version === version),
      );
      // by name: a built-in package gives way to an uploaded one of the same name and version
      const found =
        id !== ''
          ? matching
          : matching.filter(
              (p) => p.uploaded || !matching.some((q) => q.uploaded && q.def.name === p.def.name && q.def.version === p.def.version),
            );
      if (found.length === 0)
        throw new CantonError(
          'TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES',
          `Package reference ${text} does not match any package known to the participant`,
          {
            context: { reference: text },
          },
        );
      if (exactlyOne && found.length > 1)
        throw new CantonError(
          'INVALID_ARGUMENT',
          `Package reference ${text} is ambiguous: it matches ${found.map((p) => `${p.id} (${p.def.name} v${p.def.version})`).join(', ')}`,
          {
            context: { reference: text },
          },
        );
      out.push(...found);
    }
    return out;
  };

  const update = async (ctx: RequestCtx): Promise<S['UpdateVettedPackagesResponse']> => {
    const req: UpdateRequest = await body(ctx, UpdateVettedPackagesRequestSchema);
    if (req.changes.length === 0) throw new CantonError('MISSING_FIELD', 'changes must be non-empty', { context: { field: 'changes' } });
    let sync = req.synchronizerId ?? '';
    if (sync === '') {
      const connected: readonly { id: string }[] = sim.synchronizers;
      if (connected.length !== 1)
        throw new CantonError(
          'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER',
          `The participant is connected to ${sim.synchronizers.length} synchronizers ` +
            `(${sim.synchronizers.map((s) => s.id).join(', ')}); set synchronizerId`,
        );
      sync = sim.synchronizers[0].id;
    }
    if (!sim.synchronizers.some((s) => s.id === sync))
      throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${sync}`, { context: { synchronizerId: sync } });
    const serial = sim.registry.serial(sync);
    const expected = req.expectedTopologySerial?.serial;
    if (expected && 'Prior' in expected && expected.Prior.value !== serial)
      throw new CantonError(
        'TOPOLOGY_SERIAL_MISMATCH',
        `Expected topology serial ${expected.Prior.value}, but the current serial is ${serial}`,
        {
          context: { expected: String(expected.Prior.value), actual: String(serial), synchronizerId: sync },
        },
      );
    if (expected && 'NoPrior' in expected && serial !== 0)
      throw new CantonError('TOPOLOGY_SERIAL_MISMATCH', `Expected no prior vetting state, but the current serial is ${serial}`, {
        context: { actual: String(serial), synchronizerId: sync },
      });
    const before = sim.registry.vetted(sync);
    const state = new Map(before);
    const newlyVetted = new Set<string>();
    const checkTime = (t: string | undefined, field: string): string | null => {
      if (t === undefined || t === '') return null;
      if (Number.isNaN(Date.parse(t)))
        throw new CantonError('INVALID_FIELD', `${field} is not an RFC 3339 timestamp: ${t}`, { context: { field } });
      return new Date(Date.parse(t)).toISOString();
    };
    for (const ch of req.changes) {
      const op = ch.operation;
      if (!op || 'Empty' in op) continue;
      if ('Unvet' in op) for (const p of resolveRefs(op.Unvet.value.packages, false)) state.delete(p.id);
      else {
        const v = op.Vet.value;
        const bounds: VettingBounds = {
          validFrom: checkTime(v.newValidFromInclusive, 'newValidFromInclusive'),
          validUntil: checkTime(v.newValidUntilExclusive, 'newValidUntilExclusive'),
        };
        for (const p of resolveRefs(v.packages, true)) {
          if (!state.has(p.id)) newlyVetted.add(p.id);
          state.set(p.id, bounds);
        }
      }
    }
    const force = new Set(req.updateVettedPackagesForceFlags ?? []);
    if (!force.has(FORCE_UNVETTED_DEPS)) {
      const unvetted = new Set<string>();
      for (const id of state.keys())
        for (const d of sim.registry.package(id)?.summary.dependencies ?? []) if (!state.has(d) && sim.registry.package(d)) unvetted.add(d);
      if (unvetted.size > 0)
        throw new CantonError(
          'TOPOLOGY_DEPENDENCIES_NOT_VETTED',
          `Package vetting failed due to dependencies not being vetted: ${[...unvetted].sort().join(', ')}`,
          {
            context: { unvetted: [...unvetted].sort().join(','), synchronizerId: sync },
          },
        );
    }
    if (!force.has(FORCE_INCOMPATIBLE) && newlyVetted.size > 0) {
      // uploaded packages only: built-ins take no part in upgrade checks (see vettedSummaries)
      const uploadedSummary = (id: string) => {
        const p = sim.registry.package(id);
        return p?.uploaded ? [p.summary] : [];
      };
      const pkgs = [...newlyVetted].flatMap(uploadedSummary);
      // compare with what is vetted after the change (packages unvetted by the same request do not count)
      const kept = [...state.keys()].flatMap(uploadedSummary);
      checkUpgrades(sim, pkgs, kept, sync);
    }
    const changed = state.size !== before.size || [...state].some(([id, b]) => JSON.stringify(before.get(id)) !== JSON.stringify(b));
    let newSerial = serial;
    if (!req.dryRun && changed) {
      const store = sim.registry.packageStore;
      if (!store) throw new CantonError('INTERNAL', 'package store not attached');
      newSerial = store.transaction(() => sim.registry.writeVetting(sync, state));
      sim.registry.reloadVetting();
    } else if (req.dryRun && changed) newSerial = serial + 1;
    const res: S['UpdateVettedPackagesResponse'] = { newVettedPackages: vettedPackages(sync, state, newSerial) };
    if (serial > 0) res.pastVettedPackages = vettedPackages(sync, before, serial);
    return res;
  };

  router.add('POST', '/v2/package-vetting/update', async (ctx) => ok(await update(ctx)));
  router.add('POST', '/v2/package-vetting', async (ctx) => ok(await update(ctx)));
}
