/**
 * zod schemas for request bodies (the subset of the OpenAPI request schemas the simulator reads). Each is built on
 * first use (`z.lazy`), not when the module loads: building them all was a noticeable part of the simulator's
 * start-up, and most starts serve only a few of these requests.
 */
import { z } from 'zod';

export const offsetSchema = z.number().int();

/**
 * An optional string field. As in Canton, whose JSON API maps onto proto3 (where an empty string is the field's
 * default, i.e. absent), `""` means the same as leaving the field out, e.g. `synchronizerId: ""` in `POST /v2/parties`.
 */
export const optionalString = z
  .string()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const DurationSchema = z.lazy(() => z.object({ seconds: z.number().int(), nanos: z.number().int() }));

const TemplateFilterSchema = z.lazy(() =>
  z.object({
    value: z.object({ templateId: z.string(), includeCreatedEventBlob: z.boolean().optional() }),
  }),
);
const InterfaceFilterSchema = z.lazy(() =>
  z.object({
    value: z.object({
      interfaceId: z.string(),
      includeInterfaceView: z.boolean().optional(),
      includeCreatedEventBlob: z.boolean().optional(),
    }),
  }),
);
const WildcardFilterSchema = z.lazy(() => z.object({ value: z.object({ includeCreatedEventBlob: z.boolean().optional() }) }));

export const IdentifierFilterSchema = z.lazy(() =>
  z.union([
    z.object({ TemplateFilter: TemplateFilterSchema }),
    z.object({ InterfaceFilter: InterfaceFilterSchema }),
    z.object({ WildcardFilter: WildcardFilterSchema }),
    z.object({ Empty: z.object({}) }),
  ]),
);

export const FiltersSchema = z.lazy(() =>
  z.object({
    cumulative: z.array(z.object({ identifierFilter: IdentifierFilterSchema.optional() })).optional(),
  }),
);
export type FiltersInput = z.infer<typeof FiltersSchema>;

export const EventFormatSchema = z.lazy(() =>
  z.object({
    filtersByParty: z.record(z.string(), FiltersSchema).optional(),
    filtersForAnyParty: FiltersSchema.optional(),
    verbose: z.boolean().optional(),
  }),
);
export type EventFormatInput = z.infer<typeof EventFormatSchema>;

export const TransactionFilterSchema = z.lazy(() =>
  z.object({
    filtersByParty: z.record(z.string(), FiltersSchema).optional(),
    filtersForAnyParty: FiltersSchema.optional(),
  }),
);

export const TransactionShapeSchema = z.lazy(() =>
  z.enum(['TRANSACTION_SHAPE_UNSPECIFIED', 'TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS']),
);

export const TransactionFormatSchema = z.lazy(() =>
  z.object({
    eventFormat: EventFormatSchema,
    transactionShape: TransactionShapeSchema,
  }),
);
export type TransactionFormatInput = z.infer<typeof TransactionFormatSchema>;

export const UpdateFormatSchema = z.lazy(() =>
  z.object({
    includeTransactions: TransactionFormatSchema.optional(),
    includeReassignments: EventFormatSchema.optional(),
    includeTopologyEvents: z
      .object({
        includeParticipantAuthorizationEvents: z.object({ parties: z.array(z.string()).optional() }).optional(),
      })
      .optional(),
  }),
);
export type UpdateFormatInput = z.infer<typeof UpdateFormatSchema>;

export const CommandSchema = z.lazy(() =>
  z.union([
    z.object({ CreateCommand: z.object({ templateId: z.string(), createArguments: z.unknown() }) }),
    z.object({
      ExerciseCommand: z.object({ templateId: z.string(), contractId: z.string(), choice: z.string(), choiceArgument: z.unknown() }),
    }),
    z.object({
      ExerciseByKeyCommand: z.object({
        templateId: z.string(),
        contractKey: z.unknown(),
        choice: z.string(),
        choiceArgument: z.unknown(),
      }),
    }),
    z.object({
      CreateAndExerciseCommand: z.object({
        templateId: z.string(),
        createArguments: z.unknown(),
        choice: z.string(),
        choiceArgument: z.unknown(),
      }),
    }),
  ]),
);

export const DeduplicationPeriodSchema = z.lazy(() =>
  z.union([
    z.object({ DeduplicationDuration: z.object({ value: DurationSchema }) }),
    z.object({ DeduplicationOffset: z.object({ value: offsetSchema }) }),
    z.object({ Empty: z.object({}) }),
  ]),
);

export const DisclosedContractSchema = z.lazy(() =>
  z.object({
    templateId: optionalString,
    contractId: optionalString,
    createdEventBlob: z.string(),
    synchronizerId: optionalString,
  }),
);
export type DisclosedContractInput = z.infer<typeof DisclosedContractSchema>;

export const JsCommandsSchema = z.lazy(() =>
  z.object({
    commands: z.array(CommandSchema),
    commandId: z.string(),
    actAs: z.array(z.string()),
    userId: optionalString,
    readAs: z.array(z.string()).optional(),
    workflowId: optionalString,
    deduplicationPeriod: DeduplicationPeriodSchema.optional(),
    minLedgerTimeAbs: optionalString,
    minLedgerTimeRel: DurationSchema.optional(),
    submissionId: optionalString,
    disclosedContracts: z.array(DisclosedContractSchema).optional(),
    synchronizerId: optionalString,
    packageIdSelectionPreference: z.array(z.string()).optional(),
    prefetchContractKeys: z.array(z.unknown()).optional(),
    tapsMaxPasses: z.number().int().optional(),
  }),
);
export type JsCommandsInput = z.infer<typeof JsCommandsSchema>;

export const SubmitAndWaitForTransactionSchema = z.lazy(() =>
  z.object({
    commands: JsCommandsSchema,
    transactionFormat: TransactionFormatSchema.optional(),
  }),
);

export const ReassignmentCommandsSchema = z.lazy(() =>
  z.object({
    workflowId: optionalString,
    userId: optionalString,
    commandId: z.string(),
    submitter: z.string(),
    submissionId: optionalString,
    commands: z.array(
      z.object({
        command: z
          .union([
            z.object({
              AssignCommand: z.object({ value: z.object({ reassignmentId: z.string(), source: z.string(), target: z.string() }) }),
            }),
            z.object({
              UnassignCommand: z.object({ value: z.object({ contractId: z.string(), source: z.string(), target: z.string() }) }),
            }),
            z.object({ Empty: z.object({}) }),
          ])
          // optional in the spec; absent is an unset oneof, refused like Empty (MISSING_FIELD)
          .default({ Empty: {} }),
      }),
    ),
  }),
);
export type ReassignmentCommandsInput = z.infer<typeof ReassignmentCommandsSchema>;

export const SubmitReassignmentSchema = z.lazy(() => z.object({ reassignmentCommands: ReassignmentCommandsSchema }));
export const SubmitAndWaitForReassignmentSchema = z.lazy(() =>
  z.object({
    reassignmentCommands: ReassignmentCommandsSchema,
    eventFormat: EventFormatSchema.optional(),
  }),
);

export const CompletionStreamRequestSchema = z.lazy(() =>
  z.object({
    userId: optionalString,
    parties: z.array(z.string()),
    beginExclusive: offsetSchema.optional(),
  }),
);
export const GetCompletionsRequestSchema = z.lazy(() =>
  z.object({
    parties: z.array(z.string()).optional(),
    beginExclusive: offsetSchema.optional(),
  }),
);

export const GetUpdatesRequestSchema = z.lazy(() =>
  z.object({
    beginExclusive: offsetSchema,
    endInclusive: offsetSchema.optional(),
    filter: TransactionFilterSchema.optional(),
    verbose: z.boolean().optional(),
    updateFormat: UpdateFormatSchema.optional(),
    descendingOrder: z.boolean().optional(),
  }),
);
export type GetUpdatesRequestInput = z.infer<typeof GetUpdatesRequestSchema>;

export const GetUpdatesPageRequestSchema = z.lazy(() =>
  z.object({
    beginOffsetExclusive: offsetSchema.optional(),
    endOffsetInclusive: offsetSchema.optional(),
    maxPageSize: z.number().int().optional(),
    updateFormat: UpdateFormatSchema,
    descendingOrder: z.boolean().optional(),
    pageToken: optionalString,
  }),
);
export type GetUpdatesPageRequestInput = z.infer<typeof GetUpdatesPageRequestSchema>;

export const GetUpdateByOffsetSchema = z.lazy(() => z.object({ offset: offsetSchema, updateFormat: UpdateFormatSchema }));
export const GetUpdateByIdSchema = z.lazy(() => z.object({ updateId: z.string(), updateFormat: UpdateFormatSchema }));
export const GetTransactionByOffsetSchema = z.lazy(() =>
  z.object({
    offset: offsetSchema,
    requestingParties: z.array(z.string()).optional(),
    transactionFormat: TransactionFormatSchema.optional(),
  }),
);
export const GetTransactionByIdSchema = z.lazy(() =>
  z.object({
    updateId: z.string(),
    requestingParties: z.array(z.string()).optional(),
    transactionFormat: TransactionFormatSchema.optional(),
  }),
);

export const GetActiveContractsRequestSchema = z.lazy(() =>
  z.object({
    filter: TransactionFilterSchema.optional(),
    verbose: z.boolean().optional(),
    activeAtOffset: offsetSchema,
    eventFormat: EventFormatSchema.optional(),
    streamContinuationToken: optionalString,
  }),
);
export type GetActiveContractsRequestInput = z.infer<typeof GetActiveContractsRequestSchema>;

export const GetActiveContractsPageRequestSchema = z.lazy(() =>
  z.object({
    activeAtOffset: offsetSchema.optional(),
    eventFormat: EventFormatSchema,
    maxPageSize: z.number().int().optional(),
    pageToken: optionalString,
  }),
);

export const GetEventsByContractIdSchema = z.lazy(() => z.object({ contractId: z.string(), eventFormat: EventFormatSchema }));
export const GetContractRequestSchema = z.lazy(() => z.object({ contractId: z.string(), queryingParties: z.array(z.string()).optional() }));

export const AllocatePartyRequestSchema = z.lazy(() =>
  z.object({
    partyIdHint: optionalString,
    localMetadata: z.object({ resourceVersion: optionalString, annotations: z.record(z.string(), z.string()).optional() }).optional(),
    identityProviderId: optionalString,
    synchronizerId: optionalString,
    userId: optionalString,
  }),
);

export const AdminAdvanceTimeSchema = z.lazy(() =>
  z.object({
    /** Micro-seconds, seconds, or an ISO duration-free absolute time. */
    seconds: z.number().optional(),
    micros: z.number().int().optional(),
    to: optionalString,
  }),
);
export const AdminPruneSchema = z.lazy(() => z.object({ pruneUpTo: offsetSchema }));

const ObjectMetaSchema = z.lazy(() =>
  z.object({
    resourceVersion: optionalString,
    annotations: z.record(z.string(), z.string()).optional(),
  }),
);

export const UserSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    primaryParty: optionalString,
    isDeactivated: z.boolean().optional(),
    metadata: ObjectMetaSchema.optional(),
    identityProviderId: optionalString,
    primaryPartyAuthentication: z.boolean().optional(),
  }),
);

const partyRight = z.lazy(() => z.object({ value: z.object({ party: z.string() }) }));
const noArgRight = z.lazy(() => z.object({ value: z.object({}) }));
export const RightSchema = z.lazy(() =>
  z.object({
    kind: z
      .union([
        z.object({ CanActAs: partyRight }),
        z.object({ CanReadAs: partyRight }),
        z.object({ CanExecuteAs: partyRight }),
        z.object({ CanExecuteAsAnyParty: noArgRight }),
        z.object({ CanReadAsAnyParty: noArgRight }),
        z.object({ IdentityProviderAdmin: noArgRight }),
        z.object({ ParticipantAdmin: noArgRight }),
        z.object({ Empty: z.object({}) }),
      ])
      // the spec makes the oneof optional; absent is proto3's unset oneof, i.e. Empty
      .default({ Empty: {} }),
  }),
);
export type RightInput = z.infer<typeof RightSchema>;

export const CreateUserRequestSchema = z.lazy(() => z.object({ user: UserSchema, rights: z.array(RightSchema).optional() }));
export const UpdateUserRequestSchema = z.lazy(() =>
  z.object({
    user: UserSchema,
    updateMask: z.object({ paths: z.array(z.string()).optional() }),
  }),
);
export const UserRightsRequestSchema = z.lazy(() =>
  z.object({
    userId: z.string(),
    rights: z.array(RightSchema).optional(),
    identityProviderId: optionalString,
  }),
);

export const UpdatePartyDetailsRequestSchema = z.lazy(() =>
  z.object({
    partyDetails: z.object({
      party: z.string(),
      isLocal: z.boolean().optional(),
      localMetadata: ObjectMetaSchema.optional(),
      identityProviderId: optionalString,
    }),
    updateMask: z.object({ paths: z.array(z.string()).optional() }),
  }),
);

export const GetPreferredPackagesRequestSchema = z.lazy(() =>
  z.object({
    packageVettingRequirements: z.array(z.object({ parties: z.array(z.string()), packageName: z.string() })),
    synchronizerId: optionalString,
    vettingValidAt: optionalString,
  }),
);

export const ListVettedPackagesRequestSchema = z.lazy(() =>
  z.object({
    packageMetadataFilter: z
      .object({ packageIds: z.array(z.string()).optional(), packageNamePrefixes: z.array(z.string()).optional() })
      .optional(),
    topologyStateFilter: z
      .object({ participantIds: z.array(z.string()).optional(), synchronizerIds: z.array(z.string()).optional() })
      .optional(),
    pageToken: optionalString,
    pageSize: z.number().int().optional(),
  }),
);
