/** Shared helpers for route handlers: body decoding, list limits (413), offset checks. */
import type { z } from 'zod';
import type { SimContext } from '../context.js';
import { CantonError, DecodeError } from '../errors.js';
import { decodeJson } from '../http.js';
import type { RequestCtx } from '../router.js';

export async function body<T>(ctx: RequestCtx, schema: z.ZodType<T>): Promise<T> {
  return decodeJson(await ctx.body(), schema);
}

/** `limit` query parameter: undefined when absent; 400 text/plain when not a non-negative integer. */
export function limitParam(ctx: RequestCtx): number | undefined {
  const raw = ctx.query.get('limit');
  if (raw === null) return undefined;
  if (!/^\d{1,18}$/.test(raw)) throw new DecodeError(`Invalid value for: query parameter limit (expected an integer, got '${raw}')`);
  return Number(raw);
}

/**
 * How many elements a blocking list may return: `limit` if given (capped by the server setting),
 * otherwise the setting; producing more than the setting without a smaller `limit` is a 413.
 */
export function listCap(sim: SimContext, limit: number | undefined): { take: number; strict: boolean } {
  const max = sim.settings.httpListMaxElementsLimit;
  if (limit !== undefined && limit <= max) return { take: limit, strict: false };
  return { take: max, strict: true };
}

export function tooMany(sim: SimContext): CantonError {
  return new CantonError(
    'MAXIMUM_LIST_ELEMENTS',
    `Exceeding maximum number of elements in the list (${sim.settings.httpListMaxElementsLimit}) ` +
      'for a blocking call. Use websockets or a smaller limit.',
    { context: { limit: String(sim.settings.httpListMaxElementsLimit) } },
  );
}

/** Checks a stream start offset against pruning and ledger end. */
export function checkBegin(sim: SimContext, beginExclusive: number, field = 'beginExclusive'): void {
  if (beginExclusive < 0)
    throw new CantonError('OFFSET_OUT_OF_RANGE', `Offset in ${field} must be non-negative: ${beginExclusive}`, { context: { field } });
  const end = sim.durability.end();
  if (beginExclusive > end)
    throw new CantonError('OFFSET_AFTER_LEDGER_END', `Begin offset (${beginExclusive}) is after ledger end (${end})`, {
      context: { field, ledgerEnd: String(end) },
    });
  const pruned = sim.store.prunedUpTo();
  if (beginExclusive < pruned)
    throw new CantonError('PARTICIPANT_PRUNED_DATA_ACCESSED', `Request from ${beginExclusive} precedes pruned offset ${pruned}`, {
      context: { earliest_offset: String(pruned), field },
    });
}

export function checkEnd(sim: SimContext, endInclusive: number, field = 'endInclusive'): void {
  if (endInclusive < 0)
    throw new CantonError('OFFSET_OUT_OF_RANGE', `Offset in ${field} must be non-negative: ${endInclusive}`, { context: { field } });
  const end = sim.durability.end();
  if (endInclusive > end)
    throw new CantonError('OFFSET_AFTER_LEDGER_END', `End offset (${endInclusive}) is after ledger end (${end})`, {
      context: { field, ledgerEnd: String(end) },
    });
}

export function synchronizerTimes(sim: SimContext): { synchronizerId: string; recordTime: string }[] {
  return sim.synchronizers.map((s) => ({ synchronizerId: s.id, recordTime: sim.lastRecordTime() }));
}

export const encodeToken = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
export function decodeToken<T>(token: string, check: (v: unknown) => v is T): T {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw new CantonError('INVALID_ARGUMENT', 'Invalid page token', { context: { field: 'pageToken' } });
  }
  if (!check(v)) throw new CantonError('INVALID_ARGUMENT', 'Invalid page token', { context: { field: 'pageToken' } });
  return v;
}
