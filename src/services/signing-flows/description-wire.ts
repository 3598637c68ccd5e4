/** The IPC shape of a transaction's field-by-field description: values flattened to rows, within a row budget. */
import type { TransactionDescriptionWire } from '../../ipc/channels/signing.js';
import { MAX_ROWS, valueRows } from '../signing/describe/rows.js';
import type { TransactionSummary } from '../signing/index.js';

export function descriptionWire(s: TransactionSummary): TransactionDescriptionWire {
  const d = s.description;
  const budget = { left: MAX_ROWS };
  return {
    nodes: d.nodes.map((n) => ({
      nodeId: n.nodeId,
      depth: n.depth,
      kind: n.kind,
      rolledBack: n.rolledBack,
      templateId: n.templateId,
      template: n.template,
      interfaceId: n.interfaceId,
      choice: n.choice,
      contractId: n.contractId,
      consuming: n.consuming,
      actingParties: n.actingParties,
      signatories: n.signatories,
      observers: n.observers,
      argument: n.argument ? valueRows(n.argument, n.kind === 'create' ? 'arguments' : 'argument', budget) : [],
      result: n.result ? valueRows(n.result, 'result', budget) : [],
    })),
    inputs: d.inputs.map((i) => ({
      contractId: i.contractId,
      templateId: i.templateId,
      template: i.template,
      createdAt: i.createdAt,
      signatories: i.signatories,
      argument: valueRows(i.argument, 'arguments', budget),
    })),
    packages: s.packages,
    missingPackages: d.missingPackages,
    problems: d.problems,
    complete: d.complete,
  };
}
