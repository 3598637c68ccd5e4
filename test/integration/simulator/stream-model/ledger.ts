/**
 * The model's ledger: every update, contract and completion the scenario produced, as the model
 * expects them (node structure, witnesses, locations, offsets). Values the model cannot predict —
 * contract ids, update ids, times, reassignment ids — are taken from the submission's answer.
 */
import type { ContractRef, Node } from './daml.js';

export interface Activation {
  offset: number;
  nodeId: number;
  synchronizerId: string;
  counter: number;
  workflowId?: string;
}

export interface Move {
  type: 'unassign' | 'assign';
  offset: number;
  source: string;
  target: string;
  counter: number;
  reassignmentId: string;
  submitter: string;
  workflowId?: string;
  /** record time of the reassignment (from the submission's answer) */
  recordTime: string;
}

/** A contract with its life on the ledger. */
export interface MContract extends ContractRef {
  cid: string;
  created: { offset: number; nodeId: number; createdAt: string; synchronizerId: string; workflowId?: string };
  archived?: { offset: number; nodeId: number; synchronizerId: string };
  moves: Move[];
}

export interface MTransaction {
  kind: 'transaction';
  offset: number;
  updateId: string;
  commandId: string;
  workflowId?: string;
  effectiveAt: string;
  recordTime: string;
  synchronizerId: string;
  actAs: string[];
  nodes: Node[];
}

export interface MReassignment {
  kind: 'reassignment';
  offset: number;
  updateId: string;
  commandId: string;
  workflowId?: string;
  recordTime: string;
  synchronizerId: string;
  submitter: string;
  move: Move;
  contract: MContract;
}

export interface MTopology {
  kind: 'topology';
  offset: number;
  updateId: string;
  recordTime: string;
  synchronizerId: string;
  party: string;
}

export type MUpdate = MTransaction | MReassignment | MTopology;

export interface MCompletion {
  offset: number;
  commandId: string;
  userId: string;
  actAs: string[];
  submissionId?: string;
  /** absent for a rejected command */
  updateId?: string;
  synchronizerId: string;
  /** unknown for rejections (not in any answer the scenario reads) */
  recordTime?: string;
  dedupSeconds: number;
  failed: boolean;
}

export class ModelLedger {
  readonly updates = new Map<number, MUpdate>();
  readonly completions: MCompletion[] = [];
  readonly contracts = new Map<string, MContract>();
  readonly parties: string[] = [];
  ledgerEnd = 0;
  prunedUpTo = 0;
  packageId = '';

  constructor(
    readonly participantId: string,
    readonly synchronizers: string[],
  ) {}

  /** The next offset: every update and every rejected command takes one (README "Data and durability"). */
  nextOffset(): number {
    return this.ledgerEnd + 1;
  }

  add(u: MUpdate): void {
    if (u.offset !== this.nextOffset()) throw new Error(`model: update at ${u.offset}, expected ${this.nextOffset()}`);
    this.updates.set(u.offset, u);
    this.ledgerEnd = u.offset;
  }

  addRejection(c: MCompletion): void {
    if (c.offset !== this.nextOffset()) throw new Error(`model: rejection at ${c.offset}, expected ${this.nextOffset()}`);
    this.completions.push(c);
    this.ledgerEnd = c.offset;
  }

  /** Updates in (begin, end], ascending. */
  range(begin: number, end: number): MUpdate[] {
    const out: MUpdate[] = [];
    for (let o = begin + 1; o <= end; o++) {
      const u = this.updates.get(o);
      if (u) out.push(u);
    }
    return out;
  }

  templateId(qualified: string): string {
    return `${this.packageId}:${qualified}`;
  }

  /** Where a contract is at `offset`: active (with its last activation) or unassigned (with the unassignment). */
  stateAt(
    c: MContract,
    offset: number,
  ): { kind: 'none' } | { kind: 'active'; activation: Activation } | { kind: 'unassigned'; activation: Activation; move: Move } {
    if (c.created.offset > offset || (c.archived && c.archived.offset <= offset)) return { kind: 'none' };
    let activation: Activation = {
      offset: c.created.offset,
      nodeId: c.created.nodeId,
      synchronizerId: c.created.synchronizerId,
      counter: 0,
      ...(c.created.workflowId ? { workflowId: c.created.workflowId } : {}),
    };
    let pending: Move | undefined;
    for (const m of c.moves) {
      if (m.offset > offset) break;
      if (m.type === 'unassign') pending = m;
      else {
        pending = undefined;
        activation = {
          offset: m.offset,
          nodeId: 0,
          synchronizerId: m.target,
          counter: m.counter,
          ...(m.workflowId ? { workflowId: m.workflowId } : {}),
        };
      }
    }
    return pending ? { kind: 'unassigned', activation, move: pending } : { kind: 'active', activation };
  }
}
