/** /v2/interactive-submission/prepare, execute, executeAndWait, executeAndWaitForTransaction. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { SimContext } from '../context.js';
import type { ResolvedTransactionFormat } from '../filters.js';
import { resolveTransactionFormat, wildcardFormat } from '../filters.js';
import { faultInjectorOf } from '../fault-injection.js';
import { InteractiveSubmission } from '../interactive.js';
import type { LedgerWriter } from '../ledger.js';
import { projectTransaction, transactionWithoutEvents } from '../projection.js';
import type { Router } from '../router.js';
import { GROUP_COMMITTED, ok } from '../router.js';
import { JsExecuteSubmissionRequestSchema, JsPrepareSubmissionRequestSchema } from '../schemas-interactive.js';
import { body } from './common.js';

type S = v3_5.components['schemas'];

export function registerInteractiveRoutes(router: Router, sim: SimContext, writer: LedgerWriter): void {
  const service = new InteractiveSubmission(sim, writer);
  const faults = faultInjectorOf(sim);

  router.add('POST', '/v2/interactive-submission/prepare', async (ctx) => {
    const req = await body(ctx, JsPrepareSubmissionRequestSchema);
    const r = await service.prepare(req, ctx.user);
    // with fault injection on, the answer is tampered with here (the simulator keeps the honest one for execute)
    const res: S['JsPrepareSubmissionResponse'] = await faults.onPrepare({ ...r, hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2' });
    return ok(res);
  });

  router.add(
    'POST',
    '/v2/interactive-submission/execute',
    async (ctx) => {
      const req = await body(ctx, JsExecuteSubmissionRequestSchema);
      await service.execute(req, ctx.user);
      const res: S['ExecuteSubmissionResponse'] = {};
      return ok(res);
    },
    GROUP_COMMITTED,
  );

  router.add(
    'POST',
    '/v2/interactive-submission/executeAndWait',
    async (ctx) => {
      const req = await body(ctx, JsExecuteSubmissionRequestSchema);
      const r = await service.execute(req, ctx.user);
      const res: S['ExecuteSubmissionAndWaitResponse'] = { updateId: r.updateId, completionOffset: r.offset };
      return ok(res);
    },
    GROUP_COMMITTED,
  );

  router.add(
    'POST',
    '/v2/interactive-submission/executeAndWaitForTransaction',
    async (ctx) => {
      const req = await body(ctx, JsExecuteSubmissionRequestSchema);
      const tf: ResolvedTransactionFormat | undefined = req.transactionFormat
        ? resolveTransactionFormat(req.transactionFormat, sim.registry)
        : undefined;
      const r = await service.execute(req, ctx.user);
      const fmt = tf ?? { shape: 'ACS_DELTA' as const, events: wildcardFormat(r.tx.actAs) };
      const res: S['JsExecuteSubmissionAndWaitForTransactionResponse'] = {
        transaction: projectTransaction(r.tx, fmt, sim.registry) ?? transactionWithoutEvents(r.tx),
      };
      return ok(res);
    },
    GROUP_COMMITTED,
  );
}
