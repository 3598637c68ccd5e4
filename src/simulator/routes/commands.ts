/** Command submission and completions. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { SimContext } from '../context.js';
import type { ResolvedTransactionFormat } from '../filters.js';
import { resolveEventFormat, resolveTransactionFormat, wildcardFormat } from '../filters.js';
import type { LedgerWriter } from '../ledger.js';
import type { StoredCompletion } from '../model.js';
import { projectTransaction, projectTree, transactionWithoutEvents, treeWithoutEvents } from '../projection.js';
import { projectReassignment, reassignmentWithoutEvents } from '../projection-reassignment.js';
import type { Router } from '../router.js';
import { GROUP_COMMITTED, ok } from '../router.js';
import {
  CompletionStreamRequestSchema,
  GetCompletionsRequestSchema,
  JsCommandsSchema,
  SubmitAndWaitForReassignmentSchema,
  SubmitAndWaitForTransactionSchema,
  SubmitReassignmentSchema,
} from '../schemas.js';
import { scanCompletions } from '../reads.js';
import { body, checkBegin, limitParam, listCap, synchronizerTimes, tooMany } from './common.js';

type S = v3_5.components['schemas'];

/**
 * A completion as Canton's JSON API prints it (the scalapb Completion through CirceRelaxedCodec):
 * every proto3 scalar always, `""` / `0` when empty — `updateId` of a rejection, `submissionId`,
 * `paidTrafficCost` (no traffic is charged here) — the status with its `details` (JsSchema
 * grpcStatusEncoder), and the deduplication Duration with `unknownFields` (a scalapb message printed
 * by a derived codec, as in `/v2/version`).
 */
export function completionJson(c: StoredCompletion): S['CompletionStreamResponse'] {
  const seconds = Math.floor(c.deduplicationDurationMicros / 1_000_000);
  const nanos = (c.deduplicationDurationMicros % 1_000_000) * 1000;
  return {
    completionResponse: {
      Completion: {
        value: {
          commandId: c.commandId,
          status: c.status ? { code: c.status.code, message: c.status.message, details: [] } : { code: 0, message: '', details: [] },
          updateId: c.updateId,
          userId: c.userId,
          actAs: c.actAs,
          submissionId: c.submissionId ?? '',
          deduplicationPeriod: { DeduplicationDuration: { value: { seconds, nanos, unknownFields: { fields: {} } } } },
          offset: c.offset,
          synchronizerTime: { synchronizerId: c.synchronizerId, recordTime: c.recordTime },
          paidTrafficCost: 0,
        },
      },
    },
  };
}

export function completionVisible(c: StoredCompletion, parties: Set<string>, userId: string | undefined): boolean {
  return c.actAs.some((p) => parties.has(p)) && (userId === undefined || c.userId === userId);
}

export function registerCommandRoutes(router: Router, sim: SimContext, writer: LedgerWriter): void {
  router.add(
    'POST',
    '/v2/commands/submit-and-wait',
    async (ctx) => {
      const cmds = await body(ctx, JsCommandsSchema);
      const r = await writer.submit(cmds, ctx.user);
      const res: S['SubmitAndWaitResponse'] = { updateId: r.updateId, completionOffset: r.offset };
      return ok(res);
    },
    GROUP_COMMITTED,
  );

  router.add(
    'POST',
    '/v2/commands/submit-and-wait-for-transaction',
    async (ctx) => {
      const req = await body(ctx, SubmitAndWaitForTransactionSchema);
      const tf: ResolvedTransactionFormat = req.transactionFormat
        ? resolveTransactionFormat(req.transactionFormat, sim.registry)
        : { shape: 'ACS_DELTA', events: wildcardFormat(req.commands.actAs) };
      const r = await writer.submit(req.commands, ctx.user);
      const res: S['JsSubmitAndWaitForTransactionResponse'] = {
        transaction: projectTransaction(r.tx, tf, sim.registry) ?? transactionWithoutEvents(r.tx),
      };
      return ok(res);
    },
    GROUP_COMMITTED,
  );

  router.add(
    'POST',
    '/v2/commands/submit-and-wait-for-transaction-tree',
    async (ctx) => {
      const cmds = await body(ctx, JsCommandsSchema);
      const r = await writer.submit(cmds, ctx.user);
      const tree = projectTree(r.tx, { shape: 'LEDGER_EFFECTS', events: wildcardFormat(cmds.actAs) }, sim.registry);
      const res: S['JsSubmitAndWaitForTransactionTreeResponse'] = { transactionTree: tree ?? treeWithoutEvents(r.tx) };
      return ok(res);
    },
    GROUP_COMMITTED,
  );

  router.add(
    'POST',
    '/v2/commands/async/submit',
    async (ctx) => {
      const cmds = await body(ctx, JsCommandsSchema);
      // accepted once validated and not a duplicate; later failures become failed completions
      await writer.submit(cmds, ctx.user, { rejectAsCompletion: true });
      const res: S['SubmitResponse'] = {};
      return ok(res);
    },
    GROUP_COMMITTED,
  );

  router.add(
    'POST',
    '/v2/commands/submit-and-wait-for-reassignment',
    async (ctx) => {
      const req = await body(ctx, SubmitAndWaitForReassignmentSchema);
      const fmt = req.eventFormat
        ? resolveEventFormat(req.eventFormat, sim.registry)
        : wildcardFormat([req.reassignmentCommands.submitter]);
      const r = await writer.reassign(req.reassignmentCommands, ctx.user);
      const projected = projectReassignment(r, fmt, sim.registry);
      const res: S['JsSubmitAndWaitForReassignmentResponse'] = { reassignment: projected ?? reassignmentWithoutEvents(r) };
      return ok(res);
    },
    GROUP_COMMITTED,
  );

  router.add(
    'POST',
    '/v2/commands/async/submit-reassignment',
    async (ctx) => {
      const req = await body(ctx, SubmitReassignmentSchema);
      await writer.reassign(req.reassignmentCommands, ctx.user);
      const res: S['SubmitReassignmentResponse'] = {};
      return ok(res);
    },
    GROUP_COMMITTED,
  );

  const listCompletions = (
    parties: string[],
    userId: string | undefined,
    beginExclusive: number,
    limit: number | undefined,
  ): S['CompletionStreamResponse'][] => {
    checkBegin(sim, beginExclusive);
    const end = sim.durability.end();
    const cap = listCap(sim, limit);
    const set = new Set(parties);
    const out: S['CompletionStreamResponse'][] = [];
    // set inside the scan callback, hence a field (a plain `let` would read as never changing)
    const scan = { overflow: false };
    scanCompletions(sim, beginExclusive, end, (c) => {
      if (!completionVisible(c, set, userId)) return true;
      if (out.length >= cap.take) {
        scan.overflow = true;
        return false;
      }
      out.push(completionJson(c));
      return true;
    });
    if (scan.overflow) {
      if (cap.strict) throw tooMany(sim);
      return out;
    }
    // like the update lists (and the WebSocket stream): a checkpoint only when the last completion is before the end
    const last = (out.at(-1)?.completionResponse as { Completion?: { value: { offset: number } } } | undefined)?.Completion?.value.offset;
    if (out.length < cap.take && end > beginExclusive && (last ?? beginExclusive) < end)
      out.push({ completionResponse: { OffsetCheckpoint: { value: { offset: end, synchronizerTimes: synchronizerTimes(sim) } } } });
    return out;
  };

  router.add('POST', '/v2/commands/completions', async (ctx) => {
    const req = await body(ctx, CompletionStreamRequestSchema);
    const userId = req.userId && req.userId.length > 0 ? req.userId : ctx.user;
    return ok(listCompletions(req.parties, userId, req.beginExclusive ?? 0, limitParam(ctx)));
  });

  router.add('POST', '/v2/commands/command-completions', async (ctx) => {
    const req = await body(ctx, GetCompletionsRequestSchema);
    return ok(listCompletions(req.parties ?? [], ctx.user, req.beginExclusive ?? 0, limitParam(ctx)));
  });
}
