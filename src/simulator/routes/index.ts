/** Registers every API area on the router. */
import type { SimContext } from '../context.js';
import { LedgerWriter } from '../ledger.js';
import type { Router } from '../router.js';
import { registerAdminRoutes } from './admin.js';
import { registerCommandRoutes } from './commands.js';
import { registerContractRoutes } from './contracts.js';
import { registerExternalPartyRoutes } from './external-parties.js';
import { registerFaultInjectionRoutes } from './fault-injection.js';
import { registerIdpRoutes } from './idps.js';
import { registerInteractiveRoutes } from './interactive.js';
import { registerPackageRoutes } from './packages.js';
import { registerPartyRoutes, registerPartyUpdateRoute } from './parties.js';
import { registerStateRoutes } from './state.js';
import { registerSystemRoutes } from './system.js';
import { registerUpdateRoutes } from './updates.js';
import { registerUserIdpRoute } from './user-idp.js';
import { registerUserRoutes } from './users.js';
import { registerValidatorRoutes } from '../wallet/routes.js';

export interface Ledger {
  writer: LedgerWriter;
}

export function registerAllRoutes(router: Router, sim: SimContext): Ledger {
  const writer = new LedgerWriter(sim);
  registerSystemRoutes(router, sim);
  registerStateRoutes(router, sim);
  registerCommandRoutes(router, sim, writer);
  registerUpdateRoutes(router, sim);
  registerContractRoutes(router, sim);
  registerPartyRoutes(router, sim, writer);
  registerPartyUpdateRoute(router, sim);
  registerExternalPartyRoutes(router, sim, writer);
  registerInteractiveRoutes(router, sim, writer);
  registerUserRoutes(router, sim);
  registerPackageRoutes(router, sim);
  registerAdminRoutes(router, sim);
  registerFaultInjectionRoutes(router, sim);
  registerIdpRoutes(router, sim);
  registerUserIdpRoute(router, sim);
  registerValidatorRoutes(router, sim, writer);
  return { writer };
}
