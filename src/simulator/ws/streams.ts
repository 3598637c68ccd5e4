/** Stream producers for the WebSocket channels: catch-up from the store, then live tail on commit. */
import type { SimContext } from '../context.js';
import { updateFormatOfRequest } from '../filters.js';
import { decodeJson } from '../http.js';
import { projectUpdate, projectUpdateTree } from '../projection.js';
import { activeContracts, checkActiveAt, scanCompletions, scanUpdates } from '../reads.js';
import { acsFormatOf } from '../routes/contracts.js';
import { completionJson, completionVisible } from '../routes/commands.js';
import { checkBegin, checkEnd, synchronizerTimes } from '../routes/common.js';
import { CantonError } from '../errors.js';
import {
  CompletionStreamRequestSchema,
  GetActiveContractsRequestSchema,
  GetCompletionsRequestSchema,
  GetUpdatesRequestSchema,
} from '../schemas.js';

export interface StreamSink {
  send(item: unknown): void;
  fail(err: unknown): void;
  complete(): void;
  /** Registers the function that stops the stream when the socket closes. */
  onClose(fn: () => void): void;
}

/** Runs `pump(from, to)` for the catch-up and again after each commit; stops at `endInclusive` if given. */
function tail(sim: SimContext, sink: StreamSink, begin: number, endInclusive: number | undefined, pump: (from: number, to: number) => void): void {
  let cursor = begin;
  const run = (): void => {
    const end = endInclusive === undefined ? sim.store.ledgerEnd() : Math.min(endInclusive, sim.store.ledgerEnd());
    if (end > cursor) {
      pump(cursor, end);
      cursor = end;
    }
    if (endInclusive !== undefined && cursor >= endInclusive) {
      stop();
      sink.complete();
    }
  };
  const onCommit = (): void => {
    try {
      run();
    } catch (err) {
      stop();
      sink.fail(err);
    }
  };
  const stop = (): void => {
    sim.events.off('commit', onCommit);
  };
  sim.events.on('commit', onCommit);
  sink.onClose(stop);
  run();
}

export function streamUpdates(sim: SimContext, text: string, sink: StreamSink, kind: 'flat' | 'tree'): void {
  const req = decodeJson(text, GetUpdatesRequestSchema);
  if (req.descendingOrder) throw new CantonError('INVALID_ARGUMENT', 'descendingOrder is not supported on streams');
  const uf = updateFormatOfRequest(req, sim.registry, kind === 'tree' ? 'LEDGER_EFFECTS' : 'ACS_DELTA');
  const treeFmt = uf.transactions?.events ?? uf.reassignments;
  checkBegin(sim, req.beginExclusive);
  if (req.endInclusive !== undefined) {
    checkEnd(sim, req.endInclusive);
    if (req.endInclusive < req.beginExclusive)
      throw new CantonError('OFFSET_OUT_OF_RANGE', `End offset ${req.endInclusive} is before begin offset ${req.beginExclusive}`);
  }
  tail(sim, sink, req.beginExclusive, req.endInclusive, (from, to) => {
    let last = from;
    scanUpdates(sim, from, to, false, (u) => {
      const p = kind === 'tree' ? (treeFmt ? projectUpdateTree(u, treeFmt, sim.registry) : undefined) : projectUpdate(u, uf, sim.registry);
      if (p) {
        sink.send({ update: p });
        last = u.offset;
      }
      return true;
    });
    if (last < to) sink.send({ update: { OffsetCheckpoint: { value: { offset: to, synchronizerTimes: synchronizerTimes(sim) } } } });
  });
}

export function streamActiveContracts(sim: SimContext, text: string, sink: StreamSink): void {
  const req = decodeJson(text, GetActiveContractsRequestSchema);
  const fmt = acsFormatOf(sim, req);
  checkActiveAt(sim, req.activeAtOffset);
  for (const item of activeContracts(sim, req.activeAtOffset, fmt)) sink.send(item);
  sink.complete();
}

export function streamCompletions(sim: SimContext, text: string, sink: StreamSink, user: string, kind: 'legacy' | 'new'): void {
  let parties: string[];
  let userId: string;
  let begin: number;
  if (kind === 'legacy') {
    const req = decodeJson(text, CompletionStreamRequestSchema);
    parties = req.parties;
    userId = req.userId && req.userId.length > 0 ? req.userId : user;
    begin = req.beginExclusive ?? 0;
  } else {
    const req = decodeJson(text, GetCompletionsRequestSchema);
    parties = req.parties ?? [];
    userId = user;
    begin = req.beginExclusive ?? 0;
  }
  checkBegin(sim, begin);
  const set = new Set(parties);
  tail(sim, sink, begin, undefined, (from, to) => {
    let last = from;
    scanCompletions(sim, from, to, (c) => {
      if (completionVisible(c, set, userId)) {
        sink.send(completionJson(c));
        last = c.offset;
      }
      return true;
    });
    if (last < to) sink.send({ completionResponse: { OffsetCheckpoint: { value: { offset: to, synchronizerTimes: synchronizerTimes(sim) } } } });
  });
}
