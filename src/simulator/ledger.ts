/**
 * The ledger writer: every state change happens in one SQLite transaction that allocates the next
 * offset, writes the update and its effects, and commits (fsync) before anyone is told about it.
 */
import type { SimContext } from './context.js';
import { microsToIso } from './clock.js';
import { CantonError, contractNotFound, partyNotKnown } from './errors.js';
import { PARTY_HINT_RE, randomHex, updateIdFor } from './ids.js';
import type { ParticipantPermission, StoredCompletion, StoredReassignment, StoredTopology, StoredTransaction } from './model.js';
import { stakeholdersOf } from './model.js';
import { interpret } from './engine/interpreter.js';
import type { SimCommand } from './engine/interpreter.js';
import { sha256Hex } from './ids.js';
import type { JsCommandsInput, ReassignmentCommandsInput } from './schemas.js';
import type { PartyRow } from './store/ledger-store.js';

export interface AllocatePartyInput {
  partyIdHint?: string;
  annotations?: Record<string, string>;
  identityProviderId?: string;
  synchronizerId?: string;
}

export interface SubmitResult {
  offset: number;
  updateId: string;
  tx: StoredTransaction;
}

export function toSimCommands(cmds: JsCommandsInput['commands']): SimCommand[] {
  return cmds.map((c): SimCommand => {
    if ('CreateCommand' in c) return { type: 'create', ...c.CreateCommand };
    if ('ExerciseCommand' in c) return { type: 'exercise', ...c.ExerciseCommand };
    if ('ExerciseByKeyCommand' in c) return { type: 'exerciseByKey', ...c.ExerciseByKeyCommand };
    return { type: 'createAndExercise', ...c.CreateAndExerciseCommand };
  });
}

const dedupKey = (userId: string, commandId: string, actAs: string[]): string =>
  sha256Hex(JSON.stringify([userId, commandId, [...new Set(actAs)].sort()]));

export class LedgerWriter {
  constructor(private readonly sim: SimContext) {}

  /** Allocates a local party and records a TopologyTransaction (ParticipantAuthorizationAdded). */
  allocateParty(input: AllocatePartyInput): PartyRow {
    const hint = input.partyIdHint && input.partyIdHint.length > 0 ? input.partyIdHint : `party-${randomHex(8)}`;
    if (!PARTY_HINT_RE.test(hint) || hint.includes('::'))
      throw new CantonError('INVALID_ARGUMENT', `Invalid party id hint '${hint}': only [a-zA-Z0-9:-_ ] up to 185 chars, no '::'`, {
        context: { partyIdHint: hint },
      });
    const sync = input.synchronizerId ?? this.sim.synchronizers[0].id;
    if (!this.sim.synchronizers.some((s) => s.id === sync))
      throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${sync}`, { context: { synchronizerId: sync } });
    return this.recordParty({
      party: `${hint}::${this.sim.namespace}`,
      synchronizerId: sync,
      permission: 'PARTICIPANT_PERMISSION_SUBMISSION',
      identityProviderId: input.identityProviderId ?? '',
      annotations: input.annotations ?? {},
    });
  }

  /** Records an external party (keys verified by the caller) with its topology transaction. */
  allocateExternalParty(input: {
    party: string;
    synchronizerId: string;
    permission: ParticipantPermission;
    threshold: number;
    keys: { fingerprint: string; raw: string }[];
    identityProviderId?: string;
  }): PartyRow {
    if (!this.sim.synchronizers.some((s) => s.id === input.synchronizerId))
      throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${input.synchronizerId}`, { context: { synchronizerId: input.synchronizerId } });
    return this.recordParty({
      party: input.party,
      synchronizerId: input.synchronizerId,
      permission: input.permission,
      identityProviderId: input.identityProviderId ?? '',
      annotations: {},
      keys: { threshold: input.threshold, keys: input.keys },
    });
  }

  private recordParty(p: {
    party: string;
    synchronizerId: string;
    permission: ParticipantPermission;
    identityProviderId: string;
    annotations: Record<string, string>;
    keys?: { threshold: number; keys: { fingerprint: string; raw: string }[] };
  }): PartyRow {
    const party = p.party;
    return this.commit(() => {
      if (this.sim.store.party(party))
        throw new CantonError('PARTY_ALREADY_EXISTS', `Party already exists: ${party} is already allocated on this node`, {
          context: { party },
        });
      const t = this.sim.clock.nowMicros();
      const offset = this.sim.store.nextOffset();
      const update: StoredTopology = {
        kind: 'topology',
        offset,
        updateId: updateIdFor(`${this.sim.participantId}:topology:${offset}:${party}`),
        recordTime: microsToIso(t),
        synchronizerId: p.synchronizerId,
        events: [{ type: 'added', partyId: party, participantId: this.sim.participantId, permission: p.permission }],
      };
      this.sim.store.insertUpdate(update, t);
      const row: PartyRow = {
        party,
        offset,
        isLocal: true,
        idp: p.identityProviderId,
        metadata: { resourceVersion: '0', annotations: p.annotations },
      };
      this.sim.store.insertParty(row);
      if (p.keys) this.sim.store.putPartyKeys(party, p.keys.threshold, p.keys.keys);
      return { result: row, offset };
    });
  }

  /**
   * Runs `fn` inside one durable transaction; `fn` returns the result and the last offset it wrote
   * (undefined when it wrote no update). Subscribers are notified after the commit.
   */
  commit<T>(fn: () => { result: T; offset: number | undefined }): T {
    const { result, offset } = this.sim.store.tx(fn);
    if (offset !== undefined) this.sim.events.emit('commit', offset);
    return result;
  }

  /** Checks a submission's fields, parties and synchronizer (shared by submit and prepare). */
  validateSubmission(cmds: JsCommandsInput): void {
    const sim = this.sim;
    if (cmds.commandId.length === 0 || cmds.commandId.length > 255)
      throw new CantonError('INVALID_FIELD', 'Invalid field commandId: must be 1..255 characters', { context: { field: 'commandId' } });
    if (cmds.actAs.length === 0)
      throw new CantonError('MISSING_FIELD', 'The submitting party is missing: actAs must name at least one party', {
        context: { field: 'actAs' },
      });
    if (cmds.commands.length === 0)
      throw new CantonError('MISSING_FIELD', 'The commands field is empty', { context: { field: 'commands' } });
    for (const p of [...cmds.actAs, ...(cmds.readAs ?? [])]) if (!sim.store.party(p)) throw partyNotKnown(p);
    if (cmds.synchronizerId && !sim.synchronizers.some((s) => s.id === cmds.synchronizerId))
      throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${cmds.synchronizerId}`, {
        context: { synchronizerId: cmds.synchronizerId },
      });
  }

  /**
   * Validates, deduplicates, interprets and commits a command submission. Returns only after the
   * transaction is durable. Failures change nothing.
   */
  submitCommands(cmds: JsCommandsInput, authenticatedUser: string): SubmitResult {
    const sim = this.sim;
    const userId = cmds.userId && cmds.userId.length > 0 ? cmds.userId : authenticatedUser;
    this.validateSubmission(cmds);
    const readAs = cmds.readAs ?? [];
    const simCmds = toSimCommands(cmds.commands);
    const key = dedupKey(userId, cmds.commandId, cmds.actAs);
    let dedupMicros = sim.settings.maxDeduplicationMicros;
    const dp = cmds.deduplicationPeriod;
    if (dp && 'DeduplicationDuration' in dp) {
      const d = dp.DeduplicationDuration.value;
      if (d.seconds < 0 || d.nanos < 0)
        throw new CantonError('INVALID_FIELD', 'Invalid field deduplicationPeriod: duration must not be negative', {
          context: { field: 'deduplicationPeriod' },
        });
      dedupMicros = BigInt(d.seconds) * 1_000_000n + BigInt(Math.floor(d.nanos / 1000));
      if (dedupMicros > sim.settings.maxDeduplicationMicros) dedupMicros = sim.settings.maxDeduplicationMicros;
    }

    return this.commit(() => {
      const now = sim.clock.nowMicros();
      const prior = sim.store.dedupGet(key);
      if (prior) {
        const duplicate =
          dp && 'DeduplicationOffset' in dp ? prior.offset > dp.DeduplicationOffset.value : now - prior.recordTime < dedupMicros;
        if (duplicate)
          throw new CantonError('DUPLICATE_COMMAND', 'A command with the given command id has already been successfully processed', {
            context: {
              existing_submission_id: prior.submissionId ?? '',
              completion_offset: String(prior.offset),
              commandId: cmds.commandId,
            },
            definiteAnswer: false,
          });
      }
      const offset = sim.store.ledgerEnd() + 1;
      const effectiveAt = microsToIso(now);
      const updateId = updateIdFor(`${sim.participantId}:tx:${offset}`);
      const result = interpret(simCmds, cmds.actAs, readAs, {
        store: sim.store,
        registry: sim.registry,
        effectiveAt,
        idSeed: `${sim.participantId}:${offset}`,
        defaultSynchronizerId: sim.synchronizers[0].id,
        ...(cmds.synchronizerId ? { requestedSynchronizerId: cmds.synchronizerId } : {}),
      });
      const allocated = sim.store.nextOffset();
      if (allocated !== offset) throw new Error('offset allocation out of order');
      const tx: StoredTransaction = {
        kind: 'transaction',
        offset,
        updateId,
        commandId: cmds.commandId,
        ...(cmds.workflowId ? { workflowId: cmds.workflowId } : {}),
        effectiveAt,
        recordTime: effectiveAt,
        synchronizerId: result.synchronizerId,
        nodes: result.nodes,
        actAs: [...new Set(cmds.actAs)].sort(),
      };
      sim.store.insertUpdate(tx, now);
      for (const node of result.created) sim.store.insertContract(node, offset, result.synchronizerId, cmds.workflowId);
      for (const cid of result.archived) sim.store.archiveContract(cid, offset);
      const completion: StoredCompletion = {
        offset,
        commandId: cmds.commandId,
        userId,
        actAs: tx.actAs,
        ...(cmds.submissionId ? { submissionId: cmds.submissionId } : {}),
        updateId,
        synchronizerId: result.synchronizerId,
        recordTime: effectiveAt,
        deduplicationDurationMicros: Number(dedupMicros),
      };
      sim.store.insertCompletion(completion);
      sim.store.dedupPut(key, offset, now, cmds.submissionId, updateId);
      return { result: { offset, updateId, tx }, offset };
    });
  }

  /** Unassign / assign commands (one per submission, as Canton requires). */
  submitReassignment(rc: ReassignmentCommandsInput, authenticatedUser: string): StoredReassignment {
    const sim = this.sim;
    const userId = rc.userId && rc.userId.length > 0 ? rc.userId : authenticatedUser;
    if (rc.commands.length !== 1)
      throw new CantonError('INVALID_ARGUMENT', 'Exactly one reassignment command must be submitted', { context: { field: 'commands' } });
    const cmd = (rc.commands[0] as ReassignmentCommandsInput['commands'][number]).command;
    if ('Empty' in cmd) throw new CantonError('MISSING_FIELD', 'The reassignment command is empty', { context: { field: 'command' } });
    if (!sim.store.party(rc.submitter)) throw partyNotKnown(rc.submitter);
    const checkSync = (id: string): void => {
      if (!sim.synchronizers.some((s) => s.id === id))
        throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${id}`, { context: { synchronizerId: id } });
    };
    const v = 'UnassignCommand' in cmd ? cmd.UnassignCommand.value : cmd.AssignCommand.value;
    checkSync(v.source);
    checkSync(v.target);
    if (v.source === v.target)
      throw new CantonError('INVALID_ARGUMENT', 'Source and target synchronizer must differ', { context: { source: v.source } });

    return this.commit(() => {
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
        sim.store.insertReassignment({ contractId: c.contractId, offset, type: 'unassign', source: u.source, target: u.target, counter, reassignmentId });
      } else {
        const a = cmd.AssignCommand.value;
        const c = sim.store.contractByReassignment(a.reassignmentId);
        if (!c || c.archivedOffset !== null)
          throw new CantonError('REASSIGNMENT_NOT_FOUND', `Reassignment ${a.reassignmentId} not found or already completed`, {
            context: { reassignmentId: a.reassignmentId },
          });
        if (c.unassignedTarget !== a.target || c.synchronizerId !== a.source)
          throw new CantonError('INVALID_ARGUMENT', `Reassignment ${a.reassignmentId} goes from ${c.synchronizerId} to ${c.unassignedTarget ?? '?'}`);
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
    });
  }
}
