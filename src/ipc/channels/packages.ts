/**
 * Packages and DARs: the package list (name, version, LF version, vetting per synchronizer), a package's
 * decoded interface (modules → templates, choices, interfaces, data types; decoded from the Daml-LF archive in
 * the main process), DAR upload in chunks with validate-first (participant's `/v2/dars/validate` plus the
 * console's own upgrade check), package vetting (vet / unvet, dry run) and the preferred-package query.
 */
import { z } from 'zod';
import { IpcErrorSchema } from '../errors.js';
import { EmptyRequest } from './shared.js';

/** Daml-LF package ids are SHA-256 hex digests. */
export const PACKAGE_ID_PATTERN = /^[0-9a-f]{64}$/;
const PackageId = z.string().trim().toLowerCase().regex(PACKAGE_ID_PATTERN, 'expected a package id (64 hex digits)');
const SynchronizerId = z.string().trim().min(1).max(512);
const PackageName = z
  .string()
  .trim()
  .min(1, 'package name is required')
  .max(255)
  .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits and . _ - only');
const PartyId = z.string().trim().min(1).max(512);

/** Largest DAR the console uploads (the participant has its own, usually lower, gRPC/HTTP limits). */
export const MAX_DAR_BYTES = 64 * 1024 * 1024;
/** Bytes per upload chunk (keeps every IPC message small). */
export const DAR_CHUNK_BYTES = 1024 * 1024;

export const VettingBoundsSchema = z.object({
  synchronizerId: z.string(),
  participantId: z.string(),
  /** ISO timestamps; null = unbounded. */
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
});
export type VettingBounds = z.infer<typeof VettingBoundsSchema>;

export const PackageRowSchema = z.object({
  packageId: z.string(),
  /** '' when neither the archive nor the vetting state names it. */
  name: z.string(),
  version: z.string(),
  /** e.g. `2.1`; null when the archive could not be read. */
  lfVersion: z.string().nullable(),
  /** Uploaded to (stored on) this participant. */
  uploaded: z.boolean(),
  /** Vetted by this participant, per synchronizer. */
  vetted: z.array(VettingBoundsSchema),
  templateCount: z.number().int().nonnegative(),
  interfaceCount: z.number().int().nonnegative(),
  /** Why the archive could not be decoded (e.g. an LF 1.x package), else null. */
  decodeError: z.string().nullable(),
});
export type PackageRow = z.infer<typeof PackageRowSchema>;

export const SynchronizerRefSchema = z.object({ synchronizerId: z.string(), alias: z.string() });
export type SynchronizerRef = z.infer<typeof SynchronizerRefSchema>;

export const PackageListSchema = z.object({
  participantId: z.string(),
  synchronizers: z.array(SynchronizerRefSchema),
  packages: z.array(PackageRowSchema),
});
export type PackageList = z.infer<typeof PackageListSchema>;

export const FieldViewSchema = z.object({ name: z.string(), type: z.string() });
export type FieldView = z.infer<typeof FieldViewSchema>;

export const ChoiceViewSchema = z.object({
  name: z.string(),
  consuming: z.boolean(),
  argType: z.string(),
  returnType: z.string(),
  /** Fields of the argument record, when it is a record of this package. */
  argFields: z.array(FieldViewSchema).nullable(),
});
export type ChoiceView = z.infer<typeof ChoiceViewSchema>;

export const TemplateViewSchema = z.object({
  name: z.string(),
  qualifiedName: z.string(),
  fields: z.array(FieldViewSchema),
  key: z.string().nullable(),
  choices: z.array(ChoiceViewSchema),
  implements: z.array(z.string()),
});
export type TemplateView = z.infer<typeof TemplateViewSchema>;

export const PackageInterfaceSchema = z.object({
  name: z.string(),
  qualifiedName: z.string(),
  viewType: z.string(),
  viewFields: z.array(FieldViewSchema).nullable(),
  choices: z.array(ChoiceViewSchema),
  methods: z.array(FieldViewSchema),
  requires: z.array(z.string()),
});
export type PackageInterface = z.infer<typeof PackageInterfaceSchema>;

export const DataTypeViewSchema = z.object({
  name: z.string(),
  kind: z.enum(['record', 'variant', 'enum']),
  params: z.array(z.string()),
  /** Record fields or variant constructors (with their payload type); enum constructors have type ''. */
  fields: z.array(FieldViewSchema),
});
export type DataTypeView = z.infer<typeof DataTypeViewSchema>;

export const ModuleViewSchema = z.object({
  name: z.string(),
  templates: z.array(TemplateViewSchema),
  interfaces: z.array(PackageInterfaceSchema),
  dataTypes: z.array(DataTypeViewSchema),
});
export type ModuleView = z.infer<typeof ModuleViewSchema>;

export const PackageDetailSchema = z.object({
  packageId: z.string(),
  name: z.string(),
  version: z.string(),
  lfVersion: z.string(),
  upgradedPackageId: z.string().nullable(),
  dependencies: z.array(z.string()),
  modules: z.array(ModuleViewSchema),
  /** Size of the archive as the participant sent it. */
  archiveBytes: z.number().int().nonnegative(),
});
export type PackageDetail = z.infer<typeof PackageDetailSchema>;

// ---- DAR upload --------------------------------------------------------------------------------

const UploadId = z.string().regex(/^[0-9a-f]{32}$/, 'unknown upload');

export const UploadBeginSchema = z
  .object({
    /** Shown back to the operator only; never used as a path. */
    fileName: z.string().trim().min(1).max(255),
    size: z
      .number()
      .int()
      .min(1, 'the file is empty')
      .max(MAX_DAR_BYTES, `the file is larger than ${MAX_DAR_BYTES / 1024 / 1024} MiB, the most the console uploads`),
  })
  .strict();

export const UploadChunkSchema = z
  .object({
    uploadId: UploadId,
    offset: z.number().int().nonnegative().max(MAX_DAR_BYTES),
    /** 1..DAR_CHUNK_BYTES bytes, as bytes (Electron's structured clone; a binary frame over the host's WebSocket). */
    data: z
      .custom<Uint8Array>((v) => v instanceof Uint8Array, 'chunk is not bytes')
      .refine((b) => b.length >= 1 && b.length <= DAR_CHUNK_BYTES, `a chunk has 1 to ${DAR_CHUNK_BYTES} bytes`),
  })
  .strict();

export const DarPackageInfoSchema = z.object({
  packageId: z.string(),
  name: z.string(),
  version: z.string(),
  lfVersion: z.string(),
  templateCount: z.number().int().nonnegative(),
  main: z.boolean(),
  /** Already stored on the participant (same package id). */
  alreadyUploaded: z.boolean(),
});
export type DarPackageInfo = z.infer<typeof DarPackageInfoSchema>;

export const UpgradeCrossCheckSchema = z.object({
  packageId: z.string(),
  packageName: z.string(),
  version: z.string(),
  /** The vetted package of the same name it was compared with (the next lower version, or the next higher one). */
  against: z.object({ packageId: z.string(), version: z.string(), direction: z.enum(['upgrades', 'upgraded-by']) }),
  compatible: z.boolean(),
  problems: z.array(z.string()),
});
export type UpgradeCrossCheck = z.infer<typeof UpgradeCrossCheckSchema>;

export const DarValidationSchema = z.object({
  uploadId: z.string(),
  fileName: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string(),
  /** The console's own reading of the file; null when it is not a readable DAR (see decodeError). */
  dar: z
    .object({
      mainPackageId: z.string(),
      name: z.string(),
      version: z.string(),
      sdkVersion: z.string(),
      packages: z.array(DarPackageInfoSchema),
    })
    .nullable(),
  /** `code` is the reader's (NOT_A_ZIP, CORRUPT_ZIP, HASH_MISMATCH, UNSUPPORTED_LF_VERSION, …). */
  decodeError: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** The participant's `/v2/dars/validate` answer; null when the file was refused before asking it. */
  participant: z.object({ ok: z.boolean(), error: IpcErrorSchema.nullable(), problems: z.array(z.string()) }).nullable(),
  /** The console's `checkUpgrade` against the vetted packages of the same names. */
  crossCheck: z.array(UpgradeCrossCheckSchema),
  synchronizerId: z.string().nullable(),
  /** Valid for the participant and not refused by the console. */
  canUpload: z.boolean(),
});
export type DarValidation = z.infer<typeof DarValidationSchema>;

export const UploadCommitSchema = z
  .object({
    uploadId: UploadId,
    vetAllPackages: z.boolean().default(true),
    /** Null = the participant's default (the only connected synchronizer). */
    synchronizerId: SynchronizerId.nullable().default(null),
  })
  .strict();

// ---- Vetting -----------------------------------------------------------------------------------

export const VettedPackageSchema = z.object({
  packageId: z.string(),
  packageName: z.string(),
  packageVersion: z.string(),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
});
export type VettedPackage = z.infer<typeof VettedPackageSchema>;

export const VettingStateSchema = z.object({
  participantId: z.string(),
  synchronizerId: z.string(),
  topologySerial: z.number().int(),
  packages: z.array(VettedPackageSchema),
});
export type VettingState = z.infer<typeof VettingStateSchema>;

export const VettingListSchema = z.object({
  /** This participant (only its own vetting can be changed here). */
  participantId: z.string(),
  synchronizers: z.array(SynchronizerRefSchema),
  states: z.array(VettingStateSchema),
});
export type VettingList = z.infer<typeof VettingListSchema>;

/** A vetting bound: an instant with its UTC offset (the participant compares record times). */
const VettingBound = z.iso
  .datetime({ offset: true, message: 'an ISO 8601 time with offset, e.g. 2026-12-01T00:00:00Z' })
  .nullable()
  .optional();

export const VettingChangeSchema = z
  .object({
    op: z.enum(['vet', 'unvet']),
    packageId: PackageId,
    /**
     * Vet only: the package counts as vetted from (inclusive) / until (exclusive); absent or null = unbounded.
     * Vetting again overwrites both.
     */
    validFrom: VettingBound,
    validUntil: VettingBound,
  })
  .strict()
  .refine((c) => c.op === 'vet' || (!c.validFrom && !c.validUntil), {
    message: 'validity bounds go with vet, not unvet',
    path: ['validFrom'],
  })
  .refine((c) => !c.validFrom || !c.validUntil || Date.parse(c.validUntil) > Date.parse(c.validFrom), {
    message: '"valid until" must be after "valid from"',
    path: ['validUntil'],
  });
export type VettingChange = z.infer<typeof VettingChangeSchema>;

export const VETTING_FORCE_FLAGS = ['ALLOW_VET_INCOMPATIBLE_UPGRADES', 'ALLOW_UNVETTED_DEPENDENCIES'] as const;

export const VettingUpdateRequestSchema = z
  .object({
    synchronizerId: SynchronizerId.nullable().default(null),
    changes: z.array(VettingChangeSchema).min(1, 'choose at least one change').max(500),
    dryRun: z.boolean(),
    /** Serial the operator looked at; a concurrent change makes the participant refuse. Null = no check. */
    expectedTopologySerial: z.number().int().nonnegative().nullable().default(null),
    force: z.array(z.enum(VETTING_FORCE_FLAGS)).max(2).default([]),
  })
  .strict();

export const VettingUpdateResultSchema = z.object({
  dryRun: z.boolean(),
  synchronizerId: z.string(),
  before: VettingStateSchema.nullable(),
  after: VettingStateSchema,
  /** Differences between before and after, by package. */
  vetted: z.array(VettedPackageSchema),
  unvetted: z.array(VettedPackageSchema),
  boundsChanged: z.array(VettedPackageSchema),
});
export type VettingUpdateResult = z.infer<typeof VettingUpdateResultSchema>;

// ---- Preferred packages ------------------------------------------------------------------------

export const PreferredRequestSchema = z
  .object({
    requirements: z
      .array(z.object({ packageName: PackageName, parties: z.array(PartyId).min(1, 'add at least one party').max(100) }).strict())
      .min(1, 'add at least one package name')
      .max(50),
    /** Null = ask once per connected synchronizer. */
    synchronizerId: SynchronizerId.nullable().default(null),
    /** ISO timestamp; null = now. */
    vettingValidAt: z.iso.datetime({ offset: true }).nullable().default(null),
  })
  .strict();

export const PreferredResultSchema = z.object({
  results: z.array(
    z.object({
      /** The synchronizer asked for (null = the participant picked), and the one it answered for. */
      requestedSynchronizerId: z.string().nullable(),
      synchronizerId: z.string().nullable(),
      references: z.array(z.object({ packageId: z.string(), packageName: z.string(), packageVersion: z.string() })),
      error: IpcErrorSchema.nullable(),
    }),
  ),
});
export type PreferredResult = z.infer<typeof PreferredResultSchema>;

export const packagesChannels = {
  'packages.list': { request: EmptyRequest, response: PackageListSchema },
  'packages.get': { request: z.object({ packageId: PackageId }).strict(), response: PackageDetailSchema },

  'packages.upload.begin': { request: UploadBeginSchema, response: z.object({ uploadId: z.string(), chunkBytes: z.number().int() }) },
  'packages.upload.chunk': { request: UploadChunkSchema, response: z.object({ received: z.number().int().nonnegative() }) },
  'packages.upload.validate': {
    request: z.object({ uploadId: UploadId, synchronizerId: SynchronizerId.nullable().default(null) }).strict(),
    response: DarValidationSchema,
  },
  'packages.upload.commit': {
    request: UploadCommitSchema,
    response: z.object({ mainPackageId: z.string(), packageIds: z.array(z.string()), vetted: z.boolean() }),
  },
  'packages.upload.cancel': { request: z.object({ uploadId: UploadId }).strict(), response: z.object({ cancelled: z.boolean() }) },

  'packages.vetting.list': { request: EmptyRequest, response: VettingListSchema },
  'packages.vetting.update': { request: VettingUpdateRequestSchema, response: VettingUpdateResultSchema },

  'packages.preferred': { request: PreferredRequestSchema, response: PreferredResultSchema },
} as const;
