/** The wire shapes of signing summaries (what the renderer is shown): transaction, topology, clear-sign fields, policy. */
import type { z } from 'zod';
import { clearSignWire, type Assessment, type TopologySummary, type TransactionSummary } from '../signing/index.js';
import type { PolicyDecisionWireSchema, TopologySummaryWire, TransactionSummaryWire } from '../../ipc/channels/signing.js';
import { descriptionWire } from './description-wire.js';

export type PolicyWire = z.infer<typeof PolicyDecisionWireSchema>;
/** A key's policy decision as the confirmation screens show it (Assessment: PolicyChecks.assess). */
export function policyWire(a: Pick<Assessment, 'policy' | 'offlineAllowed' | 'refusal' | 'policyVersion'>): PolicyWire {
  const p = a.policy;
  return {
    allowed: p.allowed,
    reason: p.allowed ? null : p.reason,
    message: p.allowed ? null : p.message,
    offlineAllowed: a.offlineAllowed,
    auditSeq: a.refusal?.auditSeq ?? null,
    policyVersion: a.policyVersion.version,
  };
}

export function topologyWire(s: TopologySummary, multiHash: Uint8Array): TopologySummaryWire {
  return {
    partyId: s.partyId,
    publicKeyFingerprint: s.publicKeyFingerprint,
    multiHashBase64: s.multiHashBase64,
    multiHashHex: Buffer.from(multiHash).toString('hex'),
    signingKeys: (() => {
      const m = s.transactions.find((t) => t.kind === 'PartyToKeyMapping');
      return m ? { threshold: m.threshold ?? 1, fingerprints: m.keyFingerprints ?? [] } : null;
    })(),
    transactions: s.transactions.map((t) => ({ operation: t.operation, serial: t.serial, kind: t.kind, description: t.description })),
    hostingParticipants: s.hostingParticipants,
    confirmationThreshold: s.confirmationThreshold,
    headline: s.headline,
    warnings: s.warnings,
  };
}

export function summaryWire(s: TransactionSummary): TransactionSummaryWire {
  return {
    headline: s.headline,
    mode: s.mode,
    hashBase64: s.hashBase64,
    hashHex: s.hashHex,
    hashingSchemeVersion: s.hashingSchemeVersion,
    signingParty: s.signingParty,
    actAs: s.actAs,
    commandId: s.commandId,
    synchronizerId: s.synchronizerId,
    preparationTime: s.preparationTime,
    templates: s.templates,
    exercises: s.exercises.map((e) => ({
      nodeId: e.nodeId,
      root: e.root,
      template: e.template,
      interface: e.interface,
      choice: e.choice,
      contractId: e.contractId,
      actingParties: e.actingParties,
      consuming: e.consuming,
    })),
    created: s.created.map((c) => ({
      nodeId: c.nodeId,
      root: c.root,
      template: c.template,
      contractId: c.contractId,
      signatories: c.signatories,
      stakeholders: c.stakeholders,
    })),
    consumed: s.consumed,
    inputs: s.inputs,
    parties: s.parties,
    amounts: s.amounts.map((a) => ({ nodeId: a.nodeId, path: a.path, value: a.value })),
    clearSign: s.clearSign ? clearSignWire(s.clearSign) : null,
    description: descriptionWire(s),
    warnings: s.warnings,
  };
}
