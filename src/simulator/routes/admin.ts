/** Simulator-only admin endpoints under /simulator/admin (time, pruning, info). */
import type { SimContext } from '../context.js';
import { isoToMicros, microsToIso } from '../clock.js';
import { CantonError } from '../errors.js';
import type { Router } from '../router.js';
import { ok } from '../router.js';
import { AdminAdvanceTimeSchema, AdminPruneSchema } from '../schemas.js';
import { body } from './common.js';

export function registerAdminRoutes(router: Router, sim: SimContext): void {
  router.add('GET', '/simulator/admin/streams', () =>
    ok(
      [...sim.streams.values()].map((s) => ({
        id: s.id,
        channel: s.channel,
        sent: s.sent,
        bufferedAmount: s.bufferedAmount(),
        maxBufferedAmount: s.maxBufferedAmount,
        paused: s.paused,
      })),
    ),
  );

  router.add('GET', '/simulator/admin/time', () => ok({ staticTime: sim.clock.isStatic, now: microsToIso(sim.clock.nowMicros()) }));

  router.add('POST', '/simulator/admin/time/advance', async (ctx) => {
    const req = await body(ctx, AdminAdvanceTimeSchema);
    if (!sim.clock.isStatic)
      throw new CantonError('INVALID_ARGUMENT', 'The simulator runs on wall-clock time; start it with --static-time to control time');
    if (req.to !== undefined) {
      const t = isoToMicros(req.to);
      if (t === undefined) throw new CantonError('INVALID_FIELD', `Invalid time '${req.to}'`, { context: { field: 'to' } });
      if (t < sim.clock.nowMicros()) throw new CantonError('INVALID_ARGUMENT', 'Time cannot go backwards');
      sim.clock.set(t);
    } else {
      const micros = BigInt(req.micros ?? 0) + BigInt(Math.round((req.seconds ?? 0) * 1_000_000));
      if (micros < 0n) throw new CantonError('INVALID_ARGUMENT', 'Time cannot go backwards');
      sim.clock.advance(micros);
    }
    return ok({ now: microsToIso(sim.clock.nowMicros()) });
  });

  router.add('POST', '/simulator/admin/prune', async (ctx) => {
    const req = await body(ctx, AdminPruneSchema);
    const end = sim.store.ledgerEnd();
    if (req.pruneUpTo <= 0 || req.pruneUpTo > end)
      throw new CantonError('OFFSET_OUT_OF_RANGE', `pruneUpTo must be in 1..${end} (ledger end)`, {
        context: { pruneUpTo: String(req.pruneUpTo) },
      });
    if (req.pruneUpTo > sim.store.prunedUpTo()) sim.store.prune(req.pruneUpTo);
    return ok({ participantPrunedUpToInclusive: sim.store.prunedUpTo() });
  });

  router.add('GET', '/simulator/admin/packages', () =>
    ok({
      packages: sim.registry.packages.map((p) => ({
        packageId: p.id,
        name: p.def.name,
        version: p.def.version,
        templates: p.def.templates.map((t) => ({
          templateId: `${p.id}:${t.module}:${t.entity}`,
          choices: ['Archive', ...t.choices.map((c) => c.name)],
          key: t.key ? t.key.fields : null,
        })),
        interfaces: p.def.interfaces.map((i) => `${p.id}:${i.module}:${i.entity}`),
      })),
    }),
  );
}
