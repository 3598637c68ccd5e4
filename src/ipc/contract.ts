/**
 * THE contract between renderer and main process. One zod schema per channel; every type the
 * renderer and the services exchange is inferred from here. Both transports (Electron IPC and
 * the browser host's WebSocket) carry exactly these messages.
 */
import { z } from 'zod';
import { IpcErrorSchema } from './errors.js';

const Url = z
  .string()
  .trim()
  .url('must be an absolute URL')
  .refine((u) => /^https?:\/\//i.test(u), 'must start with http:// or https://');

export const ProfileIdSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');

export const ProfileSchema = z.object({
  id: ProfileIdSchema,
  name: z.string().min(1).max(100),
  kind: z.enum(['demo', 'remote']),
  ledgerApiUrl: z.string(),
  validatorApiUrl: z.string().nullable(),
  /** Whether a bearer token is stored in the OS keychain; the token itself never crosses the contract. */
  hasToken: z.boolean(),
});
export type Profile = z.infer<typeof ProfileSchema>;

export const SaveProfileRequestSchema = z.object({
  id: ProfileIdSchema.optional(),
  name: z.string().trim().min(1, 'name is required').max(100),
  ledgerApiUrl: Url,
  validatorApiUrl: Url.nullable().default(null),
  /** undefined = keep the stored token; null = remove it; string = replace it. */
  token: z.string().min(1).max(16_384).nullable().optional(),
});
export type SaveProfileRequest = z.infer<typeof SaveProfileRequestSchema>;

export const SynchronizerSchema = z.object({
  alias: z.string(),
  id: z.string(),
  permission: z.string().nullable(),
});

export const DashboardSnapshotSchema = z.object({
  profileId: ProfileIdSchema,
  profileName: z.string(),
  ledgerApiUrl: z.string(),
  fetchedAt: z.string(),
  health: z.object({ live: z.boolean(), ready: z.boolean() }),
  participantId: z.string(),
  apiVersion: z.string(),
  features: z.array(z.string()),
  ledgerEnd: z.number().int().nonnegative(),
  synchronizers: z.array(SynchronizerSchema),
  pruned: z.object({
    participantPrunedUpToInclusive: z.number().int().nonnegative(),
    allDivulgedContractsPrunedUpToInclusive: z.number().int().nonnegative(),
  }),
});
export type DashboardSnapshot = z.infer<typeof DashboardSnapshotSchema>;

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  transport: z.enum(['electron', 'browser-host']),
  demoMode: z.boolean(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

const Empty = z.object({}).strict();

/** Request/response channels. */
export const channels = {
  'app.info': { request: Empty, response: AppInfoSchema },
  'profiles.list': {
    request: Empty,
    response: z.object({ profiles: z.array(ProfileSchema), activeId: ProfileIdSchema.nullable() }),
  },
  'profiles.save': { request: SaveProfileRequestSchema, response: ProfileSchema },
  'profiles.delete': { request: z.object({ id: ProfileIdSchema }).strict(), response: z.object({ deleted: z.boolean() }) },
  'profiles.select': { request: z.object({ id: ProfileIdSchema }).strict(), response: ProfileSchema },
  'dashboard.snapshot': { request: Empty, response: DashboardSnapshotSchema },
} as const;

/** Streaming channels: the renderer subscribes with params and receives events until it unsubscribes. */
export const subscriptions = {
  'dashboard.live': {
    params: z.object({ intervalMs: z.number().int().min(250).max(60_000).default(2_000) }).strict(),
    event: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), snapshot: DashboardSnapshotSchema }),
      z.object({ ok: z.literal(false), error: IpcErrorSchema }),
    ]),
  },
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
