/** Channels of the console itself: app info, connection profiles, dashboard. */
import { z } from 'zod';
import { IpcErrorSchema } from '../errors.js';
import { EmptyRequest } from './shared.js';
import { RightSchema } from './admin.js';

const Url = z
  .string()
  .trim()
  .pipe(z.url('must be an absolute URL'))
  .refine((u) => /^https?:\/\//i.test(u), 'must start with http:// or https://');

export const ProfileIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');

/** How a profile authenticates to its participant. Secrets never cross the contract, only whether one is stored. */
export const AUTH_MODES = ['none', 'static', 'oauth2-client-credentials'] as const;
export const AuthModeSchema = z.enum(AUTH_MODES);
export type AuthMode = z.infer<typeof AuthModeSchema>;

/** RFC 6749 §2.3.1: the client secret goes in the form body (`client_secret_post`) or in HTTP Basic (`client_secret_basic`). */
export const ClientAuthMethodSchema = z.enum(['client_secret_post', 'client_secret_basic']);
export type ClientAuthMethod = z.infer<typeof ClientAuthMethodSchema>;

/**
 * Where a profile's secret (bearer token, client secret) is kept: the OS keychain, or — on machines without one — the
 * passphrase-encrypted secret file the signing keys use (`<data dir>/keys.enc.json`). Chosen by the operator.
 */
export const SecretStoreNameSchema = z.enum(['os-keychain', 'encrypted-file']);
export type SecretStoreName = z.infer<typeof SecretStoreNameSchema>;

export const ProfileAuthSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('none') }),
  z.object({
    mode: z.literal('static'),
    /** Whether the bearer token is stored (it was written to `secretStore` and read back). */
    hasToken: z.boolean(),
    secretStore: SecretStoreNameSchema,
  }),
  z.object({
    mode: z.literal('oauth2-client-credentials'),
    tokenUrl: z.string(),
    clientId: z.string(),
    audience: z.string().nullable(),
    scope: z.string().nullable(),
    clientAuthMethod: ClientAuthMethodSchema,
    /** Whether the client secret is stored (it was written to `secretStore` and read back). */
    hasClientSecret: z.boolean(),
    secretStore: SecretStoreNameSchema,
  }),
]);
export type ProfileAuth = z.infer<typeof ProfileAuthSchema>;

export const ProfileSchema = z.object({
  id: ProfileIdSchema,
  name: z.string().min(1).max(100),
  kind: z.enum(['demo', 'remote']),
  ledgerApiUrl: z.string(),
  validatorApiUrl: z.string().nullable(),
  auth: ProfileAuthSchema,
});
export type Profile = z.infer<typeof ProfileSchema>;

/** A secret pasted into the form: a JWT or a client secret. Write-only. */
const Secret = z.string().trim().min(1, 'must not be empty').max(16_384);
/** Where to keep the secret: undefined = where the profile keeps it now (the OS keychain for a new profile). */
const SecretStoreChoice = SecretStoreNameSchema.optional();
/** Passphrase of the encrypted secret file, when it is locked (or does not exist yet: it is created with it). Never stored. */
const FilePassphrase = z.string().min(1, 'Enter the passphrase').max(1024).optional();
/** Optional free text (audience, scope): empty means absent. */
const OptionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .default(null)
    .transform((v) => (v === null || v === '' ? null : v));

export const SaveProfileAuthSchema = z.discriminatedUnion('mode', [
  /** Switching to `none` deletes any stored token or client secret of the profile. */
  z.object({ mode: z.literal('none') }).strict(),
  z
    .object({
      mode: z.literal('static'),
      /** undefined = keep the stored token (required when none is stored yet); string = replace it. */
      token: Secret.optional(),
      secretStore: SecretStoreChoice,
      passphrase: FilePassphrase,
    })
    .strict(),
  z
    .object({
      mode: z.literal('oauth2-client-credentials'),
      tokenUrl: Url,
      clientId: z.string().trim().min(1, 'client id is required').max(1_024),
      /** undefined = keep the stored client secret (required when none is stored yet); string = replace it. */
      clientSecret: Secret.optional(),
      audience: OptionalText(1_024),
      scope: OptionalText(1_024),
      clientAuthMethod: ClientAuthMethodSchema.default('client_secret_post'),
      secretStore: SecretStoreChoice,
      passphrase: FilePassphrase,
    })
    .strict(),
]);
export type SaveProfileAuth = z.infer<typeof SaveProfileAuthSchema>;

export const SaveProfileRequestSchema = z.object({
  id: ProfileIdSchema.optional(),
  name: z.string().trim().min(1, 'name is required').max(100),
  ledgerApiUrl: Url,
  validatorApiUrl: Url.nullable().default(null),
  /** undefined = keep the profile's authentication as it is (`none` for a new profile). */
  auth: SaveProfileAuthSchema.optional(),
});
export type SaveProfileRequest = z.infer<typeof SaveProfileRequestSchema>;

/** One step of "Test connection": passed, failed with an error, or not attempted because an earlier one failed. */
const stepOf = <T extends z.ZodRawShape>(okShape: T) =>
  z.discriminatedUnion('status', [
    z.object({ status: z.literal('ok'), ...okShape }),
    z.object({ status: z.literal('failed'), error: IpcErrorSchema }),
    z.object({ status: z.literal('skipped') }),
  ]);

export const ConnectionTestSchema = z.object({
  profileId: ProfileIdSchema,
  ok: z.boolean(),
  /** `expiresAt`: from the token endpoint's `expires_in`, or the JWT's `exp` claim; null when unknown. No token is ever included. */
  token: stepOf({
    source: z.enum(['none', 'static', 'oauth2-client-credentials']),
    /** Where the token (static) or the client secret (OAuth2) was read from; null without authentication. */
    secretStore: SecretStoreNameSchema.nullable(),
    expiresAt: z.string().nullable(),
  }),
  ledger: stepOf({ apiVersion: z.string() }),
  user: stepOf({ userId: z.string(), primaryParty: z.string().nullable(), isDeactivated: z.boolean(), identityProviderId: z.string() }),
  rights: stepOf({ rights: z.array(RightSchema) }),
});
export type ConnectionTest = z.infer<typeof ConnectionTestSchema>;

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

/** Which secret stores this machine offers right now (profiles.secretStores). */
export const SecretStoresStateSchema = z.object({
  osKeychain: z.object({
    available: z.boolean(),
    /** Why it is not, e.g. no Secret Service reachable; null when available. */
    problem: z.string().nullable(),
  }),
  encryptedFile: z.object({ exists: z.boolean(), unlocked: z.boolean() }),
});
export type SecretStoresState = z.infer<typeof SecretStoresStateSchema>;

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
  /** Obtains a token, then reads the version, the authenticated user and its rights with it. */
  'profiles.test': { request: z.object({ id: ProfileIdSchema }).strict(), response: ConnectionTestSchema },
  /** Whether the OS keychain answers, and the state of the encrypted secret file. */
  'profiles.secretStores': { request: EmptyRequest, response: SecretStoresStateSchema },
  /** Unlocks (or creates) the encrypted secret file for this session; wrong passphrase → FORBIDDEN. */
  'profiles.unlockSecretFile': {
    request: z.object({ passphrase: z.string().min(1, 'Enter the passphrase').max(1024) }).strict(),
    response: SecretStoresStateSchema,
  },
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
