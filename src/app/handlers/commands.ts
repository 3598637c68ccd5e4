/** Handlers of the commands channels: submission with a chosen variant, live completions. */
import type { CompletionRow } from '../../ipc/contract.js';
import type { commandsChannels, commandsSubscriptions } from '../../ipc/channels/commands.js';
import { toIpcError } from '../../ipc/errors.js';
import { submitCommands } from '../../services/ledger/commands.js';
import { tailBeginExclusive } from '../../services/ledger/tail-start.js';
import { openCompletionStream } from '../../services/ledger/completions-stream.js';
import type { HandlerDeps } from './core.js';
import type { HandlersOf, SubscriptionHandlersOf } from './types.js';

/** Completions are forwarded in batches at most this often. */
export const COMPLETIONS_FLUSH_MS = 100;

export function commandsHandlers(d: Pick<HandlerDeps, 'activeClient'>): HandlersOf<typeof commandsChannels> {
  return {
    'commands.submit': async (req) => submitCommands(d.activeClient().client, req),
  };
}

export function commandsSubscriptionHandlers(d: HandlerDeps): SubscriptionHandlersOf<typeof commandsSubscriptions> {
  return {
    'commands.completions': ({ parties, userId, beginExclusive, backlog }, emit) => {
      let stopped = false;
      let handle: { close(): void } | undefined;
      let queue: CompletionRow[] = [];
      let offset = 0;
      let emitted = -1;
      const flush = () => {
        if (stopped || (queue.length === 0 && offset === emitted)) return;
        const items = queue;
        queue = [];
        emitted = offset;
        emit({ type: 'completions', items, offset });
      };
      const timer = setInterval(flush, COMPLETIONS_FLUSH_MS);
      const stop = () => {
        if (stopped) return;
        stopped = true;
        clearInterval(timer);
        handle?.close();
      };
      emit({ type: 'state', state: 'connecting' });
      // A named function, not an IIFE: TypeScript would carry `stopped === false` into it across the awaits.
      const connect = async () => {
        const { profile, client } = d.activeClient();
        const auth = await d.profiles.streamAuth(profile.id);
        const begin = await tailBeginExclusive(client, beginExclusive, backlog);
        if (stopped) return;
        offset = begin;
        handle = openCompletionStream({
          baseUrl: client.url,
          ...auth,
          request: { parties, beginExclusive: begin, ...(userId ? { userId } : {}) },
          onOpen: () => !stopped && emit({ type: 'state', state: 'live' }),
          onCompletion: (row) => {
            queue.push(row);
            offset = Math.max(offset, row.offset);
          },
          onCheckpoint: (o) => (offset = Math.max(offset, o)),
          onError: (err) => !stopped && emit({ type: 'error', error: err.toIpcError() }),
          onEnd: () => {
            if (stopped) return;
            flush();
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
