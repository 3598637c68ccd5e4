/**
 * Sandboxed preload: exposes exactly one object, `window.consoleApi`, implementing the contract's
 * Transport (invoke + cancel + subscribe). Only plain functions and cloned values cross the bridge: no
 * ipcRenderer, no event objects, no Node APIs. Bundled into a single CommonJS file whose only
 * require is 'electron' (a sandboxed preload can load nothing else).
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { Result } from '../src/ipc/contract.js';
import type { IpcError } from '../src/ipc/errors.js';
import { PRELOAD_GLOBAL, type ConsoleApi } from '../src/ipc/preload-api.js';

/*
 * The Electron channel names of src/ipc/wire.ts, repeated here because importing wire.ts would
 * bundle zod (its schemas run at module load) into every window's preload. The bundle test runs
 * this preload against wire.ts's values, so the two cannot drift apart unnoticed.
 */
const ELECTRON_INVOKE = 'console:invoke';
const ELECTRON_SUBSCRIBE = 'console:subscribe';
const ELECTRON_UNSUBSCRIBE = 'console:unsubscribe';
const ELECTRON_EVENT = 'console:event';
const ELECTRON_CANCEL = 'console:cancel';

interface Subscriber {
  onEvent: (event: unknown) => void;
  onError: (error: IpcError) => void;
}

const subscribers = new Map<number, Subscriber>();
let nextId = 1;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function safeCall(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    console.error('consoleApi subscriber threw', err);
  }
}

ipcRenderer.on(ELECTRON_EVENT, (_event, message: unknown) => {
  if (!isRecord(message) || typeof message.id !== 'number') return;
  const sub = subscribers.get(message.id);
  if (!sub) return;
  if ('error' in message) {
    // A subscription that failed is over: the main process holds nothing for it any more.
    subscribers.delete(message.id);
    const error = message.error as IpcError;
    safeCall(() => sub.onError(error));
    return;
  }
  const payload = message.event;
  safeCall(() => sub.onEvent(payload));
});

const api: ConsoleApi = {
  async invoke(channel: string, payload: unknown, requestId?: string): Promise<Result<unknown>> {
    try {
      // Only a cancellable call carries its id, so main can tell the two apart.
      const args = requestId === undefined ? [channel, payload] : [channel, payload, requestId];
      return (await ipcRenderer.invoke(ELECTRON_INVOKE, ...args)) as Result<unknown>;
    } catch (err) {
      // Only a message string crosses back: never an Error object from the IPC layer.
      const message = err instanceof Error ? err.message : String(err);
      return { ok: false, error: { code: 'INTERNAL', message: message || 'IPC call failed' } };
    }
  },

  cancel(requestId: string) {
    ipcRenderer.send(ELECTRON_CANCEL, { requestId });
  },

  subscribe(channel: string, params: unknown, onEvent: (event: unknown) => void, onError: (error: IpcError) => void) {
    const id = nextId++;
    subscribers.set(id, { onEvent, onError });
    ipcRenderer.send(ELECTRON_SUBSCRIBE, { type: 'subscribe', id, channel, params });
    return () => {
      if (!subscribers.delete(id)) return;
      ipcRenderer.send(ELECTRON_UNSUBSCRIBE, { type: 'unsubscribe', id });
    };
  },
};

contextBridge.exposeInMainWorld(PRELOAD_GLOBAL, api);
