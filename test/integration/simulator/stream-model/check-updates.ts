/**
 * Update reads against the model: /v2/updates (+ flats, trees) over HTTP and WebSocket, ascending and
 * descending, legacy and update-format requests, get-updates-page, and the pointwise lookups
 * (update-by-offset/-id, transaction-by-offset/-id, transaction-tree-by-offset/-id).
 */
import { cantonError, call } from '../helpers.js';
import type { OpaqueValues } from './compare.js';
import type { ModelLedger } from './ledger.js';
import type { NamedFormat } from './formats.js';
import { partiesOf } from './formats.js';
import type { Prng } from './prng.js';
import { assertSame, post, splitCheckpoint, wsRead } from './readers.js';
import type { EventFormatJson, UpdateFormatModel } from './rules-filter.js';
import { eventFormatOf } from './rules-filter.js';
import { expectTransaction, expectTree, expectUpdate } from './rules-project.js';
import type { UpdateFormatJson } from './rules-reads.js';
import { expectUpdateList, legacyFormat, updateFormatOf } from './rules-reads.js';
import type { PageRequest, TokenBounds } from './rules-pages.js';
import { expectPage } from './rules-pages.js';

export interface CheckContext {
  base: string;
  ledger: ModelLedger;
  rng: Prng;
  opaques: OpaqueValues;
  /** requests compared with the model, by endpoint */
  stats: Record<string, number>;
}

const count = (ctx: CheckContext, what: string, n = 1): void => {
  ctx.stats[what] = (ctx.stats[what] ?? 0) + n;
};

/** Update formats tried for an event format: ACS delta with everything, ledger effects, no transactions. */
export function updateFormatsFor(ctx: CheckContext, f: EventFormatJson): UpdateFormatJson[] {
  const rng = ctx.rng;
  const topology = (): UpdateFormatJson => ({
    includeTopologyEvents: { includeParticipantAuthorizationEvents: rng.chance(0.5) ? {} : { parties: partiesOf(f) } },
  });
  return [
    {
      includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: f },
      includeReassignments: f,
      ...(rng.chance(0.7) ? topology() : {}),
    },
    {
      includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS', eventFormat: f },
      ...(rng.chance(0.5) ? { includeReassignments: f } : {}),
    },
    { includeReassignments: f, ...topology() },
  ];
}

/** One update list (HTTP or WebSocket) compared with the model. */
async function checkList(
  ctx: CheckContext,
  what: string,
  route: '/v2/updates' | '/v2/updates/flats' | '/v2/updates/trees',
  request: Record<string, unknown>,
  uf: UpdateFormatModel,
  ws: boolean,
): Promise<void> {
  const { ledger } = ctx;
  const tree = route === '/v2/updates/trees';
  const begin = request.beginExclusive as number;
  const end = (request.endInclusive as number | undefined) ?? ledger.ledgerEnd;
  const descending = request.descendingOrder === true;
  const expected = expectUpdateList(ledger, uf, tree, begin, end, descending);
  const label = `${what} ${ws ? 'WS' : 'POST'} ${route} ${JSON.stringify(request).slice(0, 900)}`;
  const answer = ws ? await wsRead(ctx.base, route, request) : ((await post(ctx.base, route, request)) as unknown[]);
  const items = splitCheckpoint(answer, 'update', expected.checkpoint, ledger, label);
  assertSame(label, expected.items, items, ctx.opaques);
  count(ctx, `${ws ? 'WS' : 'HTTP'} ${route}`);
  count(ctx, 'updates compared', items.length);
}

/**
 * The update lists of one event format. To keep the run short, only the first list and the legacy
 * trees span the whole ledger; the others cover random ranges (each update kind still occurs in them).
 */
export async function checkUpdateLists(ctx: CheckContext, nf: NamedFormat, index: number): Promise<void> {
  const { ledger, rng } = ctx;
  const end = ledger.ledgerEnd;
  const begin = ledger.prunedUpTo;
  const [ufA, ufB, ufC] = updateFormatsFor(ctx, nf.format) as [UpdateFormatJson, UpdateFormatJson, UpdateFormatJson];
  const range = (): [number, number] => {
    const from = rng.int(begin, end);
    return [from, rng.int(from, Math.min(end, from + Math.ceil((end - begin) / 2)))];
  };
  await checkList(ctx, nf.name, '/v2/updates', { beginExclusive: begin, endInclusive: end, updateFormat: ufA }, updateFormatOf(ufA), false);
  // no endInclusive: up to the ledger end
  await checkList(ctx, nf.name, '/v2/updates', { beginExclusive: rng.int(begin, end), updateFormat: ufB }, updateFormatOf(ufB), false);
  // flat or as trees (Canton renders any shape of the update format as trees)
  const [from, to] = range();
  const ufAny = rng.pick([ufA, ufB, ufC]);
  const anyRoute = rng.pick(['/v2/updates', '/v2/updates/trees'] as const);
  await checkList(ctx, nf.name, anyRoute, { beginExclusive: from, endInclusive: to, updateFormat: ufAny }, updateFormatOf(ufAny), false);
  // descending needs endInclusive
  const [dFrom, dTo] = range();
  await checkList(
    ctx,
    nf.name,
    '/v2/updates',
    { beginExclusive: dFrom, endInclusive: dTo, descendingOrder: true, updateFormat: ufA },
    updateFormatOf(ufA),
    false,
  );
  // legacy request forms: `filter` (+ verbose) on flats and trees
  const verbose = rng.pick([undefined, true, false]);
  const legacy = (b: number, e: number): Record<string, unknown> => ({
    beginExclusive: b,
    endInclusive: e,
    filter: nf.format,
    ...(verbose === undefined ? {} : { verbose }),
  });
  const [fFrom, fTo] = range();
  await checkList(ctx, nf.name, '/v2/updates/flats', legacy(fFrom, fTo), legacyFormat(nf.format, false), false);
  await checkList(ctx, nf.name, '/v2/updates/trees', legacy(begin, end), legacyFormat(nf.format, true), false);
  // WebSocket: an update-format stream and a legacy one (alternating channels)
  const [wFrom, wTo] = range();
  await checkList(ctx, nf.name, '/v2/updates', { beginExclusive: wFrom, endInclusive: wTo, updateFormat: ufB }, updateFormatOf(ufB), true);
  const [vFrom, vTo] = range();
  if (index % 2 === 0) await checkList(ctx, nf.name, '/v2/updates/trees', legacy(vFrom, vTo), legacyFormat(nf.format, true), true);
  else {
    const wsUf = rng.pick([ufA, ufB]);
    await checkList(
      ctx,
      nf.name,
      rng.pick(['/v2/updates/flats', '/v2/updates/trees'] as const),
      { beginExclusive: vFrom, endInclusive: vTo, updateFormat: wsUf },
      updateFormatOf(wsUf),
      true,
    );
  }
  const [pFrom, pTo] = range();
  // GetUpdatesPageRequest.endOffsetInclusive must be a positive offset (Canton validatePositive)
  await checkPages(ctx, nf.name, rng.pick([ufA, ufB]), pFrom, Math.max(pTo, 1));
}

/**
 * get-updates-page (rules-pages.ts): every page — its updates, bounds and whether it has a token —
 * while following the tokens; with or without begin, end and maxPageSize. Without an end, ascending
 * pages always have a token ("to tail the ledger"): after the last page one more request must answer
 * an empty page that still has one.
 */
async function checkPages(ctx: CheckContext, what: string, uf: UpdateFormatJson, begin: number, end: number): Promise<void> {
  const { ledger, rng } = ctx;
  const descending = rng.chance(0.3);
  const withEnd = descending || rng.chance(0.6);
  const size = rng.chance(0.2) ? undefined : rng.int(40, 160);
  const req: PageRequest = {
    ...(begin > 0 || rng.chance(0.5) ? { begin } : {}),
    ...(withEnd ? { end } : {}),
    ...(size !== undefined ? { maxPageSize: size } : {}),
    descending,
  };
  const model = updateFormatOf(uf);
  const label = `${what} get-updates-page ${JSON.stringify(req)} ${JSON.stringify(uf).slice(0, 600)}`;
  let token: string | undefined;
  let bounds: TokenBounds | undefined;
  for (let page = 0; ; page++) {
    if (page > 1000) throw new Error(`${label}: more than 1000 pages`);
    const r = (await post(ctx.base, '/v2/updates/get-updates-page', {
      updateFormat: uf,
      ...(req.begin !== undefined ? { beginOffsetExclusive: req.begin } : {}),
      ...(req.end !== undefined ? { endOffsetInclusive: req.end } : {}),
      ...(req.maxPageSize !== undefined ? { maxPageSize: req.maxPageSize } : {}),
      ...(descending ? { descendingOrder: true } : {}),
      ...(token ? { pageToken: token } : {}),
    })) as { updates: unknown[]; nextPageToken?: string; lowestPageOffsetExclusive: number; highestPageOffsetInclusive: number };
    count(ctx, 'HTTP /v2/updates/get-updates-page');
    const exp = expectPage(ledger, model, req, bounds);
    const { next, ...body } = exp;
    const { nextPageToken, ...got } = r;
    assertSame(`${label}, page ${page + 1}`, body, got, ctx.opaques);
    count(ctx, 'updates compared', r.updates.length);
    if ((nextPageToken !== undefined) !== (next !== undefined))
      throw new Error(`${label}, page ${page + 1}: nextPageToken ${nextPageToken === undefined ? 'missing' : 'unexpected'}`);
    if (!nextPageToken || !next) return;
    // a tailing request (no end): once a page is not full, the next one is empty and keeps its token
    if (req.end === undefined && bounds !== undefined && r.updates.length === 0) return;
    token = nextPageToken;
    bounds = next;
  }
}

/**
 * Pointwise lookups at sampled offsets. GetUpdateByOffsetRequest: the update "that matches the
 * filter in the request"; none (or nothing visible): UPDATE_NOT_FOUND. Legacy transaction lookups
 * "default to a transaction_format, where: event_format.filters_by_party will have template-wildcard
 * filters for all the requesting_parties … transaction_shape = TRANSACTION_SHAPE_ACS_DELTA"; tree
 * lookups likewise with ledger effects (Canton getUpdateFormatForPointwiseQueries).
 */
export async function checkPointwise(ctx: CheckContext, nf: NamedFormat, samples: number): Promise<void> {
  const { ledger, rng, base } = ctx;
  const ufs = updateFormatsFor(ctx, nf.format);
  const parties = partiesOf(nf.format);
  const wildcardOf = (ps: string[]): EventFormatJson => ({ filtersByParty: Object.fromEntries(ps.map((p) => [p, {}])) });
  const offsets = [...ledger.updates.keys()].filter((o) => o > ledger.prunedUpTo);
  for (let i = 0; i < samples; i++) {
    const offset = rng.pick(offsets);
    const u = ledger.updates.get(offset);
    if (!u) continue;
    const ufJson = rng.pick(ufs);
    const exp = expectUpdate(ledger, u, updateFormatOf(ufJson), false);
    const byId = rng.chance(0.5);
    const r = byId
      ? await call(base, 'POST', '/v2/updates/update-by-id', { body: { updateId: u.updateId, updateFormat: ufJson } })
      : await call(base, 'POST', '/v2/updates/update-by-offset', { body: { offset, updateFormat: ufJson } });
    const label = `${nf.name} update-by-${byId ? 'id' : 'offset'} ${offset} ${JSON.stringify(ufJson).slice(0, 600)}`;
    expectAnswer(label, r, exp ? { update: exp } : undefined, 'UPDATE_NOT_FOUND', ctx);
    count(ctx, `HTTP update-by-${byId ? 'id' : 'offset'}`);

    if (u.kind !== 'transaction' && rng.chance(0.7)) continue;
    const shape = rng.pick(['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS'] as const);
    const legacy = parties.length > 0 && nf.format.filtersForAnyParty === undefined && rng.chance(0.4);
    const reqTx = legacy ? { requestingParties: parties } : { transactionFormat: { transactionShape: shape, eventFormat: nf.format } };
    const ef = eventFormatOf(legacy ? wildcardOf(parties) : nf.format);
    const tx =
      u.kind === 'transaction'
        ? expectTransaction(ledger, u, legacy ? 'ACS_DELTA' : shape === 'TRANSACTION_SHAPE_ACS_DELTA' ? 'ACS_DELTA' : 'LEDGER_EFFECTS', ef)
        : undefined;
    const rt = byId
      ? await call(base, 'POST', '/v2/updates/transaction-by-id', { body: { updateId: u.updateId, ...reqTx } })
      : await call(base, 'POST', '/v2/updates/transaction-by-offset', { body: { offset, ...reqTx } });
    expectAnswer(
      `${nf.name} transaction-by-${byId ? 'id' : 'offset'} ${offset} ${JSON.stringify(reqTx).slice(0, 600)}`,
      rt,
      tx ? { transaction: tx } : undefined,
      'UPDATE_NOT_FOUND',
      ctx,
    );
    count(ctx, `HTTP transaction-by-${byId ? 'id' : 'offset'}`);

    if (parties.length === 0) continue;
    const tree = u.kind === 'transaction' ? expectTree(ledger, u, 'LEDGER_EFFECTS', eventFormatOf(wildcardOf(parties))) : undefined;
    const q = parties.map((p) => `parties=${encodeURIComponent(p)}`).join('&');
    const rr = byId
      ? await call(base, 'GET', '/v2/updates/transaction-tree-by-id/{update-id}', {
          path: `/v2/updates/transaction-tree-by-id/${u.updateId}?${q}`,
        })
      : await call(base, 'GET', '/v2/updates/transaction-tree-by-offset/{offset}', {
          path: `/v2/updates/transaction-tree-by-offset/${offset}?${q}`,
        });
    expectAnswer(
      `${nf.name} transaction-tree-by-${byId ? 'id' : 'offset'} ${offset} ${q.slice(0, 300)}`,
      rr,
      tree ? { transaction: tree } : undefined,
      'UPDATE_NOT_FOUND',
      ctx,
    );
    count(ctx, `HTTP transaction-tree-by-${byId ? 'id' : 'offset'}`);
  }
}

/** 200 with the expected body, or the expected error code. */
export function expectAnswer(
  label: string,
  r: { status: number; text: string; json: unknown },
  expected: unknown,
  notFoundCode: string,
  ctx: CheckContext,
): void {
  if (expected === undefined) {
    if (r.status === 200) throw new Error(`${label}: expected ${notFoundCode}, got 200 ${r.text.slice(0, 600)}`);
    const e = cantonError(r as Parameters<typeof cantonError>[0]);
    if (e.code !== notFoundCode) throw new Error(`${label}: expected ${notFoundCode}, got ${r.status} ${e.code}: ${e.cause}`);
    return;
  }
  if (r.status !== 200) throw new Error(`${label}: expected 200, got ${r.status} ${r.text.slice(0, 500)}`);
  assertSame(label, expected, r.json, ctx.opaques);
}
