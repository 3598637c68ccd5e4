/** Display helpers for contract values and life cycles (pure; unit-tested). */
import type { JsonValue, TemplateCatalog, TimelineEntry } from '../../../../src/ipc/contract.js';
import { formatDecimal } from '../format.js';

export type ValueKind = 'party' | 'contractId' | 'numeric' | 'text' | 'bool' | 'none' | 'record' | 'list' | 'variant';

/** Canton contract ids are hex starting with 00, 66+ characters. */
export function looksLikeContractId(s: string): boolean {
  return /^00[0-9a-f]{64,}$/i.test(s);
}

export function looksLikeParty(s: string): boolean {
  return /^[A-Za-z0-9:\-_ ]+::1220[0-9a-f]{64}$/.test(s) || /^[A-Za-z0-9\-_ ]+::[0-9a-f]{8,}$/.test(s);
}

/** What a value is, for rendering without its type: parties, contract ids and decimals are recognised by shape. */
export function valueKind(v: JsonValue): ValueKind {
  if (v === null) return 'none';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'numeric';
  if (typeof v === 'string') {
    if (looksLikeContractId(v)) return 'contractId';
    if (looksLikeParty(v)) return 'party';
    if (/^-?\d+(\.\d+)?$/.test(v)) return 'numeric';
    return 'text';
  }
  if (Array.isArray(v)) return 'list';
  if (typeof v.tag === 'string' && Object.keys(v).every((k) => k === 'tag' || k === 'value')) return 'variant';
  return 'record';
}

/**
 * `250.5000000000` → `250.5`, `1250.5` → `1,250.5`, `-3.0` → `−3` (lib/format.ts formatDecimal); keeps integers and
 * non-numbers as they are.
 */
export function formatNumeric(s: string): string {
  if (!/^-?\d+\.\d+$/.test(s)) return s;
  return formatDecimal(s);
}

export const TIMELINE_LABELS: Record<TimelineEntry['kind'], string> = {
  created: 'Created',
  exercised: 'Exercised',
  archived: 'Archived',
  unassigned: 'Unassigned',
  assigned: 'Assigned',
};

/** One line for a timeline entry. */
export function describeEntry(e: TimelineEntry): string {
  switch (e.kind) {
    case 'created':
      return 'Created';
    case 'exercised':
      return `${e.choice ?? 'choice'} exercised${e.consuming ? ' (consuming)' : ' (non-consuming)'}`;
    case 'archived':
      return e.choice ? `Archived by ${e.choice}` : 'Archived';
    case 'unassigned':
      return `Unassigned → counter ${e.reassignmentCounter ?? '?'}`;
    case 'assigned':
      return `Assigned (counter ${e.reassignmentCounter ?? '?'})`;
  }
}

/** Template picker options: templates first, then interfaces; value = the name reference used in filters and commands. */
export function templateOptions(catalog: TemplateCatalog | null): Array<{ value: string; label: string; kind: 'template' | 'interface' }> {
  if (!catalog) return [];
  return [
    ...catalog.templates.map((t) => ({
      value: t.id,
      label: `${t.qualifiedName} (${t.packageName || t.packageId.slice(0, 8)} ${t.packageVersion})`,
      kind: 'template' as const,
    })),
    ...catalog.interfaces.map((i) => ({ value: i.id, label: `${i.qualifiedName} (interface)`, kind: 'interface' as const })),
  ];
}

/** The catalog entry of a contract's template id (package id form). */
export function templateOf(catalog: TemplateCatalog | null, templateId: string) {
  return catalog?.templates.find((t) => t.id === templateId) ?? null;
}

/** Short preview of a create argument for a list row: text/number fields first, then party hints. */
export function argumentPreview(v: JsonValue, max = 3): string {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return '';
  const plain: string[] = [];
  const partyParts: string[] = [];
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'string') {
      if (looksLikeParty(x)) partyParts.push(`${k}: ${x.slice(0, x.indexOf('::'))}`);
      else if (!looksLikeContractId(x)) plain.push(`${k}: ${formatNumeric(x)}`);
    } else if (typeof x === 'number' || typeof x === 'boolean') plain.push(`${k}: ${String(x)}`);
  }
  return [...plain, ...partyParts].slice(0, max).join(' · ');
}

/** A list whose items are all parties (signatories, observers) renders inline. */
export function isPartyList(v: JsonValue): v is string[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string' && looksLikeParty(x));
}

/** The ACS filter's offset: empty means the ledger end; anything else must be a whole number. */
export function offsetTextError(text: string): string {
  const t = text.trim();
  return t === '' || /^\d+$/.test(t) ? '' : 'a whole number, or empty for the ledger end';
}

/** A value shown as text: scalars as they are, anything else (a shape `valueKind` did not expect) as JSON. */
export function scalarText(v: JsonValue): string {
  return v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v);
}
