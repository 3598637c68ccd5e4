/**
 * Contract state in the ledger database: the `contracts` table (one row per created contract, active until its
 * archive offset), its stakeholder index (`contract_parties`, what per-party ACS reads use) and the
 * `reassignments` of contracts between synchronizers. Used through `LedgerStore`, inside its transactions.
 */
import type { ContractRow, CreatedNode } from '../model.js';
import type { Db } from './open.js';

interface ContractDbRow {
  seq: number;
  contract_id: string;
  created_offset: number;
  archived_offset: number | null;
  synchronizer_id: string;
  reassignment_counter: number;
  unassigned_id: string | null;
  unassigned_target: string | null;
  unassigned_offset: number | null;
  workflow_id: string | null;
  create_node: string;
}

const toContract = (r: ContractDbRow): ContractRow => ({
  seq: r.seq,
  contractId: r.contract_id,
  createdOffset: r.created_offset,
  archivedOffset: r.archived_offset,
  synchronizerId: r.synchronizer_id,
  reassignmentCounter: r.reassignment_counter,
  unassignedId: r.unassigned_id,
  unassignedTarget: r.unassigned_target,
  unassignedOffset: r.unassigned_offset,
  workflowId: r.workflow_id,
  node: JSON.parse(r.create_node) as CreatedNode,
});

export interface ReassignmentRow {
  contractId: string;
  offset: number;
  type: 'unassign' | 'assign';
  source: string;
  target: string;
  counter: number;
  reassignmentId: string;
  /** absent in rows written before these columns existed */
  submitter?: string;
  workflowId?: string;
  /** record time of the reassignment (absent in rows written before the column existed) */
  recordTime?: string;
}

interface ReassignmentDbRow {
  contract_id: string;
  offset: number;
  type: 'unassign' | 'assign';
  source: string;
  target: string;
  counter: number;
  reassignment_id: string;
  submitter: string | null;
  workflow_id: string | null;
  record_time?: string | null;
}

function toReassignment(row: unknown): ReassignmentRow | undefined {
  const r = row as ReassignmentDbRow | undefined;
  return r
    ? {
        contractId: r.contract_id,
        offset: r.offset,
        type: r.type,
        source: r.source,
        target: r.target,
        counter: r.counter,
        reassignmentId: r.reassignment_id,
        ...(r.submitter !== null ? { submitter: r.submitter } : {}),
        ...(r.workflow_id !== null ? { workflowId: r.workflow_id } : {}),
        ...(typeof r.record_time === 'string' ? { recordTime: r.record_time } : {}),
      }
    : undefined;
}

const contractColumns = 'contract_id, template_qn, package_name, created_offset, key_hash, synchronizer_id, workflow_id, create_node';
const transientColumns =
  'contract_id, template_qn, package_name, created_offset, archived_offset, key_hash, synchronizer_id, workflow_id, create_node';
const reassignmentColumns = 'contract_id, offset, type, source, target, counter, reassignment_id, submitter, workflow_id, record_time';

export class ContractStore {
  private readonly s;

  /** `partyPid`: the integer id of a known party (stakeholders without one are not indexed). */
  constructor(
    db: Db,
    private readonly partyPid: (party: string) => number | undefined,
  ) {
    this.s = {
      insertContract: db.prepare(`INSERT INTO contracts (${contractColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      insertTransientContract: db.prepare(`INSERT INTO contracts (${transientColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      archiveContract: db.prepare('UPDATE contracts SET archived_offset = ? WHERE contract_id = ? AND archived_offset IS NULL'),
      contractById: db.prepare('SELECT * FROM contracts WHERE contract_id = ?'),
      contractByKey: db.prepare('SELECT * FROM contracts WHERE key_hash = ? AND archived_offset IS NULL ORDER BY created_offset LIMIT 1'),
      activeAfter: db.prepare(
        `SELECT * FROM contracts WHERE seq > ? AND created_offset <= ? AND (archived_offset IS NULL OR archived_offset > ?)
         ORDER BY seq LIMIT ?`,
      ),
      activeForPartyAfter: db.prepare(
        `SELECT c.* FROM contract_parties p JOIN contracts c ON c.seq = p.seq
         WHERE p.pid = ? AND p.seq > ? AND c.created_offset <= ? AND (c.archived_offset IS NULL OR c.archived_offset > ?)
         ORDER BY p.seq LIMIT ?`,
      ),
      insertContractParty: db.prepare('INSERT OR IGNORE INTO contract_parties (pid, seq) VALUES (?, ?)'),
      deleteContractPartiesOfArchived: db.prepare(
        'DELETE FROM contract_parties WHERE seq IN ' +
          '(SELECT seq FROM contracts WHERE archived_offset IS NOT NULL AND archived_offset <= ?)',
      ),
      setUnassigned: db.prepare(
        'UPDATE contracts SET unassigned_id = ?, unassigned_target = ?, unassigned_offset = ?, reassignment_counter = ? ' +
          'WHERE contract_id = ?',
      ),
      setAssigned: db.prepare(
        'UPDATE contracts SET unassigned_id = NULL, unassigned_target = NULL, unassigned_offset = NULL, synchronizer_id = ? ' +
          'WHERE contract_id = ?',
      ),
      contractByReassignment: db.prepare('SELECT * FROM contracts WHERE unassigned_id = ?'),
      deleteArchivedUpTo: db.prepare('DELETE FROM contracts WHERE archived_offset IS NOT NULL AND archived_offset <= ?'),
      insertReassignment: db.prepare(`INSERT INTO reassignments (${reassignmentColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      firstReassignment: db.prepare('SELECT * FROM reassignments WHERE contract_id = ? ORDER BY offset ASC LIMIT 1'),
      lastReassignment: db.prepare('SELECT * FROM reassignments WHERE contract_id = ? AND offset <= ? ORDER BY offset DESC LIMIT 1'),
    };
  }

  insertContract(node: CreatedNode, offset: number, synchronizerId: string, workflowId: string | undefined): void {
    const info = this.s.insertContract.run(
      node.contractId,
      node.qualifiedName,
      node.packageName,
      offset,
      node.contractKeyHash ?? null,
      synchronizerId,
      workflowId ?? null,
      JSON.stringify(node),
    );
    const seq = Number(info.lastInsertRowid);
    for (const p of new Set([...node.signatories, ...node.observers])) {
      const pid = this.partyPid(p);
      if (pid !== undefined) this.s.insertContractParty.run(pid, seq);
    }
  }
  /**
   * A contract created and archived by the same transaction: never active (no stakeholder index rows),
   * kept for events-by-contract-id and contract-by-id until pruned, as a participant's contract store keeps it.
   */
  insertTransientContract(node: CreatedNode, offset: number, synchronizerId: string, workflowId: string | undefined): void {
    this.s.insertTransientContract.run(
      node.contractId,
      node.qualifiedName,
      node.packageName,
      offset,
      offset,
      node.contractKeyHash ?? null,
      synchronizerId,
      workflowId ?? null,
      JSON.stringify(node),
    );
  }
  archiveContract(contractId: string, offset: number): void {
    this.s.archiveContract.run(offset, contractId);
  }
  contract(contractId: string): ContractRow | undefined {
    const r = this.s.contractById.get(contractId) as ContractDbRow | undefined;
    return r ? toContract(r) : undefined;
  }
  contractByKey(keyHash: string): ContractRow | undefined {
    const r = this.s.contractByKey.get(keyHash) as ContractDbRow | undefined;
    return r ? toContract(r) : undefined;
  }
  /** Contracts active at `atOffset` with seq > `afterSeq`, in creation order (keyset pagination). */
  activeContractsAfter(atOffset: number, afterSeq: number, limit: number): ContractRow[] {
    return (this.s.activeAfter.all(afterSeq, atOffset, atOffset, limit) as ContractDbRow[]).map(toContract);
  }
  /** Same, restricted to contracts the party is a stakeholder of (through the stakeholder index). */
  activeContractsOfPartyAfter(party: string, atOffset: number, afterSeq: number, limit: number): ContractRow[] {
    const pid = this.partyPid(party);
    if (pid === undefined) return [];
    return (this.s.activeForPartyAfter.all(pid, afterSeq, atOffset, atOffset, limit) as ContractDbRow[]).map(toContract);
  }
  markUnassigned(contractId: string, reassignmentId: string, target: string, offset: number, counter: number): void {
    this.s.setUnassigned.run(reassignmentId, target, offset, counter, contractId);
  }
  markAssigned(contractId: string, synchronizerId: string): void {
    this.s.setAssigned.run(synchronizerId, contractId);
  }
  contractByReassignment(reassignmentId: string): ContractRow | undefined {
    const r = this.s.contractByReassignment.get(reassignmentId) as ContractDbRow | undefined;
    return r ? toContract(r) : undefined;
  }

  insertReassignment(r: ReassignmentRow): void {
    this.s.insertReassignment.run(
      r.contractId,
      r.offset,
      r.type,
      r.source,
      r.target,
      r.counter,
      r.reassignmentId,
      r.submitter ?? null,
      r.workflowId ?? null,
      r.recordTime ?? null,
    );
  }
  /** The latest reassignment of a contract at or before `atOffset`. */
  lastReassignment(contractId: string, atOffset: number): ReassignmentRow | undefined {
    return toReassignment(this.s.lastReassignment.get(contractId, atOffset));
  }
  firstReassignment(contractId: string): ReassignmentRow | undefined {
    return toReassignment(this.s.firstReassignment.get(contractId));
  }

  /** Drops contracts archived up to `offset` inclusive, with their stakeholder index rows (inside a transaction). */
  prune(offset: number): void {
    this.s.deleteContractPartiesOfArchived.run(offset);
    this.s.deleteArchivedUpTo.run(offset);
  }
}
