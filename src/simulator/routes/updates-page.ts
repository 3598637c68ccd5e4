/**
 * POST /v2/updates/get-updates-page, as Canton 3.5 computes it (UpdateServiceRequestValidator
 * .validateUpdatesPageRequest, IndexServiceImpl.updatesPageAscendingOrder / updatesPageDescendingOrder,
 * UpdatesPageToken): the page bounds, the page token and the validation errors.
 */
import { createHash } from 'node:crypto';
import type { SimContext } from '../context.js';
import { CantonError } from '../errors.js';
import { resolveUpdateFormat, updateFormatFingerprint } from '../filters.js';
import { scanUpdateRows, updatePlanner } from '../reads.js';
import type { HandlerResult } from '../router.js';
import { okChunks } from '../router.js';
import type { GetUpdatesPageRequestInput } from '../schemas.js';
import { JsonOut } from '../json-out.js';

/** UpdateServiceConfig defaults: defaultUpdatesPageSize and maxUpdatesPageSize. */
const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 2000;

/** UpdatesPageToken: the bounds of the page it came from and a checksum of the request (0 = none). */
interface PageToken {
  l: number;
  h: number;
  c: string;
}

const invalidToken = (why: string): CantonError =>
  new CantonError(
    'INVALID_UPDATES_PAGE_TOKEN',
    'The submitted command contains an invalid page token. Tokens used in GetUpdatesPage requests must be taken from a valid ' +
      'GetUpdatesPageResponse and used with the same EventFormat settings, the same begin and end with the same Canton participant ' +
      `running the same Canton version. ${why}`,
    { context: { field: 'pageToken' }, definiteAnswer: false },
  );

function decodePageToken(token: string, checksum: string): PageToken {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    v = undefined;
  }
  const t = v as Partial<PageToken> | null | undefined;
  if (typeof t !== 'object' || t === null || !Number.isSafeInteger(t.l) || !Number.isSafeInteger(t.h) || typeof t.c !== 'string')
    throw new CantonError(
      'INVALID_FIELD',
      'The submitted command has a field with invalid value: Invalid field page_token: Invalid page token for GetUpdatesPageRequest',
      { context: { field: 'pageToken' } },
    );
  if (t.c !== checksum) throw invalidToken('Next page token was obtained with different request parameters');
  if ((t.l as number) < 0) throw invalidToken('lowestPageOffsetExclusive bound is negative');
  if ((t.h as number) < 0) throw invalidToken('highestPageOffsetInclusive bound is negative');
  return t as PageToken;
}

const encodePageToken = (t: PageToken): string => Buffer.from(JSON.stringify(t)).toString('base64');

/**
 * One page. Offsets are numbers with 0 for "none" (Canton's Option[Offset]: 0 is the participant
 * begin). Ascending: from the token's highest bound (or the request's begin, or the pruning offset)
 * to the request's end or the ledger end; a full page ends just before the first update of the next
 * page, and without an end in the request the last page has a token too ("you can use it to tail the
 * ledger"). Descending: from the token's lowest bound (inclusive: the first update not yet returned)
 * or the end down to the begin or the pruning offset.
 */
export function updatesPage(sim: SimContext, req: GetUpdatesPageRequestInput): HandlerResult {
  const descending = req.descendingOrder ?? false;
  const uf = resolveUpdateFormat(req.updateFormat, sim.registry);
  const checksum = createHash('sha256')
    .update(
      JSON.stringify([
        req.beginOffsetExclusive ?? null,
        req.endOffsetInclusive ?? null,
        req.maxPageSize ?? null,
        updateFormatFingerprint(uf),
        descending,
      ]),
    )
    .digest('hex')
    .slice(0, 16);
  const token = req.pageToken !== undefined ? decodePageToken(req.pageToken, checksum) : undefined;
  const endInRequest = req.endOffsetInclusive;
  if (endInRequest !== undefined && endInRequest <= 0)
    throw new CantonError(
      'NON_POSITIVE_OFFSET',
      `Offset ${endInRequest} in endOffsetInclusive is not a positive integer: the offset has to be a positive integer (>0)`,
      { context: { field: 'endOffsetInclusive' } },
    );
  const beginInRequest = req.beginOffsetExclusive;
  if (beginInRequest !== undefined && beginInRequest < 0)
    throw new CantonError(
      'NEGATIVE_OFFSET',
      `Offset ${beginInRequest} in beginOffsetExclusive is a negative integer: the ` +
        'offset in beginOffsetExclusive field has to be a non-negative integer (>=0)',
      { context: { field: 'beginOffsetExclusive' } },
    );
  const size = req.maxPageSize ?? DEFAULT_PAGE_SIZE;
  if (size <= 0) throw new CantonError('INVALID_ARGUMENT', `Requested page size must be positive, but got ${size}`);
  if (size > MAX_PAGE_SIZE)
    throw new CantonError('INVALID_ARGUMENT', `Requested page size must not exceed ${MAX_PAGE_SIZE}, but got ${size}`);
  const ledgerEnd = sim.durability.end();
  if (endInRequest !== undefined && endInRequest > ledgerEnd)
    throw new CantonError('OFFSET_AFTER_LEDGER_END', `endOffsetInclusive offset (${endInRequest}) is after ledger end (${ledgerEnd})`, {
      context: { field: 'endOffsetInclusive', ledgerEnd: String(ledgerEnd) },
    });
  // an explicit 0 is the participant begin, as an absent begin (ParticipantOffsetValidator.validateNonNegative)
  const begin = beginInRequest !== undefined && beginInRequest > 0 ? beginInRequest : undefined;
  if (begin !== undefined && endInRequest !== undefined && begin > endInRequest)
    throw new CantonError('INVALID_ARGUMENT', 'beginOffsetExclusive is after endOffsetInclusive');
  let continueFrom: number | undefined; // inclusive
  if (token) {
    if (descending) {
      if (token.l === 0) throw invalidToken('Page token not from descendingOrder=true request');
      continueFrom = token.l;
    } else {
      if (endInRequest !== undefined && !(token.h < endInRequest)) throw invalidToken('Page token not from descendingOrder=false request');
      continueFrom = token.h + 1;
    }
  }
  const pruned = sim.store.prunedUpTo();
  let from: number; // exclusive
  let to: number; // inclusive
  let checkPruning: boolean;
  if (!descending) {
    from = continueFrom !== undefined ? continueFrom - 1 : (begin ?? pruned);
    to = endInRequest ?? ledgerEnd;
    checkPruning = begin !== undefined || continueFrom !== undefined; // the first page of a dynamic lower bound skips it
  } else {
    from = begin ?? pruned;
    to = continueFrom ?? endInRequest ?? ledgerEnd;
    checkPruning = begin !== undefined;
  }
  if (checkPruning && to > from && from < pruned)
    throw new CantonError('PARTICIPANT_PRUNED_DATA_ACCESSED', `Updates request from ${from} precedes pruned offset ${pruned}`, {
      context: { earliest_offset: String(pruned) },
    });

  const out = new JsonOut();
  out.str('{"updates":[');
  let count = 0;
  let next: number | undefined; // offset of the first update of the next page
  const plan = updatePlanner(sim, 'flat', uf);
  if (to > from)
    scanUpdateRows(sim, from, to, descending, (r) => {
      const w = plan(r);
      if (w === undefined) return true;
      if (count >= size) {
        next = r.offset;
        return false;
      }
      out.str(count === 0 ? '{"update":' : ',{"update":');
      w(out);
      out.str('}');
      count++;
      return true;
    });
  let low: number;
  let high: number;
  let nextToken: PageToken | undefined;
  if (!descending) {
    low = from;
    if (next !== undefined) {
      high = next - 1;
      nextToken = { l: from, h: next - 1, c: checksum };
    } else {
      high = to;
      if (endInRequest === undefined) nextToken = { l: from, h: to, c: checksum };
    }
  } else {
    high = to;
    if (next !== undefined) {
      low = next;
      nextToken = { l: next, h: to, c: checksum };
    } else low = begin ?? pruned;
  }
  // JsGetUpdatesPageResponse, spliced; nextPageToken is an Option (absent when none)
  out.str(
    `],"lowestPageOffsetExclusive":${low},"highestPageOffsetInclusive":${high}` +
      (nextToken ? `,"nextPageToken":${JSON.stringify(encodePageToken(nextToken))}` : '') +
      '}',
  );
  return okChunks(out.take());
}
