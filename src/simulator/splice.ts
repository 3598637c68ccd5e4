/**
 * Pre-serialized transactions for the bulk read paths (update lists, pages, WebSocket streams).
 *
 * At commit time every transaction is stored twice: the full `StoredTransaction` (payload, used by
 * lookups and the object projection) and a compact form for streaming: `meta` (parties as indexes,
 * per node only what event-format matching needs) plus `frags`, the filter-independent part of each
 * node's event JSON, already serialized. Reading a transaction for a stream then costs one small
 * JSON.parse and string concatenation — the created arguments, contract ids etc. are never parsed
 * and re-serialized. Anything that needs the node itself (created-event blobs, interface views)
 * falls back to the full payload, so the output is identical to `projection.ts` (tested).
 *
 * New transactions are stored in the packed form (packed.ts); rows in this form, written by earlier
 * versions, lack the fields Canton always prints (workflowId `""`, a hidden commandId `""`, a
 * create's contractKeyHash / createdEventBlob / interfaceViews): reads add them.
 */
import type { Match, ResolvedEventFormat, ResolvedTransactionFormat } from './filters.js';
import { matchEvent, readersOf } from './filters.js';
import type { CreatedNode, StoredTransaction } from './model.js';
import type { PackageRegistry } from './packages/registry.js';
import type { JsonOut } from './json-out.js';
import { createdEvent, legacyCreateDefaults } from './projection-events.js';

interface NodeMeta {
  /** 0 = create, 1 = exercise */
  k: 0 | 1;
  /** node id */
  n: number;
  /** template key package-name:Module:Entity */
  t: string;
  /** stakeholders (party indexes) */
  s: number[];
  /** witnesses (party indexes) */
  w: number[];
  /** implemented interfaces */
  i: string[];
  /** consuming (exercise) */
  c?: 1;
  /** transient: created and consumed in this transaction */
  x?: 1;
  /** byte range [b, e) of the node's fragment in `frags`; exercise: [b, m) is the archived-event part, [m, e) the rest */
  b: number;
  e: number;
  m?: number;
}

export interface TransactionMeta {
  /** parties referenced by the nodes */
  p: string[];
  /** actAs */
  a: string[];
  /** header fields before `events` ("updateId", "effectiveAt") */
  h1: string;
  /** header fields after `offset` ("synchronizerId", "recordTime", "workflowId") */
  h2: string;
  /** JSON-encoded commandId, if any */
  cmd?: string;
  n: NodeMeta[];
}

const sortedUnique = (xs: string[]): string[] => [...new Set(xs)].sort();

/** Builds the compact meta and the fragments of a transaction (at commit time). */
export function serializeTransaction(tx: StoredTransaction): { meta: string; frags: Buffer } {
  const parties: string[] = [];
  const index = new Map<string, number>();
  const ix = (ps: string[]): number[] =>
    ps.map((p) => {
      let i = index.get(p);
      if (i === undefined) {
        i = parties.length;
        parties.push(p);
        index.set(p, i);
      }
      return i;
    });
  const created = new Set<string>();
  for (const n of tx.nodes) if (n.kind === 'create') created.add(n.contractId);
  const transient = new Set<string>();
  for (const n of tx.nodes) if (n.kind === 'exercise' && n.consuming && created.has(n.contractId)) transient.add(n.contractId);

  const nodes: NodeMeta[] = [];
  const frags: string[] = [];
  let pos = 0;
  const range = (f: string): { b: number; e: number } => {
    const b = pos;
    pos += Buffer.byteLength(f);
    return { b, e: pos };
  };
  for (const n of tx.nodes) {
    const templateId = JSON.stringify(`${n.packageId}:${n.qualifiedName}`);
    if (n.kind === 'create') {
      let f =
        `"contractId":${JSON.stringify(n.contractId)},"templateId":${templateId},"createArgument":${JSON.stringify(n.createArgument)}` +
        `,"signatories":${JSON.stringify(n.signatories)},"observers":${JSON.stringify(n.observers)}` +
        `,"createdAt":${JSON.stringify(n.createdAt)}` +
        `,"packageName":${JSON.stringify(n.packageName)},"representativePackageId":${JSON.stringify(n.packageId)}`;
      if (n.contractKey !== undefined) {
        f += `,"contractKey":${JSON.stringify(n.contractKey)}`;
        if (n.contractKeyHash) f += `,"contractKeyHash":${JSON.stringify(n.contractKeyHash)}`;
      }
      frags.push(f);
      nodes.push({
        ...range(f),
        k: 0,
        n: n.nodeId,
        t: `${n.packageName}:${n.qualifiedName}`,
        s: ix(sortedUnique([...n.signatories, ...n.observers])),
        w: ix(n.witnesses),
        i: n.implementedInterfaces,
        ...(transient.has(n.contractId) ? { x: 1 as const } : {}),
      });
    } else {
      const arch =
        `"contractId":${JSON.stringify(n.contractId)},"templateId":${templateId},"packageName":${JSON.stringify(n.packageName)}` +
        `,"implementedInterfaces":${JSON.stringify(n.implementedInterfaces)}`;
      let rest =
        `"choice":${JSON.stringify(n.choice)},"choiceArgument":${JSON.stringify(n.choiceArgument)}` +
        `,"actingParties":${JSON.stringify(n.actingParties)}` +
        `,"consuming":${n.consuming},"lastDescendantNodeId":${n.lastDescendantNodeId},"exerciseResult":${JSON.stringify(n.exerciseResult)}`;
      if (n.interfaceId) rest += `,"interfaceId":${JSON.stringify(n.interfaceId)}`;
      const a = range(arch);
      const r = range(rest);
      frags.push(arch, rest);
      nodes.push({
        b: a.b,
        m: a.e,
        e: r.e,
        k: 1,
        n: n.nodeId,
        t: `${n.packageName}:${n.qualifiedName}`,
        s: ix(n.stakeholders),
        w: ix(n.witnesses),
        i: n.implementedInterfaces,
        ...(n.consuming ? { c: 1 as const } : {}),
        ...(transient.has(n.contractId) ? { x: 1 as const } : {}),
      });
    }
  }
  const meta: TransactionMeta = {
    p: parties,
    a: tx.actAs,
    h1: `"updateId":${JSON.stringify(tx.updateId)},"effectiveAt":${JSON.stringify(tx.effectiveAt)}`,
    h2:
      `"synchronizerId":${JSON.stringify(tx.synchronizerId)},"recordTime":${JSON.stringify(tx.recordTime)}` +
      (tx.workflowId ? `,"workflowId":${JSON.stringify(tx.workflowId)}` : ''),
    ...(tx.commandId ? { cmd: JSON.stringify(tx.commandId) } : {}),
    n: nodes,
  };
  return { meta: JSON.stringify(meta), frags: Buffer.from(frags.join(''), 'utf8') };
}

/** A stored transaction in its streaming form; `full` loads the complete StoredTransaction when a node is needed. */
export interface SplicedRow {
  offset: number;
  meta: string;
  frags: Buffer;
  full: () => StoredTransaction;
}

const EMPTY: string[] = [];
/** Party-wildcard formats without blobs (the common case) match by party alone; see filters.ts matchEvent. */
function simpleWildcard(fmt: ResolvedEventFormat): boolean {
  let cached = simple.get(fmt);
  if (cached === undefined) {
    cached =
      !fmt.any &&
      [...fmt.byParty.values()].every((pf) => pf.wildcard && !pf.wildcardBlob && pf.templates.size === 0 && pf.interfaces.size === 0);
    simple.set(fmt, cached);
  }
  return cached;
}
const simple = new WeakMap<ResolvedEventFormat, boolean>();

function matchOf(fmt: ResolvedEventFormat, parties: string[], idx: number[], t: string, i: string[]): Match | undefined {
  if (simpleWildcard(fmt)) {
    const out: string[] = [];
    for (const x of idx) {
      const p = parties[x] as string;
      if (fmt.byParty.has(p)) out.push(p);
    }
    if (out.length === 0) return undefined;
    if (out.length > 1) out.sort();
    return { parties: out, blob: false, views: EMPTY };
  }
  return matchEvent(
    fmt,
    idx.map((x) => parties[x] as string),
    t,
    i,
  );
}

function showCommandId(actAs: string[], fmt: ResolvedEventFormat): boolean {
  const readers = readersOf(fmt);
  return readers === undefined || actAs.some((p) => readers.has(p));
}

interface PlannedEvent {
  node: NodeMeta;
  kind: 'c' | 'a' | 'e';
  m: Match;
  acsDelta: boolean;
  /** complete event JSON when it cannot be spliced (blob / interface views) */
  json?: string;
}

/** What a spliced transaction will show for a format (decided before anything is written). */
export interface TransactionPlan {
  row: SplicedRow;
  meta: TransactionMeta;
  events: PlannedEvent[];
  tree: boolean;
  showCommandId: boolean;
}

/** Same rules as projection.ts transactionEvents; undefined when no event is visible. */
export function planTransaction(
  row: SplicedRow,
  tf: ResolvedTransactionFormat,
  registry: PackageRegistry,
  tree = false,
): TransactionPlan | undefined {
  const meta = JSON.parse(row.meta) as TransactionMeta;
  const events: PlannedEvent[] = [];
  const o = row.offset;
  const viaNode = (k: number, m: Match, acsDelta: boolean): string | undefined => {
    if (!m.blob && m.views.length === 0) return undefined;
    return JSON.stringify(createdEvent(row.full().nodes[k] as CreatedNode, o, m, acsDelta, registry));
  };
  for (let k = 0; k < meta.n.length; k++) {
    const n = meta.n[k] as NodeMeta;
    if (tf.shape === 'ACS_DELTA') {
      if (n.x) continue;
      if (n.k === 0) {
        const m = matchOf(tf.events, meta.p, n.s, n.t, n.i);
        if (m) {
          const json = viaNode(k, m, true);
          events.push({ node: n, kind: 'c', m, acsDelta: true, ...(json !== undefined ? { json } : {}) });
        }
      } else if (n.c) {
        const m = matchOf(tf.events, meta.p, n.s, n.t, n.i);
        if (m) events.push({ node: n, kind: 'a', m, acsDelta: true });
      }
    } else {
      const m = matchOf(tf.events, meta.p, n.w, n.t, n.i);
      if (!m) continue;
      const inDelta = !n.x && n.s.some((x) => m.parties.includes(meta.p[x] as string));
      if (n.k === 0) {
        const json = viaNode(k, m, inDelta);
        events.push({ node: n, kind: 'c', m, acsDelta: inDelta, ...(json !== undefined ? { json } : {}) });
      } else events.push({ node: n, kind: 'e', m, acsDelta: inDelta && n.c === 1 });
    }
  }
  if (events.length === 0) return undefined;
  return { row, meta, events, tree, showCommandId: meta.cmd !== undefined && showCommandId(meta.a, tf.events) };
}

/**
 * An exercise's archived-event fragment ends with `,"implementedInterfaces":` and the template's
 * interfaces; reads write the interfaces the request's filters matched instead (matchEvent `views`).
 */
const IFACES_KEY = ',"implementedInterfaces":';

function writeEvent(out: JsonOut, plan: TransactionPlan, e: PlannedEvent): void {
  if (e.json !== undefined) {
    out.str(e.json);
    return;
  }
  const n = e.node;
  const f = plan.row.frags;
  out.str(`{"offset":${plan.row.offset},"nodeId":${n.n},`);
  if (e.kind === 'c') {
    const frag = f.subarray(n.b, n.e);
    out.bytes(frag);
    const defaults = legacyCreateDefaults(frag.toString('latin1', Math.max(0, frag.length - 256)));
    out.str(`${defaults},"witnessParties":${JSON.stringify(e.m.parties)},"acsDelta":${e.acsDelta}}`);
    return;
  }
  const m = n.m as number;
  const cut = m - Buffer.byteLength(IFACES_KEY + JSON.stringify(n.i));
  const ifaces = e.kind === 'a' || n.c === 1 ? JSON.stringify(e.m.views) : '[]';
  out.bytes(f.subarray(n.b, cut));
  out.str(`${IFACES_KEY}${ifaces}`);
  if (e.kind === 'a') out.str(`,"witnessParties":${JSON.stringify(e.m.parties)}}`);
  else {
    out.str(',');
    out.bytes(f.subarray(m, n.e));
    out.str(`,"witnessParties":${JSON.stringify(e.m.parties)},"acsDelta":${e.acsDelta}}`);
  }
}

/** Writes `{"Transaction":{"value":…}}` or `{"TransactionTree":{"value":…}}` for a plan. */
export function writeTransaction(out: JsonOut, plan: TransactionPlan): void {
  const { meta, row } = plan;
  const workflow = meta.h2.includes(',"workflowId":') ? '' : ',"workflowId":""';
  const cmd = `${workflow},"commandId":${plan.showCommandId ? (meta.cmd ?? '""') : '""'}`;
  if (!plan.tree) {
    out.str(`{"Transaction":{"value":{${meta.h1},"events":[`);
    plan.events.forEach((e, i) => {
      out.str(
        i === 0
          ? e.kind === 'c'
            ? '{"CreatedEvent":'
            : e.kind === 'a'
              ? '{"ArchivedEvent":'
              : '{"ExercisedEvent":'
          : e.kind === 'c'
            ? ',{"CreatedEvent":'
            : e.kind === 'a'
              ? ',{"ArchivedEvent":'
              : ',{"ExercisedEvent":',
      );
      writeEvent(out, plan, e);
      out.str('}');
    });
    out.str(`],"offset":${row.offset},${meta.h2}${cmd}}}}`);
  } else {
    // archived events (ACS-delta shape) are no tree events (projection.ts projectTree)
    out.str(`{"TransactionTree":{"value":{${meta.h1},"offset":${row.offset},"eventsById":{`);
    let first = true;
    for (const e of plan.events) {
      if (e.kind === 'a') continue;
      out.str(`${first ? '' : ','}"${e.node.n}":{"${e.kind === 'c' ? 'CreatedTreeEvent' : 'ExercisedTreeEvent'}":{"value":`);
      first = false;
      writeEvent(out, plan, e);
      out.str('}}');
    }
    out.str(`},${meta.h2}${cmd}}}}`);
  }
}
