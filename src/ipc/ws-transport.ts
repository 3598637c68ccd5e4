/**
 * Transport for the browser host: the contract's messages as JSON frames over one WebSocket.
 * Runs in the browser (global WebSocket) and under Node 22+/tests with an injected constructor.
 */
import type { Result } from './contract.js';
import type { IpcError } from './errors.js';
import type { Transport } from './client.js';
import { ServerMessageSchema, type ClientMessage } from './wire.js';
import { encodeClientFrame } from './bytes-frame.js';

type Pending = { resolve: (r: Result<unknown>) => void; requestId: string | undefined };
type Sub = { onEvent: (e: unknown) => void; onError: (e: IpcError) => void };

export interface WsLike {
  readyState: number;
  /** Text frames, and binary frames for messages that carry bytes (bytes-frame.ts). */
  send(data: string | Uint8Array): void;
  close(): void;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (ev: { data?: unknown }) => void): void;
}

const OPEN = 1;

export class WebSocketTransport implements Transport {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly subs = new Map<number, Sub>();
  /** Cancellable calls: the caller's request id → this socket's frame id. */
  private readonly requestIds = new Map<string, number>();
  private readonly ready: Promise<void>;
  private closedError: IpcError | null = null;

  constructor(private readonly socket: WsLike) {
    this.ready = new Promise((resolve, reject) => {
      if (socket.readyState === OPEN) resolve();
      socket.addEventListener('open', () => resolve());
      socket.addEventListener('error', () => reject(new Error('Could not connect to the console host')));
    });
    // Avoid unhandled rejections when nobody calls before the failure.
    this.ready.catch(() => {});
    socket.addEventListener('message', (ev) => this.onMessage(ev.data));
    socket.addEventListener('close', () => this.onClose());
  }

  static connect(url: string, Ctor: new (url: string) => WsLike = globalThis.WebSocket) {
    return new WebSocketTransport(new Ctor(url));
  }

  /** Resolves when connected; rejects if the host refused the connection. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  private send(msg: ClientMessage) {
    this.socket.send(encodeClientFrame(msg));
  }

  async invoke(channel: string, payload: unknown, requestId?: string): Promise<Result<unknown>> {
    if (this.closedError) return { ok: false, error: this.closedError };
    try {
      await this.ready;
    } catch {
      return { ok: false, error: { code: 'UNREACHABLE', message: 'The console host refused or dropped the connection' } };
    }
    const id = this.nextId++;
    if (requestId !== undefined) this.requestIds.set(requestId, id);
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, requestId });
      this.send({ type: 'invoke', id, channel, payload });
    });
  }

  cancel(requestId: string) {
    const id = this.requestIds.get(requestId);
    if (id === undefined) return;
    this.requestIds.delete(requestId);
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (this.socket.readyState === OPEN) this.send({ type: 'cancel', id });
    p.resolve({ ok: false, error: { code: 'CANCELLED', message: 'Cancelled' } });
  }

  subscribe(channel: string, params: unknown, onEvent: (e: unknown) => void, onError: (e: IpcError) => void) {
    const id = this.nextId++;
    this.subs.set(id, { onEvent, onError });
    this.ready.then(
      () => {
        if (this.subs.has(id)) this.send({ type: 'subscribe', id, channel, params });
      },
      () => onError({ code: 'UNREACHABLE', message: 'The console host refused or dropped the connection' }),
    );
    return () => {
      if (!this.subs.delete(id)) return;
      if (this.socket.readyState === OPEN) this.send({ type: 'unsubscribe', id });
    };
  }

  close() {
    this.socket.close();
  }

  private onMessage(data: unknown) {
    let json: unknown;
    try {
      json = JSON.parse(String(data));
    } catch {
      return;
    }
    const parsed = ServerMessageSchema.safeParse(json);
    if (!parsed.success) return;
    const msg = parsed.data;
    switch (msg.type) {
      case 'result': {
        const p = this.pending.get(msg.id);
        if (p) {
          this.pending.delete(msg.id);
          if (p.requestId !== undefined) this.requestIds.delete(p.requestId);
          p.resolve(msg.result);
        }
        break;
      }
      case 'event':
        this.subs.get(msg.id)?.onEvent(msg.event);
        break;
      case 'subscriptionError': {
        const s = this.subs.get(msg.id);
        this.subs.delete(msg.id);
        s?.onError(msg.error);
        break;
      }
      case 'protocolError':
        break;
    }
  }

  private onClose() {
    this.closedError = { code: 'UNREACHABLE', message: 'Connection to the console host was closed' };
    for (const p of this.pending.values()) p.resolve({ ok: false, error: this.closedError });
    this.pending.clear();
    this.requestIds.clear();
    for (const s of this.subs.values()) s.onError(this.closedError);
    this.subs.clear();
  }
}
