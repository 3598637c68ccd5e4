/**
 * Flattens described values into rows for the confirmation screen and the IPC wire: one row per value, indented by
 * depth, with its field name, Daml type and what it is (party, contract id with its template, numeric with its scale).
 */
import type { DValue } from './typed-value.js';

export interface ValueRow {
  depth: number;
  /** Field name, `[i]` for list items, the key of a map entry, or the constructor of a variant. */
  label: string;
  /** Daml type as text; null when the value could not be typed. */
  type: string | null;
  kind: DValue['kind'] | 'none';
  /** The value as text (record and list headers: a count). */
  text: string;
  party: string | null;
  contractId: string | null;
  /** Template of a contract id (from the transaction, else from the value's type). */
  template: string | null;
  /** Numeric scale (decimal places of the type). */
  scale: number | null;
}

/** Rows per transaction are bounded; a longer value is cut with a row saying how much was left out. */
export const MAX_ROWS = 4000;

export function valueRows(value: DValue, label: string, budget: { left: number }, depth = 0): ValueRow[] {
  const out: ValueRow[] = [];
  const push = (r: Partial<ValueRow> & Pick<ValueRow, 'depth' | 'label' | 'kind' | 'text'>): boolean => {
    if (budget.left <= 0) return false;
    budget.left--;
    out.push({ type: null, party: null, contractId: null, template: null, scale: null, ...r });
    return true;
  };
  const walk = (v: DValue, lab: string, d: number, type: string | null = v.type): void => {
    if (budget.left <= 0) return;
    switch (v.kind) {
      case 'record':
        if (!push({ depth: d, label: lab, kind: 'record', type, text: v.fields.length === 0 ? '(no fields)' : '' })) return;
        for (const f of v.fields) walk(f.value, f.name, d + 1);
        return;
      case 'variant': {
        const unit = v.value.kind === 'scalar' && v.value.prim === 'Unit';
        if (!push({ depth: d, label: lab, kind: 'variant', type, text: v.constructor })) return;
        if (!unit) walk(v.value, v.constructor, d + 1);
        return;
      }
      case 'enum':
        push({ depth: d, label: lab, kind: 'enum', type, text: v.constructor });
        return;
      case 'optional':
        if (v.value === null) push({ depth: d, label: lab, kind: 'none', type, text: 'None' });
        else walk(v.value, lab, d, type);
        return;
      case 'list':
        if (!push({ depth: d, label: lab, kind: 'list', type, text: v.items.length === 1 ? '1 item' : `${v.items.length} items` })) return;
        v.items.forEach((item, i) => walk(item, `[${i}]`, d + 1));
        return;
      case 'textMap':
        if (
          !push({ depth: d, label: lab, kind: 'textMap', type, text: v.entries.length === 1 ? '1 entry' : `${v.entries.length} entries` })
        )
          return;
        for (const e of v.entries) walk(e.value, JSON.stringify(e.key), d + 1);
        return;
      case 'genMap':
        if (!push({ depth: d, label: lab, kind: 'genMap', type, text: v.entries.length === 1 ? '1 entry' : `${v.entries.length} entries` }))
          return;
        v.entries.forEach((e, i) => {
          walk(e.key, `key ${i + 1}`, d + 1);
          walk(e.value, `value ${i + 1}`, d + 1);
        });
        return;
      case 'scalar':
        push({ depth: d, label: lab, kind: 'scalar', type, text: v.text });
        return;
      case 'numeric':
        push({ depth: d, label: lab, kind: 'numeric', type, text: v.value, scale: v.scale });
        return;
      case 'party':
        push({ depth: d, label: lab, kind: 'party', type, text: v.party, party: v.party });
        return;
      case 'contractId':
        push({ depth: d, label: lab, kind: 'contractId', type, text: v.contractId, contractId: v.contractId, template: v.template });
        return;
    }
  };
  walk(value, label, depth);
  if (budget.left <= 0 && out.length > 0)
    out.push({
      depth,
      label: '…',
      kind: 'none',
      text: 'more values not shown',
      type: null,
      party: null,
      contractId: null,
      template: null,
      scale: null,
    });
  return out;
}
