/**
 * What the signing channels show the renderer (signing.ts): summaries of a topology and of a prepared transaction
 * with its description, the policy's decision, execution results, the composer's command and audit records. Only
 * facts the console verified travel here; never key material.
 */
import { z } from 'zod';

export const PartyIdSchema = z.string().trim().min(3).max(512);
export const SessionIdSchema = z.uuid();

export const TopologySummaryWireSchema = z.object({
  partyId: z.string(),
  publicKeyFingerprint: z.string(),
  multiHashBase64: z.string(),
  multiHashHex: z.string(),
  /** The party's signing keys (PartyToKeyMapping): k of n. */
  signingKeys: z.object({ threshold: z.number(), fingerprints: z.array(z.string()) }).nullable(),
  transactions: z.array(z.object({ operation: z.string(), serial: z.number(), kind: z.string(), description: z.string() })),
  hostingParticipants: z.array(z.object({ participantUid: z.string(), permission: z.string() })),
  confirmationThreshold: z.number().nullable(),
  headline: z.string(),
  warnings: z.array(z.string()),
});
export type TopologySummaryWire = z.infer<typeof TopologySummaryWireSchema>;

/** One value of a described transaction (rows indented by depth; see services/signing/describe/rows.ts). */
export const ValueRowSchema = z.object({
  depth: z.number().int().min(0),
  label: z.string(),
  type: z.string().nullable(),
  kind: z.enum(['record', 'variant', 'enum', 'list', 'optional', 'textMap', 'genMap', 'scalar', 'numeric', 'party', 'contractId', 'none']),
  text: z.string(),
  party: z.string().nullable(),
  contractId: z.string().nullable(),
  template: z.string().nullable(),
  scale: z.number().int().nullable(),
});
export type ValueRow = z.infer<typeof ValueRowSchema>;

export const DescribedNodeWireSchema = z.object({
  nodeId: z.string(),
  depth: z.number().int().min(0),
  kind: z.enum(['create', 'exercise', 'fetch', 'rollback']),
  rolledBack: z.boolean(),
  templateId: z.string().nullable(),
  template: z.string().nullable(),
  interfaceId: z.string().nullable(),
  choice: z.string().nullable(),
  contractId: z.string().nullable(),
  consuming: z.boolean(),
  actingParties: z.array(z.string()),
  signatories: z.array(z.string()),
  observers: z.array(z.string()),
  argument: z.array(ValueRowSchema),
  result: z.array(ValueRowSchema),
});
export type DescribedNodeWire = z.infer<typeof DescribedNodeWireSchema>;

export const TransactionDescriptionWireSchema = z.object({
  nodes: z.array(DescribedNodeWireSchema),
  inputs: z.array(
    z.object({
      contractId: z.string(),
      templateId: z.string(),
      template: z.string(),
      createdAt: z.string(),
      signatories: z.array(z.string()),
      argument: z.array(ValueRowSchema),
    }),
  ),
  /** The verified packages (SHA-256 of the archive = package id) whose types described the transaction. */
  packages: z.array(z.object({ packageId: z.string(), name: z.string(), version: z.string() })),
  missingPackages: z.array(z.string()),
  problems: z.array(z.string()),
  complete: z.boolean(),
});
export type TransactionDescriptionWire = z.infer<typeof TransactionDescriptionWireSchema>;

export const TransactionSummaryWireSchema = z.object({
  headline: z.string(),
  /** clear: a recognised intent; described: typed field by field by verified packages; blind: not fully decodable. */
  mode: z.enum(['clear', 'described', 'blind']),
  hashBase64: z.string(),
  hashHex: z.string(),
  hashingSchemeVersion: z.string(),
  signingParty: z.string(),
  actAs: z.array(z.string()),
  commandId: z.string(),
  synchronizerId: z.string(),
  preparationTime: z.string(),
  templates: z.array(z.string()),
  exercises: z.array(
    z.object({
      nodeId: z.string(),
      root: z.boolean(),
      template: z.string(),
      interface: z.string().nullable(),
      choice: z.string(),
      contractId: z.string(),
      actingParties: z.array(z.string()),
      consuming: z.boolean(),
    }),
  ),
  created: z.array(
    z.object({
      nodeId: z.string(),
      root: z.boolean(),
      template: z.string(),
      contractId: z.string(),
      signatories: z.array(z.string()),
      stakeholders: z.array(z.string()),
    }),
  ),
  consumed: z.array(z.object({ contractId: z.string(), template: z.string(), choice: z.string() })),
  inputs: z.array(z.object({ contractId: z.string(), template: z.string(), createdAt: z.string(), signatories: z.array(z.string()) })),
  parties: z.array(z.string()),
  amounts: z.array(z.object({ nodeId: z.string(), path: z.string(), value: z.string() })),
  /** Field-by-field description of a recognised kind (clear signing), null when blind. */
  clearSign: z
    .object({
      kind: z.string(),
      title: z.string(),
      fields: z.array(
        z.object({
          label: z.string(),
          value: z.string(),
          kind: z.enum(['party', 'amount', 'timestamp', 'contract', 'text']),
          unit: z.string().optional(),
        }),
      ),
    })
    .nullable(),
  description: TransactionDescriptionWireSchema,
  warnings: z.array(z.string()),
});
export type TransactionSummaryWire = z.infer<typeof TransactionSummaryWireSchema>;

export const PolicyDecisionWireSchema = z.object({
  /** The key may sign it here (online: now; offline signer: this request). */
  allowed: z.boolean(),
  reason: z.string().nullable(),
  message: z.string().nullable(),
  /** The policy's rules allow it through an offline signing request (offered when online signing is not allowed). */
  offlineAllowed: z.boolean(),
  /** Set when the policy refuses it on every path: the audit entry that recorded the refusal. */
  auditSeq: z.number().int().nullable(),
  /** The version of the key's policy this decision was made with. */
  policyVersion: z.number().int(),
});

export const ExecuteModeSchema = z.enum(['execute', 'executeAndWait', 'executeAndWaitForTransaction']);
export type ExecuteMode = z.infer<typeof ExecuteModeSchema>;

export const ExecutionResultSchema = z.object({
  status: z.literal('executed'),
  mode: ExecuteModeSchema,
  submissionId: z.string(),
  updateId: z.string().nullable(),
  offset: z.number().nullable(),
  events: z.array(
    z.object({
      kind: z.string(),
      templateId: z.string().nullable(),
      contractId: z.string().nullable(),
      choice: z.string().nullable(),
      json: z.string(),
    }),
  ),
  auditSeqs: z.array(z.number().int()),
});
export type ExecutionResult = z.infer<typeof ExecutionResultSchema>;

export const ComposeCommandSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('create'),
      templateId: z
        .string()
        .trim()
        .min(3)
        .max(512)
        .regex(/^#?[A-Za-z0-9._-]+:[A-Za-z0-9_.]+:[A-Za-z0-9_.]+$/, 'expected #package:Module:Template'),
      argumentsJson: z.string().max(200_000),
    })
    .strict(),
  z
    .object({
      kind: z.literal('exercise'),
      templateId: z
        .string()
        .trim()
        .min(3)
        .max(512)
        .regex(/^#?[A-Za-z0-9._-]+:[A-Za-z0-9_.]+:[A-Za-z0-9_.]+$/, 'expected #package:Module:Template'),
      contractId: z.string().trim().min(1, 'Enter the contract id').max(512),
      choice: z.string().trim().min(1, 'Enter the choice').max(200),
      argumentsJson: z.string().max(200_000),
    })
    .strict(),
]);
export type ComposeCommand = z.infer<typeof ComposeCommandSchema>;

export const VerifiedPreparedSchema = z.object({
  status: z.literal('verified'),
  sessionId: z.string(),
  party: z.string(),
  fingerprint: z.string(),
  summary: TransactionSummaryWireSchema,
  policy: PolicyDecisionWireSchema,
});

export const AuditRecordWireSchema = z.object({
  seq: z.number().int(),
  at: z.string(),
  decision: z.enum(['signed', 'refused', 'unlocked', 'locked', 'policy-changed', 'admin']),
  subject: z.string(),
  /** Admin entries: the action and who did it. */
  action: z.string().nullable(),
  actor: z.string().nullable(),
  channel: z.string(),
  reason: z.string().nullable(),
  message: z.string().nullable(),
  fingerprint: z.string().nullable(),
  party: z.string().nullable(),
  hash: z.string().nullable(),
  summary: z.string(),
  chainHash: z.string(),
});
export type AuditRecordWire = z.infer<typeof AuditRecordWireSchema>;

export const ThresholdStatusSchema = z.object({
  threshold: z.number().int(),
  signers: z.array(z.object({ fingerprint: z.string(), label: z.string().nullable() })),
  collected: z.array(z.string()),
  missing: z.array(z.string()),
  met: z.boolean(),
});

export const ChainProblemSchema = z.object({ seq: z.number().int(), kind: z.string(), message: z.string() });
