/**
 * The `ptx1|` packed form exactly as simulator versions before the default fields were stored wrote it
 * (a frozen copy of that writer): tests rewrite rows with it to check that rows written by those
 * versions still answer exactly what new rows answer.
 */
import type { StoredTransaction } from '../../src/simulator/model.js';

export function packTransactionV1(tx: StoredTransaction, pidOf: (party: string) => number | undefined): string | undefined {
  const ints: number[] = [];
  const text: string[] = [];
  let pos = 0;
  const add = (s: string): [number, number] => {
    const b = pos;
    pos += s.length;
    text.push(s);
    return [b, pos];
  };
  const ids = (ps: readonly string[]): boolean => {
    ints.push(ps.length);
    for (const p of ps) {
      const pid = pidOf(p);
      if (pid === undefined) return false;
      ints.push(pid);
    }
    return true;
  };
  const h1 = add(`"updateId":${JSON.stringify(tx.updateId)},"effectiveAt":${JSON.stringify(tx.effectiveAt)}`);
  const h2 = add(
    `"synchronizerId":${JSON.stringify(tx.synchronizerId)},"recordTime":${JSON.stringify(tx.recordTime)}` +
      (tx.workflowId ? `,"workflowId":${JSON.stringify(tx.workflowId)}` : ''),
  );
  const cmd = add(tx.commandId ? `,"commandId":${JSON.stringify(tx.commandId)}` : '');
  ints.push(h1[0], h1[1], h2[0], h2[1], cmd[0], cmd[1]);
  if (!ids(tx.actAs)) return undefined;
  const created = new Set<string>();
  for (const n of tx.nodes) if (n.kind === 'create') created.add(n.contractId);
  const transients = new Set<string>();
  for (const n of tx.nodes) if (n.kind === 'exercise' && n.consuming && created.has(n.contractId)) transients.add(n.contractId);
  ints.push(tx.nodes.length);
  for (const n of tx.nodes) {
    const transient = transients.has(n.contractId);
    const templateId = JSON.stringify(`${n.packageId}:${n.qualifiedName}`);
    let b: number, m: number, e: number, stakeholders: string[];
    if (n.kind === 'create') {
      let f =
        `"contractId":${JSON.stringify(n.contractId)},"templateId":${templateId},"createArgument":${JSON.stringify(n.createArgument)}` +
        `,"signatories":${JSON.stringify(n.signatories)},"observers":${JSON.stringify(n.observers)}` +
        `,"createdAt":${JSON.stringify(n.createdAt)}` +
        `,"packageName":${JSON.stringify(n.packageName)},"representativePackageId":${JSON.stringify(n.packageId)}`;
      if (n.contractKey !== undefined) {
        f += `,"contractKey":${JSON.stringify(n.contractKey)}`;
        if (n.contractKeyHash) f += `,"contractKeyHash":${JSON.stringify(n.contractKeyHash)}`;
      }
      [b, e] = add(f);
      m = e;
      stakeholders = [...new Set([...n.signatories, ...n.observers])].sort();
    } else {
      [b, m] = add(
        `"contractId":${JSON.stringify(n.contractId)},"templateId":${templateId},"packageName":${JSON.stringify(n.packageName)}` +
          `,"implementedInterfaces":${JSON.stringify(n.implementedInterfaces)}`,
      );
      let rest =
        `,"choice":${JSON.stringify(n.choice)},"choiceArgument":${JSON.stringify(n.choiceArgument)}` +
        `,"actingParties":${JSON.stringify(n.actingParties)}` +
        `,"consuming":${n.consuming},"lastDescendantNodeId":${n.lastDescendantNodeId},"exerciseResult":${JSON.stringify(n.exerciseResult)}`;
      if (n.interfaceId) rest += `,"interfaceId":${JSON.stringify(n.interfaceId)}`;
      e = add(rest)[1];
      stakeholders = n.stakeholders;
    }
    const t = add(`${n.packageName}:${n.qualifiedName}`);
    const i = add(JSON.stringify(n.implementedInterfaces));
    const flags = (n.kind === 'exercise' ? 1 : 0) | (n.kind === 'exercise' && n.consuming ? 2 : 0) | (transient ? 4 : 0);
    ints.push(flags, n.nodeId, b, m, e, t[0], t[1], i[0], i[1]);
    if (!ids(stakeholders) || !ids(n.witnesses)) return undefined;
  }
  return `ptx1|${ints.join(',')};${text.join('')}`;
}
