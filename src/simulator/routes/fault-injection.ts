/**
 * Simulator-only admin endpoints of fault injection (fault-injection.ts): read and switch, at runtime, how the
 * simulator tampers with its prepare answers — for demos of the console's refusals and for tests.
 */
import type { SimContext } from '../context.js';
import { FaultInjectionConfigSchema, faultInjectorOf } from '../fault-injection.js';
import type { Router } from '../router.js';
import { ok } from '../router.js';
import { body } from './common.js';

export function registerFaultInjectionRoutes(router: Router, sim: SimContext): void {
  const injector = faultInjectorOf(sim);
  router.add('GET', '/simulator/admin/fault-injection', () => ok(injector.status()));
  router.add('POST', '/simulator/admin/fault-injection', async (ctx) => {
    const req = await body(ctx, FaultInjectionConfigSchema);
    injector.configure(req);
    return ok(injector.status());
  });
}
