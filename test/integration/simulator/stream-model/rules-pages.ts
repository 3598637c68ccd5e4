/**
 * get-updates-page as the model states it. The spec (GetUpdatesPageRequest / GetUpdatesPageResponse)
 * says what a page holds; how its bounds and its token are computed is Canton's
 * (IndexServiceImpl.updatesPageAscendingOrder / updatesPageDescendingOrder, buildAscendingPage,
 * UpdateServiceRequestValidator.validateUpdatesPageRequest, UpdatesPageToken), which the model follows
 * where the spec is silent or differs. A token is opaque to clients; the model tracks the bounds Canton
 * puts in it.
 */
import type { ModelLedger } from './ledger.js';
import type { UpdateFormatModel } from './rules-filter.js';
import type { Expected } from './rules-project.js';
import { expectUpdate } from './rules-project.js';

type Obj = { [k: string]: Expected | undefined };

export interface PageRequest {
  begin?: number;
  end?: number;
  maxPageSize?: number;
  descending: boolean;
}

/** The bounds an UpdatesPageToken carries (lowest_page_offset_exclusive, highest_page_offset_inclusive). */
export interface TokenBounds {
  l: number;
  h: number;
}

export interface PageModel {
  updates: Obj[];
  lowestPageOffsetExclusive: number;
  highestPageOffsetInclusive: number;
  /** undefined: no nextPageToken */
  next?: TokenBounds;
}

/** UpdateServiceConfig: "max_page_size value for getUpdatesPage request without max_page_size specified" = 100. */
export const DEFAULT_PAGE_SIZE = 100;

/**
 * The page a request answers, after the page whose token it carries (`token`).
 *
 * - GetUpdatesPageRequest.begin_offset_exclusive: "If set to zero or not defined, the lower bound is
 *   set to the actual pruning offset or to the beginning of the ledger if the participant was not
 *   pruned yet."
 * - end_offset_inclusive: "If not specified response will only contain updates whose offset is less
 *   than the current ledger-end." Canton includes the ledger end (calculatedEndInclusive =
 *   `endInclusive.orElse(ledgerEndBeforeFetch)`); the model follows Canton.
 * - max_page_size: "The result page will contain the first max_page_size Updates of all matching
 *   updates" — Canton fetches max_page_size + 1 to know whether another page follows.
 * - descending_order: "the page will populate the elements in descending order starting from the
 *   end_offset_inclusive"; GetUpdatesPageResponse.updates: "In case descending_order was selected, the
 *   order of the updates is in reversed offset order."
 * - lowest_page_offset_exclusive "Represents the lower bound of this page", highest_page_offset_inclusive
 *   "Represents the upper bound of the page": ascending, a full page spans (start, first update of the
 *   next page − 1], the last one (start, end]; descending, a full page spans (first update of the next
 *   page, end], the last one (begin or pruning offset, end] (Canton buildAscendingPage /
 *   updatesPageDescendingOrder).
 * - next_page_token: "If the value is not populated, this is the last page … If the original
 *   GetFirstUpdatePageRequest end_offset_inclusive was not specified and the request uses ascending
 *   order, then this token will always be populated, so you can use it to "tail" the ledger".
 *   A following request starts after the token's highest bound (ascending) or at its lowest bound,
 *   inclusive (descending: Canton `continueStreamFromIncl = lowestPageOffsetExclusive`).
 */
export function expectPage(ledger: ModelLedger, uf: UpdateFormatModel, req: PageRequest, token?: TokenBounds): PageModel {
  const size = req.maxPageSize ?? DEFAULT_PAGE_SIZE;
  const begin = req.begin !== undefined && req.begin > 0 ? req.begin : undefined;
  const pruned = ledger.prunedUpTo;
  const from = !req.descending && token ? token.h : (begin ?? pruned);
  const to = req.descending && token ? token.l : (req.end ?? ledger.ledgerEnd);
  const visible: Obj[] = [];
  const offsets: number[] = [];
  const range = to > from ? ledger.range(from, to) : [];
  if (req.descending) range.reverse();
  for (const u of range) {
    const e = expectUpdate(ledger, u, uf, false);
    if (!e) continue;
    visible.push({ update: e });
    offsets.push(u.offset);
    if (visible.length > size) break;
  }
  const next = offsets[size];
  const updates = visible.slice(0, size);
  if (!req.descending) {
    if (next !== undefined)
      return { updates, lowestPageOffsetExclusive: from, highestPageOffsetInclusive: next - 1, next: { l: from, h: next - 1 } };
    return {
      updates,
      lowestPageOffsetExclusive: from,
      highestPageOffsetInclusive: to,
      ...(req.end === undefined ? { next: { l: from, h: to } } : {}),
    };
  }
  if (next !== undefined) return { updates, lowestPageOffsetExclusive: next, highestPageOffsetInclusive: to, next: { l: next, h: to } };
  return { updates, lowestPageOffsetExclusive: begin ?? pruned, highestPageOffsetInclusive: to };
}
