/**
 * Signing channels: onboarding, compose → prepare → verify → confirm → sign → execute, offline request/response
 * files and the audit log (keys, backups and policies: signing-keys.ts; what the answers show: signing-wire.ts).
 * Refusals of the signing services are answers (`status: 'refused'` with the reason), not errors, so the renderer
 * shows them as a decision rather than a failure. No channel takes or returns a private key, a seed or a raw
 * signature over an arbitrary hash.
 */
import { z } from 'zod';
import { EmptyRequest } from './shared.js';
import { FileTextSchema as FileText, FingerprintSchema as Fingerprint, RefusalSchema } from './signing-common.js';
import { SigningKeySchema } from './signing-keys.js';
import {
  AuditRecordWireSchema,
  ChainProblemSchema,
  ComposeCommandSchema,
  ExecuteModeSchema,
  ExecutionResultSchema,
  PolicyDecisionWireSchema,
  ThresholdStatusSchema,
  TopologySummaryWireSchema,
  TransactionSummaryWireSchema,
  VerifiedPreparedSchema,
  PartyIdSchema as PartyId,
  SessionIdSchema as SessionId,
} from './signing-wire.js';

export { RefusalSchema, type Refusal } from './signing-common.js';
export * from './signing-wire.js';

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
