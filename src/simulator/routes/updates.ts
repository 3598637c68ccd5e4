/** /v2/updates (+ flats, trees), update/transaction lookups by offset and id, get-updates-page. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { SimContext } from '../context.js';
import { CantonError, DecodeError } from '../errors.js';
import type { ResolvedEventFormat, ResolvedUpdateFormat } from '../filters.js';
import { resolveTransactionFormat, resolveUpdateFormat, updateFormatOfRequest, wildcardFormat } from '../filters.js';
import type { StoredUpdate } from '../model.js';
import { projectTransaction, projectTree, projectUpdate, projectUpdateTree, updateOffset } from '../projection.js';
import type { JsUpdate, JsUpdateTree } from '../projection.js';
import { scanUpdates } from '../reads.js';
import type { RequestCtx, Router } from '../router.js';
import { ok } from '../router.js';
import {
  GetTransactionByIdSchema,
  GetTransactionByOffsetSchema,
  GetUpdateByIdSchema,
  GetUpdateByOffsetSchema,
  GetUpdatesPageRequestSchema,
  GetUpdatesRequestSchema,
} from '../schemas.js';
import { body, checkBegin, checkEnd, decodeToken, encodeToken, limitParam, listCap, synchronizerTimes, tooMany } from './common.js';

type S = v3_5.components['schemas'];

const updateNotFound = (what: string, ctx: Record<string, string>): CantonError =>
  new CantonError('UPDATE_NOT_FOUND', `Update not found, or not visible: ${what}`, { context: ctx });

/** Collects projected updates in a range with an optional trailing OffsetCheckpoint. */
function collect<T extends JsUpdate | JsUpdateTree>(
  sim: SimContext,
  begin: number,
  end: number,
  descending: boolean,
  limit: number | undefined,
  project: (u: StoredUpdate) => T | undefined,
): T[] {
  const cap = listCap(sim, limit);
  const out: T[] = [];
  let overflow = false;
  scanUpdates(sim, begin, end, descending, (u) => {
    const p = project(u);
    if (!p) return true;
    if (out.length >= cap.take) {
      overflow = true;
      return false;
    }
    out.push(p);
    return true;
  });
  if (overflow && cap.strict) throw tooMany(sim);
  if (!overflow && !descending && out.length < cap.take && end > begin) {
    const last = out.at(-1);
    const lastOffset = last ? updateOffset(last) : begin;
    if (lastOffset < end)
      out.push({ OffsetCheckpoint: { value: { offset: end, synchronizerTimes: synchronizerTimes(sim) } } } as T);
  }
  return out;
}

function rangeOf(sim: SimContext, begin: number, endInclusive: number | undefined): number {
  checkBegin(sim, begin);
  if (endInclusive !== undefined) {
    checkEnd(sim, endInclusive);
    if (endInclusive < begin)
      throw new CantonError('OFFSET_OUT_OF_RANGE', `End offset ${endInclusive} is before begin offset ${begin}`, {
        context: { field: 'endInclusive' },
      });
    return endInclusive;
  }
  return sim.store.ledgerEnd();
}

function pathOffset(ctx: RequestCtx): number {
  const raw = ctx.params.offset ?? '';
  if (!/^\d{1,18}$/.test(raw)) throw new DecodeError(`Invalid value for: path parameter offset (expected an integer, got '${raw}')`);
  return Number(raw);
}

function partiesQuery(ctx: RequestCtx): string[] {
  return ctx.query.getAll('parties').flatMap((p) => p.split(',')).filter((p) => p.length > 0);
}

function legacyFormat(parties: string[]): ResolvedEventFormat {
  if (parties.length === 0) throw new CantonError('MISSING_FIELD', 'requestingParties / parties must not be empty', { context: { field: 'parties' } });
  return wildcardFormat(parties);
}

export function registerUpdateRoutes(router: Router, sim: SimContext): void {
  const streamHandler = (kind: 'flat' | 'tree') => async (ctx: RequestCtx) => {
    const req = await body(ctx, GetUpdatesRequestSchema);
    const limit = limitParam(ctx);
    if (kind === 'tree') {
      const uf = updateFormatOfRequest(req, sim.registry, 'LEDGER_EFFECTS');
      const end = rangeOf(sim, req.beginExclusive, req.endInclusive);
      const fmt = uf.transactions?.events ?? uf.reassignments;
      if (!fmt) throw new CantonError('INVALID_ARGUMENT', 'Tree streams need transactions or reassignments in the format');
      const items = collect(sim, req.beginExclusive, end, req.descendingOrder ?? false, limit, (u) =>
        projectUpdateTree(u, fmt, sim.registry),
      );
      return ok(items.map((update): S['JsGetUpdateTreesResponse'] => ({ update })));
    }
    const uf = updateFormatOfRequest(req, sim.registry, 'ACS_DELTA');
    const end = rangeOf(sim, req.beginExclusive, req.endInclusive);
    const items = collect(sim, req.beginExclusive, end, req.descendingOrder ?? false, limit, (u) => projectUpdate(u, uf, sim.registry));
    return ok(items.map((update): S['JsGetUpdatesResponse'] => ({ update })));
  };
  router.add('POST', '/v2/updates', streamHandler('flat'));
  router.add('POST', '/v2/updates/flats', streamHandler('flat'));
  router.add('POST', '/v2/updates/trees', streamHandler('tree'));

  const byOffset = (offset: number): StoredUpdate => {
    if (offset <= 0) throw new CantonError('OFFSET_OUT_OF_RANGE', `Offset must be positive: ${offset}`, { context: { offset: String(offset) } });
    const u = sim.store.updateByOffset(offset);
    if (!u) throw updateNotFound(`offset ${offset}`, { offset: String(offset) });
    return u;
  };
  const byId = (id: string): StoredUpdate => {
    const u = sim.store.updateById(id);
    if (!u) throw updateNotFound(`update id ${id}`, { updateId: id });
    return u;
  };
  const project = (u: StoredUpdate, uf: ResolvedUpdateFormat, ctx: Record<string, string>): S['JsGetUpdateResponse'] => {
    const p = projectUpdate(u, uf, sim.registry);
    if (!p) throw updateNotFound(ctx.updateId ?? `offset ${ctx.offset}`, ctx);
    return { update: p };
  };

  router.add('POST', '/v2/updates/update-by-offset', async (ctx) => {
    const req = await body(ctx, GetUpdateByOffsetSchema);
    const uf = resolveUpdateFormat(req.updateFormat, sim.registry);
    return ok(project(byOffset(req.offset), uf, { offset: String(req.offset) }));
  });
  router.add('POST', '/v2/updates/update-by-id', async (ctx) => {
    const req = await body(ctx, GetUpdateByIdSchema);
    const uf = resolveUpdateFormat(req.updateFormat, sim.registry);
    return ok(project(byId(req.updateId), uf, { updateId: req.updateId }));
  });

  const transactionOf = (
    u: StoredUpdate,
    req: { requestingParties?: string[] | undefined; transactionFormat?: Parameters<typeof resolveTransactionFormat>[0] | undefined },
    ctx: Record<string, string>,
  ): S['JsGetTransactionResponse'] => {
    if (req.transactionFormat && req.requestingParties && req.requestingParties.length > 0)
      throw new CantonError('INVALID_ARGUMENT', 'Use either requestingParties or transactionFormat, not both');
    const tf = req.transactionFormat
      ? resolveTransactionFormat(req.transactionFormat, sim.registry)
      : { shape: 'ACS_DELTA' as const, events: legacyFormat(req.requestingParties ?? []) };
    const t = u.kind === 'transaction' ? projectTransaction(u, tf, sim.registry) : undefined;
    if (!t) throw updateNotFound(ctx.updateId ?? `offset ${ctx.offset}`, ctx);
    return { transaction: t };
  };
  router.add('POST', '/v2/updates/transaction-by-offset', async (ctx) => {
    const req = await body(ctx, GetTransactionByOffsetSchema);
    return ok(transactionOf(byOffset(req.offset), req, { offset: String(req.offset) }));
  });
  router.add('POST', '/v2/updates/transaction-by-id', async (ctx) => {
    const req = await body(ctx, GetTransactionByIdSchema);
    return ok(transactionOf(byId(req.updateId), req, { updateId: req.updateId }));
  });

  const treeOf = (u: StoredUpdate, parties: string[], ctx: Record<string, string>): S['JsGetTransactionTreeResponse'] => {
    const fmt = legacyFormat(parties);
    const t = u.kind === 'transaction' ? projectTree(u, fmt, sim.registry) : undefined;
    if (!t) throw updateNotFound(ctx.updateId ?? `offset ${ctx.offset}`, ctx);
    return { transaction: t };
  };
  router.add('GET', '/v2/updates/transaction-tree-by-offset/{offset}', (ctx) => {
    const offset = pathOffset(ctx);
    return ok(treeOf(byOffset(offset), partiesQuery(ctx), { offset: String(offset) }));
  });
  router.add('GET', '/v2/updates/transaction-tree-by-id/{update-id}', (ctx) => {
    const id = ctx.params['update-id'] ?? '';
    return ok(treeOf(byId(id), partiesQuery(ctx), { updateId: id }));
  });

  router.add('POST', '/v2/updates/get-updates-page', async (ctx) => {
    const req = await body(ctx, GetUpdatesPageRequestSchema);
    const uf = resolveUpdateFormat(req.updateFormat, sim.registry);
    const max = sim.settings.httpListMaxElementsLimit;
    const pageSize = req.maxPageSize === undefined || req.maxPageSize <= 0 ? Math.min(100, max) : Math.min(req.maxPageSize, max);
    const descending = req.descendingOrder ?? false;
    let begin = req.beginOffsetExclusive ?? sim.store.prunedUpTo();
    let end: number;
    if (req.pageToken) {
      const t = decodeToken(req.pageToken, (v): v is { b: number; e: number; d: boolean } =>
        typeof v === 'object' && v !== null && typeof (v as { b: unknown }).b === 'number' && typeof (v as { e: unknown }).e === 'number',
      );
      if (t.d !== descending) throw new CantonError('INVALID_ARGUMENT', 'Page token does not match descendingOrder', { context: { field: 'pageToken' } });
      begin = t.b;
      end = t.e;
    } else {
      end = req.endOffsetInclusive ?? sim.store.ledgerEnd();
    }
    checkBegin(sim, begin, 'beginOffsetExclusive');
    checkEnd(sim, end, 'endOffsetInclusive');
    if (end < begin) throw new CantonError('OFFSET_OUT_OF_RANGE', `End offset ${end} is before begin offset ${begin}`);
    const updates: S['JsGetUpdateResponse'][] = [];
    let reached: number | undefined; // last scanned offset
    let more = false;
    scanUpdates(sim, begin, end, descending, (u) => {
      const p = projectUpdate(u, uf, sim.registry);
      if (p) {
        if (updates.length >= pageSize) {
          more = true;
          return false;
        }
        updates.push({ update: p });
      }
      reached = u.offset;
      return true;
    });
    let low = begin;
    let high = end;
    let nextPageToken: string | undefined;
    if (more && reached !== undefined) {
      if (descending) {
        low = reached - 1;
        nextPageToken = encodeToken({ b: begin, e: reached - 1, d: true });
      } else {
        high = reached;
        nextPageToken = encodeToken({ b: reached, e: end, d: false });
      }
    }
    const res: S['JsGetUpdatesPageResponse'] = {
      updates,
      lowestPageOffsetExclusive: low,
      highestPageOffsetInclusive: high,
      ...(nextPageToken ? { nextPageToken } : {}),
    };
    return ok(res);
  });
}
