/**
 * Unassign / assign commands (one per submission, as Canton requires): moving a contract between synchronizers in
 * two steps. Unassigning makes it inactive on its source (`markUnassigned`); assigning activates it on the target.
 * Each step is an update with its own completion. The input is checked here; the returned body runs inside the
 * writer's commit.
 */
import type { SimContext } from './context.js';
import { microsToIso } from './clock.js';
import { CantonError, contractNotFound, partyNotKnown } from './errors.js';
import type { CommitBody } from './group-commit.js';
import { sha256Hex, updateIdFor } from './ids.js';
import type { StoredReassignment } from './model.js';
import { stakeholdersOf } from './model.js';
import type { ReassignmentCommandsInput } from './schemas.js';

export function reassignment(sim: SimContext, rc: ReassignmentCommandsInput, authenticatedUser: string): CommitBody<StoredReassignment> {
  const userId = rc.userId && rc.userId.length > 0 ? rc.userId : authenticatedUser;
  if (rc.commands.length !== 1)
    throw new CantonError('INVALID_ARGUMENT', 'Exactly one reassignment command must be submitted', { context: { field: 'commands' } });
  const cmd = (rc.commands[0] as ReassignmentCommandsInput['commands'][number]).command;
  if ('Empty' in cmd) throw new CantonError('MISSING_FIELD', 'The reassignment command is empty', { context: { field: 'command' } });
  if (!sim.store.hasParty(rc.submitter)) throw partyNotKnown(rc.submitter);
  const checkSync = (id: string): void => {
    if (!sim.synchronizers.some((s) => s.id === id))
      throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${id}`, { context: { synchronizerId: id } });
  };
  const v = 'UnassignCommand' in cmd ? cmd.UnassignCommand.value : cmd.AssignCommand.value;
  checkSync(v.source);
  checkSync(v.target);
  if (v.source === v.target)
    throw new CantonError('INVALID_ARGUMENT', 'Source and target synchronizer must differ', { context: { source: v.source } });

  return () => {
    const now = sim.clock.nowMicros();
    const recordTime = microsToIso(now);
    const offset = sim.store.nextOffset();
    const updateId = updateIdFor(`${sim.participantId}:reassignment:${offset}`);
    let update: StoredReassignment;
    if ('UnassignCommand' in cmd) {
      const u = cmd.UnassignCommand.value;
      const c = sim.store.contract(u.contractId);
      if (!c || c.archivedOffset !== null || c.unassignedId !== null || !stakeholdersOf(c.node).includes(rc.submitter))
        throw contractNotFound(u.contractId);
      if (c.synchronizerId !== u.source)
        throw new CantonError('INVALID_ARGUMENT', `Contract ${u.contractId} is assigned to ${c.synchronizerId}, not ${u.source}`, {
          context: { contractId: u.contractId },
        });
      if (!c.node.signatories.includes(rc.submitter))
        throw new CantonError('DAML_AUTHORIZATION_ERROR', `Submitter ${rc.submitter} is not a signatory of ${u.contractId}`);
      const reassignmentId = sha256Hex(`${sim.participantId}:unassign:${offset}`);
      const counter = c.reassignmentCounter + 1;
      update = {
        kind: 'reassignment',
        offset,
        updateId,
        commandId: rc.commandId,
        ...(rc.workflowId ? { workflowId: rc.workflowId } : {}),
        recordTime,
        synchronizerId: u.source,
        actAs: [rc.submitter],
        event: {
          type: 'unassign',
          reassignmentId,
          contractId: c.contractId,
          packageName: c.node.packageName,
          templateId: `${c.node.packageId}:${c.node.qualifiedName}`,
          source: u.source,
          target: u.target,
          submitter: rc.submitter,
          reassignmentCounter: counter,
          stakeholders: stakeholdersOf(c.node),
          nodeId: 0,
        },
      };
      sim.store.markUnassigned(c.contractId, reassignmentId, u.target, offset, counter);
      sim.store.insertReassignment({
        contractId: c.contractId,
        offset,
        type: 'unassign',
        source: u.source,
        target: u.target,
        counter,
        reassignmentId,
        submitter: rc.submitter,
        ...(rc.workflowId ? { workflowId: rc.workflowId } : {}),
        recordTime,
      });
    } else {
      const a = cmd.AssignCommand.value;
      const c = sim.store.contractByReassignment(a.reassignmentId);
      if (!c || c.archivedOffset !== null)
        throw new CantonError('REASSIGNMENT_NOT_FOUND', `Reassignment ${a.reassignmentId} not found or already completed`, {
          context: { reassignmentId: a.reassignmentId },
        });
      if (c.unassignedTarget !== a.target || c.synchronizerId !== a.source)
        throw new CantonError(
          'INVALID_ARGUMENT',
          `Reassignment ${a.reassignmentId} goes from ${c.synchronizerId} to ${c.unassignedTarget ?? '?'}`,
        );
      if (!stakeholdersOf(c.node).includes(rc.submitter))
        throw new CantonError('DAML_AUTHORIZATION_ERROR', `Submitter ${rc.submitter} is not a stakeholder of ${c.contractId}`);
      update = {
        kind: 'reassignment',
        offset,
        updateId,
        commandId: rc.commandId,
        ...(rc.workflowId ? { workflowId: rc.workflowId } : {}),
        recordTime,
        synchronizerId: a.target,
        actAs: [rc.submitter],
        event: {
          type: 'assign',
          reassignmentId: a.reassignmentId,
          source: a.source,
          target: a.target,
          submitter: rc.submitter,
          reassignmentCounter: c.reassignmentCounter,
          createdNode: { ...c.node, nodeId: 0 },
          stakeholders: stakeholdersOf(c.node),
        },
      };
      sim.store.markAssigned(c.contractId, a.target);
      sim.store.insertReassignment({
        contractId: c.contractId,
        offset,
        type: 'assign',
        source: a.source,
        target: a.target,
        counter: c.reassignmentCounter,
        reassignmentId: a.reassignmentId,
        submitter: rc.submitter,
        ...(rc.workflowId ? { workflowId: rc.workflowId } : {}),
        recordTime,
      });
    }
    sim.store.insertUpdate(update, now);
    sim.store.insertCompletion({
      offset,
      commandId: rc.commandId,
      userId,
      actAs: [rc.submitter],
      ...(rc.submissionId ? { submissionId: rc.submissionId } : {}),
      updateId,
      synchronizerId: update.synchronizerId,
      recordTime,
      deduplicationDurationMicros: 0,
    });
    return { result: update, offset };
  };
}
