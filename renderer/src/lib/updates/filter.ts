/** The filter builder's draft and its conversion to the contract's filter (pure; unit-tested). */
import {
  IDENTIFIER_PATTERN,
  normalizeIdentifier,
  type TransactionShape,
  type UpdateFilterInput,
  type UpdateSummary,
} from '../../../../src/ipc/contract.js';

export interface FilterDraft {
  parties: string[];
  /** Free text: identifiers separated by commas, spaces or new lines. */
  templates: string;
  interfaces: string;
  shape: TransactionShape;
  includeReassignments: boolean;
  includeTopology: boolean;
  includeCreatedEventBlob: boolean;
  includeInterfaceViews: boolean;
}

export function emptyDraft(): FilterDraft {
  return {
    parties: [],
    templates: '',
    interfaces: '',
    shape: 'ACS_DELTA',
    includeReassignments: true,
    includeTopology: false,
    includeCreatedEventBlob: false,
    includeInterfaceViews: true,
  };
}

export function splitIdentifiers(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Identifiers in the text that are not `<package>:<Module>:<Entity>`. */
export function invalidIdentifiers(text: string): string[] {
  return splitIdentifiers(text).filter((id) => !IDENTIFIER_PATTERN.test(id));
}

export function toFilter(d: FilterDraft): UpdateFilterInput {
  return {
    parties: [...d.parties],
    templates: splitIdentifiers(d.templates).map(normalizeIdentifier),
    interfaces: splitIdentifiers(d.interfaces).map(normalizeIdentifier),
    shape: d.shape,
    includeReassignments: d.includeReassignments,
    includeTopology: d.includeTopology,
    includeCreatedEventBlob: d.includeCreatedEventBlob,
    includeInterfaceViews: d.includeInterfaceViews,
  };
}

/** One-line description of a filter for headers and empty states. */
export function describeFilter(f: UpdateFilterInput): string {
  const parts: string[] = [];
  const parties = f.parties ?? [];
  const [party] = parties;
  parts.push(parties.length === 0 ? 'any party' : parties.length === 1 && party ? partyName(party) : `${parties.length} parties`);
  const ids = [...(f.templates ?? []), ...(f.interfaces ?? [])];
  const [id] = ids;
  parts.push(
    ids.length === 0 ? 'all templates' : ids.length === 1 && id ? id.split(':').slice(1).join(':') : `${ids.length} templates/interfaces`,
  );
  parts.push(f.shape === 'LEDGER_EFFECTS' ? 'ledger effects' : 'ACS delta');
  return parts.join(' · ');
}

/** `Alice::1220abcd…` → `Alice`. */
export function partyName(party: string): string {
  const i = party.indexOf('::');
  return i > 0 ? party.slice(0, i) : party;
}

/** "2 created · 1 archived" for a list row. */
export function describeCounts(s: UpdateSummary): string {
  const c = s.counts;
  const parts: string[] = [];
  if (c.exercised) parts.push(`${c.exercised} exercised`);
  if (c.created) parts.push(`${c.created} created`);
  if (c.archived) parts.push(`${c.archived} archived`);
  if (c.assigned) parts.push(`${c.assigned} assigned`);
  if (c.unassigned) parts.push(`${c.unassigned} unassigned`);
  if (c.topology) parts.push(`${c.topology} topology`);
  return parts.length > 0 ? parts.join(' · ') : 'no visible events';
}

export const KIND_LABELS: Record<UpdateSummary['kind'], string> = {
  transaction: 'Transaction',
  reassignment: 'Reassignment',
  topology: 'Topology',
  checkpoint: 'Checkpoint',
};

/** A template or interface the participant knows, as the catalog lists it. */
export interface KnownIdentifier {
  packageName: string;
  qualifiedName: string;
}

/** `#package-name:Module:Entity`: the id that follows package upgrades, as the filter suggests it. */
export const byPackageName = (k: KnownIdentifier): string => `#${k.packageName}:${k.qualifiedName}`;

/**
 * The full ids an incomplete identifier most likely means: `Demo.Iou:Iou` (Module:Entity) or `Iou` (the entity alone)
 * → `#simulator-demo:Demo.Iou:Iou`. Case-insensitive; unique; empty when nothing matches or the text is already valid.
 */
export function proposeIdentifiers(token: string, known: KnownIdentifier[]): string[] {
  const t = token.trim().toLowerCase();
  if (t === '' || IDENTIFIER_PATTERN.test(token.trim())) return [];
  const hits = known.filter((k) => {
    const q = k.qualifiedName.toLowerCase();
    return q === t || q.split(':').pop() === t || `${k.packageName.toLowerCase()}:${q}` === t;
  });
  return [...new Set(hits.map(byPackageName))].sort();
}
