/**
 * The renderer's typed client, written once against the contract. A Transport moves untyped
 * messages (Electron preload or the browser host's WebSocket); this class adds the types and
 * validates what comes back.
 */
import {
  channels,
  subscriptions,
  type ChannelName,
  type Request,
  type Response,
  type Result,
  type SubscriptionName,
  type SubscriptionParams,
  type SubscriptionEvent,
} from './contract.js';
import type { IpcError } from './errors.js';

export interface Transport {
  invoke(channel: string, payload: unknown): Promise<Result<unknown>>;
  subscribe(
    channel: string,
    params: unknown,
    onEvent: (event: unknown) => void,
    onError: (error: IpcError) => void,
  ): () => void;
}

/** Thrown on the renderer side so views can `catch` and show code, message and Canton details. */
export class IpcCallError extends Error {
  constructor(readonly error: IpcError) {
    super(error.message);
    this.name = 'IpcCallError';
  }
}

export class ConsoleClient {
  constructor(private readonly transport: Transport) {}

  async call<C extends ChannelName>(channel: C, request: Request<C>): Promise<Response<C>> {
    const result = await this.transport.invoke(channel, request);
    if (!result.ok) throw new IpcCallError(result.error);
    const parsed = channels[channel].response.safeParse(result.value);
    if (!parsed.success) {
      throw new IpcCallError({ code: 'INTERNAL', message: `Malformed response on ${channel}` });
    }
    return parsed.data as Response<C>;
  }

  subscribe<S extends SubscriptionName>(
    channel: S,
    params: SubscriptionParams<S>,
    onEvent: (event: SubscriptionEvent<S>) => void,
    onError: (error: IpcError) => void = () => {},
  ): () => void {
    return this.transport.subscribe(
      channel,
      params,
      (event) => {
        const parsed = subscriptions[channel].event.safeParse(event);
        if (parsed.success) onEvent(parsed.data as SubscriptionEvent<S>);
        else onError({ code: 'INTERNAL', message: `Malformed event on ${channel}` });
      },
      onError,
    );
  }
}
