/** Framing of the contract over a message transport (the browser host's WebSocket). */
import { z } from 'zod';
import { IpcErrorSchema } from './errors.js';

const Id = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * Names one cancellable call on the Electron transport, chosen by the renderer (the WebSocket
 * transport cancels by its frame id instead). Short and plain so it can key a map in main.
 */
export const RequestIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, '1–64 letters, digits, _ or -');
export const ElectronCancelSchema = z.object({ requestId: RequestIdSchema }).strict();

export const ClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('invoke'), id: Id, channel: z.string().max(200), payload: z.unknown() }).strict(),
  z.object({ type: z.literal('subscribe'), id: Id, channel: z.string().max(200), params: z.unknown() }).strict(),
  z.object({ type: z.literal('unsubscribe'), id: Id }).strict(),
  /** Aborts the `invoke` with this id: its handler's signal fires and the result is `CANCELLED`. */
  z.object({ type: z.literal('cancel'), id: Id }).strict(),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

export const ServerMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('result'),
    id: Id,
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), value: z.unknown() }),
      z.object({ ok: z.literal(false), error: IpcErrorSchema }),
    ]),
  }),
  z.object({ type: z.literal('event'), id: Id, event: z.unknown() }),
  z.object({ type: z.literal('subscriptionError'), id: Id, error: IpcErrorSchema }),
  /** Sent when a frame could not be understood at all, so the client can surface it. */
  z.object({ type: z.literal('protocolError'), error: IpcErrorSchema }),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;

/** Electron channel names used by preload and main; the contract's channel travels inside. */
export const ELECTRON_INVOKE = 'console:invoke';
export const ELECTRON_SUBSCRIBE = 'console:subscribe';
export const ELECTRON_UNSUBSCRIBE = 'console:unsubscribe';
export const ELECTRON_EVENT = 'console:event';
export const ELECTRON_CANCEL = 'console:cancel';
