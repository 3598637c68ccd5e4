/**
 * Signing channels: onboarding, compose → prepare → verify → confirm → sign → execute, offline request/response
 * files and the audit log (keys, backups and policies: signing-keys.ts). Refusals of the signing services are answers (`status: 'refused'` with the reason),
 * not errors, so the renderer shows them as a decision rather than a failure. No channel takes or returns a
 * private key, a seed or a raw signature over an arbitrary hash.
 */
import { z } from 'zod';
import { EmptyRequest } from './shared.js';
import { FileTextSchema as FileText, FingerprintSchema as Fingerprint, RefusalSchema } from './signing-common.js';
import { SigningKeySchema } from './signing-keys.js';

export { RefusalSchema, type Refusal } from './signing-common.js';

const PartyId = z.string().trim().min(3).max(512);
const SessionId = z.uuid();

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

const VerifiedPreparedSchema = z.object({
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

const ThresholdStatusSchema = z.object({
  threshold: z.number().int(),
  signers: z.array(z.object({ fingerprint: z.string(), label: z.string().nullable() })),
  collected: z.array(z.string()),
  missing: z.array(z.string()),
  met: z.boolean(),
});

const ChainProblemSchema = z.object({ seq: z.number().int(), kind: z.string(), message: z.string() });

export const signingChannels = {
  'signing.onboard.prepare': {
    request: z
      .object({
        fingerprint: Fingerprint,
        partyHint: z
          .string()
          .trim()
          .min(1, 'Enter a party hint')
          .max(100)
          .regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits, - and _ only'),
        observationOnly: z.boolean().default(false),
        /** k-of-n: further local keys that sign for the party (the first key stays the namespace key). */
        extraFingerprints: z.array(Fingerprint).max(31).default([]),
        /** k: how many of the party's keys must sign a transaction. */
        signingThreshold: z.number().int().min(1).max(32).default(1),
        /** The synchronizer to host the party on; empty = the participant's first connected synchronizer. */
        synchronizerId: z.string().trim().max(512).default(''),
      })
      .strict(),
    response: z.union([
      z.object({ status: z.literal('verified'), sessionId: z.string(), summary: TopologySummaryWireSchema }),
      RefusalSchema,
    ]),
  },
  'signing.onboard.confirm': {
    request: z.object({ sessionId: SessionId }).strict(),
    response: z.union([
      z.object({ status: z.literal('allocated'), partyId: z.string(), key: SigningKeySchema, auditSeq: z.number().int() }),
      RefusalSchema,
    ]),
  },
  /** Offline onboarding by file (single-key parties): request out, response in, then allocate. */
  'signing.onboard.offline.createRequest': {
    request: z
      .object({
        sessionId: SessionId,
        ttlMinutes: z
          .number()
          .int()
          .min(1)
          .max(7 * 24 * 60)
          .default(60),
      })
      .strict(),
    response: z.union([
      z.object({
        status: z.literal('created'),
        requestId: z.string(),
        partyId: z.string(),
        fileName: z.string(),
        text: z.string(),
        expiresAt: z.string(),
      }),
      RefusalSchema,
    ]),
  },
  'signing.onboard.offline.pending': {
    request: EmptyRequest,
    response: z.object({
      requests: z.array(z.object({ requestId: z.string(), partyId: z.string(), headline: z.string(), expiresAt: z.string() })),
    }),
  },
  'signing.onboard.offline.importResponse': {
    request: z.object({ requestId: z.string().min(1).max(100), text: FileText }).strict(),
    response: z.union([z.object({ status: z.literal('allocated'), partyId: z.string(), key: SigningKeySchema }), RefusalSchema]),
  },
  'signing.onboard.offline.inspect': {
    request: z.object({ text: FileText }).strict(),
    response: z.union([
      z.object({
        status: z.literal('verified'),
        requestId: z.string(),
        participantId: z.string(),
        createdAt: z.string(),
        expiresAt: z.string(),
        signer: z.object({ fingerprint: z.string(), label: z.string() }),
        note: z.string().nullable(),
        summary: TopologySummaryWireSchema,
      }),
      RefusalSchema,
    ]),
  },
  'signing.onboard.offline.sign': {
    request: z.object({ text: FileText }).strict(),
    response: z.union([
      z.object({ status: z.literal('signed'), fileName: z.string(), text: z.string(), partyId: z.string(), headline: z.string() }),
      RefusalSchema,
    ]),
  },
  'signing.parties': {
    request: EmptyRequest,
    response: z.object({
      parties: z.array(z.object({ party: z.string(), keys: z.array(z.object({ fingerprint: z.string(), label: z.string() })) })),
    }),
  },
  'signing.prepare': {
    request: z.object({ party: PartyId, fingerprint: Fingerprint, command: ComposeCommandSchema }).strict(),
    response: z.union([VerifiedPreparedSchema, RefusalSchema]),
  },
  'signing.confirm': {
    request: z
      .object({
        sessionId: SessionId,
        mode: ExecuteModeSchema,
        /** Blind signing: the user typed the confirmation word. */
        blindConfirmation: z.string().max(50).optional(),
      })
      .strict(),
    response: z.union([ExecutionResultSchema, RefusalSchema]),
  },
  'signing.discard': { request: z.object({ sessionId: SessionId }).strict(), response: z.object({ discarded: z.boolean() }) },

  'signing.offline.createRequest': {
    request: z
      .object({
        sessionId: SessionId,
        ttlMinutes: z
          .number()
          .int()
          .min(1)
          .max(7 * 24 * 60)
          .default(60),
        threshold: z.number().int().min(1).max(32).optional(),
      })
      .strict(),
    response: z.union([
      z.object({
        status: z.literal('created'),
        requestId: z.string(),
        fileName: z.string(),
        text: z.string(),
        expiresAt: z.string(),
        collector: ThresholdStatusSchema,
      }),
      RefusalSchema,
    ]),
  },
  'signing.offline.inspect': {
    request: z.object({ text: FileText }).strict(),
    response: z.union([
      z.object({
        status: z.literal('verified'),
        requestId: z.string(),
        party: z.string(),
        participantId: z.string(),
        createdAt: z.string(),
        expiresAt: z.string(),
        threshold: z.number().int(),
        signers: z.array(z.object({ fingerprint: z.string(), local: z.boolean(), label: z.string().nullable() })),
        note: z.string().nullable(),
        summary: TransactionSummaryWireSchema.nullable(),
        policy: PolicyDecisionWireSchema.nullable(),
        /** Per local key: the policy version the requesting console checked (null: not stated) and this console's. */
        policyVersions: z.array(z.object({ fingerprint: z.string(), checked: z.number().int().nullable(), here: z.number().int() })),
      }),
      RefusalSchema,
    ]),
  },
  'signing.offline.sign': {
    request: z.object({ text: FileText, blindConfirmation: z.string().max(50).optional() }).strict(),
    response: z.union([
      z.object({
        status: z.literal('signed'),
        fileName: z.string(),
        text: z.string(),
        signedBy: z.array(z.string()),
        headline: z.string(),
      }),
      RefusalSchema,
    ]),
  },
  'signing.offline.importResponse': {
    request: z.object({ requestId: z.string().min(1).max(100), text: FileText }).strict(),
    response: z.union([
      z.object({
        status: z.literal('collected'),
        added: z.array(z.string()),
        alreadyCollected: z.array(z.string()),
        collector: ThresholdStatusSchema,
      }),
      RefusalSchema,
    ]),
  },
  'signing.offline.pending': {
    request: EmptyRequest,
    response: z.object({
      requests: z.array(
        z.object({
          requestId: z.string(),
          party: z.string(),
          headline: z.string(),
          expiresAt: z.string(),
          collector: ThresholdStatusSchema,
        }),
      ),
    }),
  },
  'signing.offline.execute': {
    request: z.object({ requestId: z.string().min(1).max(100), mode: ExecuteModeSchema }).strict(),
    response: z.union([ExecutionResultSchema, RefusalSchema]),
  },

  'signing.audit.list': {
    request: z.object({ limit: z.number().int().min(1).max(5000).default(500) }).strict(),
    response: z.object({ records: z.array(AuditRecordWireSchema) }),
  },
  'signing.audit.verify': {
    request: EmptyRequest,
    response: z.object({
      ok: z.boolean(),
      entries: z.number().int(),
      headHash: z.string(),
      problems: z.array(ChainProblemSchema),
      authentication: z.object({
        /** Entries from `keyedFrom` on carry MACs checked with the console's audit key (OS keychain). */
        keyed: z.boolean(),
        keyedFrom: z.number().int().nullable(),
        /** Ed25519 public key that signs exported heads: give it to auditors. */
        publicKeyHex: z.string().nullable(),
        note: z.string().nullable(),
      }),
    }),
  },
  /** Checks an exported log (e.g. an earlier export): chain, signed head against this console's audit key, pinned head. */
  'signing.audit.verifyExport': {
    request: z
      .object({
        text: z.string().min(1, 'The file is empty').max(50_000_000, 'The file is larger than 50 MB'),
        /** A head pinned from an earlier export: the newer log must still contain it. */
        pinnedHead: z
          .object({ seq: z.number().int().nonnegative(), hash: z.string().regex(/^[0-9a-f]{64}$/, '64 hex digits') })
          .strict()
          .optional(),
      })
      .strict(),
    response: z.object({
      ok: z.boolean(),
      entries: z.number().int(),
      headHash: z.string(),
      problems: z.array(ChainProblemSchema),
      signedHead: z
        .object({ seq: z.number().int(), hash: z.string(), exportedAt: z.string(), publicKeyHex: z.string(), signatureValid: z.boolean() })
        .nullable(),
    }),
  },
} as const;
