/**
 * The rows a command's outcome writes inside the writer's commit: an accepted transaction (update, contract states,
 * completion, deduplication entry) or the rejection of an accepted command (a failed completion only).
 */
import type { SimContext } from './context.js';
import { microsToIso } from './clock.js';
import type { InterpretedTransaction } from './engine/interpreter.js';
import type { CantonError } from './errors.js';
import { updateIdFor } from './ids.js';
import type { StoredCompletion, StoredTransaction } from './model.js';
import type { JsCommandsInput } from './schemas.js';

export interface SubmitResult {
  offset: number;
  updateId: string;
  tx: StoredTransaction;
}

/** An accepted command whose interpretation or commit failed (async submit): recorded as a failed completion. */
export interface RejectedResult {
  rejected: true;
  offset: number;
  error: CantonError;
}

/** Who submitted what, under which deduplication key and period (the parts of a submission its writes record). */
export interface SubmissionMeta {
  cmds: JsCommandsInput;
  userId: string;
  key: string;
  dedupMicros: bigint;
}

export type TransactionEffects = Pick<InterpretedTransaction, 'nodes' | 'created' | 'archived' | 'synchronizerId'>;

/**
 * Writes an interpreted transaction at `offset` (inside `commit`): update, contract states,
 * completion and deduplication entry.
 */
export function writeTransaction(
  sim: SimContext,
  s: SubmissionMeta,
  offset: number,
  now: bigint,
  effectiveAt: string,
  result: TransactionEffects,
): SubmitResult {
  const { cmds } = s;
  const allocated = sim.store.nextOffset();
  if (allocated !== offset) throw new Error('offset allocation out of order');
  const recordTime = microsToIso(now);
  const updateId = updateIdFor(`${sim.participantId}:tx:${offset}`);
  const tx: StoredTransaction = {
    kind: 'transaction',
    offset,
    updateId,
    commandId: cmds.commandId,
    ...(cmds.workflowId ? { workflowId: cmds.workflowId } : {}),
    effectiveAt,
    recordTime,
    synchronizerId: result.synchronizerId,
    nodes: result.nodes,
    actAs: [...new Set(cmds.actAs)].sort(),
  };
  sim.store.insertUpdate(tx, now);
  for (const node of result.created) sim.store.insertContract(node, offset, result.synchronizerId, cmds.workflowId);
  if (result.created.length < result.nodes.length) {
    // contracts created and consumed here (transient): stored archived, for events-by-contract-id
    const active = new Set(result.created.map((n) => n.contractId));
    for (const n of result.nodes)
      if (n.kind === 'create' && !active.has(n.contractId))
        sim.store.insertTransientContract(n, offset, result.synchronizerId, cmds.workflowId);
  }
  for (const cid of result.archived) sim.store.archiveContract(cid, offset);
  const completion: StoredCompletion = {
    offset,
    commandId: cmds.commandId,
    userId: s.userId,
    actAs: tx.actAs,
    ...(cmds.submissionId ? { submissionId: cmds.submissionId } : {}),
    updateId,
    synchronizerId: result.synchronizerId,
    recordTime,
    deduplicationDurationMicros: Number(s.dedupMicros),
  };
  sim.store.insertCompletion(completion);
  sim.store.dedupPut(s.key, offset, now, cmds.submissionId, updateId);
  return { offset, updateId, tx };
}

/**
 * Records the rejection of an accepted command (inside `commit`): a failed completion at its own
 * offset, as Canton reports rejections after submission. The ledger end advances; no update is
 * written at that offset (update streams skip it), and the command is not deduplicated.
 */
export function writeRejection(sim: SimContext, s: SubmissionMeta, now: bigint, err: CantonError): RejectedResult {
  const { cmds } = s;
  const offset = sim.store.nextOffset();
  const body = err.toBody();
  const completion: StoredCompletion = {
    offset,
    commandId: cmds.commandId,
    userId: s.userId,
    actAs: [...new Set(cmds.actAs)].sort(),
    ...(cmds.submissionId ? { submissionId: cmds.submissionId } : {}),
    updateId: '',
    synchronizerId: cmds.synchronizerId ?? sim.synchronizers[0].id,
    recordTime: microsToIso(now),
    deduplicationDurationMicros: Number(s.dedupMicros),
    status: {
      code: err.kind.grpc,
      message: `${body.code}(${body.errorCategory},${(body.correlationId ?? '').slice(0, 8)}): ${body.cause}`,
      errorCode: body.code,
    },
  };
  sim.store.insertCompletion(completion);
  return { rejected: true, offset, error: err };
}
