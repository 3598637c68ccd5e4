/**
 * Participant administration: parties (list/search with paging, allocate, details, local-metadata
 * annotations), users (CRUD, rights of every kind, moving between identity providers) and identity
 * provider configurations. Every field the participant sends back is mapped to these shapes on the
 * main side; the renderer never sees raw Ledger API JSON here.
 */
import { z } from 'zod';
import { EmptyRequest } from './shared.js';

const PartyId = z.string().trim().min(1, 'party is required').max(512);
/** Empty string = the participant's default identity provider. */
const IdpId = z
  .string()
  .trim()
  .max(255)
  .regex(/^[A-Za-z0-9#:\-_/ ]*$/, 'letters, digits and # : - _ / space only');
/** Canton user ids: lower-case letters, digits and `@^$.!`-#+'~_|:()`, at most 128 characters. */
export const USER_ID_PATTERN = /^[a-z0-9@^$.!`\-#+'~_|:()]{1,128}$/;
const UserId = z
  .string()
  .trim()
  .min(1, 'user id is required')
  .max(128)
  .regex(USER_ID_PATTERN, "lower-case letters, digits and @^$.!`-#+'~_|:() only");
const ResourceVersion = z.string().max(64);

/** Annotation keys follow Kubernetes' rules (optional DNS prefix + name); values are free text. */
export const ANNOTATION_KEY_PATTERN =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
export const AnnotationsSchema = z
  .record(
    z.string().max(317).regex(ANNOTATION_KEY_PATTERN, 'annotation keys: letters, digits, - _ . (optionally prefixed with a domain and /)'),
    z.string().min(1, 'annotation values must not be empty').max(65_536),
  )
  .refine((m) => Object.keys(m).length <= 200, 'at most 200 annotations');
export type Annotations = z.infer<typeof AnnotationsSchema>;

export const PartyRowSchema = z.object({
  party: z.string(),
  /** The hint part (before `::`), for display. */
  hint: z.string(),
  /** Namespace fingerprint (after `::`). */
  namespace: z.string(),
  isLocal: z.boolean(),
  identityProviderId: z.string(),
  annotations: z.record(z.string(), z.string()),
  resourceVersion: z.string(),
  /**
   * External (self-signing) party: hosted here but in its own namespace rather than the participant's,
   * or its namespace key is held in this console's keystore.
   */
  external: z.boolean(),
  /** Label of the console keystore key whose fingerprint is this party's namespace, if any. */
  keystoreKey: z.string().nullable(),
});
export type PartyRow = z.infer<typeof PartyRowSchema>;

/** A party as pickers show it: its row plus the name to show (a display-name annotation, the keystore key, or the hint). */
export const PartyDirectoryEntrySchema = PartyRowSchema.extend({ displayName: z.string() });
export type PartyDirectoryEntry = z.infer<typeof PartyDirectoryEntrySchema>;

export const PartyListRequestSchema = z
  .object({
    /** Substring of the party id (`filter-party`); empty = all. */
    filter: z.string().trim().max(512).default(''),
    pageToken: z.string().max(4096).nullable().default(null),
    pageSize: z.number().int().min(1).max(1000).default(100),
  })
  .strict();

export const AllocatePartyRequestSchema = z
  .object({
    /** Empty = the participant picks one. */
    partyIdHint: z
      .string()
      .trim()
      .max(255)
      .regex(/^[A-Za-z0-9:\-_ ]*$/, 'letters, digits and : - _ space only')
      .default(''),
    annotations: AnnotationsSchema.default({}),
    identityProviderId: IdpId.default(''),
    /** The synchronizer to allocate the party on; empty = the participant's default (its only one). */
    synchronizerId: z.string().trim().max(512).default(''),
  })
  .strict();

export const UpdatePartyAnnotationsRequestSchema = z
  .object({
    party: PartyId,
    /** The version the operator edited; a stale one fails with the participant's concurrent-change error. */
    resourceVersion: ResourceVersion,
    annotations: AnnotationsSchema,
    /** Keys to remove (sent with an empty value, which deletes them on Canton). */
    removed: z.array(z.string().max(317)).max(200).default([]),
    identityProviderId: IdpId.default(''),
  })
  .strict();

export const PARTY_RIGHT_KINDS = ['CanActAs', 'CanReadAs', 'CanExecuteAs'] as const;
export const GLOBAL_RIGHT_KINDS = ['ParticipantAdmin', 'IdentityProviderAdmin', 'CanReadAsAnyParty', 'CanExecuteAsAnyParty'] as const;
export const RightKindSchema = z.enum([...GLOBAL_RIGHT_KINDS, ...PARTY_RIGHT_KINDS]);
export type RightKind = z.infer<typeof RightKindSchema>;

export const RightSchema = z.union([
  z.object({ kind: z.enum(PARTY_RIGHT_KINDS), party: PartyId }).strict(),
  z.object({ kind: z.enum(GLOBAL_RIGHT_KINDS) }).strict(),
]);
export type Right = z.infer<typeof RightSchema>;

export const UserRowSchema = z.object({
  id: z.string(),
  primaryParty: z.string().nullable(),
  isDeactivated: z.boolean(),
  identityProviderId: z.string(),
  annotations: z.record(z.string(), z.string()),
  resourceVersion: z.string(),
});
export type UserRow = z.infer<typeof UserRowSchema>;

export const UserDetailSchema = z.object({ user: UserRowSchema, rights: z.array(RightSchema) });
export type UserDetail = z.infer<typeof UserDetailSchema>;

export const CreateUserRequestSchema = z
  .object({
    userId: UserId,
    primaryParty: z.string().trim().max(512).default(''),
    isDeactivated: z.boolean().default(false),
    annotations: AnnotationsSchema.default({}),
    identityProviderId: IdpId.default(''),
    rights: z.array(RightSchema).max(1000).default([]),
  })
  .strict();

export const UpdateUserRequestSchema = z
  .object({
    userId: UserId,
    identityProviderId: IdpId.default(''),
    resourceVersion: ResourceVersion,
    /** Empty = no primary party. */
    primaryParty: z.string().trim().max(512),
    isDeactivated: z.boolean(),
    annotations: AnnotationsSchema,
    removed: z.array(z.string().max(317)).max(200).default([]),
  })
  .strict();

export const UserRightsChangeSchema = z
  .object({
    userId: UserId,
    identityProviderId: IdpId.default(''),
    rights: z.array(RightSchema).min(1, 'choose at least one right').max(1000),
  })
  .strict();

export const IdpRowSchema = z.object({
  identityProviderId: z.string(),
  issuer: z.string(),
  jwksUrl: z.string(),
  audience: z.string(),
  isDeactivated: z.boolean(),
});
export type IdpRow = z.infer<typeof IdpRowSchema>;

const HttpUrl = z
  .string()
  .trim()
  .min(1, 'required')
  .max(2048)
  .refine((u) => {
    try {
      const p = new URL(u);
      return p.protocol === 'https:' || p.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

export const IdpInputSchema = z
  .object({
    identityProviderId: IdpId.min(1, 'identity provider id is required'),
    issuer: z.string().trim().min(1, 'issuer is required').max(1000),
    jwksUrl: HttpUrl,
    audience: z.string().trim().max(1000).default(''),
    isDeactivated: z.boolean().default(false),
  })
  .strict();

export const PruningPreviewSchema = z.object({
  offset: z.number().int(),
  ledgerEnd: z.number().int(),
  /** Already pruned up to (inclusive); what is below is gone already. */
  prunedUpTo: z.number().int(),
  transactions: z.number().int(),
  reassignments: z.number().int(),
  topology: z.number().int(),
  /** Create events in the range (contracts created there that are still active are kept, their creation event goes). */
  createdEvents: z.number().int(),
  /** Contracts archived in the range: pruning removes them for good. */
  archivedContracts: z.number().int(),
  /** False when the range was too long to read completely: the counts are lower bounds. */
  complete: z.boolean(),
  oldest: z.string().nullable(),
  newest: z.string().nullable(),
});
export type PruningPreview = z.infer<typeof PruningPreviewSchema>;
const PruneOffset = z.object({ offset: z.number().int().positive('an offset above 0') }).strict();

export const adminChannels = {
  'parties.list': {
    request: PartyListRequestSchema,
    response: z.object({ parties: z.array(PartyRowSchema), nextPageToken: z.string().nullable(), participantNamespace: z.string() }),
  },
  'parties.get': { request: z.object({ party: PartyId }).strict(), response: PartyRowSchema },
  /** Where the party is hosted by this participant: per synchronizer, with the participant's permission. */
  'parties.hosting': {
    request: z.object({ party: PartyId }).strict(),
    response: z.object({
      participantId: z.string(),
      synchronizers: z.array(z.object({ synchronizerId: z.string(), alias: z.string(), permission: z.string() })),
    }),
  },
  /** Every party the participant knows (all pages, up to 20,000), for the party pickers' search by hint, name and annotation. */
  'parties.directory': {
    request: EmptyRequest,
    response: z.object({ parties: z.array(PartyDirectoryEntrySchema), truncated: z.boolean() }),
  },
  'parties.allocate': { request: AllocatePartyRequestSchema, response: PartyRowSchema },
  'parties.annotations.update': { request: UpdatePartyAnnotationsRequestSchema, response: PartyRowSchema },

  'users.list': { request: EmptyRequest, response: z.object({ users: z.array(UserRowSchema) }) },
  'users.get': { request: z.object({ userId: UserId }).strict(), response: UserDetailSchema },
  'users.create': { request: CreateUserRequestSchema, response: UserDetailSchema },
  'users.update': { request: UpdateUserRequestSchema, response: UserRowSchema },
  'users.delete': { request: z.object({ userId: UserId }).strict(), response: z.object({ deleted: z.literal(true) }) },
  'users.rights.grant': {
    request: UserRightsChangeSchema,
    response: z.object({ rights: z.array(RightSchema), changed: z.array(RightSchema) }),
  },
  'users.rights.revoke': {
    request: UserRightsChangeSchema,
    response: z.object({ rights: z.array(RightSchema), changed: z.array(RightSchema) }),
  },
  'users.idp.move': {
    request: z.object({ userId: UserId, sourceIdentityProviderId: IdpId, targetIdentityProviderId: IdpId }).strict(),
    response: UserRowSchema,
  },

  /** What pruning up to `offset` removes (reads the update history, changes nothing). */
  'pruning.preview': { request: PruneOffset, response: PruningPreviewSchema },
  /** Prunes up to `offset`: the embedded simulator only (Canton prunes through its Admin API); recorded in the audit log. */
  'pruning.prune': { request: PruneOffset, response: z.object({ prunedUpTo: z.number().int() }) },

  'idps.list': { request: EmptyRequest, response: z.object({ idps: z.array(IdpRowSchema) }) },
  'idps.create': { request: IdpInputSchema, response: IdpRowSchema },
  'idps.update': { request: IdpInputSchema, response: IdpRowSchema },
  'idps.delete': { request: z.object({ identityProviderId: IdpId.min(1) }).strict(), response: z.object({ deleted: z.literal(true) }) },
} as const;
