/**
 * Stream producers for the WebSocket channels: catch-up from the store, then live tail on commit.
 *
 * Backpressure: rows are read from SQLite one batch at a time, and before each batch the producer
 * checks the socket; while more than `sink.highWaterMark` bytes wait in the socket's buffer
 * (`ws.bufferedAmount`, i.e. the client does not read), reading stops until the socket drains. A slow
 * or paused client therefore costs at most one batch above the high-water mark, never the ledger.
 */
import type { SimContext } from '../context.js';
import { updateFormatOfRequest } from '../filters.js';
import { decodeJson } from '../http.js';
import { acsContinuation, checkActiveAt, scanActiveContracts, scanCompletions, scanUpdateRows, updatePlanner } from '../reads.js';
import type { UpdateRow } from '../store/ledger-store.js';
import { JsonOut } from '../json-out.js';
import { acsFormatOf } from '../routes/contracts.js';
import { completionJson, completionVisible } from '../routes/commands.js';
import { checkBegin, checkEnd, synchronizerTimes } from '../routes/common.js';
import { checkDescending } from '../routes/updates.js';
import { CantonError } from '../errors.js';
import {
  CompletionStreamRequestSchema,
  GetActiveContractsRequestSchema,
  GetCompletionsRequestSchema,
  GetUpdatesRequestSchema,
} from '../schemas.js';

export interface StreamSink {
  send(item: unknown): void;
  /** Sends JSON bytes as a text message. */
  sendRaw(json: Buffer): void;
  fail(err: unknown): void;
  complete(): void;
  /** Registers the function that stops the stream when the socket closes. */
  onClose(fn: () => void): void;
  /** True when the client is keeping up (buffered bytes below the high-water mark). */
  writable(): boolean;
  /** Resolves when the socket has drained below the high-water mark (or closed). */
  drained(): Promise<void>;
  readonly closed: boolean;
  /** Marks the stream as paused for backpressure (visible in /simulator/admin/streams). */
  setPaused(paused: boolean): void;
  /** Runs `fn` with the socket corked: the messages it sends go out in one write. */
  batch<T>(fn: () => T): T;
}

/** Rows read per batch between two backpressure checks. */
const BATCH = 128;

/**
 * Drives `step(cursor, end)` (one batch; returns the new cursor) from `begin` up to the ledger end —
 * or `endInclusive` — at the client's pace, again after each commit, and completes at `endInclusive`.
 * `caughtUp(end)` is called when the cursor reaches the end of a range.
 */
function tail(
  sim: SimContext,
  sink: StreamSink,
  begin: number,
  endInclusive: number | undefined,
  step: (cursor: number, end: number) => number,
  caughtUp: (end: number) => void,
): void {
  let cursor = begin;
  let running = false;
  let again = false;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    sim.events.off('commit', onCommit);
  };
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const end = endInclusive === undefined ? sim.durability.end() : Math.min(endInclusive, sim.durability.end());
        let advanced = false;
        while (cursor < end) {
          if (stopped || sink.closed) return;
          if (!sink.writable()) {
            sink.setPaused(true);
            await sink.drained();
            sink.setPaused(false);
            continue;
          }
          const from = cursor;
          cursor = sink.batch(() => step(from, end));
          advanced = true;
        }
        if (advanced) caughtUp(end);
        // a commit's run() sets it while this pass awaits the socket; the rule keeps the `= false` above
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      } while (again && !stopped);
      if (endInclusive !== undefined && cursor >= endInclusive && !stopped) {
        stop();
        sink.complete();
      }
    } catch (err) {
      stop();
      sink.fail(err);
    } finally {
      running = false;
    }
  };
  const onCommit = (): void => {
    void run();
  };
  sim.events.on('commit', onCommit);
  sink.onClose(stop);
  void run();
}

export function streamUpdates(sim: SimContext, text: string, sink: StreamSink, kind: 'flat' | 'tree'): void {
  const req = decodeJson(text, GetUpdatesRequestSchema);
  const uf = updateFormatOfRequest(req, sim.registry, kind === 'tree' ? 'LEDGER_EFFECTS' : 'ACS_DELTA');
  checkDescending(req.descendingOrder, req.endInclusive);
  checkBegin(sim, req.beginExclusive);
  if (req.endInclusive !== undefined) {
    checkEnd(sim, req.endInclusive);
    if (req.endInclusive < req.beginExclusive)
      throw new CantonError('OFFSET_OUT_OF_RANGE', `End offset ${req.endInclusive} is before begin offset ${req.beginExclusive}`);
  }
  const planner = updatePlanner(sim, kind, uf);
  const out = new JsonOut();
  /** Sends the update of a row if visible; true when sent. */
  const project = (r: UpdateRow): boolean => {
    const w = planner(r);
    if (w === undefined) return false;
    out.str('{"update":');
    w(out);
    out.str('}');
    sink.sendRaw(out.takeOne());
    return true;
  };
  if (req.descendingOrder && req.endInclusive !== undefined) {
    void streamDescending(sim, sink, req.beginExclusive, req.endInclusive, project);
    return;
  }
  let lastSent = req.beginExclusive;
  tail(
    sim,
    sink,
    req.beginExclusive,
    req.endInclusive,
    (cursor, end) => {
      let next = end;
      let n = 0;
      scanUpdateRows(
        sim,
        cursor,
        end,
        false,
        (r) => {
          if (project(r)) lastSent = r.offset;
          if (++n >= BATCH) {
            next = r.offset;
            return false;
          }
          return true;
        },
        BATCH,
      );
      return next;
    },
    (end) => {
      if (lastSent < end) {
        sink.send({ update: { OffsetCheckpoint: { value: { offset: end, synchronizerTimes: synchronizerTimes(sim) } } } });
        lastSent = end;
      }
    },
  );
}

/** Descending order (only with endInclusive): from endInclusive down to beginExclusive, then close. */
async function streamDescending(
  sim: SimContext,
  sink: StreamSink,
  begin: number,
  endInclusive: number,
  project: (r: UpdateRow) => boolean,
): Promise<void> {
  try {
    let high = endInclusive;
    while (high > begin) {
      if (sink.closed) return;
      if (!sink.writable()) {
        sink.setPaused(true);
        await sink.drained();
        sink.setPaused(false);
        continue;
      }
      let n = 0;
      let next = begin;
      const from = high;
      sink.batch(() =>
        scanUpdateRows(
          sim,
          begin,
          from,
          true,
          (r) => {
            project(r);
            if (++n >= BATCH) {
              next = r.offset - 1;
              return false;
            }
            return true;
          },
          BATCH,
        ),
      );
      high = next;
    }
    sink.complete();
  } catch (err) {
    sink.fail(err);
  }
}

export function streamActiveContracts(sim: SimContext, text: string, sink: StreamSink): void {
  const req = decodeJson(text, GetActiveContractsRequestSchema);
  const fmt = acsFormatOf(sim, req);
  checkActiveAt(sim, req.activeAtOffset);
  const { afterSeq, tokenOf } = acsContinuation(req.activeAtOffset, fmt, req.streamContinuationToken);
  void (async () => {
    try {
      let after = afterSeq;
      for (;;) {
        if (sink.closed) return;
        if (!sink.writable()) {
          sink.setPaused(true);
          await sink.drained();
          sink.setPaused(false);
          continue;
        }
        let n = 0;
        const page = { more: false }; // set inside the scan callback
        const from = after;
        sink.batch(() =>
          scanActiveContracts(
            sim,
            req.activeAtOffset,
            fmt,
            from,
            (e, seq) => {
              e.streamContinuationToken = tokenOf(seq);
              sink.send(e);
              after = seq;
              if (++n >= BATCH) {
                page.more = true;
                return false;
              }
              return true;
            },
            BATCH + 1,
          ),
        );
        if (!page.more) break;
      }
      sink.complete();
    } catch (err) {
      sink.fail(err);
    }
  })();
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
  let lastSent = begin;
  tail(
    sim,
    sink,
    begin,
    undefined,
    (cursor, end) => {
      let next = end;
      let n = 0;
      scanCompletions(sim, cursor, end, (c) => {
        if (completionVisible(c, set, userId)) {
          sink.send(completionJson(c));
          lastSent = c.offset;
        }
        if (++n >= BATCH) {
          next = c.offset;
          return false;
        }
        return true;
      });
      return next;
    },
    (end) => {
      if (lastSent < end) {
        sink.send({ completionResponse: { OffsetCheckpoint: { value: { offset: end, synchronizerTimes: synchronizerTimes(sim) } } } });
        lastSent = end;
      }
    },
  );
}
