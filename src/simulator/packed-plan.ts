/**
 * Reading a packed transaction (packed.ts) for a request: which events it shows (`planPacked`, decided before anything
 * is written) and their JSON appended to the answer (`writePacked`), by slices of the stored text.
 */
import type { ResolvedTransactionFormat } from './filters.js';
import type { CreatedNode, StoredTransaction } from './model.js';
import { CONSUMING, EXERCISE, FIXED, MARK_V1, readHeader, TRANSIENT } from './packed.js';
import type { PackedFormat, Seen } from './packed-format.js';
import type { PackageRegistry } from './packages/registry.js';
import { createdEvent, legacyCreateDefaults } from './projection-events.js';
import type { JsonOut } from './json-out.js';

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
      `{"offset":${plan.offset},"nodeId":${ev.nodeId},${t.slice(ev.b, ev.e)}${ev.defaults ?? ''}` +
        `,"witnessParties":${ev.witnesses},"acsDelta":${ev.acsDelta}}`,
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
