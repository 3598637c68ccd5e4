/** Internal, stored representation of ledger updates. Projected to API shapes by `projection.ts`. */

/** A Daml value in the JSON API's LF-JSON encoding (normalised). */
export type LfValue = null | boolean | string | number | LfValue[] | { [k: string]: LfValue };

export interface CreatedNode {
  kind: 'create';
  nodeId: number;
  contractId: string;
  packageId: string;
  packageName: string;
  /** Module:Entity */
  qualifiedName: string;
  createArgument: LfValue;
  signatories: string[];
  observers: string[];
  contractKey?: LfValue;
  contractKeyHash?: string;
  /** RFC 3339 ledger effective time of the creating transaction. */
  createdAt: string;
  /** Interfaces (package-id qualified) implemented by the template. */
  implementedInterfaces: string[];
  /** Parties that see the node (informees of this node and of its ancestors). */
  witnesses: string[];
}

export interface ExercisedNode {
  kind: 'exercise';
  nodeId: number;
  contractId: string;
  packageId: string;
  packageName: string;
  qualifiedName: string;
  interfaceId?: string;
  choice: string;
  choiceArgument: LfValue;
  actingParties: string[];
  consuming: boolean;
  lastDescendantNodeId: number;
  exerciseResult: LfValue;
  /** Stakeholders (signatories ∪ observers) of the exercised contract. */
  stakeholders: string[];
  /** Signatories of the exercised contract (absent in updates stored by older simulator versions). */
  signatories?: string[];
  choiceObservers?: string[];
  implementedInterfaces: string[];
  witnesses: string[];
}

export type TxNode = CreatedNode | ExercisedNode;

export interface StoredTransaction {
  kind: 'transaction';
  offset: number;
  updateId: string;
  commandId?: string;
  workflowId?: string;
  effectiveAt: string;
  recordTime: string;
  synchronizerId: string;
  nodes: TxNode[];
  /** Submitting parties (actAs); used to show commandId only to submitters. */
  actAs: string[];
}

export interface StoredUnassign {
  type: 'unassign';
  reassignmentId: string;
  contractId: string;
  packageName: string;
  templateId: string;
  source: string;
  target: string;
  submitter: string;
  reassignmentCounter: number;
  stakeholders: string[];
  nodeId: number;
}

export interface StoredAssign {
  type: 'assign';
  reassignmentId: string;
  source: string;
  target: string;
  submitter: string;
  reassignmentCounter: number;
  createdNode: CreatedNode;
  stakeholders: string[];
}

export interface StoredReassignment {
  kind: 'reassignment';
  offset: number;
  updateId: string;
  commandId?: string;
  workflowId?: string;
  recordTime: string;
  synchronizerId: string;
  event: StoredUnassign | StoredAssign;
  actAs: string[];
}

export type ParticipantPermission =
  'PARTICIPANT_PERMISSION_SUBMISSION' | 'PARTICIPANT_PERMISSION_CONFIRMATION' | 'PARTICIPANT_PERMISSION_OBSERVATION';

export interface StoredTopology {
  kind: 'topology';
  offset: number;
  updateId: string;
  recordTime: string;
  synchronizerId: string;
  events: { type: 'added' | 'changed' | 'revoked'; partyId: string; participantId: string; permission: ParticipantPermission }[];
}

export type StoredUpdate = StoredTransaction | StoredReassignment | StoredTopology;

export interface StoredCompletion {
  offset: number;
  commandId: string;
  userId: string;
  actAs: string[];
  submissionId?: string;
  updateId: string;
  synchronizerId: string;
  recordTime: string;
  deduplicationDurationMicros: number;
  /** Set for rejected commands (gRPC status code and message); absent = success. */
  status?: { code: number; message: string; errorCode: string };
}

/** Current state of a contract. */
export interface ContractRow {
  /** Creation order (keyset of ACS pages). */
  seq: number;
  contractId: string;
  createdOffset: number;
  archivedOffset: number | null;
  synchronizerId: string;
  reassignmentCounter: number;
  unassignedId: string | null;
  unassignedTarget: string | null;
  unassignedOffset: number | null;
  workflowId: string | null;
  node: CreatedNode;
}

export const stakeholdersOf = (n: CreatedNode): string[] => [...new Set([...n.signatories, ...n.observers])].sort();
