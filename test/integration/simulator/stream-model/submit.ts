/**
 * Submits the scenario's commands over HTTP and records what the model expects in the ModelLedger.
 * From each answer the model takes only what it cannot predict (contract ids, update ids, times,
 * reassignment ids); it checks the answer's node structure against its own, and the answer itself
 * against the model's rendering (submit-and-wait-for-transaction is a read path too).
 */
import { call, nextCommandId } from '../helpers.js';
import type { OpaqueValues } from './compare.js';
import { diff } from './compare.js';
import type { ContractRef, Json } from './daml.js';
import { QUALIFIED, TxBuilder, str } from './daml.js';
import type { MContract, ModelLedger, Move } from './ledger.js';
import { eventFormatOf } from './rules-filter.js';
import { expectReassignment, expectTransaction } from './rules-project.js';

export const USER = 'participant_admin';
/** README: deduplication "default and max 7 days". */
const DEFAULT_DEDUP_SECONDS = 7 * 24 * 3600;
const anyParty = eventFormatOf({ filtersForAnyParty: {} });

type Event = Record<string, Record<string, Json>>;

export class Submitter {
  /** Checked submissions (their answers compared with the model). */
  submissions = 0;

  constructor(
    private readonly base: string,
    readonly ledger: ModelLedger,
    private readonly opaques: OpaqueValues,
  ) {}

  /**
   * Submits `commands` as one transaction; `build` replays them on a TxBuilder. `sync` is where the
   * transaction runs: its input contracts' synchronizer, or the requested one, or the default (the first).
   */
  async transaction(
    actAs: string[],
    commands: unknown[],
    build: (tx: TxBuilder) => void,
    opts: { sync?: string; requestSync?: boolean; workflowId?: string; submissionId?: string } = {},
  ): Promise<void> {
    const ledger = this.ledger;
    const tx = new TxBuilder();
    build(tx);
    const sync = opts.sync ?? ledger.synchronizers[0] ?? '';
    const commandId = nextCommandId('model');
    const r = await call(this.base, 'POST', '/v2/commands/submit-and-wait-for-transaction', {
      body: {
        commands: {
          commandId,
          actAs,
          commands,
          ...(opts.requestSync ? { synchronizerId: sync } : {}),
          ...(opts.workflowId ? { workflowId: opts.workflowId } : {}),
          ...(opts.submissionId ? { submissionId: opts.submissionId } : {}),
        },
        transactionFormat: { transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS', eventFormat: { filtersForAnyParty: {} } },
      },
    });
    if (r.status !== 200) throw new Error(`submission failed ${r.status}: ${r.text}`);
    const t = (r.json as { transaction: Record<string, Json> }).transaction;
    const events = t.events as unknown as Event[];
    const offset = ledger.nextOffset();
    if (t.offset !== offset) throw new Error(`transaction at offset ${JSON.stringify(t.offset)}, the model expected ${offset}`);
    if (events.length !== tx.nodes.length)
      throw new Error(
        `answer has ${events.length} events, the model built ${tx.nodes.length} nodes: ${JSON.stringify(events).slice(0, 600)}`,
      );
    const effectiveAt = str(t.effectiveAt);
    for (const [k, n] of tx.nodes.entries()) {
      const e = events[k] as Event;
      const body = e.CreatedEvent ?? e.ExercisedEvent;
      if (!body || body.nodeId !== n.nodeId || (n.kind === 'create') !== 'CreatedEvent' in e)
        throw new Error(`node ${n.nodeId}: the model expected a ${n.kind}, got ${JSON.stringify(e).slice(0, 300)}`);
      if (n.kind === 'create') {
        n.contract.cid = str(body.contractId);
        const c = n.contract as MContract;
        c.created = {
          offset,
          nodeId: n.nodeId,
          createdAt: effectiveAt,
          synchronizerId: sync,
          ...(opts.workflowId ? { workflowId: opts.workflowId } : {}),
        };
        c.moves = [];
        ledger.contracts.set(c.cid, c);
      }
    }
    for (const n of tx.nodes)
      if (n.kind === 'exercise' && n.consuming) (n.contract as MContract).archived = { offset, nodeId: n.nodeId, synchronizerId: sync };
    if (ledger.packageId === '')
      ledger.packageId = str((events[0]?.CreatedEvent ?? events[0]?.ExercisedEvent)?.templateId).split(':')[0] as string;
    const actAsSet = [...new Set(actAs)].sort();
    const mtx = {
      kind: 'transaction' as const,
      offset,
      updateId: str(t.updateId),
      commandId,
      ...(opts.workflowId ? { workflowId: opts.workflowId } : {}),
      effectiveAt,
      recordTime: str(t.recordTime),
      synchronizerId: sync,
      actAs: actAsSet,
      nodes: tx.nodes,
    };
    ledger.add(mtx);
    ledger.completions.push({
      offset,
      commandId,
      userId: USER,
      actAs: actAsSet,
      ...(opts.submissionId ? { submissionId: opts.submissionId } : {}),
      updateId: mtx.updateId,
      synchronizerId: sync,
      recordTime: mtx.recordTime,
      dedupSeconds: DEFAULT_DEDUP_SECONDS,
      failed: false,
    });
    this.check('submit-and-wait-for-transaction', expectTransaction(ledger, mtx, 'LEDGER_EFFECTS', anyParty), t);
  }

  /** An unassignment (submitter: a signatory) or assignment (submitter: a stakeholder). */
  async reassign(c: MContract, type: 'unassign' | 'assign', submitter: string, workflowId?: string): Promise<void> {
    const ledger = this.ledger;
    const commandId = nextCommandId('model-r');
    const pending = c.moves.at(-1);
    const current = pending?.type === 'unassign' ? pending.source : syncOf(c);
    const source = type === 'unassign' ? current : (pending as Move).source;
    const target = type === 'unassign' ? (ledger.synchronizers.find((s) => s !== source) as string) : (pending as Move).target;
    const value =
      type === 'unassign' ? { contractId: c.cid, source, target } : { reassignmentId: (pending as Move).reassignmentId, source, target };
    const r = await call(this.base, 'POST', '/v2/commands/submit-and-wait-for-reassignment', {
      body: {
        reassignmentCommands: {
          commandId,
          submitter,
          ...(workflowId ? { workflowId } : {}),
          commands: [{ command: type === 'unassign' ? { UnassignCommand: { value } } : { AssignCommand: { value } } }],
        },
        eventFormat: { filtersForAnyParty: {} },
      },
    });
    if (r.status !== 200) throw new Error(`reassignment failed ${r.status}: ${r.text}`);
    const re = (r.json as { reassignment: Record<string, Json> }).reassignment;
    const offset = ledger.nextOffset();
    if (re.offset !== offset) throw new Error(`reassignment at offset ${JSON.stringify(re.offset)}, the model expected ${offset}`);
    const ev = (re.events as unknown as Record<string, Record<string, Json>>[])[0];
    const reassignmentId =
      type === 'unassign'
        ? str((ev?.JsUnassignedEvent?.value as Record<string, Json> | undefined)?.reassignmentId)
        : (pending as Move).reassignmentId;
    const counter = type === 'unassign' ? c.moves.filter((m) => m.type === 'unassign').length + 1 : (pending as Move).counter;
    const move: Move = {
      type,
      offset,
      source,
      target,
      counter,
      reassignmentId,
      submitter,
      ...(workflowId ? { workflowId } : {}),
      recordTime: str(re.recordTime),
    };
    c.moves.push(move);
    const synchronizerId = type === 'unassign' ? source : target;
    const mr = {
      kind: 'reassignment' as const,
      offset,
      updateId: str(re.updateId),
      commandId,
      ...(workflowId ? { workflowId } : {}),
      recordTime: str(re.recordTime),
      synchronizerId,
      submitter,
      move,
      contract: c,
    };
    ledger.add(mr);
    ledger.completions.push({
      offset,
      commandId,
      userId: USER,
      actAs: [submitter],
      updateId: mr.updateId,
      synchronizerId,
      recordTime: mr.recordTime,
      dedupSeconds: 0,
      failed: false,
    });
    this.check('submit-and-wait-for-reassignment', expectReassignment(ledger, mr, anyParty), re);
  }

  /** A party allocation: a topology transaction (README "Topology"); its ids and time are read back. */
  async allocate(hint: string, sync?: string): Promise<string> {
    const ledger = this.ledger;
    const r = await call(this.base, 'POST', '/v2/parties', { body: { partyIdHint: hint, ...(sync ? { synchronizerId: sync } : {}) } });
    if (r.status !== 200) throw new Error(`allocate ${hint}: ${r.status} ${r.text}`);
    const party = (r.json as { partyDetails: { party: string } }).partyDetails.party;
    const offset = ledger.nextOffset();
    const u = await call(this.base, 'POST', '/v2/updates/update-by-offset', {
      body: { offset, updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [party] } } } },
    });
    if (u.status !== 200) throw new Error(`topology update of ${hint} at ${offset}: ${u.status} ${u.text}`);
    const t = (u.json as { update: { TopologyTransaction: { value: Record<string, Json> } } }).update.TopologyTransaction.value;
    ledger.add({
      kind: 'topology',
      offset,
      updateId: str(t.updateId),
      recordTime: str(t.recordTime),
      synchronizerId: sync ?? (ledger.synchronizers[0] as string),
      party,
    });
    ledger.parties.push(party);
    return party;
  }

  /** An async submission that fails after acceptance (its contract is archived): a failed completion at its own offset. */
  async rejected(actAs: string[], command: unknown): Promise<void> {
    const ledger = this.ledger;
    const commandId = nextCommandId('model-x');
    const r = await call(this.base, 'POST', '/v2/commands/async/submit', { body: { commandId, actAs, commands: [command] } });
    if (r.status !== 200) throw new Error(`async submit failed ${r.status}: ${r.text}`);
    ledger.addRejection({
      offset: ledger.nextOffset(),
      commandId,
      userId: USER,
      actAs: [...new Set(actAs)].sort(),
      synchronizerId: ledger.synchronizers[0] as string,
      dedupSeconds: DEFAULT_DEDUP_SECONDS,
      failed: true,
    });
  }

  private check(what: string, expected: unknown, actual: unknown): void {
    this.submissions++;
    const d = diff(expected, actual, this.opaques);
    if (d.length > 0) throw new Error(`${what} answer differs from the model:\n${d.join('\n')}`);
  }
}

/** The synchronizer a contract is on now (undefined while unassigned). */
export function syncOf(c: MContract): string {
  const last = c.moves.at(-1);
  return last ? last.target : c.created.synchronizerId;
}

export const isUsable = (c: MContract): boolean => c.archived === undefined && c.moves.at(-1)?.type !== 'unassign';

export const templateRef = (c: ContractRef): string => `#simulator-demo:${QUALIFIED[c.template]}`;
