/**
 * A human summary of a decoded PreparedTransaction. Only nodes reachable from the roots are summarised: those
 * are exactly the nodes the V2 hash covers (stray nodes in the list are reported as a warning, never shown as effects).
 */
import type { Create, DamlTransaction_Node, Exercise, PreparedTransaction } from '@canton-network/core-ledger-proto';
import { microsToIso, qualifiedName, scanValue, templateName, type FoundValue } from './daml-value.js';

export interface ExerciseSummary {
  nodeId: string;
  root: boolean;
  rolledBack: boolean;
  template: string;
  /** Module:Entity of the template, for matching. */
  templateQualified: string;
  interface: string | null;
  choice: string;
  contractId: string;
  actingParties: string[];
  consuming: boolean;
}
export interface CreatedSummary {
  nodeId: string;
  root: boolean;
  template: string;
  templateQualified: string;
  contractId: string;
  signatories: string[];
  stakeholders: string[];
}
export interface InputSummary {
  contractId: string;
  template: string;
  createdAt: string;
  signatories: string[];
}
export interface AmountFound extends FoundValue {
  nodeId: string;
}

export interface TransactionFacts {
  actAs: string[];
  commandId: string;
  synchronizerId: string;
  transactionUuid: string;
  preparationTime: string;
  minLedgerEffectiveTime: string | null;
  maxLedgerEffectiveTime: string | null;
  templates: string[];
  exercises: ExerciseSummary[];
  created: CreatedSummary[];
  /** Contracts archived by consuming exercises (not rolled back). */
  consumed: Array<{ contractId: string; template: string; choice: string }>;
  fetched: Array<{ contractId: string; template: string }>;
  inputs: InputSummary[];
  parties: string[];
  amounts: AmountFound[];
  /** Where the signing party appears ("metadata.submitterInfo.actAs", "node 0: acting party", …). */
  signingPartyRoles: string[];
  warnings: string[];
}

export function summarise(tx: PreparedTransaction, signingParty: string): TransactionFacts {
  const nodes = new Map<string, DamlTransaction_Node>();
  for (const n of tx.transaction?.nodes ?? []) nodes.set(n.nodeId, n); // last wins, as in the hashing library
  const roots = tx.transaction?.roots ?? [];
  const meta = tx.metadata;
  const parties = new Set<string>();
  const facts: TransactionFacts = {
    actAs: meta?.submitterInfo?.actAs ?? [],
    commandId: meta?.submitterInfo?.commandId ?? '',
    synchronizerId: meta?.synchronizerId ?? '',
    transactionUuid: meta?.transactionUuid ?? '',
    preparationTime: microsToIso(meta?.preparationTime ?? 0n),
    minLedgerEffectiveTime: meta?.minLedgerEffectiveTime !== undefined ? microsToIso(meta.minLedgerEffectiveTime) : null,
    maxLedgerEffectiveTime: meta?.maxLedgerEffectiveTime !== undefined ? microsToIso(meta.maxLedgerEffectiveTime) : null,
    templates: [],
    exercises: [],
    created: [],
    consumed: [],
    fetched: [],
    inputs: [],
    parties: [],
    amounts: [],
    signingPartyRoles: [],
    warnings: [],
  };
  const templates = new Set<string>();
  for (const p of facts.actAs) parties.add(p);
  if (facts.actAs.includes(signingParty)) facts.signingPartyRoles.push('metadata.submitterInfo.actAs');

  const scan = (value: Parameters<typeof scanValue>[0], path: string, nodeId: string) => {
    const out = { parties, numerics: [] as FoundValue[] };
    scanValue(value, path, out);
    for (const n of out.numerics) facts.amounts.push({ ...n, nodeId });
  };
  const addParties = (list: string[]) => list.forEach((p) => parties.add(p));

  const visited = new Set<string>();
  const visit = (nodeId: string, root: boolean, rolledBack: boolean, depth: number): void => {
    if (visited.has(nodeId)) {
      facts.warnings.push(`Node ${nodeId} is referenced more than once`);
      return;
    }
    visited.add(nodeId);
    if (depth > 1000) throw new Error('Transaction tree too deep');
    const node = nodes.get(nodeId);
    if (!node || node.versionedNode.oneofKind !== 'v1') {
      facts.warnings.push(`Node ${nodeId} is missing or of an unknown version`);
      return;
    }
    const t = node.versionedNode.v1.nodeType;
    switch (t.oneofKind) {
      case 'create': {
        const c: Create = t.create;
        const template = templateName(c.templateId, c.packageName);
        templates.add(template);
        addParties(c.signatories);
        addParties(c.stakeholders);
        scan(c.argument, qualifiedName(c.templateId), nodeId);
        if (c.signatories.includes(signingParty))
          facts.signingPartyRoles.push(`node ${nodeId}: signatory of a created ${qualifiedName(c.templateId)}`);
        if (!rolledBack) {
          facts.created.push({
            nodeId,
            root,
            template,
            templateQualified: qualifiedName(c.templateId),
            contractId: c.contractId,
            signatories: c.signatories,
            stakeholders: c.stakeholders,
          });
        }
        return;
      }
      case 'exercise': {
        const e: Exercise = t.exercise;
        const template = templateName(e.templateId, e.packageName);
        templates.add(template);
        addParties(e.actingParties);
        addParties(e.signatories);
        addParties(e.stakeholders);
        addParties(e.choiceObservers);
        scan(e.chosenValue, e.choiceId, nodeId);
        if (e.actingParties.includes(signingParty)) facts.signingPartyRoles.push(`node ${nodeId}: acting party of ${e.choiceId}`);
        facts.exercises.push({
          nodeId,
          root,
          rolledBack,
          template,
          templateQualified: qualifiedName(e.templateId),
          interface: e.interfaceId ? qualifiedName(e.interfaceId) : null,
          choice: e.choiceId,
          contractId: e.contractId,
          actingParties: e.actingParties,
          consuming: e.consuming,
        });
        if (e.consuming && !rolledBack) facts.consumed.push({ contractId: e.contractId, template, choice: e.choiceId });
        for (const child of e.children) visit(child, false, rolledBack, depth + 1);
        return;
      }
      case 'fetch': {
        const f = t.fetch;
        const template = templateName(f.templateId, f.packageName);
        templates.add(template);
        addParties(f.actingParties);
        addParties(f.signatories);
        if (f.actingParties.includes(signingParty)) facts.signingPartyRoles.push(`node ${nodeId}: acting party of a fetch`);
        facts.fetched.push({ contractId: f.contractId, template });
        return;
      }
      case 'rollback':
        for (const child of t.rollback.children) visit(child, false, true, depth + 1);
        return;
      default:
        facts.warnings.push(`Node ${nodeId} has an unknown type`);
    }
  };
  for (const r of roots) visit(r, true, false, 0);

  const stray = [...nodes.keys()].filter((id) => !visited.has(id));
  if (stray.length > 0) {
    facts.warnings.push(
      `${stray.length} node(s) in the transaction are not reachable from its roots and are not covered by the hash; they were ignored`,
    );
  }
  for (const ic of meta?.inputContracts ?? []) {
    if (ic.contract.oneofKind !== 'v1') continue;
    const c = ic.contract.v1;
    facts.inputs.push({
      contractId: c.contractId,
      template: templateName(c.templateId, c.packageName),
      createdAt: microsToIso(ic.createdAt),
      signatories: c.signatories,
    });
  }
  if (facts.actAs.length > 1) facts.warnings.push(`The transaction acts for ${facts.actAs.length} parties: ${facts.actAs.join(', ')}`);
  facts.templates = [...templates];
  facts.parties = [...parties];
  return facts;
}
