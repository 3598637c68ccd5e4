/**
 * The model's answers of the read endpoints: how a request maps to an update format (including the
 * legacy `filter`/`verbose` fields), update lists and their trailing checkpoint, the active contract
 * set at an offset, events by contract id, and command completions.
 */
import { opaque } from './compare.js';
import { IMPLEMENTS, QUALIFIED, stakeholders } from './daml.js';
import type { MCompletion, MContract, ModelLedger } from './ledger.js';
import type { EventFormatJson, EventFormatModel, UpdateFormatModel } from './rules-filter.js';
import { eventFormatOf, matchModel, withWildcard } from './rules-filter.js';
import type { Expected } from './rules-project.js';
import { archivedEvent, createdEvent, expectUpdate, unassignedEvent } from './rules-project.js';

type Obj = { [k: string]: Expected | undefined };

export interface UpdateFormatJson {
  includeTransactions?: { transactionShape: string; eventFormat: EventFormatJson };
  includeReassignments?: EventFormatJson;
  includeTopologyEvents?: { includeParticipantAuthorizationEvents?: { parties?: string[] } };
}

export function updateFormatOf(uf: UpdateFormatJson): UpdateFormatModel {
  const t = uf.includeTransactions;
  return {
    ...(t
      ? {
          transactions: {
            shape: t.transactionShape === 'TRANSACTION_SHAPE_ACS_DELTA' ? 'ACS_DELTA' : 'LEDGER_EFFECTS',
            events: eventFormatOf(t.eventFormat),
          },
        }
      : {}),
    ...(uf.includeReassignments ? { reassignments: eventFormatOf(uf.includeReassignments) } : {}),
    ...(uf.includeTopologyEvents?.includeParticipantAuthorizationEvents
      ? { topology: uf.includeTopologyEvents.includeParticipantAuthorizationEvents.parties ?? [] }
      : {}),
  };
}

/**
 * GetUpdatesRequest.updateFormat: "Optional for backwards compatibility for GetUpdates request:
 * defaults to an UpdateFormat where … include_transactions.transaction_shape =
 * TRANSACTION_SHAPE_ACS_DELTA - include_reassignments.filter = the same filter specified on this
 * request …". The spec continues "include_topology_events.include_participant_authorization_events.parties
 * = all the parties specified in filter", but no Canton release does that: the JSON API's
 * JsUpdateServiceConverters.toUpdateFormat (3.3, 3.4, 3.5 and main) sets `includeTopologyEvents =
 * None`, so a participant sends no topology events to a legacy request; the model follows Canton.
 * Trees: ledger effects, every filter widened to a wildcard (withWildcard).
 */
export function legacyFormat(filter: EventFormatJson, tree: boolean): UpdateFormatModel {
  const ef = tree ? withWildcard(eventFormatOf(filter)) : eventFormatOf(filter);
  return { transactions: { shape: tree ? 'LEDGER_EFFECTS' : 'ACS_DELTA', events: ef }, reassignments: ef };
}

/** Synchronizer times of a checkpoint are the participant's view; the model checks their synchronizers only. */
export interface CheckpointExpectation {
  offset: number;
}

/**
 * An update list over (begin, end]: the visible updates in offset order (descending when asked),
 * then — ascending only — an OffsetCheckpoint at `end` when the last element is before it
 * (README "Endpoints": lists "end with an OffsetCheckpoint when the last element is before the end").
 */
export function expectUpdateList(
  ledger: ModelLedger,
  uf: UpdateFormatModel,
  tree: boolean,
  begin: number,
  end: number,
  descending = false,
): { items: Obj[]; checkpoint?: CheckpointExpectation } {
  const items: Obj[] = [];
  let last = begin;
  for (const u of ledger.range(begin, end)) {
    const e = expectUpdate(ledger, u, uf, tree);
    if (e) {
      items.push({ update: e });
      last = u.offset;
    }
  }
  if (descending) return { items: items.reverse() };
  return last < end && end > begin ? { items, checkpoint: { offset: end } } : { items };
}

/**
 * The ACS at `at`. GetActiveContractsRequest.eventFormat: "In case of CreatedEvent the presentation
 * will be of TRANSACTION_SHAPE_ACS_DELTA" (stakeholders of the contract). JsActiveContract.createdEvent:
 * "The event as it appeared in the context of its last update (i.e. daml transaction or reassignment).
 * In particular, the last offset, node_id pair is preserved"; reassignmentCounter: "the
 * reassignment_counter of the latest observable activation event on this synchronizer";
 * JsIncompleteUnassigned.createdEvent: "as it appeared in the context of its last activation update";
 * workflowId: "The workflow ID used in command submission which corresponds to the contract_entry"
 * (Canton ACSReader: the activation's, or for an incomplete unassignment the unassignment's), `""`
 * when none (a proto3 string); streamContinuationToken: "Only populated for the streaming
 * GetActiveContracts rpc call" — the HTTP list and the WebSocket stream are that call (an opaque token
 * per element, `tokenKey` names the request), pages clear it (Canton ApiStateService
 * getActiveContractsPage: `streamContinuationToken = ByteString.empty()`, printed `""`).
 * "If zero, the empty set will be returned." The order is not specified: answers are compared sorted
 * by contract id.
 */
export function expectAcs(ledger: ModelLedger, at: number, ef: EventFormatModel, tokenKey?: string): Obj[] {
  const out: { cid: string; entry: Obj }[] = [];
  for (const c of ledger.contracts.values()) {
    const st = ledger.stateAt(c, at);
    if (st.kind === 'none') continue;
    const m = matchModel(ef, stakeholders(c.template, c.args), QUALIFIED[c.template], IMPLEMENTS[c.template]);
    if (!m) continue;
    const ev = createdEvent(ledger, c, st.activation.offset, st.activation.nodeId, m, true);
    const token = tokenKey === undefined ? '' : opaque(`acs-token:${tokenKey}:${c.cid}`);
    if (st.kind === 'active') {
      out.push({
        cid: c.cid,
        entry: {
          workflowId: st.activation.workflowId ?? '',
          contractEntry: {
            JsActiveContract: {
              createdEvent: ev,
              synchronizerId: st.activation.synchronizerId,
              reassignmentCounter: st.activation.counter,
            },
          },
          streamContinuationToken: token,
        },
      });
    } else {
      out.push({
        cid: c.cid,
        entry: {
          workflowId: st.move.workflowId ?? '',
          contractEntry: { JsIncompleteUnassigned: { createdEvent: ev, unassignedEvent: unassignedEvent(ledger, c, st.move, m) } },
          streamContinuationToken: token,
        },
      });
    }
  }
  return out.sort((a, b) => (a.cid < b.cid ? -1 : a.cid > b.cid ? 1 : 0)).map((e) => e.entry);
}

/** Contract id of an ACS element (to sort answers the way expectAcs does). */
export function acsContractId(e: unknown): string {
  const entry = (e as { contractEntry: Record<string, { createdEvent: { contractId: string } }> }).contractEntry;
  const v = Object.values(entry)[0];
  return v?.createdEvent.contractId ?? '';
}

/**
 * Events by contract id. GetEventsByContractIdRequest.eventFormat: "the presentation will be of
 * TRANSACTION_SHAPE_ACS_DELTA". JsCreated.createdEvent: "as it appeared in the context of its original
 * update". Where the spec and Canton 3.5 (EventsReader.getEventsByContractId, EventReaderQueries
 * .fetchContractIdEvents) differ, the model follows Canton — clients cannot tell the simulator from a
 * participant:
 * - JsCreated.synchronizerId: "The synchronizer which sequenced the creation of the contract";
 *   JsArchived.synchronizerId: "The synchronizer which sequenced the archival of the contract" — Canton
 *   answers `fatCreatedEvent.synchronizerId`, the creating synchronizer, for both (a contract
 *   reassigned and then archived elsewhere shows the difference).
 * - The archive's witnesses are the create's (`filteredStakeholderParties = fatCreatedEvent.witnessParties`).
 * - A transient contract (created and archived by one transaction) is found: its create from the
 *   witnessed events (`lookupWitnessedCreated`, not part of the ACS: acsDelta false) and the consuming
 *   exercise at the same offset as its archive (`lookupTransientArchived`).
 * Unknown, invisible or pruned: CONTRACT_EVENTS_NOT_FOUND.
 */
export function expectEventsByContractId(ledger: ModelLedger, c: MContract, ef: EventFormatModel): Obj | undefined {
  if (c.archived && c.archived.offset <= ledger.prunedUpTo) return undefined;
  const m = matchModel(ef, stakeholders(c.template, c.args), QUALIFIED[c.template], IMPLEMENTS[c.template]);
  if (!m) return undefined;
  const transient = c.archived !== undefined && c.archived.offset === c.created.offset;
  return {
    created: {
      createdEvent: createdEvent(ledger, c, c.created.offset, c.created.nodeId, m, !transient),
      synchronizerId: c.created.synchronizerId,
    },
    ...(c.archived
      ? {
          archived: {
            archivedEvent: archivedEvent(ledger, c, c.archived.offset, c.archived.nodeId, m),
            synchronizerId: c.created.synchronizerId,
          },
        }
      : {}),
  };
}

/**
 * Completions. GetCompletionsRequest.parties: "only completions of commands are included, which have
 * at least one of the ``act_as`` parties in the given set of parties"; the user is the requesting
 * user. A rejected command's completion has a non-OK status and no updateId. Lists end with an
 * OffsetCheckpoint at the ledger end when the last completion is before it.
 */
export function expectCompletions(
  ledger: ModelLedger,
  parties: string[],
  userId: string,
  begin: number,
): { items: Obj[]; checkpoint?: CheckpointExpectation } {
  const items: Obj[] = [];
  let last = begin;
  for (const c of ledger.completions) {
    if (c.offset <= begin || !c.actAs.some((p) => parties.includes(p)) || c.userId !== userId) continue;
    items.push(completion(c));
    last = c.offset;
  }
  const end = ledger.ledgerEnd;
  return last < end && end > begin ? { items, checkpoint: { offset: end } } : { items };
}

/**
 * One completion as Canton prints the scalapb Completion (CirceRelaxedCodec): the proto3 strings
 * updateId (`""` for a rejection) and submissionId (`""` when none), the int64 paidTrafficCost (`0`:
 * "for completions processed before the participant started serving traffic cost on the Ledger API,
 * this field will be set to zero" — the simulator charges no traffic), the status with its details
 * (JsSchema grpcStatusEncoder), and the deduplication Duration, a scalapb message printed with its
 * `unknownFields` (as real participants print durations, e.g. in /v2/version).
 */
function completion(c: MCompletion): Obj {
  return {
    completionResponse: {
      Completion: {
        value: {
          commandId: c.commandId,
          // a rejection: NOT_FOUND (the scenario's rejections use archived contracts); the message names the error code
          status: c.failed ? { code: 5, message: opaque(`status:${c.offset}`), details: [] } : { code: 0, message: '', details: [] },
          updateId: c.updateId ?? '',
          userId: c.userId,
          actAs: c.actAs,
          submissionId: c.submissionId ?? '',
          deduplicationPeriod: { DeduplicationDuration: { value: { seconds: c.dedupSeconds, nanos: 0, unknownFields: { fields: {} } } } },
          offset: c.offset,
          synchronizerTime: { synchronizerId: c.synchronizerId, recordTime: c.recordTime ?? opaque(`rt:${c.offset}`) },
          paidTrafficCost: 0,
        },
      },
    },
  };
}
