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

export type Handlers = { [C in ChannelName]: (request: ParsedRequest<C>) => Promise<Response<C>> };

/** A subscription handler pushes events through `emit` and returns its cleanup. */
export type SubscriptionHandlers = {
  [S in SubscriptionName]: (
    params: ParsedSubscriptionParams<S>,
    emit: (event: SubscriptionEvent<S>) => void,
  ) => () => void;
};

export interface Router {
  invoke(channel: unknown, payload: unknown): Promise<Result<unknown>>;
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

export function createRouter(handlers: Handlers, subscriptionHandlers: SubscriptionHandlers): Router {
  return {
    async invoke(channel, payload) {
      if (!isChannelName(channel)) {
        return { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: `Unknown channel: ${String(channel).slice(0, 100)}` } };
      }
      const spec = channels[channel];
      const parsed = spec.request.safeParse(payload ?? {});
      if (!parsed.success) return { ok: false, error: badRequest(`request for ${channel}`, parsed.error) };
      try {
        const handler = handlers[channel] as (r: unknown) => Promise<unknown>;
        const value = await handler(parsed.data);
        // The answer is checked too: whatever leaves the main process is exactly what the contract allows.
        const checked = spec.response.safeParse(value);
        if (!checked.success) {
          return { ok: false, error: new ConsoleError('INTERNAL', `Handler for ${channel} produced an invalid response`).toIpcError() };
        }
        return { ok: true, value: checked.data };
      } catch (err) {
        return { ok: false, error: toIpcError(err) };
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
