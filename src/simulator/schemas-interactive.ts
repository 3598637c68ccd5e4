/**
 * zod schemas for the interactive-submission and external-party request bodies (the subset the simulator reads), built
 * on first use like the rest of schemas.ts.
 */
import { z } from 'zod';
import { CommandSchema, DeduplicationPeriodSchema, DisclosedContractSchema, optionalString, TransactionFormatSchema } from './schemas.js';

export const SignatureSchema = z.lazy(() =>
  z.object({
    format: z.string(),
    signature: z.string(),
    signedBy: z.string(),
    signingAlgorithmSpec: z.string(),
  }),
);

export const GenerateExternalPartyTopologySchema = z.lazy(() =>
  z.object({
    synchronizer: z.string(),
    partyHint: z.string(),
    publicKey: z.object({ format: z.string(), keyData: z.string(), keySpec: z.string() }),
    localParticipantObservationOnly: z.boolean().optional(),
    otherConfirmingParticipantUids: z.array(z.string()).optional(),
    confirmationThreshold: z.number().int().optional(),
    observingParticipantUids: z.array(z.string()).optional(),
  }),
);

export const AllocateExternalPartySchema = z.lazy(() =>
  z.object({
    synchronizer: z.string(),
    onboardingTransactions: z.array(z.object({ transaction: z.string(), signatures: z.array(SignatureSchema).optional() })),
    multiHashSignatures: z.array(SignatureSchema).optional(),
    identityProviderId: optionalString,
    waitForAllocation: z.boolean().optional(),
    userId: optionalString,
  }),
);

const HashingSchemeSchema = z.lazy(() =>
  z.enum(['HASHING_SCHEME_VERSION_UNSPECIFIED', 'HASHING_SCHEME_VERSION_V2', 'HASHING_SCHEME_VERSION_V3']),
);

export const JsPrepareSubmissionRequestSchema = z.lazy(() =>
  z.object({
    userId: optionalString,
    commandId: z.string(),
    commands: z.array(CommandSchema),
    minLedgerTime: z.unknown().optional(),
    actAs: z.array(z.string()),
    readAs: z.array(z.string()).optional(),
    disclosedContracts: z.array(DisclosedContractSchema).optional(),
    synchronizerId: optionalString,
    packageIdSelectionPreference: z.array(z.string()).optional(),
    verboseHashing: z.boolean().optional(),
    prefetchContractKeys: z.array(z.unknown()).optional(),
    maxRecordTime: optionalString,
    estimateTrafficCost: z.unknown().optional(),
    tapsMaxPasses: z.number().int().optional(),
    hashingSchemeVersion: HashingSchemeSchema.optional(),
  }),
);
export type JsPrepareSubmissionInput = z.infer<typeof JsPrepareSubmissionRequestSchema>;

export const JsExecuteSubmissionRequestSchema = z.lazy(() =>
  z.object({
    preparedTransaction: z.string(),
    partySignatures: z.object({
      signatures: z.array(z.object({ party: z.string(), signatures: z.array(SignatureSchema) })),
    }),
    deduplicationPeriod: DeduplicationPeriodSchema.optional(),
    submissionId: z.string(),
    userId: optionalString,
    hashingSchemeVersion: HashingSchemeSchema,
    minLedgerTime: z.unknown().optional(),
    transactionFormat: TransactionFormatSchema.optional(),
  }),
);
export type JsExecuteSubmissionInput = z.infer<typeof JsExecuteSubmissionRequestSchema>;
