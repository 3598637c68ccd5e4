/**
 * Active contracts and contract life cycles over the JSON Ledger API v2: paged ACS reads
 * (`/v2/state/active-contracts-page`), a contract's events (`/v2/events/events-by-contract-id`,
 * falling back to `/v2/contracts/contract-by-id`), its timeline from the update stream (created →
 * exercised → archived, reassignments). Reassignment between synchronizers: reassign.ts.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { AcsPage, ContractDetail, ContractRow, JsonValue, TimelineEntry, UpdateFilter } from '../../ipc/contract.js';
import { ConsoleError } from '../../ipc/errors.js';
import type { LedgerClient } from '../ledger-client.js';
import { buildUpdateFormat, eventTree, qualifiedName } from './updates.js';

type S = v3_5.components['schemas'];
type CreatedEvent = S['CreatedEvent'];

/** Timeline reads at most this many updates of the contract's template. */
export const TIMELINE_MAX_UPDATES = 1000;
/** Finding a contract's current synchronizer scans at most this many ACS pages. */
const ACS_SCAN_PAGES = 20;

export interface AcsQuery {
  parties: string[];
  templates: string[];
  interfaces: string[];
  activeAtOffset: number | null;
  pageSize: number;
  pageToken: string | null;
}

function filterOf(
  q: { parties: string[]; templates?: string[]; interfaces?: string[] },
  shape: UpdateFilter['shape'] = 'ACS_DELTA',
): UpdateFilter {
  return {
    parties: q.parties,
    templates: q.templates ?? [],
    interfaces: q.interfaces ?? [],
    shape,
    includeReassignments: true,
    includeTopology: false,
    includeCreatedEventBlob: false,
    includeInterfaceViews: true,
    verbose: true,
  };
}

export function eventFormatOf(q: { parties: string[]; templates?: string[]; interfaces?: string[] }): S['EventFormat'] {
  const f = buildUpdateFormat(filterOf(q)).includeTransactions?.eventFormat;
  if (!f) throw new ConsoleError('INTERNAL', 'no event format');
  return f;
}

function json(v: unknown): JsonValue {
  return v === undefined ? null : (v as JsonValue);
}

function views(c: CreatedEvent): ContractRow['interfaceViews'] {
  return (c.interfaceViews ?? []).map((v) => ({
    interfaceId: v.interfaceId,
    view: v.viewValue === undefined ? null : json(v.viewValue),
    error: v.viewStatus.code !== 0 ? v.viewStatus.message || `status ${v.viewStatus.code}` : null,
  }));
}

export function rowFromCreated(
  c: CreatedEvent,
  extra: Partial<Pick<ContractRow, 'state' | 'synchronizerId' | 'reassignmentCounter' | 'reassignmentId' | 'targetSynchronizerId'>> = {},
): ContractRow {
  return {
    contractId: c.contractId,
    templateId: c.templateId,
    qualifiedName: qualifiedName(c.templateId),
    packageName: c.packageName,
    state: extra.state ?? 'active',
    synchronizerId: extra.synchronizerId ?? null,
    reassignmentCounter: extra.reassignmentCounter ?? 0,
    reassignmentId: extra.reassignmentId ?? null,
    targetSynchronizerId: extra.targetSynchronizerId ?? null,
    signatories: c.signatories,
    observers: c.observers ?? [],
    createdAt: c.createdAt,
    offset: c.offset,
    argument: json(c.createArgument),
    contractKey: c.contractKey === undefined ? null : json(c.contractKey),
    interfaceViews: views(c),
  };
}

/** One ACS entry as a row; undefined for empty entries. */
export function rowFromEntry(entry: S['JsContractEntry'] | undefined): ContractRow | undefined {
  if (!entry) return undefined;
  if ('JsActiveContract' in entry) {
    const a = entry.JsActiveContract;
    return rowFromCreated(a.createdEvent, { synchronizerId: a.synchronizerId, reassignmentCounter: a.reassignmentCounter });
  }
  if ('JsIncompleteUnassigned' in entry) {
    const u = entry.JsIncompleteUnassigned;
    return rowFromCreated(u.createdEvent, {
      state: 'unassigned',
      synchronizerId: u.unassignedEvent.source,
      targetSynchronizerId: u.unassignedEvent.target,
      reassignmentId: u.unassignedEvent.reassignmentId,
      reassignmentCounter: u.unassignedEvent.reassignmentCounter,
    });
  }
  if ('JsIncompleteAssigned' in entry) {
    const a = entry.JsIncompleteAssigned.assignedEvent;
    return rowFromCreated(a.createdEvent, {
      state: 'assigning',
      synchronizerId: a.source,
      targetSynchronizerId: a.target,
      reassignmentId: a.reassignmentId,
      reassignmentCounter: a.reassignmentCounter,
    });
  }
  return undefined;
}

/** One page of the active contract set. */
export async function fetchActiveContracts(client: LedgerClient, q: AcsQuery): Promise<AcsPage> {
  const body: S['GetActiveContractsPageRequest'] = {
    eventFormat: eventFormatOf(q),
    maxPageSize: q.pageSize,
    ...(q.activeAtOffset !== null ? { activeAtOffset: q.activeAtOffset } : {}),
    ...(q.pageToken ? { pageToken: q.pageToken } : {}),
  };
  // POST, as Canton serves it (LedgerPaths corrects the 3.5 types, which declare a GET with a body)
  const res = await client.read(client.api.POST('/v2/state/active-contracts-page', { body }));
  if (!Array.isArray(res.activeContracts)) {
    throw new ConsoleError('LEDGER_API_ERROR', 'active-contracts-page: the participant answered without a contract list');
  }
  const items = res.activeContracts.flatMap((r) => {
    const row = rowFromEntry(r.contractEntry);
    return row ? [row] : [];
  });
  return { items, activeAtOffset: res.activeAtOffset, nextPageToken: res.nextPageToken || null };
}

/** The contract's current ACS entry (synchronizer, counter, unassigned state), or undefined if not active. */
async function findInAcs(
  client: LedgerClient,
  parties: string[],
  templateId: string,
  contractId: string,
): Promise<ContractRow | undefined> {
  let pageToken: string | null = null;
  for (let i = 0; i < ACS_SCAN_PAGES; i++) {
    const page = await fetchActiveContracts(client, {
      parties,
      templates: [templateId],
      interfaces: [],
      activeAtOffset: null,
      pageSize: 1000,
      pageToken,
    });
    const hit = page.items.find((r) => r.contractId === contractId);
    if (hit) return hit;
    if (!page.nextPageToken) return undefined;
    pageToken = page.nextPageToken;
  }
  return undefined;
}

interface Events {
  created: CreatedEvent;
  synchronizerId: string | null;
  archived: S['ArchivedEvent'] | null;
}

async function contractEvents(client: LedgerClient, contractId: string, parties: string[]): Promise<Events> {
  try {
    const res = await client.read(
      client.api.POST('/v2/events/events-by-contract-id', { body: { contractId, eventFormat: eventFormatOf({ parties }) } }),
    );
    if (res.created) {
      return {
        created: res.created.createdEvent,
        synchronizerId: res.created.synchronizerId,
        archived: res.archived?.archivedEvent ?? null,
      };
    }
  } catch (err) {
    // Some participants (and pruned events) answer NOT_FOUND here while contract-by-id still knows the contract.
    if (!(err instanceof ConsoleError && err.canton && /NOT_FOUND/.test(err.canton.code))) throw err;
  }
  const byId = await client.read(
    client.api.POST('/v2/contracts/contract-by-id', { body: { contractId, ...(parties.length > 0 ? { queryingParties: parties } : {}) } }),
  );
  return { created: byId.createdEvent, synchronizerId: null, archived: null };
}

/** The updates touching the contract, from its creation to its archival (or the ledger end). */
export async function contractTimeline(
  client: LedgerClient,
  contractId: string,
  templateId: string,
  parties: string[],
  createdOffset: number,
  endOffset: number,
): Promise<{ entries: TimelineEntry[]; truncated: boolean }> {
  const body = {
    beginExclusive: Math.max(0, createdOffset - 1),
    endInclusive: endOffset,
    updateFormat: buildUpdateFormat(filterOf({ parties, templates: [templateId] }, 'LEDGER_EFFECTS')),
  };
  const raw = await client.read(client.api.POST('/v2/updates', { params: { query: { limit: TIMELINE_MAX_UPDATES } }, body }));
  const entries: TimelineEntry[] = [];
  for (const r of Array.isArray(raw) ? raw : []) {
    const u = r.update;
    if (!u) continue;
    if ('Transaction' in u) {
      const t = u.Transaction.value;
      const base = {
        offset: t.offset,
        updateId: t.updateId,
        recordTime: t.recordTime,
        synchronizerId: t.synchronizerId,
        commandId: t.commandId || null,
        targetSynchronizerId: null,
        reassignmentCounter: null,
      };
      const events = t.events;
      for (const e of events) {
        if ('CreatedEvent' in e && e.CreatedEvent.contractId === contractId) {
          entries.push({
            ...base,
            kind: 'created',
            choice: null,
            consuming: null,
            actingParties: e.CreatedEvent.signatories,
            argument: null,
            result: null,
            createdContracts: [],
          });
        } else if ('ExercisedEvent' in e && e.ExercisedEvent.contractId === contractId) {
          const x = e.ExercisedEvent;
          const createdContracts = events.flatMap((c) =>
            'CreatedEvent' in c && c.CreatedEvent.nodeId > x.nodeId && c.CreatedEvent.nodeId <= x.lastDescendantNodeId
              ? [{ contractId: c.CreatedEvent.contractId, qualifiedName: qualifiedName(c.CreatedEvent.templateId) }]
              : [],
          );
          const entry = {
            ...base,
            choice: x.choice,
            consuming: x.consuming,
            actingParties: x.actingParties,
            argument: json(x.choiceArgument),
            result: x.exerciseResult === undefined ? null : json(x.exerciseResult),
            createdContracts,
          };
          entries.push({ ...entry, kind: 'exercised' });
          if (x.consuming) entries.push({ ...entry, kind: 'archived', argument: null, result: null, createdContracts: [] });
        } else if ('ArchivedEvent' in e && e.ArchivedEvent.contractId === contractId) {
          entries.push({
            ...base,
            kind: 'archived',
            choice: null,
            consuming: true,
            actingParties: [],
            argument: null,
            result: null,
            createdContracts: [],
          });
        }
      }
    } else if ('Reassignment' in u) {
      const t = u.Reassignment.value;
      for (const e of t.events) {
        const base = {
          offset: t.offset,
          updateId: t.updateId,
          recordTime: t.recordTime,
          commandId: t.commandId || null,
          choice: null,
          consuming: null,
          argument: null,
          result: null,
          createdContracts: [],
        };
        if ('JsUnassignedEvent' in e && e.JsUnassignedEvent.value.contractId === contractId) {
          const v = e.JsUnassignedEvent.value;
          entries.push({
            ...base,
            kind: 'unassigned',
            synchronizerId: v.source,
            actingParties: v.submitter ? [v.submitter] : [],
            targetSynchronizerId: v.target,
            reassignmentCounter: v.reassignmentCounter,
          });
        } else if ('JsAssignmentEvent' in e && e.JsAssignmentEvent.createdEvent.contractId === contractId) {
          const v = e.JsAssignmentEvent;
          entries.push({
            ...base,
            kind: 'assigned',
            synchronizerId: v.target,
            actingParties: v.submitter ? [v.submitter] : [],
            targetSynchronizerId: v.target,
            reassignmentCounter: v.reassignmentCounter,
          });
        }
      }
    }
  }
  return { entries, truncated: Array.isArray(raw) && raw.length >= TIMELINE_MAX_UPDATES };
}

/** A contract (active or archived) with its life cycle. */
export async function fetchContractDetail(client: LedgerClient, contractId: string, parties: string[]): Promise<ContractDetail> {
  const ev = await contractEvents(client, contractId, parties);
  const created = ev.created;
  const ledgerEnd = (await client.ledgerEnd()).offset ?? 0;
  const readAs = parties.length > 0 ? parties : [];
  const [current, timeline, creation] = await Promise.all([
    ev.archived ? Promise.resolve(undefined) : findInAcs(client, readAs, created.templateId, contractId),
    contractTimeline(client, contractId, created.templateId, readAs, created.offset, ev.archived ? ev.archived.offset : ledgerEnd),
    creationTree(client, readAs, created.offset),
  ]);
  const contract = current ?? rowFromCreated(created, { synchronizerId: ev.synchronizerId });
  const entries = timeline.entries;
  // Archived through a path the range did not show (e.g. a participant that hides the exercise): still say so.
  if (ev.archived && !entries.some((e) => e.kind === 'archived')) {
    entries.push({
      kind: 'archived',
      offset: ev.archived.offset,
      updateId: null,
      recordTime: null,
      synchronizerId: null,
      choice: null,
      consuming: true,
      actingParties: [],
      argument: null,
      result: null,
      createdContracts: [],
      commandId: null,
      targetSynchronizerId: null,
      reassignmentCounter: null,
    });
  }
  if (!entries.some((e) => e.kind === 'created')) {
    entries.unshift({
      kind: 'created',
      offset: created.offset,
      updateId: null,
      recordTime: created.createdAt,
      synchronizerId: ev.synchronizerId,
      choice: null,
      consuming: null,
      actingParties: created.signatories,
      argument: null,
      result: null,
      createdContracts: [],
      commandId: null,
      targetSynchronizerId: null,
      reassignmentCounter: null,
    });
  }
  return {
    contract,
    active: ev.archived === null && current !== undefined,
    timeline: entries,
    timelineTruncated: timeline.truncated,
    creation,
  };
}

async function creationTree(client: LedgerClient, parties: string[], offset: number): Promise<ContractDetail['creation']> {
  try {
    const res = await client.read(
      client.api.POST('/v2/updates/update-by-offset', {
        body: { offset, updateFormat: buildUpdateFormat(filterOf({ parties }, 'LEDGER_EFFECTS')) },
      }),
    );
    return res.update ? eventTree(res.update) : [];
  } catch {
    return [];
  }
}
