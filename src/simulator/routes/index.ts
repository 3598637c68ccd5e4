/** Registers every API area on the router. */
import type { SimContext } from '../context.js';
import { LedgerWriter } from '../ledger.js';
import type { Router } from '../router.js';
import { registerStateRoutes } from './state.js';
import { registerSystemRoutes } from './system.js';

export interface Ledger {
  writer: LedgerWriter;
}

export function registerAllRoutes(router: Router, sim: SimContext): Ledger {
  const writer = new LedgerWriter(sim);
  registerSystemRoutes(router, sim);
  registerStateRoutes(router, sim);
  return { writer };
}
