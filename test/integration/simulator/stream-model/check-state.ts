/**
 * State reads against the model: the active contract set (HTTP list, WebSocket, pages, legacy
 * `filter`), events by contract id, and command completions (both endpoints, HTTP and WebSocket).
 */
import { call, cantonError } from '../helpers.js';
import type { CheckContext } from './check-updates.js';
import { expectAnswer } from './check-updates.js';
import type { NamedFormat } from './formats.js';
import { assertSame, post, splitCheckpoint, wsRead } from './readers.js';
import { eventFormatOf } from './rules-filter.js';
import { acsContractId, expectAcs, expectCompletions, expectEventsByContractId } from './rules-reads.js';
import { USER } from './submit.js';

const count = (ctx: CheckContext, what: string, n = 1): void => {
  ctx.stats[what] = (ctx.stats[what] ?? 0) + n;
};

const byContractId = (xs: unknown[]): unknown[] =>
  [...xs].sort((a, b) => (acsContractId(a) < acsContractId(b) ? -1 : acsContractId(a) > acsContractId(b) ? 1 : 0));

export async function checkAcs(ctx: CheckContext, nf: NamedFormat): Promise<void> {
  const { ledger, rng, base } = ctx;
  const ef = eventFormatOf(nf.format);
  const low = ledger.prunedUpTo;
  const offsets = [ledger.ledgerEnd, rng.int(low, ledger.ledgerEnd), rng.int(low, ledger.ledgerEnd)];
  if (low === 0) offsets.push(0);
  for (const [i, at] of offsets.entries()) {
    const legacy = i === 1;
    const verbose = legacy && rng.chance(0.5) ? rng.chance(0.5) : undefined;
    const req = legacy
      ? { activeAtOffset: at, filter: nf.format, ...(verbose !== undefined ? { verbose } : {}) }
      : { activeAtOffset: at, eventFormat: nf.format };
    // continuation tokens are the request's (activeAtOffset and event format, verbose included)
    const expected = expectAcs(ledger, at, ef, `${at}:${nf.name}:${legacy ? `filter:${String(verbose)}` : 'eventFormat'}`);
    const label = `${nf.name} active-contracts ${JSON.stringify(req).slice(0, 600)}`;
    const answer = (await post(base, '/v2/state/active-contracts', req)) as AcsElement[];
    assertSame(`POST ${label}`, expected, byContractId(answer), ctx.opaques);
    count(ctx, 'HTTP /v2/state/active-contracts');
    count(ctx, 'ACS entries compared', expected.length);
    if (i === 0 && answer.length > 0) await checkAcsResume(ctx, label, req, answer);
    if (i === 0 || i === 2) {
      assertSame(`WS ${label}`, expected, byContractId(await wsRead(base, '/v2/state/active-contracts', req)), ctx.opaques);
      count(ctx, 'WS /v2/state/active-contracts');
    }
    if (i === 2 && at > 0) {
      // pages: "If not present this is the last page"; a page's entries have no continuation token
      const size = rng.int(20, 80);
      const got: unknown[] = [];
      let token: string | undefined;
      for (let p = 0; p < 1000; p++) {
        const r = (await post(base, '/v2/state/active-contracts-page', {
          activeAtOffset: at,
          eventFormat: nf.format,
          maxPageSize: size,
          ...(token ? { pageToken: token } : {}),
        })) as {
          activeContracts: unknown[];
          activeAtOffset: number;
          nextPageToken?: string;
        };
        if (r.activeAtOffset !== at) throw new Error(`${label}: page answers activeAtOffset ${r.activeAtOffset}`);
        if (r.activeContracts.length > size) throw new Error(`${label}: page of ${r.activeContracts.length} > ${size}`);
        got.push(...r.activeContracts);
        count(ctx, 'HTTP /v2/state/active-contracts-page');
        token = r.nextPageToken;
        if (!token) break;
      }
      assertSame(`pages (size ${size}) of ${label}`, expectAcs(ledger, at, ef), byContractId(got), ctx.opaques);
    }
  }
}

type AcsElement = { streamContinuationToken: string };

/**
 * GetActiveContractsRequest.streamContinuationToken: "The prefix of the active contracts snapshot will
 * be omitted up to and including the element from which the continuation token was read." Resuming
 * from an element's token answers the rest of the same answer, in its order; a token of another
 * request ("subsequent request must have the same active_at_offset, … the same event_format") is
 * INVALID_CONTINUATION_TOKEN (Canton AcsContinuationToken.decodeAndValidate).
 */
async function checkAcsResume(ctx: CheckContext, label: string, req: Record<string, unknown>, answer: AcsElement[]): Promise<void> {
  const k = ctx.rng.int(0, answer.length - 1);
  const token = (answer[k] as AcsElement).streamContinuationToken;
  const rest = await post(ctx.base, '/v2/state/active-contracts', { ...req, streamContinuationToken: token });
  assertSame(`resumed after element ${k} of ${label}`, answer.slice(k + 1), rest, ctx.opaques);
  count(ctx, 'HTTP /v2/state/active-contracts (resumed)');
  const at = req.activeAtOffset as number;
  if (at > 0 && ctx.rng.chance(0.3)) {
    const other = await call(ctx.base, 'POST', '/v2/state/active-contracts', {
      body: { ...req, activeAtOffset: at - 1, streamContinuationToken: token },
    });
    if (cantonError(other).code !== 'INVALID_CONTINUATION_TOKEN')
      throw new Error(`${label}: a token used at another offset answered ${other.status} ${other.text.slice(0, 300)}`);
  }
}

export async function checkEventsByContractId(ctx: CheckContext, nf: NamedFormat, samples: number): Promise<void> {
  const { ledger, rng, base } = ctx;
  const ef = eventFormatOf(nf.format);
  const contracts = [...ledger.contracts.values()];
  // rare cases, sampled on purpose: transient contracts (created and archived by one transaction) and
  // contracts archived on another synchronizer than the one that created them
  const transients = contracts.filter((c) => c.archived !== undefined && c.archived.offset === c.created.offset);
  const movedAway = contracts.filter((c) => c.archived !== undefined && c.archived.synchronizerId !== c.created.synchronizerId);
  for (let i = 0; i < samples; i++) {
    const rare = i % 4 === 0 ? transients : i % 4 === 1 ? movedAway : [];
    const c = rng.pick(rare.length > 0 ? rare : contracts);
    const r = await call(base, 'POST', '/v2/events/events-by-contract-id', { body: { contractId: c.cid, eventFormat: nf.format } });
    expectAnswer(`${nf.name} events-by-contract-id ${c.cid}`, r, expectEventsByContractId(ledger, c, ef), 'CONTRACT_EVENTS_NOT_FOUND', ctx);
    count(ctx, 'HTTP /v2/events/events-by-contract-id');
  }
}

/** Completions of every party over both endpoints; WebSocket streams are read until they reach the ledger end. */
export async function checkCompletions(ctx: CheckContext, parties: string[]): Promise<void> {
  const { ledger, rng, base } = ctx;
  const end = ledger.ledgerEnd;
  for (const p of parties) {
    const others = rng.subset(parties, 0.2).filter((q) => q !== p);
    const set = [p, ...others];
    // GetCompletionsRequest.beginExclusive: "If the ledger has been pruned, this parameter must be specified and greater
    // than the pruning offset."
    const low = ledger.prunedUpTo > 0 ? ledger.prunedUpTo + 1 : 0;
    const begin = rng.chance(0.5) ? low : rng.int(low, end - 1);
    const exp = expectCompletions(ledger, set, USER, begin);
    const legacyReq = { userId: USER, parties: set, beginExclusive: begin };
    const newReq = { parties: set, beginExclusive: begin };
    const label = `completions of ${set.join(',')} from ${begin}`;
    const a = splitCheckpoint(
      (await post(base, '/v2/commands/completions', legacyReq)) as unknown[],
      'completionResponse',
      exp.checkpoint,
      ledger,
      `POST /v2/commands/completions ${label}`,
    );
    assertSame(`POST /v2/commands/completions ${label}`, exp.items, a, ctx.opaques);
    const b = splitCheckpoint(
      (await post(base, '/v2/commands/command-completions', newReq)) as unknown[],
      'completionResponse',
      exp.checkpoint,
      ledger,
      `POST /v2/commands/command-completions ${label}`,
    );
    assertSame(`POST /v2/commands/command-completions ${label}`, exp.items, b, ctx.opaques);
    count(ctx, 'HTTP completions', 2);
    count(ctx, 'completions compared', 2 * exp.items.length);
    // a completion stream does not end: read until the ledger end is reached
    const atEnd = (m: unknown): boolean => {
      const r = (m as { completionResponse: Record<string, { value: { offset: number } }> }).completionResponse;
      return (r.Completion?.value.offset ?? r.OffsetCheckpoint?.value.offset) === end;
    };
    const channel = rng.chance(0.5) ? '/v2/commands/completions' : '/v2/commands/command-completions';
    const ws = await wsRead(base, channel, channel === '/v2/commands/completions' ? legacyReq : newReq, atEnd);
    assertSame(
      `WS ${channel} ${label}`,
      exp.items,
      splitCheckpoint(ws, 'completionResponse', exp.checkpoint, ledger, `WS ${channel} ${label}`),
      ctx.opaques,
    );
    count(ctx, 'WS completions');
  }
}

/** The participant's pruning offset as the state service reports it. */
export async function checkPrunedOffsets(ctx: CheckContext): Promise<void> {
  const r = await call(ctx.base, 'GET', '/v2/state/latest-pruned-offsets');
  const body = r.json as { participantPrunedUpToInclusive: number };
  if (body.participantPrunedUpToInclusive !== ctx.ledger.prunedUpTo)
    throw new Error(`latest-pruned-offsets: ${body.participantPrunedUpToInclusive}, the model pruned up to ${ctx.ledger.prunedUpTo}`);
}
