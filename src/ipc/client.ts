/**
 * The renderer's typed client, written once against the contract. A Transport moves untyped
 * messages (Electron preload or the browser host's WebSocket); this class adds the types.
 *
 * What comes back is not parsed again here: the main process parsed every answer and event with the
 * contract's schema before sending it (router.ts), which is the one check at that trust boundary (the
 * renderer trusts the main process; the main process parses what the renderer sends).
 */
import type { ChannelName, Request, Response, Result, SubscriptionName, SubscriptionParams, SubscriptionEvent } from './contract.js';
import type { IpcError } from './errors.js';

export interface Transport {
  /** With a `requestId` (wire.ts `RequestIdSchema`) the call can be aborted by `cancel(requestId)`. */
  invoke(channel: string, payload: unknown, requestId?: string): Promise<Result<unknown>>;
  /**
   * Aborts the main-process side of the call started with this id (its handler's AbortSignal fires,
   * which aborts the participant HTTP requests). Unknown or finished ids are ignored.
   */
  cancel(requestId: string): void;
  subscribe(channel: string, params: unknown, onEvent: (event: unknown) => void, onError: (error: IpcError) => void): () => void;
}

/** Thrown on the renderer side so views can `catch` and show code, message and Canton details. */
export class IpcCallError extends Error {
  constructor(readonly error: IpcError) {
    super(error.message);
    this.name = 'IpcCallError';
  }
}

export interface CallOptions {
  /** Aborting it cancels the call in the main process too and rejects with code `CANCELLED` at once. */
  signal?: AbortSignal;
}

export function cancelledError(channel: string): IpcError {
  return { code: 'CANCELLED', message: `${channel} was cancelled` };
}

export class ConsoleClient {
  private nextRequest = 0;
  /** Request ids must not collide with those of an earlier document in the same window (reload). */
  private readonly requestPrefix = Math.random().toString(36).slice(2, 10);

  constructor(private readonly transport: Transport) {}

  async call<C extends ChannelName>(channel: C, request: Request<C>, options: CallOptions = {}): Promise<Response<C>> {
    const result = await this.invoke(channel, request, options.signal);
    if (!result.ok) throw new IpcCallError(result.error);
    return result.value as Response<C>;
  }

  private async invoke(channel: ChannelName, request: unknown, signal: AbortSignal | undefined): Promise<Result<unknown>> {
    if (!signal) return this.transport.invoke(channel, request);
    if (signal.aborted) return { ok: false, error: cancelledError(channel) };
    const requestId = `${this.requestPrefix}-${++this.nextRequest}`;
    let onAbort = () => {};
    // The view stops waiting at once; the main process aborts its work when the cancel arrives.
    const aborted = new Promise<Result<unknown>>((resolve) => {
      onAbort = () => {
        this.transport.cancel(requestId);
        resolve({ ok: false, error: cancelledError(channel) });
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([this.transport.invoke(channel, request, requestId), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  subscribe<S extends SubscriptionName>(
    channel: S,
    params: SubscriptionParams<S>,
    onEvent: (event: SubscriptionEvent<S>) => void,
    onError: (error: IpcError) => void = () => {},
  ): () => void {
    return this.transport.subscribe(channel, params, (event) => onEvent(event as SubscriptionEvent<S>), onError);
  }
}
