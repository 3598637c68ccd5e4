/**
 * Commands channels: compose and submit commands (create, exercise, exercise-by-key,
 * create-and-exercise) with a chosen submit variant, and a live subscription to the participant's
 * command completions (its `/v2/commands/completions` WebSocket).
 */
import { z } from 'zod';
import { IpcErrorSchema } from '../errors.js';
import { ContractIdSchema, JsonValueSchema } from './contracts.js';
import { EventNodeSchema, IDENTIFIER_PATTERN, normalizeIdentifier, TransactionShapeSchema } from './updates.js';

const Offset = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const PartyId = z.string().trim().min(1, 'party is required').max(512);
const Identifier = z
  .string()
  .trim()
  .max(512)
  .regex(IDENTIFIER_PATTERN, 'expected <package-name or package-id>:<Module>:<Entity>, e.g. #my-package:Main:Iou')
  .transform(normalizeIdentifier);
const ChoiceName = z
  .string()
  .trim()
  .min(1, 'choice is required')
  .max(256)
  .regex(/^[A-Za-z_][A-Za-z0-9_']*$/, 'not a choice name');
/** Canton command ids: printable ASCII without spaces, at most 255 characters. */
export const COMMAND_ID_PATTERN = /^[A-Za-z0-9\-_.:#/@$^!~`'+|()=?&*%]{1,255}$/;
const CommandId = z
  .string()
  .trim()
  .min(1, 'command id is required')
  .max(255)
  .regex(COMMAND_ID_PATTERN, 'letters, digits and -_.:#/@ only, no spaces');

export const CommandSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('create'), templateId: Identifier, createArguments: JsonValueSchema }).strict(),
  z
    .object({
      kind: z.literal('exercise'),
      templateId: Identifier,
      contractId: ContractIdSchema,
      choice: ChoiceName,
      choiceArgument: JsonValueSchema,
    })
    .strict(),
  z
    .object({
      kind: z.literal('exerciseByKey'),
      templateId: Identifier,
      contractKey: JsonValueSchema,
      choice: ChoiceName,
      choiceArgument: JsonValueSchema,
    })
    .strict(),
  z
    .object({
      kind: z.literal('createAndExercise'),
      templateId: Identifier,
      createArguments: JsonValueSchema,
      choice: ChoiceName,
      choiceArgument: JsonValueSchema,
    })
    .strict(),
]);
export type CommandSpec = z.infer<typeof CommandSpecSchema>;

export const SubmitVariantSchema = z.enum(['submit-and-wait', 'transaction', 'transaction-tree', 'async']);
export type SubmitVariant = z.infer<typeof SubmitVariantSchema>;

/** A disclosed contract: what its stakeholder shared (JSON API `DisclosedContract`). */
export const DisclosedContractSchema = z
  .object({
    contractId: z.string().trim().min(1, 'the contract id').max(512),
    /** `packageId:Module:Entity` or `#package-name:Module:Entity`. */
    templateId: z.string().trim().min(3, 'the template id').max(512),
    createdEventBlob: z
      .string()
      .trim()
      .min(1, 'the created-event blob (base64)')
      .max(1_000_000)
      .regex(/^[A-Za-z0-9+/=\s]+$/, 'base64'),
    synchronizerId: z.string().trim().max(512).default(''),
  })
  .strict();
export type DisclosedContract = z.output<typeof DisclosedContractSchema>;

export const SubmitRequestSchema = z
  .object({
    commands: z.array(CommandSpecSchema).min(1, 'add at least one command').max(100),
    actAs: z.array(PartyId).min(1, 'choose at least one party to act as').max(50),
    readAs: z.array(PartyId).max(50).default([]),
    commandId: CommandId,
    workflowId: z.string().trim().max(255).default(''),
    submissionId: z.string().trim().max(255).default(''),
    /** Deduplication period in seconds; 0 = the participant's default. */
    deduplicationSeconds: z
      .number()
      .int()
      .min(0)
      .max(30 * 24 * 3600)
      .default(0),
    variant: SubmitVariantSchema.default('transaction'),
    /** For the `transaction` variant. */
    transactionShape: TransactionShapeSchema.default('LEDGER_EFFECTS'),
    /** The synchronizer to submit on; empty = the participant picks (its only one, or where the inputs are). */
    synchronizerId: z.string().trim().max(512).default(''),
    /** Contracts the submitters cannot see, disclosed by a stakeholder (their created-event blobs). */
    disclosedContracts: z.array(DisclosedContractSchema).max(100).default([]),
  })
  .strict();
export type SubmitRequest = z.input<typeof SubmitRequestSchema>;

export const SubmitResultSchema = z.object({
  variant: SubmitVariantSchema,
  commandId: z.string(),
  submissionId: z.string().nullable(),
  updateId: z.string().nullable(),
  /** Completion offset (submit-and-wait) or the transaction's offset. */
  offset: Offset.nullable(),
  /** The resulting transaction's events (transaction variants). */
  events: z.array(EventNodeSchema),
  createdContractIds: z.array(z.string()),
  archivedContractIds: z.array(z.string()),
  /** What the participant answered, pretty-printed. */
  json: z.string(),
});
export type SubmitResult = z.infer<typeof SubmitResultSchema>;

export const CompletionRowSchema = z.object({
  commandId: z.string(),
  submissionId: z.string().nullable(),
  updateId: z.string().nullable(),
  userId: z.string(),
  actAs: z.array(z.string()),
  offset: Offset,
  recordTime: z.string().nullable(),
  synchronizerId: z.string().nullable(),
  /** gRPC status code; 0 = success. */
  statusCode: z.number().int(),
  /** Canton error code parsed from the status message (e.g. DUPLICATE_COMMAND), if any. */
  cantonCode: z.string().nullable(),
  message: z.string(),
});
export type CompletionRow = z.infer<typeof CompletionRowSchema>;

export const commandsChannels = {
  'commands.submit': { request: SubmitRequestSchema, response: SubmitResultSchema },
} as const;

export const commandsSubscriptions = {
  /** Live completions of commands whose actAs includes one of `parties` (catch-up from `beginExclusive`). */
  'commands.completions': {
    params: z
      .object({
        parties: z.array(PartyId).min(1, 'choose at least one party').max(200),
        /** Empty = the user the console authenticates as. */
        userId: z.string().trim().max(128).default(''),
        /** null = the last `backlog` offsets before the current ledger end. */
        beginExclusive: Offset.nullable().default(null),
        backlog: z.number().int().min(0).max(100_000).default(200),
      })
      .strict(),
    event: z.discriminatedUnion('type', [
      z.object({ type: z.literal('completions'), items: z.array(CompletionRowSchema), offset: Offset }),
      z.object({ type: z.literal('state'), state: z.enum(['connecting', 'live', 'closed']) }),
      z.object({ type: z.literal('error'), error: IpcErrorSchema }),
    ]),
  },
} as const;
