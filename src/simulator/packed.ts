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
 * Fields Canton's JSON API always prints (see projection-events.ts) are part of the text: `workflowId` (`""`
 * when empty) in h2, and in a create's fields `contractKeyHash` (`""` without a key),
 * `createdEventBlob` `""` and `interfaceViews` `[]` (a spliced create never has a blob or views: those
 * are rendered from the node). A commandId hidden from the reader is written as `""`. Rows written
 * before in the `ptx1|` form lack these fields; reads add them (`legacyCreateDefaults`).
 */
import type { StoredTransaction } from './model.js';
import { CREATE_DEFAULTS } from './projection-events.js';

const MARK = 'ptx2|';
/** The earlier packed form (no default fields in the text). */
export const MARK_V1 = 'ptx1|';
export const EXERCISE = 1;
export const CONSUMING = 2;
export const TRANSIENT = 4;
/** Header integers before the actAs list: h1 b/e, h2 b/e, cmd b/e. */
export const FIXED = 6;

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
        `,"signatories":${JSON.stringify(n.signatories)},"observers":${JSON.stringify(n.observers)}` +
        `,"createdAt":${JSON.stringify(n.createdAt)}` +
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
        `,"choice":${JSON.stringify(n.choice)},"choiceArgument":${JSON.stringify(n.choiceArgument)}` +
        `,"actingParties":${JSON.stringify(n.actingParties)}` +
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
export function readHeader(s: string, ints: number[]): number {
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
