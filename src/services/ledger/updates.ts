/**
 * Update stream helpers over the JSON Ledger API v2: the filter → `UpdateFormat` mapping, list
 * summaries and the event tree of one update (ledger-effects events nested by node ids), and the
 * HTTP reads (ranges via `POST /v2/updates`, lookups by offset or id, the party list).
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type {
  EventKind,
  EventNode,
  PartyOption,
  UpdateDetail,
  UpdateFilter,
  UpdateRangeResponse,
  UpdateSummary,
} from '../../ipc/contract.js';
import { ConsoleError } from '../../ipc/errors.js';
import type { LedgerClient } from '../ledger-client.js';

type S = v3_5.components['schemas'];
export type JsUpdate = S['Update'];
export type UpdateFormat = S['UpdateFormat'];
export type GetUpdatesRequest = S['GetUpdatesRequest'];

const MAX_TEMPLATES = 8;
const MAX_PARTIES = 12;

/** The Ledger API `UpdateFormat` for the operator's filter (cumulative template/interface/wildcard filters). */
export function buildUpdateFormat(filter: UpdateFilter): UpdateFormat {
  const blob = filter.includeCreatedEventBlob;
  const cumulative: S['CumulativeFilter'][] = [];
  if (filter.templates.length === 0 && filter.interfaces.length === 0) {
    cumulative.push({ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: blob } } } });
  }
  for (const templateId of filter.templates) {
    cumulative.push({ identifierFilter: { TemplateFilter: { value: { templateId, includeCreatedEventBlob: blob } } } });
  }
  for (const interfaceId of filter.interfaces) {
    cumulative.push({
      identifierFilter: {
        InterfaceFilter: { value: { interfaceId, includeInterfaceView: filter.includeInterfaceViews, includeCreatedEventBlob: blob } },
      },
    });
  }
  const filters: S['Filters'] = { cumulative };
  const eventFormat: S['EventFormat'] =
    filter.parties.length > 0
      ? { filtersByParty: Object.fromEntries(filter.parties.map((p) => [p, filters])), verbose: filter.verbose }
      : { filtersForAnyParty: filters, verbose: filter.verbose };
  const format: UpdateFormat = {
    includeTransactions: {
      eventFormat,
      transactionShape: filter.shape === 'LEDGER_EFFECTS' ? 'TRANSACTION_SHAPE_LEDGER_EFFECTS' : 'TRANSACTION_SHAPE_ACS_DELTA',
    },
  };
  if (filter.includeReassignments) format.includeReassignments = eventFormat;
  if (filter.includeTopology) {
    format.includeTopologyEvents = { includeParticipantAuthorizationEvents: { parties: [...filter.parties] } };
  }
  return format;
}

/** Offset of any update, including checkpoints. */
export function updateOffset(u: JsUpdate): number {
  if ('Transaction' in u) return u.Transaction.value.offset;
  if ('Reassignment' in u) return u.Reassignment.value.offset;
  if ('TopologyTransaction' in u) return u.TopologyTransaction.value.offset;
  return u.OffsetCheckpoint.value.offset;
}

export function isCheckpoint(u: JsUpdate): boolean {
  return 'OffsetCheckpoint' in u;
}

/** `pkg:Module.Path:Entity` → `Module.Path:Entity`. */
export function qualifiedName(templateId: string): string {
  const i = templateId.indexOf(':');
  return i >= 0 ? templateId.slice(i + 1) : templateId;
}

interface FlatEvent {
  kind: EventKind;
  nodeId: number | null;
  lastDescendantNodeId: number | null;
  contractId: string | null;
  templateId: string | null;
  choice: string | null;
  consuming: boolean | null;
  parties: string[];
  raw: unknown;
}

type TopologyEventEvent = NonNullable<S['TopologyEvent']['event']>;

function topologyParties(ev: TopologyEventEvent): { party: string | null; kind: string } {
  if ('ParticipantAuthorizationAdded' in ev) return { party: ev.ParticipantAuthorizationAdded.value.partyId, kind: 'added' };
  if ('ParticipantAuthorizationChanged' in ev) return { party: ev.ParticipantAuthorizationChanged.value.partyId, kind: 'changed' };
  if ('ParticipantAuthorizationOnboarding' in ev) return { party: ev.ParticipantAuthorizationOnboarding.value.partyId, kind: 'onboarding' };
  if ('ParticipantAuthorizationRevoked' in ev) return { party: ev.ParticipantAuthorizationRevoked.value.partyId, kind: 'revoked' };
  return { party: null, kind: 'empty' };
}

function flatEvents(u: JsUpdate): FlatEvent[] {
  const out: FlatEvent[] = [];
  if ('Transaction' in u) {
    for (const e of u.Transaction.value.events) {
      if ('CreatedEvent' in e) {
        const c = e.CreatedEvent;
        out.push({
          kind: 'created',
          nodeId: c.nodeId,
          lastDescendantNodeId: null,
          contractId: c.contractId,
          templateId: c.templateId,
          choice: null,
          consuming: null,
          parties: unique([...c.witnessParties, ...c.signatories, ...(c.observers ?? [])]),
          raw: e,
        });
      } else if ('ArchivedEvent' in e) {
        const a = e.ArchivedEvent;
        out.push({
          kind: 'archived',
          nodeId: a.nodeId,
          lastDescendantNodeId: null,
          contractId: a.contractId,
          templateId: a.templateId,
          choice: null,
          consuming: null,
          parties: unique([...a.witnessParties]),
          raw: e,
        });
      } else if ('ExercisedEvent' in e) {
        const x = e.ExercisedEvent;
        out.push({
          kind: 'exercised',
          nodeId: x.nodeId,
          lastDescendantNodeId: x.lastDescendantNodeId,
          contractId: x.contractId,
          templateId: x.templateId,
          choice: x.choice,
          consuming: x.consuming,
          parties: unique([...x.actingParties, ...x.witnessParties]),
          raw: e,
        });
      }
    }
  } else if ('Reassignment' in u) {
    for (const e of u.Reassignment.value.events) {
      if ('JsAssignmentEvent' in e) {
        const a = e.JsAssignmentEvent;
        const c = a.createdEvent;
        out.push({
          kind: 'assigned',
          nodeId: c.nodeId,
          lastDescendantNodeId: null,
          contractId: c.contractId,
          templateId: c.templateId,
          choice: null,
          consuming: null,
          parties: unique([...c.witnessParties, ...c.signatories, ...(c.observers ?? [])]),
          raw: e,
        });
      } else if ('JsUnassignedEvent' in e) {
        const x = e.JsUnassignedEvent.value;
        out.push({
          kind: 'unassigned',
          nodeId: x.nodeId,
          lastDescendantNodeId: null,
          contractId: x.contractId,
          templateId: x.templateId,
          choice: null,
          consuming: null,
          parties: unique([...x.witnessParties]),
          raw: e,
        });
      }
    }
  } else if ('TopologyTransaction' in u) {
    for (const e of u.TopologyTransaction.value.events) {
      const t = e.event ? topologyParties(e.event) : { party: null, kind: 'empty' };
      out.push({
        kind: 'topology',
        nodeId: null,
        lastDescendantNodeId: null,
        contractId: null,
        templateId: null,
        choice: t.kind,
        consuming: null,
        parties: t.party ? [t.party] : [],
        raw: e,
      });
    }
  }
  return out;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** One list row for an update. */
export function summarizeUpdate(u: JsUpdate): UpdateSummary {
  const events = flatEvents(u);
  const counts = { created: 0, archived: 0, exercised: 0, assigned: 0, unassigned: 0, topology: 0 };
  const templates = new Set<string>();
  const parties = new Set<string>();
  for (const e of events) {
    counts[e.kind]++;
    if (e.templateId) templates.add(qualifiedName(e.templateId));
    for (const p of e.parties) parties.add(p);
  }
  const base = {
    eventCount: events.length,
    counts,
    templates: [...templates].slice(0, MAX_TEMPLATES),
    parties: [...parties].slice(0, MAX_PARTIES),
    partyCount: parties.size,
  };
  if ('Transaction' in u) {
    const t = u.Transaction.value;
    return {
      ...base,
      offset: t.offset,
      kind: 'transaction',
      updateId: t.updateId,
      recordTime: t.recordTime,
      effectiveAt: t.effectiveAt,
      commandId: t.commandId || null,
      workflowId: t.workflowId || null,
      synchronizerId: t.synchronizerId,
    };
  }
  if ('Reassignment' in u) {
    const r = u.Reassignment.value;
    return {
      ...base,
      offset: r.offset,
      kind: 'reassignment',
      updateId: r.updateId,
      recordTime: r.recordTime,
      effectiveAt: null,
      commandId: r.commandId || null,
      workflowId: r.workflowId || null,
      synchronizerId: r.synchronizerId,
    };
  }
  if ('TopologyTransaction' in u) {
    const t = u.TopologyTransaction.value;
    return {
      ...base,
      offset: t.offset,
      kind: 'topology',
      updateId: t.updateId,
      recordTime: t.recordTime,
      effectiveAt: null,
      commandId: null,
      workflowId: null,
      synchronizerId: t.synchronizerId,
    };
  }
  const c = u.OffsetCheckpoint.value;
  return {
    ...base,
    offset: c.offset,
    kind: 'checkpoint',
    updateId: null,
    recordTime: c.synchronizerTimes?.[0]?.recordTime ?? null,
    effectiveAt: null,
    commandId: null,
    workflowId: null,
    synchronizerId: c.synchronizerTimes?.[0]?.synchronizerId ?? null,
  };
}

/**
 * Events in node-id order with their depth: an event is nested under every exercised event whose
 * (nodeId, lastDescendantNodeId] range contains its node id. Events the filter hid leave gaps; the
 * nesting still follows the ranges, so a visible child of a hidden parent sits under the nearest
 * visible ancestor.
 */
export function eventTree(u: JsUpdate): EventNode[] {
  const events = flatEvents(u);
  const ordered = events.every((e) => e.nodeId !== null) ? [...events].sort((a, b) => (a.nodeId ?? 0) - (b.nodeId ?? 0)) : events;
  const stack: number[] = []; // lastDescendantNodeId of open exercised ancestors
  return ordered.map((e, i) => {
    const id = e.nodeId;
    if (id !== null) while (stack.length > 0 && (stack.at(-1) ?? -1) < id) stack.pop();
    const depth = id === null ? 0 : stack.length;
    if (e.kind === 'exercised' && e.lastDescendantNodeId !== null && id !== null && e.lastDescendantNodeId > id) {
      stack.push(e.lastDescendantNodeId);
    }
    return {
      key: `${i}:${e.kind}:${id ?? 'n'}`,
      nodeId: id,
      lastDescendantNodeId: e.lastDescendantNodeId,
      depth,
      kind: e.kind,
      contractId: e.contractId,
      templateId: e.templateId,
      choice: e.choice,
      consuming: e.consuming,
      parties: e.parties,
      json: JSON.stringify(e.raw, null, 2),
    };
  });
}

export function updateDetail(u: JsUpdate): UpdateDetail {
  return { summary: summarizeUpdate(u), events: eventTree(u), json: JSON.stringify(u, null, 2) };
}

export interface RangeQuery {
  beginExclusive: number;
  endInclusive: number | null;
  descending: boolean;
  limit: number;
}

/**
 * One page of a historical range through `POST /v2/updates?limit=N`. Descending pages walk from
 * the upper bound down; ascending pages from the lower bound up. Checkpoints are dropped.
 */
export async function fetchUpdateRange(client: LedgerClient, filter: UpdateFilter, q: RangeQuery): Promise<UpdateRangeResponse> {
  const ledgerEnd = (await client.ledgerEnd()).offset ?? 0;
  const end = Math.min(q.endInclusive ?? ledgerEnd, ledgerEnd);
  const begin = q.beginExclusive;
  if (end <= begin) return { items: [], ledgerEnd, next: null };
  const body: GetUpdatesRequest = {
    beginExclusive: begin,
    endInclusive: end,
    updateFormat: buildUpdateFormat(filter),
    ...(q.descending ? { descendingOrder: true } : {}),
  };
  // One extra element tells whether there is more; the participant never returns more than `limit`.
  const raw = await client.read(client.api.POST('/v2/updates', { params: { query: { limit: q.limit + 1 } }, body }));
  if (!Array.isArray(raw)) throw new ConsoleError('LEDGER_API_ERROR', 'POST /v2/updates: the participant did not answer with a list');
  const updates = raw.flatMap((r) => (r.update && !isCheckpoint(r.update) ? [r.update] : []));
  const more = updates.length > q.limit;
  const page = updates.slice(0, q.limit);
  const items = page.map(summarizeUpdate);
  let next: UpdateRangeResponse['next'] = null;
  const last = items.at(-1);
  if (more && last) {
    next = q.descending ? { beginExclusive: begin, endInclusive: last.offset - 1 } : { beginExclusive: last.offset, endInclusive: end };
    if (next.endInclusive <= next.beginExclusive) next = null;
  }
  return { items, ledgerEnd, next };
}

export async function fetchUpdate(
  client: LedgerClient,
  filter: UpdateFilter,
  by: { offset?: number | undefined; updateId?: string | undefined },
): Promise<UpdateDetail> {
  const updateFormat = buildUpdateFormat(filter);
  if (by.updateId === undefined && by.offset === undefined) throw new ConsoleError('BAD_REQUEST', 'An update id or an offset is needed');
  const res =
    by.updateId !== undefined
      ? await client.read(client.api.POST('/v2/updates/update-by-id', { body: { updateId: by.updateId, updateFormat } }))
      : await client.read(client.api.POST('/v2/updates/update-by-offset', { body: { offset: by.offset ?? 0, updateFormat } }));
  if (!res.update) {
    throw new ConsoleError('LEDGER_API_ERROR', 'The participant answered without an update');
  }
  return updateDetail(res.update);
}

/** All parties known to the participant (paged `GET /v2/parties`), local ones first. */
export async function listParties(client: LedgerClient): Promise<PartyOption[]> {
  const out: PartyOption[] = [];
  let token = '';
  for (let page = 0; page < 100; page++) {
    const query = token ? { pageSize: 1000, pageToken: token } : { pageSize: 1000 };
    const res = await client.read(client.api.GET('/v2/parties', { params: { query } }));
    for (const p of res.partyDetails) out.push({ party: p.party, isLocal: p.isLocal ?? false });
    token = res.nextPageToken ?? '';
    if (!token) break;
  }
  return out.sort((a, b) => Number(b.isLocal) - Number(a.isLocal) || a.party.localeCompare(b.party));
}
