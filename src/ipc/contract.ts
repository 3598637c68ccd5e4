/**
 * THE contract between renderer and main process. One zod schema per channel, grouped by area
 * under ./channels/; every type the renderer and the services exchange is inferred from here.
 * Both transports (Electron IPC and the browser host's WebSocket) carry exactly these messages.
 */
import { z } from 'zod';
import { IpcErrorSchema } from './errors.js';
import { coreChannels, coreSubscriptions } from './channels/core.js';
import { updatesChannels, updatesSubscriptions } from './channels/updates.js';
import { adminChannels } from './channels/admin.js';
import { signingChannels } from './channels/signing.js';
import { signingKeyChannels } from './channels/signing-keys.js';
import { packagesChannels } from './channels/packages.js';
import { contractsChannels } from './channels/contracts.js';
import { commandsChannels, commandsSubscriptions } from './channels/commands.js';
import { walletChannels, walletSubscriptions } from './channels/wallet.js';
import { exportsSubscriptions } from './channels/exports.js';

export * from './channels/core.js';
export * from './channels/updates.js';
export * from './channels/admin.js';
export * from './channels/signing.js';
export * from './channels/signing-keys.js';
export * from './channels/packages.js';
export * from './channels/contracts.js';
export * from './channels/commands.js';
export * from './channels/wallet.js';
export * from './channels/exports.js';

/** Request/response channels. */
export const channels = {
  ...coreChannels,
  ...updatesChannels,
  ...adminChannels,
  ...signingChannels,
  ...signingKeyChannels,
  ...packagesChannels,
  ...contractsChannels,
  ...commandsChannels,
  ...walletChannels,
} as const;

/** Streaming channels: the renderer subscribes with params and receives events until it unsubscribes. */
export const subscriptions = {
  ...coreSubscriptions,
  ...updatesSubscriptions,
  ...commandsSubscriptions,
  ...walletSubscriptions,
  ...exportsSubscriptions,
} as const;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type Request<C extends ChannelName> = z.input<Channels[C]['request']>;
export type ParsedRequest<C extends ChannelName> = z.output<Channels[C]['request']>;
export type Response<C extends ChannelName> = z.output<Channels[C]['response']>;

export type Subscriptions = typeof subscriptions;
export type SubscriptionName = keyof Subscriptions;
export type SubscriptionParams<S extends SubscriptionName> = z.input<Subscriptions[S]['params']>;
export type ParsedSubscriptionParams<S extends SubscriptionName> = z.output<Subscriptions[S]['params']>;
export type SubscriptionEvent<S extends SubscriptionName> = z.output<Subscriptions[S]['event']>;

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.hasOwn(channels, name);
}
export function isSubscriptionName(name: unknown): name is SubscriptionName {
  return typeof name === 'string' && Object.hasOwn(subscriptions, name);
}

/** Every call answers with exactly one of these: errors are values, never thrown strings. */
export const resultSchema = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), value }), z.object({ ok: z.literal(false), error: IpcErrorSchema })]);
export type Result<T> = { ok: true; value: T } | { ok: false; error: z.infer<typeof IpcErrorSchema> };
