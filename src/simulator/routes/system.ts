/** Version, health, authenticated user. */
import type { SimContext } from '../context.js';
import type { Router } from '../router.js';
import { ok } from '../router.js';
import type { v3_5 } from '@canton-network/core-ledger-client-types';

type GetLedgerApiVersionResponse = v3_5.components['schemas']['GetLedgerApiVersionResponse'];

export function registerSystemRoutes(router: Router, sim: SimContext): void {
  router.add('GET', '/v2/version', () => {
    const body: GetLedgerApiVersionResponse = {
      version: sim.version,
      features: {
        experimental: {
          staticTime: { supported: sim.clock.isStatic },
          commandInspectionService: { supported: false },
        },
        userManagement: {
          supported: true,
          maxRightsPerUser: 1000,
          maxUsersPageSize: sim.settings.maxUsersPageSize,
        },
        partyManagement: { maxPartiesPageSize: sim.settings.maxPartiesPageSize },
        offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 1, nanos: 0 } },
        packageFeature: { maxVettedPackagesPageSize: 100 },
      },
    };
    return ok(body);
  });
  router.add('GET', '/livez', () => ({ status: 200, empty: true }));
  router.add('GET', '/readyz', () => ({ status: 200, text: 'OK' }));
}
