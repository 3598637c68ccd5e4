/** Read-only package endpoints over the built-in packages (uploading DARs is not supported). */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { SimContext } from '../context.js';
import { CantonError } from '../errors.js';
import { canonicalJson } from '../packages/canonical.js';
import type { Router } from '../router.js';
import { ok } from '../router.js';

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
    // The simulator's package "archive" is the canonical definition its id hashes (not a Daml-LF archive).
    return { status: 200, binary: Buffer.from(canonicalJson(p.def)), contentType: 'application/octet-stream' };
  });
  const unsupported = (): never => {
    throw new CantonError('UNIMPLEMENTED', 'The simulator only has built-in packages; uploading DARs is not supported');
  };
  router.add('POST', '/v2/packages', unsupported);
  router.add('POST', '/v2/dars', unsupported);
}
