/** ConsoleClient and WebSocketTransport cancellation: the cancel frame, the immediate CANCELLED answer, late results ignored. */
import { describe, expect, it } from 'vitest';
import { ConsoleClient, IpcCallError, type Transport } from '../../src/ipc/client.js';
import { WebSocketTransport, type WsLike } from '../../src/ipc/ws-transport.js';
import { ClientMessageSchema, type ClientMessage } from '../../src/ipc/wire.js';
import { must } from '../support/must.js';

/** A socket that records frames and lets the test answer them. */
class FakeSocket implements WsLike {
  readyState = 1;
  readonly frames: ClientMessage[] = [];
  private readonly listeners = new Map<string, ((ev: { data?: unknown }) => void)[]>();
  send(data: string) {
    this.frames.push(ClientMessageSchema.parse(JSON.parse(data)));
  }
  close() {
    this.readyState = 3;
    for (const l of this.listeners.get('close') ?? []) l({});
  }
  addEventListener(type: string, listener: (ev: { data?: unknown }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  answer(message: unknown) {
    for (const l of this.listeners.get('message') ?? []) l({ data: JSON.stringify(message) });
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('cancelling a call', () => {
  it('sends a cancel frame for the invoke, rejects with CANCELLED at once and ignores the late result', async () => {
    const socket = new FakeSocket();
    const client = new ConsoleClient(new WebSocketTransport(socket));
    const controller = new AbortController();
    const pending = client.call('app.info', {}, { signal: controller.signal });
    await tick();
    const invoke = socket.frames[0];
    expect(invoke).toMatchObject({ type: 'invoke', channel: 'app.info' });
    controller.abort();
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IpcCallError);
    expect((err as IpcCallError).error.code).toBe('CANCELLED');
    expect(socket.frames[1]).toEqual({ type: 'cancel', id: must(invoke, 'invoke').type === 'invoke' ? must(invoke, 'invoke').id : -1 });
    // The host's own CANCELLED answer arrives later and changes nothing.
    socket.answer({
      type: 'result',
      id: must(socket.frames[1], 'socket.frames[1]').id,
      result: { ok: false, error: { code: 'CANCELLED', message: 'x' } },
    });
    expect(socket.frames).toHaveLength(2);
  });

  it('sends no cancel for a call that already answered, and none for calls without a signal', async () => {
    const socket = new FakeSocket();
    const client = new ConsoleClient(new WebSocketTransport(socket));
    const controller = new AbortController();
    const pending = client.call('app.info', {}, { signal: controller.signal });
    await tick();
    socket.answer({
      type: 'result',
      id: must(socket.frames[0], 'socket.frames[0]').id,
      result: { ok: true, value: { name: 'n', version: 'v', transport: 'browser-host', demoMode: true } },
    });
    await expect(pending).resolves.toMatchObject({ name: 'n' });
    controller.abort();
    expect(socket.frames.map((f) => f.type)).toEqual(['invoke']);
  });

  it('passes a distinct request id per cancellable call to the transport and cancels exactly that one', async () => {
    const invoked: (string | undefined)[] = [];
    const cancelled: string[] = [];
    const transport: Transport = {
      invoke: (_c, _p, requestId) => {
        invoked.push(requestId);
        return new Promise(() => {});
      },
      cancel: (id) => cancelled.push(id),
      subscribe: () => () => {},
    };
    const client = new ConsoleClient(transport);
    const a = new AbortController();
    const b = new AbortController();
    const first = client.call('app.info', {}, { signal: a.signal }).catch((e: unknown) => e);
    void client.call('app.info', {}, { signal: b.signal }).catch(() => {});
    void client.call('app.info', {}).catch(() => {});
    expect(invoked[0]).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(invoked[1]).not.toBe(invoked[0]);
    expect(invoked[2]).toBeUndefined();
    a.abort();
    expect(await first).toMatchObject({ error: { code: 'CANCELLED' } });
    expect(cancelled).toEqual([invoked[0]]);
  });
});
