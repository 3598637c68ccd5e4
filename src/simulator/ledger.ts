/**
 * The ledger writer: every state change happens in one SQLite transaction that allocates the next
 * offset, writes the update and its effects, and commits (fsync) before anyone is told about it.
 * What is checked and written lives beside it: submission checks (`submission-checks.ts`), transaction and
 * rejection rows (`ledger-writes.ts`), party allocation (`ledger-parties.ts`) and reassignments (`reassignment.ts`).
 */
import type { SimContext } from './context.js';
import { microsToIso } from './clock.js';
import { CantonError } from './errors.js';
import { sha256Hex } from './ids.js';
import type { CreatedNode, StoredReassignment, TxNode } from './model.js';
import { interpretCommands } from './engine/submit.js';
import type { DisclosedContractInput, JsCommandsInput, ReassignmentCommandsInput } from './schemas.js';
import type { PartyRow } from './store/ledger-store.js';
import { GroupCommitter, type CommitBody } from './group-commit.js';
import type { AllocatePartyInput, ExternalPartyInput } from './ledger-parties.js';
import { externalPartyAllocation, localPartyAllocation } from './ledger-parties.js';
import type { RejectedResult, SubmissionMeta, SubmitResult } from './ledger-writes.js';
import { writeRejection, writeTransaction } from './ledger-writes.js';
import { reassignment } from './reassignment.js';
import {
  checkDuplicate,
  dedupKey,
  dedupPeriodOf,
  ledgerTimeOf,
  resolveDisclosed,
  toSimCommands,
  validateSubmission,
} from './submission-checks.js';

export type { AllocatePartyInput } from './ledger-parties.js';
export type { RejectedResult, SubmitResult } from './ledger-writes.js';

/** A prepared transaction as stored at prepare time, committed as it is by `executePrepared`. */
export interface PreparedForCommit {
  nodes: TxNode[];
  inputs: string[];
  archived: string[];
  synchronizerId: string;
  effectiveAt: string;
}

/** Relative (unsuffixed) contract id, as in a prepared transaction: discriminator only. */
export const relativeContractId = (cid: string): string => cid.slice(0, 66);
/** The final contract id of a relative one: the discriminator plus a suffix fixed at commit. */
export const suffixedContractId = (relative: string, seed: string): string => `${relative}ca111220${sha256Hex(`sfx:${seed}`)}`;

/** Runs `start` now; a synchronous throw becomes a rejection, so callers handle one failure path. */
function settled<T>(start: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve) => {
    resolve(start());
  });
}

/** The submitting user (the command's userId, else the authenticated one), its deduplication key and period. */
function submissionMeta(sim: SimContext, cmds: JsCommandsInput, authenticatedUser: string): SubmissionMeta {
  const userId = cmds.userId && cmds.userId.length > 0 ? cmds.userId : authenticatedUser;
  return { cmds, userId, key: dedupKey(userId, cmds.commandId, cmds.actAs), dedupMicros: dedupPeriodOf(sim, cmds) };
}

export class LedgerWriter {
  private readonly group: GroupCommitter;

  constructor(private readonly sim: SimContext) {
    this.group = new GroupCommitter(sim);
  }

  /** Allocates a local party and records a TopologyTransaction (ParticipantAuthorizationAdded). */
  allocateParty(input: AllocatePartyInput): PartyRow {
    return this.commit(localPartyAllocation(this.sim, input));
  }

  /** Records an external party (keys verified by the caller) with its topology transaction. */
  allocateExternalParty(input: ExternalPartyInput): PartyRow {
    return this.commit(externalPartyAllocation(this.sim, input));
  }

  /**
   * Runs `fn` inside one durable transaction; `fn` returns the result and the last offset it wrote
   * (undefined when it wrote no update). Subscribers are notified after the commit.
   */
  commit<T>(fn: CommitBody<T>): T {
    const { result, offset } = this.sim.store.tx(fn);
    this.sim.durability.syncedBySqlite();
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
    validateSubmission(this.sim, cmds);
  }

  /** Authenticates disclosed contracts (`submission-checks.ts`); returns their contract ids. */
  resolveDisclosed(disclosed: DisclosedContractInput[] | undefined): Set<string> {
    return resolveDisclosed(this.sim, disclosed);
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
    validateSubmission(sim, cmds);
    const meta = submissionMeta(sim, cmds, authenticatedUser);
    const readAs = cmds.readAs ?? [];
    const simCmds = toSimCommands(cmds.commands);

    return () => {
      const now = sim.clock.nowMicros();
      checkDuplicate(sim, cmds, meta.key, meta.dedupMicros, now);
      const offset = sim.store.ledgerEnd() + 1;
      try {
        const disclosed = resolveDisclosed(sim, cmds.disclosedContracts);
        const effectiveAt = microsToIso(ledgerTimeOf(cmds, now));
        const result = interpretCommands(simCmds, cmds.actAs, readAs, {
          store: sim.store,
          registry: sim.registry,
          effectiveAt,
          idSeed: `${sim.participantId}:${offset}`,
          defaultSynchronizerId: sim.synchronizers[0].id,
          ...(cmds.synchronizerId ? { requestedSynchronizerId: cmds.synchronizerId } : {}),
          disclosed,
        });
        return { result: writeTransaction(sim, meta, offset, now, effectiveAt, result), offset };
      } catch (err) {
        if (!opts?.rejectAsCompletion || !(err instanceof CantonError)) throw err;
        const r = writeRejection(sim, meta, now, err);
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
    const meta = submissionMeta(sim, cmds, authenticatedUser);
    return () => {
      const now = sim.clock.nowMicros();
      checkDuplicate(sim, cmds, meta.key, meta.dedupMicros, now);
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
      return { result: writeTransaction(sim, meta, offset, now, prepared.effectiveAt, result), offset };
    };
  }

  /** Unassign / assign commands (one per submission, as Canton requires). */
  submitReassignment(rc: ReassignmentCommandsInput, authenticatedUser: string): StoredReassignment {
    return this.commit(reassignment(this.sim, rc, authenticatedUser));
  }

  /** `submitReassignment` through the group commit (`commitDurably`): resolves once the transaction is durable. */
  reassign(rc: ReassignmentCommandsInput, authenticatedUser: string): Promise<StoredReassignment> {
    return settled(() => this.commitDurably(reassignment(this.sim, rc, authenticatedUser)));
  }
}
