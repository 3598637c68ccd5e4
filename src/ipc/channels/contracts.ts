/**
 * Contracts channels: template/interface definitions decoded from the participant's Daml-LF packages
 * (the renderer builds create/exercise forms from them), active contracts by party / template /
 * interface at an offset with paging, a contract's detail and life cycle, the connected
 * synchronizers, and reassignment (unassign → assign) of a contract between synchronizers.
 * Creating and exercising go through `commands.submit` (one submission path).
 */
import { z } from 'zod';
import { EmptyRequest } from './shared.js';
import { EventNodeSchema, IDENTIFIER_PATTERN, normalizeIdentifier } from './updates.js';

const Offset = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const PartyId = z.string().trim().min(1, 'party is required').max(512);
export const ContractIdSchema = z
  .string()
  .trim()
  .min(1, 'contract id is required')
  .max(1024)
  .regex(/^[0-9a-fA-F]+$/, 'a contract id is hexadecimal');
const Identifier = z
  .string()
  .trim()
  .max(512)
  .regex(IDENTIFIER_PATTERN, 'expected <package-name or package-id>:<Module>:<Entity>, e.g. #my-package:Main:Iou')
  .transform(normalizeIdentifier);

/**
 * A Daml-LF serializable type, resolved across packages on the main side so the renderer can build
 * an input for it without knowing Daml-LF. Recursive data types are cut at their second occurrence
 * (`unsupported`: edit that part in the JSON editor).
 */
export type FieldType =
  | { kind: 'unit' }
  | { kind: 'bool' }
  | { kind: 'text' }
  | { kind: 'int64' }
  | { kind: 'numeric'; scale: number }
  | { kind: 'party' }
  | { kind: 'date' }
  | { kind: 'timestamp' }
  | { kind: 'contractId'; template: string | null }
  | { kind: 'optional'; elem: FieldType }
  | { kind: 'list'; elem: FieldType }
  | { kind: 'textMap'; elem: FieldType }
  | { kind: 'genMap'; key: FieldType; value: FieldType }
  | { kind: 'record'; name: string; fields: FieldDef[] }
  | { kind: 'variant'; name: string; constructors: FieldDef[] }
  | { kind: 'enum'; name: string; constructors: string[] }
  | { kind: 'unsupported'; description: string };
export interface FieldDef {
  name: string;
  type: FieldType;
}

export const FieldTypeSchema: z.ZodType<FieldType> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('unit') }),
    z.object({ kind: z.literal('bool') }),
    z.object({ kind: z.literal('text') }),
    z.object({ kind: z.literal('int64') }),
    z.object({ kind: z.literal('numeric'), scale: z.number().int().min(0).max(37) }),
    z.object({ kind: z.literal('party') }),
    z.object({ kind: z.literal('date') }),
    z.object({ kind: z.literal('timestamp') }),
    z.object({ kind: z.literal('contractId'), template: z.string().nullable() }),
    z.object({ kind: z.literal('optional'), elem: FieldTypeSchema }),
    z.object({ kind: z.literal('list'), elem: FieldTypeSchema }),
    z.object({ kind: z.literal('textMap'), elem: FieldTypeSchema }),
    z.object({ kind: z.literal('genMap'), key: FieldTypeSchema, value: FieldTypeSchema }),
    z.object({ kind: z.literal('record'), name: z.string(), fields: z.array(FieldDefSchema) }),
    z.object({ kind: z.literal('variant'), name: z.string(), constructors: z.array(FieldDefSchema) }),
    z.object({ kind: z.literal('enum'), name: z.string(), constructors: z.array(z.string()) }),
    z.object({ kind: z.literal('unsupported'), description: z.string() }),
  ]),
);
export const FieldDefSchema: z.ZodType<FieldDef> = z.lazy(() => z.object({ name: z.string(), type: FieldTypeSchema }));

/** JSON value in the Ledger API's LF-JSON encoding (create arguments, choice arguments, results). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export const JsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(JsonValueSchema), z.record(z.string(), JsonValueSchema)]),
);

export const ChoiceDefSchema = z.object({
  name: z.string(),
  consuming: z.boolean(),
  /** The argument type (usually a record of the choice's parameters). */
  argument: FieldTypeSchema,
  /** Daml-like rendering of the return type. */
  returnType: z.string(),
  /** Set for choices inherited from an interface: exercise with this interface id as `templateId`. */
  interfaceId: z.string().nullable(),
});
export type ChoiceDef = z.infer<typeof ChoiceDefSchema>;

export const TemplateDefSchema = z.object({
  /** `packageId:Module:Entity`. */
  id: z.string(),
  /** `#package-name:Module:Entity` (what submissions use, so upgrades are picked by the participant). */
  nameRef: z.string(),
  qualifiedName: z.string(),
  packageId: z.string(),
  packageName: z.string(),
  packageVersion: z.string(),
  /** The create argument (a record). */
  argument: FieldTypeSchema,
  key: FieldTypeSchema.nullable(),
  choices: z.array(ChoiceDefSchema),
  implements: z.array(z.string()),
});
export type TemplateDef = z.infer<typeof TemplateDefSchema>;

export const InterfaceDefSchema = z.object({
  id: z.string(),
  nameRef: z.string(),
  qualifiedName: z.string(),
  packageName: z.string(),
  view: FieldTypeSchema,
  choices: z.array(ChoiceDefSchema),
  implementations: z.array(z.string()),
});
export type InterfaceDef = z.infer<typeof InterfaceDefSchema>;

export const TemplateCatalogSchema = z.object({
  templates: z.array(TemplateDefSchema),
  interfaces: z.array(InterfaceDefSchema),
  packages: z.array(z.object({ packageId: z.string(), name: z.string(), version: z.string(), lfVersion: z.string() })),
  /** Packages that could not be read (not Daml-LF 2, corrupt, fetch failed): listed, never fatal. */
  problems: z.array(z.object({ packageId: z.string(), message: z.string() })),
});
export type TemplateCatalog = z.infer<typeof TemplateCatalogSchema>;

export const ContractStateSchema = z.enum(['active', 'unassigned', 'assigning']);

export const InterfaceViewSchema = z.object({
  interfaceId: z.string(),
  view: JsonValueSchema.nullable(),
  error: z.string().nullable(),
});

export const ContractRowSchema = z.object({
  contractId: z.string(),
  templateId: z.string(),
  qualifiedName: z.string(),
  packageName: z.string(),
  state: ContractStateSchema,
  synchronizerId: z.string().nullable(),
  reassignmentCounter: z.number().int().nonnegative(),
  /** Set while unassigned (the id to assign it with). */
  reassignmentId: z.string().nullable(),
  targetSynchronizerId: z.string().nullable(),
  signatories: z.array(z.string()),
  observers: z.array(z.string()),
  createdAt: z.string().nullable(),
  offset: Offset,
  argument: JsonValueSchema,
  contractKey: JsonValueSchema.nullable(),
  interfaceViews: z.array(InterfaceViewSchema),
});
export type ContractRow = z.infer<typeof ContractRowSchema>;

export const AcsQuerySchema = z
  .object({
    /** Empty = every party hosted on the participant. */
    parties: z.array(PartyId).max(200).default([]),
    templates: z.array(Identifier).max(100).default([]),
    interfaces: z.array(Identifier).max(100).default([]),
    /** null = the current ledger end. */
    activeAtOffset: Offset.nullable().default(null),
    pageSize: z.number().int().min(1).max(1000).default(50),
    /** From the previous page (which fixes the offset of the snapshot). */
    pageToken: z.string().max(8192).nullable().default(null),
  })
  .strict();

export const AcsPageSchema = z.object({
  items: z.array(ContractRowSchema),
  activeAtOffset: Offset,
  nextPageToken: z.string().nullable(),
});
export type AcsPage = z.infer<typeof AcsPageSchema>;

export const TimelineEntrySchema = z.object({
  kind: z.enum(['created', 'exercised', 'archived', 'unassigned', 'assigned']),
  offset: Offset,
  updateId: z.string().nullable(),
  recordTime: z.string().nullable(),
  synchronizerId: z.string().nullable(),
  choice: z.string().nullable(),
  consuming: z.boolean().nullable(),
  actingParties: z.array(z.string()),
  argument: JsonValueSchema.nullable(),
  result: JsonValueSchema.nullable(),
  /** Contracts created by the exercise (its consequences), by id. */
  createdContracts: z.array(z.object({ contractId: z.string(), qualifiedName: z.string() })),
  commandId: z.string().nullable(),
  /** Reassignment entries: where it went and the counter after the step. */
  targetSynchronizerId: z.string().nullable(),
  reassignmentCounter: z.number().int().nonnegative().nullable(),
});
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;

export const ContractDetailSchema = z.object({
  contract: ContractRowSchema,
  /** Whether the contract is still active (from the ACS at the ledger end). */
  active: z.boolean(),
  timeline: z.array(TimelineEntrySchema),
  /** The timeline read stopped at its limit; later entries are missing. */
  timelineTruncated: z.boolean(),
  /** The update that created it, as an event tree (ledger effects). */
  creation: z.array(EventNodeSchema),
});
export type ContractDetail = z.infer<typeof ContractDetailSchema>;

export const SynchronizerRowSchema = z.object({ synchronizerId: z.string(), alias: z.string(), permission: z.string() });

export const contractsChannels = {
  'contracts.templates': {
    request: z.object({ refresh: z.boolean().default(false) }).strict(),
    response: TemplateCatalogSchema,
  },
  'contracts.active': { request: AcsQuerySchema, response: AcsPageSchema },
  'contracts.get': {
    request: z
      .object({
        contractId: ContractIdSchema,
        /** Parties to read as; empty = every party hosted on the participant. */
        parties: z.array(PartyId).max(200).default([]),
      })
      .strict(),
    response: ContractDetailSchema,
  },
  'contracts.synchronizers': {
    request: EmptyRequest,
    response: z.object({ synchronizers: z.array(SynchronizerRowSchema) }),
  },
  /** Unassign from `source`, then assign on `target` (or only one step when `step` says so). */
  'contracts.reassign': {
    request: z
      .object({
        contractId: ContractIdSchema,
        submitter: PartyId,
        source: z.string().trim().min(1, 'source synchronizer is required').max(512),
        target: z.string().trim().min(1, 'target synchronizer is required').max(512),
        /** Only for `assign`: the id the unassignment returned. */
        reassignmentId: z.string().trim().max(512).default(''),
        step: z.enum(['both', 'unassign', 'assign']).default('both'),
      })
      .strict()
      .refine((r) => r.source !== r.target, { message: 'source and target must differ', path: ['target'] })
      .refine((r) => r.step !== 'assign' || r.reassignmentId.length > 0, {
        message: 'the reassignment id of the unassignment is required',
        path: ['reassignmentId'],
      }),
    response: z.object({
      reassignmentId: z.string(),
      counter: z.number().int().nonnegative(),
      unassignOffset: Offset.nullable(),
      assignOffset: Offset.nullable(),
      source: z.string(),
      target: z.string(),
    }),
  },
} as const;
