/**
 * Main-side dispatch of the contract: validates every incoming message against its channel's
 * schema, calls the handler, validates the answer, and turns failures into IpcError values.
 * Both transports (Electron ipcMain and the browser host) go through this one router.
 */
import type { z } from 'zod';
import {
  channels,
  subscriptions,
  isChannelName,
  isSubscriptionName,
  type ChannelName,
  type ParsedRequest,
  type Response,
  type Result,
  type SubscriptionName,
  type ParsedSubscriptionParams,
  type SubscriptionEvent,
} from './contract.js';
import { ConsoleError, toIpcError, zodIssues, type IpcError } from './errors.js';

/** What a handler gets besides its request: `signal` fires when the caller cancels the call. */
export interface CallContext {
  signal: AbortSignal;
}

/** A handler may answer synchronously (nothing to wait for): `run` awaits it inside its try, so a throw is an error answer. */
export type Handlers = {
  [C in ChannelName]: (request: ParsedRequest<C>, context: CallContext) => Promise<Response<C>> | Response<C>;
};

/** A subscription handler pushes events through `emit` and returns its cleanup. */
export type SubscriptionHandlers = {
  [S in SubscriptionName]: (params: ParsedSubscriptionParams<S>, emit: (event: SubscriptionEvent<S>) => void) => () => void;
};

export interface Router {
  /** `signal` comes from the transport's cancel message; once it fires the answer is `CANCELLED`. */
  invoke(channel: unknown, payload: unknown, signal?: AbortSignal): Promise<Result<unknown>>;
  /** Returns an unsubscribe function, or an error when the channel or params are invalid. */
  subscribe(
    channel: unknown,
    params: unknown,
    emit: (event: unknown) => void,
  ): { ok: true; unsubscribe: () => void } | { ok: false; error: IpcError };
}

function badRequest(what: string, error: z.ZodError): IpcError {
  const issues = zodIssues(error);
  const detail = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return { code: 'BAD_REQUEST', message: `Invalid ${what}: ${detail}`, issues };
}

function cancelled(channel: string): Result<unknown> {
  return { ok: false, error: { code: 'CANCELLED', message: `${channel} was cancelled` } };
}

/** Settles with `CANCELLED` when the signal fires; never settles otherwise. */
function whenAborted(signal: AbortSignal, channel: string): { promise: Promise<Result<unknown>>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<Result<unknown>>((resolve) => {
    const onAbort = () => resolve(cancelled(channel));
    signal.addEventListener('abort', onAbort, { once: true });
    dispose = () => signal.removeEventListener('abort', onAbort);
  });
  return { promise, dispose };
}

export function createRouter(handlers: Handlers, subscriptionHandlers: SubscriptionHandlers): Router {
  async function run(channel: ChannelName, request: unknown, signal: AbortSignal): Promise<Result<unknown>> {
    const spec = channels[channel];
    try {
      const handler = handlers[channel] as (r: unknown, c: CallContext) => unknown;
      const value = await handler(request, { signal });
      // The answer is checked too: whatever leaves the main process is exactly what the contract allows.
      const checked = spec.response.safeParse(value);
      if (!checked.success) {
        return { ok: false, error: new ConsoleError('INTERNAL', `Handler for ${channel} produced an invalid response`).toIpcError() };
      }
      return { ok: true, value: checked.data };
    } catch (err) {
      // An aborted fetch surfaces as whatever error the service wraps it in; the cause is the cancel.
      if (signal.aborted) return cancelled(channel);
      return { ok: false, error: toIpcError(err) };
    }
  }

  return {
    async invoke(channel, payload, signal) {
      if (!isChannelName(channel)) {
        return { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: `Unknown channel: ${String(channel).slice(0, 100)}` } };
      }
      const spec = channels[channel];
      const parsed = spec.request.safeParse(payload ?? {});
      if (!parsed.success) return { ok: false, error: badRequest(`request for ${channel}`, parsed.error) };
      if (!signal) return run(channel, parsed.data, new AbortController().signal);
      if (signal.aborted) return cancelled(channel);
      // A handler that does not pass the signal on still lets the caller go at once.
      const aborted = whenAborted(signal, channel);
      try {
        return await Promise.race([run(channel, parsed.data, signal), aborted.promise]);
      } finally {
        aborted.dispose();
      }
    },

    subscribe(channel, params, emit) {
      if (!isSubscriptionName(channel)) {
        return { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: `Unknown subscription: ${String(channel).slice(0, 100)}` } };
      }
      const spec = subscriptions[channel];
      const parsed = spec.params.safeParse(params ?? {});
      if (!parsed.success) return { ok: false, error: badRequest(`parameters for ${channel}`, parsed.error) };
      const handler = subscriptionHandlers[channel] as (p: unknown, e: (ev: unknown) => void) => () => void;
      const unsubscribe = handler(parsed.data, (event) => {
        const checked = spec.event.safeParse(event);
        if (checked.success) emit(checked.data);
      });
      return { ok: true, unsubscribe };
    },
  };
}
