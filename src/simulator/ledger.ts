/**
 * The ledger writer: every state change happens in one SQLite transaction that allocates the next
 * offset, writes the update and its effects, and commits (fsync) before anyone is told about it.
 */
import type { SimContext } from './context.js';
import { isoToMicros, javaInstantString, MAX_DAML_TIMESTAMP_MICROS, microsToIso } from './clock.js';
import { checkValueDepth } from './json-depth.js';
import { CantonError, contractNotFound, partyNotKnown } from './errors.js';
import { PARTY_HINT_RE, randomHex, updateIdFor } from './ids.js';
import type {
  CreatedNode,
  ParticipantPermission,
  StoredCompletion,
  StoredReassignment,
  StoredTopology,
  StoredTransaction,
  TxNode,
} from './model.js';
import { stakeholdersOf } from './model.js';
import { interpretCommands } from './engine/submit.js';
import type { InterpretedTransaction, SimCommand } from './engine/interpreter.js';
import { createdEventBlob } from './projection.js';
import { sha256Hex } from './ids.js';
import type { DisclosedContractInput, JsCommandsInput, ReassignmentCommandsInput } from './schemas.js';
import type { PartyRow } from './store/ledger-store.js';
import { partyHostingStore } from './store/party-hosting.js';
import { GroupCommitter, type CommitBody } from './group-commit.js';

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

/** An accepted command whose interpretation or commit failed (async submit): recorded as a failed completion. */
export interface RejectedResult {
  rejected: true;
  offset: number;
  error: CantonError;
}

/** A prepared transaction as stored at prepare time, committed as it is by `executePrepared`. */
export interface PreparedForCommit {
  nodes: TxNode[];
  inputs: string[];
  archived: string[];
  synchronizerId: string;
  effectiveAt: string;
}

/** Canton's default ledger-time / record-time tolerance (60 s). */
export const LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS = 60n * 1_000_000n;

/** Relative (unsuffixed) contract id, as in a prepared transaction: discriminator only. */
export const relativeContractId = (cid: string): string => cid.slice(0, 66);
/** The final contract id of a relative one: the discriminator plus a suffix fixed at commit. */
export const suffixedContractId = (relative: string, seed: string): string => `${relative}ca111220${sha256Hex(`sfx:${seed}`)}`;

export function toSimCommands(cmds: JsCommandsInput['commands']): SimCommand[] {
  return cmds.map((c): SimCommand => {
    if ('CreateCommand' in c) return { type: 'create', ...c.CreateCommand };
    if ('ExerciseCommand' in c) return { type: 'exercise', ...c.ExerciseCommand };
    if ('ExerciseByKeyCommand' in c) return { type: 'exerciseByKey', ...c.ExerciseByKeyCommand };
    return { type: 'createAndExercise', ...c.CreateAndExerciseCommand };
  });
}

/** The Daml-LF values a command carries (arguments, choice argument, contract key). */
function commandValues(c: JsCommandsInput['commands'][number]): unknown[] {
  if ('CreateCommand' in c) return [c.CreateCommand.createArguments];
  if ('ExerciseCommand' in c) return [c.ExerciseCommand.choiceArgument];
  if ('ExerciseByKeyCommand' in c) return [c.ExerciseByKeyCommand.contractKey, c.ExerciseByKeyCommand.choiceArgument];
  return [c.CreateAndExerciseCommand.createArguments, c.CreateAndExerciseCommand.choiceArgument];
}

/** A protobuf Duration in micros (the nanos below a microsecond are dropped). */
const relMicros = (d: { seconds: number; nanos: number }): bigint => BigInt(d.seconds) * 1_000_000n + BigInt(Math.floor(d.nanos / 1000));

const dedupKey = (userId: string, commandId: string, actAs: string[]): string =>
  sha256Hex(JSON.stringify([userId, commandId, [...new Set(actAs)].sort()]));

/** Runs `start` now; a synchronous throw becomes a rejection, so callers handle one failure path. */
function settled<T>(start: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve) => {
    resolve(start());
  });
}

export class LedgerWriter {
  private readonly group: GroupCommitter;

  constructor(private readonly sim: SimContext) {
    this.group = new GroupCommitter(sim);
  }

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
      throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${input.synchronizerId}`, {
        context: { synchronizerId: input.synchronizerId },
      });
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
    const hosting = partyHostingStore(this.sim.store.db);
    return this.commit(() => {
      const existing = this.sim.store.party(party);
      // Allocating a known party on another synchronizer adds its hosting there (as Canton does); on the same one it is a duplicate.
      if (existing && hosting.of(party).some((h) => h.synchronizerId === p.synchronizerId))
        throw new CantonError('PARTY_ALREADY_EXISTS', `Party already exists: ${party} is already allocated on this node`, {
          context: { party, synchronizerId: p.synchronizerId },
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
      hosting.add(party, p.synchronizerId, p.permission, offset);
      if (existing) return { result: existing, offset };
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
  commit<T>(fn: CommitBody<T>): T {
    const { result, offset } = this.sim.store.tx(fn);
    if (offset !== undefined) this.sim.events.emit('commit', offset);
    return result;
  }

  /**
   * The same, for callers that can wait: the body joins the next group commit (group-commit.ts), sharing one
   * transaction and one fsync with what arrives together; resolves once durable. With the `groupCommit` setting off,
   * the body is committed on its own at once (as `commit`).
   */
  commitDurably<T>(fn: CommitBody<T>): Promise<T> {
    if (this.sim.settings.groupCommit) return this.group.commit(fn);
    return settled(() => Promise.resolve(this.commit(fn)));
  }

  /** Checks a submission's fields, parties and synchronizer (shared by submit and prepare). */
  validateSubmission(cmds: JsCommandsInput): void {
    const sim = this.sim;
    // as Canton's JSON API, before anything else looks at the values
    for (const c of cmds.commands) for (const v of commandValues(c)) checkValueDepth(v);
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
    if (cmds.minLedgerTimeAbs !== undefined && cmds.minLedgerTimeRel !== undefined)
      throw new CantonError('INVALID_ARGUMENT', 'minLedgerTimeAbs and minLedgerTimeRel must not be set at the same time', {
        context: { field: 'minLedgerTimeAbs' },
      });
    if (cmds.minLedgerTimeAbs !== undefined && isoToMicros(cmds.minLedgerTimeAbs) === undefined)
      throw new CantonError('INVALID_FIELD', `Invalid field minLedgerTimeAbs: '${cmds.minLedgerTimeAbs}' is not an RFC 3339 timestamp`, {
        context: { field: 'minLedgerTimeAbs' },
      });
    if (cmds.minLedgerTimeRel && (cmds.minLedgerTimeRel.seconds < 0 || cmds.minLedgerTimeRel.nanos < 0))
      throw new CantonError('INVALID_FIELD', 'Invalid field minLedgerTimeRel: duration must not be negative', {
        context: { field: 'minLedgerTimeRel' },
      });
    if (cmds.minLedgerTimeRel) {
      // Canton: the ledger time (now + minLedgerTimeRel) must be a Daml timestamp (CommandsValidator.validateLedgerTime)
      const t = sim.clock.nowMicros() + relMicros(cmds.minLedgerTimeRel);
      if (t > MAX_DAML_TIMESTAMP_MICROS)
        throw new CantonError(
          'INVALID_ARGUMENT',
          `The submitted request has invalid arguments: Can not represent command ledger time ${javaInstantString(t)} as a Daml timestamp`,
        );
    }
  }

  /**
   * Authenticates disclosed contracts: the blob must decode to a contract this ledger created, byte for
   * byte (a modified blob is refused), and agree with the optional templateId / contractId /
   * synchronizerId. Returns the disclosed contract ids (usable by non-stakeholders in interpretation).
   */
  resolveDisclosed(disclosed: DisclosedContractInput[] | undefined): Set<string> {
    const out = new Set<string>();
    for (const [i, d] of (disclosed ?? []).entries()) {
      const field = `disclosedContracts[${i}]`;
      const bad = (why: string): CantonError =>
        new CantonError('INVALID_ARGUMENT', `Invalid disclosed contract ${field}: ${why}`, { context: { field } });
      let decoded: { v?: unknown; contractId?: unknown } | null;
      try {
        decoded = JSON.parse(Buffer.from(d.createdEventBlob, 'base64').toString('utf8')) as typeof decoded;
      } catch {
        throw bad('the createdEventBlob cannot be decoded');
      }
      if (decoded?.v !== 1 || typeof decoded.contractId !== 'string') throw bad('the createdEventBlob cannot be decoded');
      const cid = decoded.contractId;
      if (d.contractId !== undefined && d.contractId !== cid) throw bad(`contractId ${d.contractId} does not match the blob (${cid})`);
      const row = this.sim.store.contract(cid);
      if (!row) throw contractNotFound(cid);
      if (createdEventBlob(row.node) !== d.createdEventBlob) throw bad(`the createdEventBlob of ${cid} failed authentication`);
      if (d.templateId !== undefined) {
        const t = this.sim.registry.findTemplate(d.templateId);
        if (!t || t.pkg.def.name !== row.node.packageName || t.qualifiedName !== row.node.qualifiedName)
          throw bad(`templateId ${d.templateId} does not match the contract's template ${row.node.packageId}:${row.node.qualifiedName}`);
      }
      if (d.synchronizerId && d.synchronizerId !== row.synchronizerId)
        throw bad(`synchronizerId ${d.synchronizerId} does not match the contract's synchronizer ${row.synchronizerId}`);
      out.add(cid);
    }
    return out;
  }

  /** Ledger time of a submission: the record time, raised to minLedgerTimeAbs / now + minLedgerTimeRel. */
  ledgerTimeOf(cmds: Pick<JsCommandsInput, 'minLedgerTimeAbs' | 'minLedgerTimeRel'>, now: bigint): bigint {
    let min = 0n;
    if (cmds.minLedgerTimeAbs !== undefined) min = isoToMicros(cmds.minLedgerTimeAbs) ?? 0n;
    if (cmds.minLedgerTimeRel) min = now + relMicros(cmds.minLedgerTimeRel);
    const let_ = min > now ? min : now;
    if (let_ - now > LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS)
      throw new CantonError(
        'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND',
        `The ledger time ${microsToIso(let_)} requested by minLedgerTime is more than ${LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS / 1_000_000n}s after the record time ${microsToIso(now)}`,
        { context: { ledger_time: microsToIso(let_), record_time: microsToIso(now) }, definiteAnswer: true },
      );
    return let_;
  }

  private dedupPeriodOf(cmds: JsCommandsInput): bigint {
    let dedupMicros = this.sim.settings.maxDeduplicationMicros;
    const dp = cmds.deduplicationPeriod;
    if (dp && 'DeduplicationDuration' in dp) {
      const d = dp.DeduplicationDuration.value;
      if (d.seconds < 0 || d.nanos < 0)
        throw new CantonError('INVALID_FIELD', 'Invalid field deduplicationPeriod: duration must not be negative', {
          context: { field: 'deduplicationPeriod' },
        });
      dedupMicros = BigInt(d.seconds) * 1_000_000n + BigInt(Math.floor(d.nanos / 1000));
      if (dedupMicros > this.sim.settings.maxDeduplicationMicros) dedupMicros = this.sim.settings.maxDeduplicationMicros;
    }
    return dedupMicros;
  }

  /** Throws DUPLICATE_COMMAND when the command was accepted within its deduplication period (inside `commit`). */
  private checkDuplicate(cmds: JsCommandsInput, key: string, dedupMicros: bigint, now: bigint): void {
    const prior = this.sim.store.dedupGet(key);
    if (!prior) return;
    const dp = cmds.deduplicationPeriod;
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

  /**
   * Writes an interpreted transaction at `offset` (inside `commit`): update, contract states,
   * completion and deduplication entry.
   */
  private writeTransaction(
    cmds: JsCommandsInput,
    userId: string,
    key: string,
    dedupMicros: bigint,
    offset: number,
    now: bigint,
    effectiveAt: string,
    result: Pick<InterpretedTransaction, 'nodes' | 'created' | 'archived' | 'synchronizerId'>,
  ): SubmitResult {
    const sim = this.sim;
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
      userId,
      actAs: tx.actAs,
      ...(cmds.submissionId ? { submissionId: cmds.submissionId } : {}),
      updateId,
      synchronizerId: result.synchronizerId,
      recordTime,
      deduplicationDurationMicros: Number(dedupMicros),
    };
    sim.store.insertCompletion(completion);
    sim.store.dedupPut(key, offset, now, cmds.submissionId, updateId);
    return { offset, updateId, tx };
  }

  /**
   * Records the rejection of an accepted command (inside `commit`): a failed completion at its own
   * offset, as Canton reports rejections after submission. The ledger end advances; no update is
   * written at that offset (update streams skip it), and the command is not deduplicated.
   */
  private writeRejection(cmds: JsCommandsInput, userId: string, dedupMicros: bigint, now: bigint, err: CantonError): RejectedResult {
    const sim = this.sim;
    const offset = sim.store.nextOffset();
    const body = err.toBody();
    const completion: StoredCompletion = {
      offset,
      commandId: cmds.commandId,
      userId,
      actAs: [...new Set(cmds.actAs)].sort(),
      ...(cmds.submissionId ? { submissionId: cmds.submissionId } : {}),
      updateId: '',
      synchronizerId: cmds.synchronizerId ?? sim.synchronizers[0].id,
      recordTime: microsToIso(now),
      deduplicationDurationMicros: Number(dedupMicros),
      status: {
        code: err.kind.grpc,
        message: `${body.code}(${body.errorCategory},${(body.correlationId ?? '').slice(0, 8)}): ${body.cause}`,
        errorCode: body.code,
      },
    };
    sim.store.insertCompletion(completion);
    return { rejected: true, offset, error: err };
  }

  /**
   * Validates, deduplicates, interprets and commits a command submission. Returns only after the
   * transaction is durable. Failures change nothing — unless `rejectAsCompletion` (async submit): then a
   * command that passed validation and deduplication but fails interpretation or the commit checks is
   * accepted and its rejection recorded as a failed completion (see `writeRejection`).
   */
  submitCommands(cmds: JsCommandsInput, authenticatedUser: string): SubmitResult;
  submitCommands(cmds: JsCommandsInput, authenticatedUser: string, opts: { rejectAsCompletion: true }): SubmitResult | RejectedResult;
  submitCommands(cmds: JsCommandsInput, authenticatedUser: string, opts?: { rejectAsCompletion: true }): SubmitResult | RejectedResult {
    return this.commit(this.submission(cmds, authenticatedUser, opts));
  }

  /** `submitCommands` through the group commit (`commitDurably`): resolves once the transaction is durable. */
  submit(cmds: JsCommandsInput, authenticatedUser: string): Promise<SubmitResult>;
  submit(cmds: JsCommandsInput, authenticatedUser: string, opts: { rejectAsCompletion: true }): Promise<SubmitResult | RejectedResult>;
  submit(cmds: JsCommandsInput, authenticatedUser: string, opts?: { rejectAsCompletion: true }): Promise<SubmitResult | RejectedResult> {
    return settled(() => this.commitDurably(this.submission(cmds, authenticatedUser, opts)));
  }

  /**
   * Validates a submission (outside the transaction) and returns the commit body that deduplicates, interprets and
   * writes it (inside the transaction, after what was committed before it).
   */
  private submission(
    cmds: JsCommandsInput,
    authenticatedUser: string,
    opts: { rejectAsCompletion: true } | undefined,
  ): CommitBody<SubmitResult | RejectedResult> {
    const sim = this.sim;
    const userId = cmds.userId && cmds.userId.length > 0 ? cmds.userId : authenticatedUser;
    this.validateSubmission(cmds);
    const readAs = cmds.readAs ?? [];
    const simCmds = toSimCommands(cmds.commands);
    const key = dedupKey(userId, cmds.commandId, cmds.actAs);
    const dedupMicros = this.dedupPeriodOf(cmds);

    return () => {
      const now = sim.clock.nowMicros();
      this.checkDuplicate(cmds, key, dedupMicros, now);
      const offset = sim.store.ledgerEnd() + 1;
      try {
        const disclosed = this.resolveDisclosed(cmds.disclosedContracts);
        const effectiveAt = microsToIso(this.ledgerTimeOf(cmds, now));
        const result = interpretCommands(simCmds, cmds.actAs, readAs, {
          store: sim.store,
          registry: sim.registry,
          effectiveAt,
          idSeed: `${sim.participantId}:${offset}`,
          defaultSynchronizerId: sim.synchronizers[0].id,
          ...(cmds.synchronizerId ? { requestedSynchronizerId: cmds.synchronizerId } : {}),
          disclosed,
        });
        return { result: this.writeTransaction(cmds, userId, key, dedupMicros, offset, now, effectiveAt, result), offset };
      } catch (err) {
        if (!opts?.rejectAsCompletion || !(err instanceof CantonError)) throw err;
        const r = this.writeRejection(cmds, userId, dedupMicros, now, err);
        return { result: r, offset: r.offset };
      }
    };
  }

  /**
   * Commits a prepared (interactive) transaction exactly as prepared: its nodes, arguments and
   * contract ids (relative ids from prepare get their suffix here, as on Canton), after checking that
   * its input contracts are still active (else LOCAL_VERDICT_INACTIVE_CONTRACTS) and its keys still free.
   * Through the group commit (`commitDurably`): resolves once the transaction is durable.
   */
  executePrepared(cmds: JsCommandsInput, authenticatedUser: string, prepared: PreparedForCommit): Promise<SubmitResult> {
    return settled(() => this.commitDurably(this.preparedCommit(cmds, authenticatedUser, prepared)));
  }

  private preparedCommit(cmds: JsCommandsInput, authenticatedUser: string, prepared: PreparedForCommit): CommitBody<SubmitResult> {
    const sim = this.sim;
    const userId = cmds.userId && cmds.userId.length > 0 ? cmds.userId : authenticatedUser;
    const key = dedupKey(userId, cmds.commandId, cmds.actAs);
    const dedupMicros = this.dedupPeriodOf(cmds);
    return () => {
      const now = sim.clock.nowMicros();
      this.checkDuplicate(cmds, key, dedupMicros, now);
      const inactive = prepared.inputs.filter((cid) => {
        const c = sim.store.contract(cid);
        return !c || c.archivedOffset !== null || c.unassignedId !== null || c.synchronizerId !== prepared.synchronizerId;
      });
      if (inactive.length > 0)
        throw new CantonError(
          'LOCAL_VERDICT_INACTIVE_CONTRACTS',
          `Rejected transaction is referring to inactive contracts ${inactive.join(', ')}`,
          {
            context: { inactive_contracts: inactive.join(','), synchronizerId: prepared.synchronizerId },
            resources: inactive.map((c): [string, string] => ['CONTRACT_ID', c]),
            definiteAnswer: true,
          },
        );
      const offset = sim.store.ledgerEnd() + 1;
      // suffix the relative contract ids of the created contracts (in every node and value)
      let text = JSON.stringify(prepared.nodes);
      for (const n of prepared.nodes)
        if (n.kind === 'create')
          text = text.replaceAll(
            JSON.stringify(n.contractId),
            JSON.stringify(suffixedContractId(n.contractId, `${sim.participantId}:${offset}:${n.nodeId}`)),
          );
      const nodes = JSON.parse(text) as TxNode[];
      const consumed = new Set(nodes.filter((n) => n.kind === 'exercise' && n.consuming).map((n) => n.contractId));
      const created = nodes.filter((n): n is CreatedNode => n.kind === 'create' && !consumed.has(n.contractId));
      for (const c of created)
        if (c.contractKeyHash) {
          const holder = sim.store.contractByKey(c.contractKeyHash);
          if (holder && !consumed.has(holder.contractId))
            throw new CantonError(
              'DUPLICATE_CONTRACT_KEY',
              `Contract key is not unique: ${c.contractKeyHash} is held by ${holder.contractId}`,
              {
                context: { keyHash: c.contractKeyHash },
              },
            );
        }
      const result = { nodes, created, archived: prepared.archived, synchronizerId: prepared.synchronizerId };
      return { result: this.writeTransaction(cmds, userId, key, dedupMicros, offset, now, prepared.effectiveAt, result), offset };
    };
  }

  /** Unassign / assign commands (one per submission, as Canton requires). */
  submitReassignment(rc: ReassignmentCommandsInput, authenticatedUser: string): StoredReassignment {
    return this.commit(this.reassignment(rc, authenticatedUser));
  }

  /** `submitReassignment` through the group commit (`commitDurably`): resolves once the transaction is durable. */
  reassign(rc: ReassignmentCommandsInput, authenticatedUser: string): Promise<StoredReassignment> {
    return settled(() => this.commitDurably(this.reassignment(rc, authenticatedUser)));
  }

  private reassignment(rc: ReassignmentCommandsInput, authenticatedUser: string): CommitBody<StoredReassignment> {
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
}
