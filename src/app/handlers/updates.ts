/** Handlers of the update stream channels: live tail, ranges, lookups, parties (exports: exports.ts). */
import type { StreamState, UpdateSummary } from '../../ipc/contract.js';
import { ConsoleError, toIpcError } from '../../ipc/errors.js';
import type { updatesChannels, updatesSubscriptions } from '../../ipc/channels/updates.js';
import { tailBeginExclusive } from '../../services/ledger/tail-start.js';
import { openUpdateStream, type UpdateStreamHandle } from '../../services/ledger/update-stream.js';
import {
  buildUpdateFormat,
  fetchUpdate,
  fetchUpdateRange,
  isCheckpoint,
  listParties,
  summarizeUpdate,
  updateOffset,
} from '../../services/ledger/updates.js';
import type { HandlerDeps } from './core.js';
import type { LedgerClient } from '../../services/ledger-client.js';
import type { HandlersOf, SubscriptionHandlersOf } from './types.js';
import type { CallContext } from '../../ipc/router.js';

/** Batching of the live tail towards the renderer. */
export const STREAM_FLUSH_MS = 100;
export const STREAM_MAX_BATCH = 2_000;
/** Above this many queued summaries the participant's socket is paused; below the low mark it resumes. */
export const STREAM_HIGH_WATER = 20_000;
export const STREAM_LOW_WATER = 5_000;

interface StreamControl {
  pause(): StreamState;
  resume(): StreamState;
}

/** Live streams by renderer-chosen id, per composition (handlers and subscriptions share deps). */
const registries = new WeakMap<object, Map<string, StreamControl>>();
function streamsOf(d: object): Map<string, StreamControl> {
  let m = registries.get(d);
  if (!m) {
    m = new Map<string, StreamControl>();
    registries.set(d, m);
  }
  return m;
}

/** What the request/response handlers use of the composition (HandlerDeps satisfies it). */
export type UpdatesDeps = { activeClient: () => { client: LedgerClient } };

export function updatesHandlers(d: UpdatesDeps): HandlersOf<typeof updatesChannels> {
  /** Reads that stop at the participant when the caller cancels. */
  const reader = (ctx: CallContext) => d.activeClient().client.withSignal(ctx.signal);
  return {
    'updates.parties': async (_req, ctx) => ({ parties: await listParties(reader(ctx)) }),
    'updates.range': async ({ filter, beginExclusive, endInclusive, descending, limit }, ctx) =>
      fetchUpdateRange(reader(ctx), filter, { beginExclusive, endInclusive, descending, limit }),
    'updates.get': async ({ filter, offset, updateId }, ctx) => fetchUpdate(reader(ctx), filter, { offset, updateId }),
    'updates.stream.control': ({ streamId, action }) => {
      const s = streamsOf(d).get(streamId);
      if (!s) throw new ConsoleError('NOT_FOUND', `No live stream ${streamId} (it has ended)`);
      return { state: action === 'pause' ? s.pause() : s.resume() };
    },
  };
}

export function updatesSubscriptionHandlers(d: HandlerDeps): SubscriptionHandlersOf<typeof updatesSubscriptions> {
  return {
    'updates.stream': ({ streamId, filter, beginExclusive, backlog }, emit) => {
      const streams = streamsOf(d);
      let stopped = false;
      let userPaused = false;
      let open = false;
      let handle: UpdateStreamHandle | undefined;
      let queue: UpdateSummary[] = [];
      let highest = 0;
      let emittedOffset = -1;

      const state = (): StreamState => (stopped ? 'closed' : userPaused ? 'paused' : open ? 'live' : 'connecting');
      const flush = () => {
        if (stopped || userPaused) return;
        if (queue.length > 0 || highest !== emittedOffset) {
          const items = queue.length <= STREAM_MAX_BATCH ? queue : queue.slice(0, STREAM_MAX_BATCH);
          queue = queue.length <= STREAM_MAX_BATCH ? [] : queue.slice(STREAM_MAX_BATCH);
          const upTo = queue.length > 0 ? (items.at(-1)?.offset ?? highest) : highest;
          emittedOffset = upTo;
          emit({ type: 'batch', items, offset: upTo });
        }
        if (handle?.paused && queue.length < STREAM_LOW_WATER) handle.resume();
      };
      const timer = setInterval(flush, STREAM_FLUSH_MS);

      if (streams.has(streamId)) {
        emit({ type: 'error', error: { code: 'CONFLICT', message: `Stream id ${streamId} is in use` } });
        clearInterval(timer);
        return () => {};
      }
      streams.set(streamId, {
        pause() {
          userPaused = true;
          handle?.pause();
          emit({ type: 'state', state: state() });
          return state();
        },
        resume() {
          userPaused = false;
          if (queue.length < STREAM_HIGH_WATER) handle?.resume();
          emit({ type: 'state', state: state() });
          return state();
        },
      });

      const stop = () => {
        if (stopped) return;
        stopped = true;
        clearInterval(timer);
        handle?.close();
        streams.delete(streamId);
      };

      emit({ type: 'state', state: 'connecting' });
      // A named function, not an IIFE: TypeScript would carry `stopped === false` into it across the awaits.
      const connect = async () => {
        const { profile, client } = d.activeClient();
        const auth = await d.profiles.streamAuth(profile.id);
        const begin = await tailBeginExclusive(client, beginExclusive, backlog);
        if (stopped) return;
        highest = begin;
        const startedAt = begin;
        handle = openUpdateStream({
          baseUrl: client.url,
          ...auth,
          request: { beginExclusive: begin, updateFormat: buildUpdateFormat(filter) },
          onOpen: () => {
            open = true;
            if (userPaused) handle?.pause();
            if (!stopped) emit({ type: 'state', state: state(), beginExclusive: startedAt });
          },
          onUpdate: (update) => {
            if (stopped) return;
            highest = Math.max(highest, updateOffset(update));
            if (!isCheckpoint(update)) queue.push(summarizeUpdate(update));
            if (queue.length >= STREAM_HIGH_WATER && handle && !handle.paused) handle.pause();
          },
          onError: (err) => {
            if (!stopped) emit({ type: 'error', error: err.toIpcError() });
          },
          onEnd: () => {
            if (stopped) return;
            const wasPaused = userPaused;
            userPaused = false;
            // Deliver what is queued, then report the end.
            while (queue.length > 0) flush();
            flush();
            userPaused = wasPaused;
            emit({ type: 'state', state: 'closed' });
            stop();
          },
        });
      };
      void connect().catch((err: unknown) => {
        if (stopped) return;
        emit({ type: 'error', error: toIpcError(err) });
        emit({ type: 'state', state: 'closed' });
        stop();
      });

      return stop;
    },
  };
}
