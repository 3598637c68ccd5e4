/** /v2/updates (+ flats, trees), update/transaction lookups by offset and id, get-updates-page. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { SimContext } from '../context.js';
import { CantonError, DecodeError } from '../errors.js';
import type { ResolvedEventFormat, ResolvedUpdateFormat } from '../filters.js';
import { resolveTransactionFormat, resolveUpdateFormat, updateFormatOfRequest, wildcardFormat } from '../filters.js';
import type { StoredUpdate } from '../model.js';
import { projectTransaction, projectTree, projectUpdate } from '../projection.js';
import { scanUpdateRows, updatePlanner } from '../reads.js';
import type { UpdateWriter } from '../reads.js';
import { JsonOut } from '../json-out.js';
import type { UpdateRow } from '../store/ledger-store.js';
import type { HandlerResult, RequestCtx, Router } from '../router.js';
import { ok, okChunks, okStream } from '../router.js';
import {
  GetTransactionByIdSchema,
  GetTransactionByOffsetSchema,
  GetUpdateByIdSchema,
  GetUpdateByOffsetSchema,
  GetUpdatesPageRequestSchema,
  GetUpdatesRequestSchema,
} from '../schemas.js';
import { body, checkBegin, checkEnd, limitParam, listCap, synchronizerTimes, tooMany } from './common.js';
import { updatesPage } from './updates-page.js';

type S = v3_5.components['schemas'];

const updateNotFound = (what: string, ctx: Record<string, string>): CantonError =>
  new CantonError('UPDATE_NOT_FOUND', `Update not found, or not visible: ${what}`, { context: ctx });

/** Rows scanned per chunk of a streamed list (between two writes to the socket). */
const LIST_BATCH = 512;

/**
 * Yields `[{"update":…},…]` for the projected updates in a range with an optional trailing
 * OffsetCheckpoint (spliced from stored forms, see reads.ts), a batch of rows at a time. Throws
 * MAXIMUM_LIST_ELEMENTS when the strict server cap is exceeded.
 */
function* listChunks(
  sim: SimContext,
  begin: number,
  end: number,
  descending: boolean,
  limit: number | undefined,
  plan: (r: UpdateRow) => UpdateWriter | undefined,
): Generator<Buffer> {
  const cap = listCap(sim, limit);
  const out = new JsonOut();
  out.str('[');
  let count = 0;
  // set inside the scan callbacks, hence fields (a plain `let` would read as never changing)
  const scan = { more: true, overflow: false };
  let lastOffset = begin;
  let low = begin;
  let high = end;
  while (scan.more && !scan.overflow) {
    scan.more = false;
    let n = 0;
    scanUpdateRows(
      sim,
      low,
      high,
      descending,
      (r) => {
        if (descending) high = r.offset - 1;
        else low = r.offset;
        const w = plan(r);
        if (w !== undefined) {
          if (count >= cap.take) {
            if (cap.strict) throw tooMany(sim);
            scan.overflow = true;
            return false;
          }
          out.str(count === 0 ? '{"update":' : ',{"update":');
          w(out);
          out.str('}');
          count++;
          lastOffset = r.offset;
        }
        if (++n >= LIST_BATCH) scan.more = true;
        return !scan.more;
      },
      LIST_BATCH,
    );
    yield* out.take();
  }
  if (!scan.overflow && !descending && count < cap.take && end > begin && lastOffset < end)
    out.str(
      (count === 0 ? '' : ',') +
        JSON.stringify({ update: { OffsetCheckpoint: { value: { offset: end, synchronizerTimes: synchronizerTimes(sim) } } } }),
    );
  out.str(']');
  yield* out.take();
}

/**
 * The answer of an update list: streamed while it is produced when it cannot exceed the strict
 * server cap (a range has at most `end - begin` updates; a client `limit` truncates instead),
 * otherwise produced in full first so that MAXIMUM_LIST_ELEMENTS can still be the answer.
 */
function updateList(
  sim: SimContext,
  begin: number,
  end: number,
  descending: boolean,
  limit: number | undefined,
  plan: (r: UpdateRow) => UpdateWriter | undefined,
): HandlerResult {
  const cap = listCap(sim, limit);
  const chunks = listChunks(sim, begin, end, descending, limit, plan);
  return !cap.strict || end - begin <= cap.take ? okStream(chunks) : okChunks([...chunks]);
}

/**
 * GetUpdatesRequest.descendingOrder: "If not specified, the descending_order must not be selected";
 * Canton (UpdateServiceRequestValidator) refuses it with DESCENDING_ORDER_MISSING_END.
 */
export function checkDescending(descending: boolean | undefined, endInclusive: number | undefined): void {
  if (descending && endInclusive === undefined)
    throw new CantonError('DESCENDING_ORDER_MISSING_END', 'end_inclusive is not provided when descending_order is true');
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
  return sim.durability.end();
}

function pathOffset(ctx: RequestCtx): number {
  const raw = ctx.params.offset ?? '';
  if (!/^\d{1,18}$/.test(raw)) throw new DecodeError(`Invalid value for: path parameter offset (expected an integer, got '${raw}')`);
  return Number(raw);
}

function partiesQuery(ctx: RequestCtx): string[] {
  return ctx.query
    .getAll('parties')
    .flatMap((p) => p.split(','))
    .filter((p) => p.length > 0);
}

/** Legacy pointwise lookups: a wildcard for each requesting party (Canton getUpdateFormatForPointwiseQueries). */
function legacyFormat(parties: string[]): ResolvedEventFormat {
  if (parties.length === 0)
    throw new CantonError('INVALID_ARGUMENT', 'filtersByParty and filtersForAnyParty cannot be empty simultaneously', {
      context: { field: 'parties' },
    });
  return wildcardFormat(parties);
}

export function registerUpdateRoutes(router: Router, sim: SimContext): void {
  const streamHandler = (kind: 'flat' | 'tree') => async (ctx: RequestCtx) => {
    const req = await body(ctx, GetUpdatesRequestSchema);
    const limit = limitParam(ctx);
    const uf = updateFormatOfRequest(req, sim.registry, kind === 'tree' ? 'LEDGER_EFFECTS' : 'ACS_DELTA');
    checkDescending(req.descendingOrder, req.endInclusive);
    const end = rangeOf(sim, req.beginExclusive, req.endInclusive);
    return updateList(sim, req.beginExclusive, end, req.descendingOrder ?? false, limit, updatePlanner(sim, kind, uf));
  };
  router.add('POST', '/v2/updates', streamHandler('flat'));
  router.add('POST', '/v2/updates/flats', streamHandler('flat'));
  router.add('POST', '/v2/updates/trees', streamHandler('tree'));

  const byOffset = (offset: number): StoredUpdate => {
    if (offset <= 0)
      throw new CantonError('OFFSET_OUT_OF_RANGE', `Offset must be positive: ${offset}`, { context: { offset: String(offset) } });
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
    // as Canton's JSON API (JsUpdateService.getUpdateFormatForFlatQueries)
    const parties = req.requestingParties ?? [];
    if (req.transactionFormat && parties.length > 0)
      throw new CantonError(
        'INVALID_ARGUMENT',
        'Both transaction_format and requesting_parties are set. Please use either backwards ' +
          'compatible arguments (requesting_parties) or transaction_format but not both.',
      );
    if (!req.transactionFormat && parties.length === 0)
      throw new CantonError(
        'INVALID_ARGUMENT',
        'Either transaction_format or requesting_parties is required. Please use either ' +
          'backwards compatible arguments (requesting_parties) or transaction_format.',
      );
    const tf = req.transactionFormat
      ? resolveTransactionFormat(req.transactionFormat, sim.registry)
      : { shape: 'ACS_DELTA' as const, events: legacyFormat(parties) };
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
    const t = u.kind === 'transaction' ? projectTree(u, { shape: 'LEDGER_EFFECTS', events: fmt }, sim.registry) : undefined;
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

  router.add('POST', '/v2/updates/get-updates-page', async (ctx) => updatesPage(sim, await body(ctx, GetUpdatesPageRequestSchema)));
}
