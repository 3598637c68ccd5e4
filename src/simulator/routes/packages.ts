/** Read-only package endpoints over the built-in packages (uploading DARs is not supported). */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { SimContext } from '../context.js';
import { CantonError, partyNotKnown } from '../errors.js';
import { decodeJson } from '../http.js';
import type { RequestCtx, Router } from '../router.js';
import { ok } from '../router.js';
import { GetPreferredPackagesRequestSchema, ListVettedPackagesRequestSchema } from '../schemas.js';
import { body } from './common.js';

type S = v3_5.components['schemas'];

export function registerPackageRoutes(router: Router, sim: SimContext): void {
  router.add('GET', '/v2/packages', () => {
    const res: S['ListPackagesResponse'] = { packageIds: sim.registry.packages.map((p) => p.id) };
    return ok(res);
  });
  router.add('GET', '/v2/packages/{package-id}/status', (ctx) => {
    const known = sim.registry.packages.some((p) => p.id === ctx.params['package-id']);
    const res: S['GetPackageStatusResponse'] = { packageStatus: known ? 'PACKAGE_STATUS_REGISTERED' : 'PACKAGE_STATUS_UNSPECIFIED' };
    return ok(res);
  });
  router.add('GET', '/v2/packages/{package-id}', (ctx) => {
    const id = ctx.params['package-id'] ?? '';
    const p = sim.registry.packages.find((x) => x.id === id);
    if (!p) throw new CantonError('PACKAGE_NOT_FOUND', `Package not found: ${id}`, { context: { packageId: id } });
    // A real Daml-LF 2 Archive: SHA-256(payload) = package id.
    return { status: 200, binary: Buffer.from(p.archive), contentType: 'application/octet-stream' };
  });
  const preferred = (packageName: string, parties: string[], synchronizerId: string | undefined): S['PackagePreference'] => {
    const sync = synchronizerId ?? sim.synchronizers[0].id;
    if (!sim.synchronizers.some((x) => x.id === sync))
      throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${sync}`, { context: { synchronizerId: sync } });
    for (const p of parties) if (!sim.store.party(p)) throw partyNotKnown(p);
    const pkg = sim.registry.packages.find((x) => x.def.name === packageName);
    if (!pkg)
      throw new CantonError('PACKAGE_NOT_FOUND', `No package with name '${packageName}' is vetted for the given parties`, {
        context: { packageName },
      });
    return { synchronizerId: sync, packageReference: { packageId: pkg.id, packageName: pkg.def.name, packageVersion: pkg.def.version } };
  };

  router.add('POST', '/v2/interactive-submission/preferred-packages', async (ctx) => {
    const req = await body(ctx, GetPreferredPackagesRequestSchema);
    const prefs = req.packageVettingRequirements.map((r) => preferred(r.packageName, r.parties, req.synchronizerId));
    const res: S['GetPreferredPackagesResponse'] = {
      packageReferences: prefs.map((p) => p.packageReference),
      synchronizerId: prefs[0]?.synchronizerId ?? req.synchronizerId ?? sim.synchronizers[0].id,
    };
    return ok(res);
  });

  router.add('GET', '/v2/interactive-submission/preferred-package-version', (ctx) => {
    const name = ctx.query.get('package-name') ?? '';
    const parties = ctx.query.getAll('parties').flatMap((p) => p.split(',')).filter(Boolean);
    const res: S['GetPreferredPackageVersionResponse'] = {
      packagePreference: preferred(name, parties, ctx.query.get('synchronizer-id') ?? undefined),
    };
    return ok(res);
  });

  const vetted = async (ctx: RequestCtx): Promise<S['ListVettedPackagesResponse']> => {
    const text = await ctx.body();
    const req = text.trim() === '' ? {} : decodeJson(text, ListVettedPackagesRequestSchema);
    const ids = req.packageMetadataFilter?.packageIds ?? [];
    const prefixes = req.packageMetadataFilter?.packageNamePrefixes ?? [];
    const pkgs = sim.registry.packages.filter(
      (p) => (ids.length === 0 || ids.includes(p.id)) && (prefixes.length === 0 || prefixes.some((x) => p.def.name.startsWith(x))),
    );
    const syncFilter = req.topologyStateFilter?.synchronizerIds ?? [];
    const partFilter = req.topologyStateFilter?.participantIds ?? [];
    const included = partFilter.length === 0 || partFilter.includes(sim.participantId);
    return {
      vettedPackages: included
        ? sim.synchronizers
            .filter((x) => syncFilter.length === 0 || syncFilter.includes(x.id))
            .map((x) => ({
              participantId: sim.participantId,
              synchronizerId: x.id,
              topologySerial: 1,
              packages: pkgs.map((p) => ({ packageId: p.id, packageName: p.def.name, packageVersion: p.def.version })),
            }))
        : [],
    };
  };
  router.add('GET', '/v2/package-vetting', async (ctx) => ok(await vetted(ctx)));
  router.add('POST', '/v2/package-vetting/list', async (ctx) => ok(await vetted(ctx)));

  const unsupported = (): never => {
    throw new CantonError('UNIMPLEMENTED', 'The simulator only has built-in packages; uploading DARs is not supported');
  };
  router.add('POST', '/v2/packages', unsupported);
  router.add('POST', '/v2/dars', unsupported);
}
