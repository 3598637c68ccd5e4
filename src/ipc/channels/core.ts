/** Channels of the console itself: app info, connection profiles, dashboard. */
import { z } from 'zod';
import { IpcErrorSchema } from '../errors.js';
import { EmptyRequest } from './shared.js';

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

export const coreChannels = {
  'app.info': { request: EmptyRequest, response: AppInfoSchema },
  'profiles.list': {
    request: EmptyRequest,
    response: z.object({ profiles: z.array(ProfileSchema), activeId: ProfileIdSchema.nullable() }),
  },
  'profiles.save': { request: SaveProfileRequestSchema, response: ProfileSchema },
  'profiles.delete': { request: z.object({ id: ProfileIdSchema }).strict(), response: z.object({ deleted: z.boolean() }) },
  'profiles.select': { request: z.object({ id: ProfileIdSchema }).strict(), response: ProfileSchema },
  'dashboard.snapshot': { request: EmptyRequest, response: DashboardSnapshotSchema },
} as const;

export const coreSubscriptions = {
  'dashboard.live': {
    params: z.object({ intervalMs: z.number().int().min(250).max(60_000).default(2_000) }).strict(),
    event: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), snapshot: DashboardSnapshotSchema }),
      z.object({ ok: z.literal(false), error: IpcErrorSchema }),
    ]),
  },
} as const;

