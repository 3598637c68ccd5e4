/**
 * Packed streaming form of a transaction: what update lists, pages and WebSocket update streams read.
 *
 * Written at commit time into `updates.frags` as a TEXT value (with `meta` NULL, see store/schema.ts):
 * a header of integers and then the JSON text of everything the answer needs that does not depend on
 * the request — the transaction header fields, the commandId field, each node's event fields, its
 * template key and implemented interfaces. Parties are the integer ids of the `parties` table, so a
 * read decides visibility without parsing JSON: it reads a few integers, matches them against the
 * request's party ids and appends slices of the text to the answer (`JsonOut`). TEXT rather than a
 * BLOB because SQLite text becomes a V8 string cheaply, while every BLOB becomes a separately
 * allocated Buffer (measured over 100,000 rows of ~1.3 KB: the BLOB column read cost ~3× a TEXT one).
 * The schema-2 form (splice.ts: a JSON `meta` every read had to parse, ~4.6 µs per row) is still read
 * for rows written before; a transaction naming a party without an id is stored in that form.
 *
 * Text: `ptx2|` then decimal integers separated by `,` and ended by `;`, then the JSON text. Integers:
 * h1 range, h2 range, commandId range, #actAs, actAs ids…, #nodes, per node: flags, nodeId, b, m, e,
 * template-key range, interfaces range, #stakeholders, ids…, #witnesses, ids…. Ranges are in UTF-16
 * code units, relative to the text after `;`. A create's event fields are [b, e); an exercise's
 * archived-event fields are [b, m), its exercised-event fields [b, e). [b, m) ends with
 * `,"implementedInterfaces":` and the template's interfaces (the interfaces range); reads cut that off
 * and write the interfaces the request's interface filters matched (matchEvent `views`), which
 * depend on the request.
 *
 * Fields Canton's JSON API always prints (see projection.ts) are part of the text: `workflowId` (`""`
 * when empty) in h2, and in a create's fields `contractKeyHash` (`""` without a key),
 * `createdEventBlob` `""` and `interfaceViews` `[]` (a spliced create never has a blob or views: those
 * are rendered from the node). A commandId hidden from the reader is written as `""`. Rows written
 * before in the `ptx1|` form lack these fields; reads add them (`legacyCreateDefaults`).
 */
import type { Match, ResolvedEventFormat, ResolvedTransactionFormat } from './filters.js';
import { matchEvent } from './filters.js';
import type { CreatedNode, StoredTransaction } from './model.js';
import type { PackageRegistry } from './packages/registry.js';
import { CREATE_DEFAULTS, createdEvent, legacyCreateDefaults } from './projection.js';
import type { JsonOut } from './splice.js';

const MARK = 'ptx2|';
/** The earlier packed form (no default fields in the text). */
const MARK_V1 = 'ptx1|';
const EXERCISE = 1;
const CONSUMING = 2;
const TRANSIENT = 4;
/** Header integers before the actAs list: h1 b/e, h2 b/e, cmd b/e. */
const FIXED = 6;

/** Party ↔ integer id (the `parties` table; ids are never reused). */
export interface PartyIds {
  pidOf(party: string): number | undefined;
  partyOf(pid: number): string | undefined;
}

export function isPacked(frags: unknown): frags is string {
  return typeof frags === 'string' && (frags.startsWith(MARK) || frags.startsWith(MARK_V1));
}

/** The packed form of a transaction, or undefined when one of its parties has no id. */
export function packTransaction(tx: StoredTransaction, pidOf: (party: string) => number | undefined): string | undefined {
  const ints: number[] = [];
  const text: string[] = [];
  let pos = 0;
  const add = (s: string): [number, number] => {
    const b = pos;
    pos += s.length;
    text.push(s);
    return [b, pos];
  };
  const ids = (ps: readonly string[]): boolean => {
    ints.push(ps.length);
    for (const p of ps) {
      const pid = pidOf(p);
      if (pid === undefined) return false;
      ints.push(pid);
    }
    return true;
  };
  const h1 = add(`"updateId":${JSON.stringify(tx.updateId)},"effectiveAt":${JSON.stringify(tx.effectiveAt)}`);
  const h2 = add(
    `"synchronizerId":${JSON.stringify(tx.synchronizerId)},"recordTime":${JSON.stringify(tx.recordTime)}` +
      `,"workflowId":${JSON.stringify(tx.workflowId ?? '')}`,
  );
  const cmd = add(tx.commandId ? `,"commandId":${JSON.stringify(tx.commandId)}` : '');
  ints.push(h1[0], h1[1], h2[0], h2[1], cmd[0], cmd[1]);
  if (!ids(tx.actAs)) return undefined;

  // transient: created and consumed within this transaction (not part of the ACS delta)
  const created = new Set<string>();
  for (const n of tx.nodes) if (n.kind === 'create') created.add(n.contractId);
  const transients = new Set<string>();
  for (const n of tx.nodes) if (n.kind === 'exercise' && n.consuming && created.has(n.contractId)) transients.add(n.contractId);
  ints.push(tx.nodes.length);
  for (const n of tx.nodes) {
    const transient = transients.has(n.contractId);
    const templateId = JSON.stringify(`${n.packageId}:${n.qualifiedName}`);
    let b: number, m: number, e: number, stakeholders: string[];
    if (n.kind === 'create') {
      let f =
        `"contractId":${JSON.stringify(n.contractId)},"templateId":${templateId},"createArgument":${JSON.stringify(n.createArgument)}` +
        `,"signatories":${JSON.stringify(n.signatories)},"observers":${JSON.stringify(n.observers)},"createdAt":${JSON.stringify(n.createdAt)}` +
        `,"packageName":${JSON.stringify(n.packageName)},"representativePackageId":${JSON.stringify(n.packageId)}`;
      if (n.contractKey !== undefined) f += `,"contractKey":${JSON.stringify(n.contractKey)}`;
      f += `,"contractKeyHash":${JSON.stringify(n.contractKey !== undefined ? (n.contractKeyHash ?? '') : '')}${CREATE_DEFAULTS}`;
      [b, e] = add(f);
      m = e;
      stakeholders = [...new Set([...n.signatories, ...n.observers])].sort();
    } else {
      [b, m] = add(
        `"contractId":${JSON.stringify(n.contractId)},"templateId":${templateId},"packageName":${JSON.stringify(n.packageName)}` +
          `,"implementedInterfaces":${JSON.stringify(n.implementedInterfaces)}`,
      );
      let rest =
        `,"choice":${JSON.stringify(n.choice)},"choiceArgument":${JSON.stringify(n.choiceArgument)},"actingParties":${JSON.stringify(n.actingParties)}` +
        `,"consuming":${n.consuming},"lastDescendantNodeId":${n.lastDescendantNodeId},"exerciseResult":${JSON.stringify(n.exerciseResult)}`;
      if (n.interfaceId) rest += `,"interfaceId":${JSON.stringify(n.interfaceId)}`;
      e = add(rest)[1];
      stakeholders = n.stakeholders;
    }
    const t = add(`${n.packageName}:${n.qualifiedName}`);
    const i = add(JSON.stringify(n.implementedInterfaces));
    const flags =
      (n.kind === 'exercise' ? EXERCISE : 0) | (n.kind === 'exercise' && n.consuming ? CONSUMING : 0) | (transient ? TRANSIENT : 0);
    ints.push(flags, n.nodeId, b, m, e, t[0], t[1], i[0], i[1]);
    if (!ids(stakeholders) || !ids(n.witnesses)) return undefined;
  }
  return `${MARK}${ints.join(',')};${text.join('')}`;
}

/**
 * Parses the header of a packed text into `ints` (reused between rows); returns where the JSON text
 * starts.
 */
function readHeader(s: string, ints: number[]): number {
  let k = 0;
  let v = 0;
  for (let p = MARK.length; p < s.length; p++) {
    const c = s.charCodeAt(p);
    if (c >= 48 && c <= 57) v = v * 10 + (c - 48);
    else {
      ints[k++] = v;
      v = 0;
      if (c === 59) {
        ints.length = k;
        return p + 1;
      }
    }
  }
  throw new Error('truncated packed transaction');
}

/** Who sees an event: its witnessParties JSON, their ids, and (generic filters) blob/interface views. */
interface Seen {
  witnesses: string;
  pids: number[];
  match: Match | undefined;
}

/**
 * An event format compiled against party ids for one request. Party-wildcard filters (the common
 * case: `filtersByParty` with empty/wildcard filters, or a wildcard `filtersForAnyParty`) match by
 * id alone and reuse the witnessParties JSON of each party set; other filters go through matchEvent.
 */
export class PackedFormat {
  private readonly mode: 'parties' | 'all' | 'generic';
  /** ids of the requested parties (byParty); they also decide commandId visibility */
  private readonly requested = new Set<number>();
  /** requested parties without an id yet (allocated later, while a stream tails the ledger) */
  private readonly unresolved = new Set<string>();
  private readonly witnessJson = new Map<string, string>();
  /** header integers of the row being planned (reused) */
  readonly ints: number[] = [];

  constructor(
    readonly fmt: ResolvedEventFormat,
    private readonly parties: PartyIds,
  ) {
    const plain = (pf: {
      wildcard: boolean;
      wildcardBlob: boolean;
      templates: Map<string, unknown>;
      interfaces: Map<string, unknown>;
    }): boolean => pf.wildcard && !pf.wildcardBlob && pf.templates.size === 0 && pf.interfaces.size === 0;
    if (fmt.any) this.mode = fmt.byParty.size === 0 && plain(fmt.any) ? 'all' : 'generic';
    else this.mode = [...fmt.byParty.values()].every(plain) ? 'parties' : 'generic';
    if (!fmt.any)
      for (const p of fmt.byParty.keys()) {
        const pid = parties.pidOf(p);
        if (pid === undefined) this.unresolved.add(p);
        else this.requested.add(pid);
      }
  }

  /** Whether `pid` is a requested party (resolving names that had no id when the request started). */
  private isRequested(pid: number): boolean {
    if (this.requested.has(pid)) return true;
    if (this.unresolved.size === 0) return false;
    const party = this.parties.partyOf(pid);
    if (party === undefined || !this.unresolved.delete(party)) return false;
    this.requested.add(pid);
    return true;
  }

  /** Whether the parties at ints[at, at + count) (actAs) let the request see the commandId. */
  showCommandId(at: number, count: number): boolean {
    if (this.fmt.any) return true; // any-party readers see every commandId (filters.ts readersOf)
    for (let k = at; k < at + count; k++) if (this.isRequested(this.ints[k] as number)) return true;
    return false;
  }

  /**
   * Matches the parties at ints[at, at + count) (a node's stakeholders or witnesses); `node` is the
   * index of the node's header integers (template key and interfaces are read for generic filters only).
   */
  see(packed: string, base: number, node: number, at: number, count: number): Seen | undefined {
    const ints = this.ints;
    if (this.mode === 'generic') {
      const candidates: string[] = [];
      for (let k = at; k < at + count; k++) candidates.push(this.partyOf(ints[k] as number));
      const t = packed.slice(base + (ints[node + 5] as number), base + (ints[node + 6] as number));
      const interfaces = JSON.parse(packed.slice(base + (ints[node + 7] as number), base + (ints[node + 8] as number))) as string[];
      const m = matchEvent(this.fmt, candidates, t, interfaces);
      if (!m) return undefined;
      return { witnesses: JSON.stringify(m.parties), pids: m.parties.map((p) => this.parties.pidOf(p) as number), match: m };
    }
    const pids: number[] = [];
    for (let k = at; k < at + count; k++) {
      const pid = ints[k] as number;
      if (this.mode === 'all' || this.isRequested(pid)) pids.push(pid);
    }
    if (pids.length === 0) return undefined;
    const key = pids.length === 1 ? String(pids[0]) : pids.join(',');
    let witnesses = this.witnessJson.get(key);
    if (witnesses === undefined) {
      witnesses = JSON.stringify(pids.map((p) => this.partyOf(p)).sort());
      this.witnessJson.set(key, witnesses);
    }
    return { witnesses, pids, match: undefined };
  }

  private partyOf(pid: number): string {
    const p = this.parties.partyOf(pid);
    if (p === undefined) throw new Error(`stored transaction names unknown party id ${pid}`);
    return p;
  }
}

interface PlannedEvent {
  kind: 'c' | 'a' | 'e';
  nodeId: number;
  /** the event's fields: text[b, e); of an exercise, text[b, cut) + implementedInterfaces + text[m, e) */
  b: number;
  e: number;
  /** exercise: end of the fields before the stored implementedInterfaces, and where the exercised-event fields go on */
  cut?: number;
  m?: number;
  /** exercise: the implementedInterfaces JSON of this event */
  ifaces?: string;
  witnesses: string;
  acsDelta: boolean;
  /** create of a `ptx1|` row: the default fields its text lacks */
  defaults?: string;
  /** complete event JSON when it cannot be spliced (created-event blob / interface views) */
  json?: string;
}

/** What a packed transaction shows for a format (decided before anything is written). */
export interface PackedPlan {
  text: string;
  offset: number;
  tree: boolean;
  h1: string;
  /** h2 (with workflowId) and the commandId field */
  tail: string;
  events: PlannedEvent[];
}

/** Complete created-event JSON from the full node, when the match needs a blob or interface views. */
function viaNode(
  seen: Seen,
  full: () => StoredTransaction,
  k: number,
  offset: number,
  acsDelta: boolean,
  registry: PackageRegistry,
): string | undefined {
  const match = seen.match;
  if (!match || (!match.blob && match.views.length === 0)) return undefined;
  return JSON.stringify(createdEvent(full().nodes[k] as CreatedNode, offset, match, acsDelta, registry));
}

/** Same rules as projection.ts transactionEvents; undefined when no event is visible. */
export function planPacked(
  packed: string,
  offset: number,
  tf: ResolvedTransactionFormat,
  pf: PackedFormat,
  registry: PackageRegistry,
  full: () => StoredTransaction,
  tree = false,
): PackedPlan | undefined {
  const ints = pf.ints;
  const base = readHeader(packed, ints);
  const v1 = packed.startsWith(MARK_V1);
  const defaultsOf = (e: number): string | undefined => (v1 ? legacyCreateDefaults(packed.slice(Math.max(base, e - 256), e)) : undefined);
  const nActAs = ints[FIXED] as number;
  const actAsAt = FIXED + 1;
  let p = actAsAt + nActAs;
  const nNodes = ints[p++] as number;
  const events: PlannedEvent[] = [];
  for (let k = 0; k < nNodes; k++) {
    const node = p;
    const flags = ints[p] as number;
    const nodeId = ints[p + 1] as number;
    const b = base + (ints[p + 2] as number);
    const m = base + (ints[p + 3] as number);
    const e = base + (ints[p + 4] as number);
    const nS = ints[p + 9] as number;
    const sAt = p + 10;
    const nW = ints[sAt + nS] as number;
    const wAt = sAt + nS + 1;
    p = wAt + nW;
    const exercise = (flags & EXERCISE) !== 0;
    const consuming = (flags & CONSUMING) !== 0;
    const transient = (flags & TRANSIENT) !== 0;
    // an exercise's [b, m) ends with the stored `,"implementedInterfaces":[…]` (see the header comment)
    const cut = exercise ? m - IFACES_KEY.length - ((ints[node + 8] as number) - (ints[node + 7] as number)) : m;
    if (tf.shape === 'ACS_DELTA') {
      if (transient || (exercise && !consuming)) continue;
      const seen = pf.see(packed, base, node, sAt, nS);
      if (!seen) continue;
      if (exercise) events.push({ kind: 'a', nodeId, b, e: m, cut, m, ifaces: viewsJson(seen), witnesses: seen.witnesses, acsDelta: true });
      else {
        const json = viaNode(seen, full, k, offset, true, registry);
        const defaults = json === undefined ? defaultsOf(e) : undefined;
        events.push({
          kind: 'c',
          nodeId,
          b,
          e,
          witnesses: seen.witnesses,
          acsDelta: true,
          ...(json !== undefined ? { json } : {}),
          ...(defaults !== undefined ? { defaults } : {}),
        });
      }
    } else {
      const seen = pf.see(packed, base, node, wAt, nW);
      if (!seen) continue;
      let inDelta = false;
      if (!transient) for (let x = sAt; x < sAt + nS && !inDelta; x++) if (seen.pids.includes(ints[x] as number)) inDelta = true;
      if (exercise)
        events.push({
          kind: 'e',
          nodeId,
          b,
          e,
          cut,
          m,
          ifaces: consuming ? viewsJson(seen) : '[]',
          witnesses: seen.witnesses,
          acsDelta: inDelta && consuming,
        });
      else {
        const json = viaNode(seen, full, k, offset, inDelta, registry);
        const defaults = json === undefined ? defaultsOf(e) : undefined;
        events.push({
          kind: 'c',
          nodeId,
          b,
          e,
          witnesses: seen.witnesses,
          acsDelta: inDelta,
          ...(json !== undefined ? { json } : {}),
          ...(defaults !== undefined ? { defaults } : {}),
        });
      }
    }
  }
  if (events.length === 0) return undefined;
  const showCmd = ints[4] !== ints[5] && pf.showCommandId(actAsAt, nActAs);
  let tail = packed.slice(base + (ints[2] as number), base + (ints[showCmd ? 5 : 3] as number));
  // a ptx1 row's h2 has workflowId only when it is set; a commandId nobody may see is written as ""
  if (v1 && !tail.includes(',"workflowId":')) tail += ',"workflowId":""';
  if (!showCmd) tail += ',"commandId":""';
  return {
    text: packed,
    offset,
    tree,
    h1: packed.slice(base + (ints[0] as number), base + (ints[1] as number)),
    tail,
    events,
  };
}

const IFACES_KEY = ',"implementedInterfaces":';

/** implementedInterfaces of an archived / consuming exercised event: the interfaces whose views the filters request. */
function viewsJson(seen: Seen): string {
  const views = seen.match?.views;
  return views === undefined || views.length === 0 ? '[]' : JSON.stringify(views);
}

function writeEvent(out: JsonOut, plan: PackedPlan, ev: PlannedEvent): void {
  if (ev.json !== undefined) {
    out.str(ev.json);
    return;
  }
  const t = plan.text;
  if (ev.kind === 'c')
    out.str(
      `{"offset":${plan.offset},"nodeId":${ev.nodeId},${t.slice(ev.b, ev.e)}${ev.defaults ?? ''},"witnessParties":${ev.witnesses},"acsDelta":${ev.acsDelta}}`,
    );
  else if (ev.kind === 'a')
    out.str(
      `{"offset":${plan.offset},"nodeId":${ev.nodeId},${t.slice(ev.b, ev.cut)}${IFACES_KEY}${ev.ifaces},"witnessParties":${ev.witnesses}}`,
    );
  else
    out.str(
      `{"offset":${plan.offset},"nodeId":${ev.nodeId},${t.slice(ev.b, ev.cut)}${IFACES_KEY}${ev.ifaces}${t.slice(ev.m, ev.e)}` +
        `,"witnessParties":${ev.witnesses},"acsDelta":${ev.acsDelta}}`,
    );
}

/** Writes `{"Transaction":{"value":…}}` or `{"TransactionTree":{"value":…}}` for a plan. */
export function writePacked(out: JsonOut, plan: PackedPlan): void {
  if (!plan.tree) {
    out.str(`{"Transaction":{"value":{${plan.h1},"events":[`);
    for (let k = 0; k < plan.events.length; k++) {
      const ev = plan.events[k] as PlannedEvent;
      out.str(`${k === 0 ? '' : ','}{"${ev.kind === 'c' ? 'CreatedEvent' : ev.kind === 'a' ? 'ArchivedEvent' : 'ExercisedEvent'}":`);
      writeEvent(out, plan, ev);
      out.str('}');
    }
    out.str(`],"offset":${plan.offset},${plan.tail}}}}`);
  } else {
    // a tree has the created and exercised events; archived events (ACS-delta shape) are left out (projection.ts projectTree)
    out.str(`{"TransactionTree":{"value":{${plan.h1},"offset":${plan.offset},"eventsById":{`);
    let first = true;
    for (const ev of plan.events) {
      if (ev.kind === 'a') continue;
      out.str(`${first ? '' : ','}"${ev.nodeId}":{"${ev.kind === 'c' ? 'CreatedTreeEvent' : 'ExercisedTreeEvent'}":{"value":`);
      first = false;
      writeEvent(out, plan, ev);
      out.str('}}');
    }
    out.str(`},${plan.tail}}}}`);
  }
}
