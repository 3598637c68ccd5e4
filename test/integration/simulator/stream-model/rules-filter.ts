/**
 * The filter rules of the JSON Ledger API as the model states them: how a request's event format is
 * read, which events it selects, which requesting parties are named as witnesses, and which optional
 * fields (blob, interface views, implemented interfaces) it asks for. Each rule quotes the sentence
 * of the reference spec (../shared/reference/canton-json-api/openapi.yaml) it implements; where the
 * spec is silent or ambiguous, the Canton source it follows is named.
 */
import type { Json } from './daml.js';
import { str } from './daml.js';

/** One party's (or the any-party) cumulative filter, keyed by qualified names (Module:Entity). */
export interface PartyFilterModel {
  wildcard: boolean;
  wildcardBlob: boolean;
  /** template → includeCreatedEventBlob */
  templates: Map<string, boolean>;
  /** interface → options */
  interfaces: Map<string, { view: boolean; blob: boolean }>;
}

export interface EventFormatModel {
  byParty: Map<string, PartyFilterModel>;
  any?: PartyFilterModel;
}

export type ShapeModel = 'ACS_DELTA' | 'LEDGER_EFFECTS';

export interface UpdateFormatModel {
  transactions?: { shape: ShapeModel; events: EventFormatModel };
  reassignments?: EventFormatModel;
  /** undefined: no topology events; []: all parties */
  topology?: string[];
}

/** `pkg:Module:Entity` (package id or `#name`) → `Module:Entity`. */
const qualified = (id: string): string => id.slice(id.indexOf(':') + 1);

type FiltersJson = { cumulative?: { identifierFilter?: Partial<Record<string, { value: Record<string, Json> }>> }[] };

/**
 * Filters.cumulative: "Every filter in the cumulative list expands the scope of the resulting stream …
 * The impact of include_interface_view and include_created_event_blob fields in the filters will also
 * be accumulated. … If no ``CumulativeFilter`` defined, the default of a single ``WildcardFilter``
 * with include_created_event_blob unset is used."
 * An `Empty` identifier filter counts only when every entry is empty (then: the default wildcard); next
 * to other filters it adds nothing — Canton FormatValidator.validateFilters (`empties.sizeIs ==
 * extractedFilters.size`).
 */
export function partyFilterOf(f: FiltersJson): PartyFilterModel {
  const pf: PartyFilterModel = { wildcard: false, wildcardBlob: false, templates: new Map(), interfaces: new Map() };
  const entries = (f.cumulative ?? []).map((c) => c.identifierFilter);
  if (entries.every((e) => e === undefined || 'Empty' in e)) {
    pf.wildcard = true;
    return pf;
  }
  for (const e of entries) {
    if (e === undefined || 'Empty' in e) continue;
    if ('WildcardFilter' in e) {
      pf.wildcard = true;
      pf.wildcardBlob ||= e.WildcardFilter?.value.includeCreatedEventBlob === true;
    } else if ('TemplateFilter' in e) {
      const v = e.TemplateFilter?.value ?? {};
      const t = qualified(str(v.templateId));
      pf.templates.set(t, (pf.templates.get(t) ?? false) || v.includeCreatedEventBlob === true);
    } else if ('InterfaceFilter' in e) {
      const v = e.InterfaceFilter?.value ?? {};
      const i = qualified(str(v.interfaceId));
      const prev = pf.interfaces.get(i);
      pf.interfaces.set(i, {
        view: (prev?.view ?? false) || v.includeInterfaceView === true,
        blob: (prev?.blob ?? false) || v.includeCreatedEventBlob === true,
      });
    }
  }
  return pf;
}

export type EventFormatJson = { filtersByParty?: Record<string, FiltersJson>; filtersForAnyParty?: FiltersJson; verbose?: boolean };

export function eventFormatOf(ef: EventFormatJson): EventFormatModel {
  const byParty = new Map(Object.entries(ef.filtersByParty ?? {}).map(([p, f]) => [p, partyFilterOf(f)] as const));
  return ef.filtersForAnyParty ? { byParty, any: partyFilterOf(ef.filtersForAnyParty) } : { byParty };
}

/**
 * TransactionFilter (legacy trees): "For **transaction trees** … all party keys used as wildcard
 * filters … If there are ``CumulativeFilter``s, those will control returned ``CreatedEvent`` fields
 * where applicable, but will not be used for template/interface filtering." Canton
 * (JsUpdateServiceConverters.toUpdateFormat, forTrees) adds a WildcardFilter to every filter that
 * has none.
 */
export function withWildcard(ef: EventFormatModel): EventFormatModel {
  const add = (pf: PartyFilterModel): PartyFilterModel => (pf.wildcard ? pf : { ...pf, wildcard: true, wildcardBlob: false });
  return { byParty: new Map([...ef.byParty].map(([p, f]) => [p, add(f)] as const)), ...(ef.any ? { any: add(ef.any) } : {}) };
}

/** A filter selects a template when it is a wildcard, names the template, or names an interface it implements. */
function selects(pf: PartyFilterModel, template: string, interfaces: readonly string[]): boolean {
  return pf.wildcard || pf.templates.has(template) || interfaces.some((i) => pf.interfaces.has(i));
}

export interface MatchModel {
  witnessParties: string[];
  blob: boolean;
  /** interfaces whose views are requested (and which the template implements) */
  views: string[];
}

/**
 * Whether an event is selected, and what is rendered for it.
 *
 * - Selection (EventFormat.filtersByParty): "events are returned, for which the witnesses include at
 *   least one of the listed parties and match the per-party filter" (ledger effects) / "for all
 *   contracts whose stakeholders include at least one of the listed parties and match the per-party
 *   filter" (ACS delta); filtersForAnyParty: "Wildcard filters that apply to all the parties existing
 *   on the participant". `candidates` are the event's witnesses (ledger effects) or stakeholders (ACS
 *   delta, reassignments, ACS).
 * - Event (Event): "Each event message type below contains a ``witness_parties`` field which indicates
 *   the subset of the requested parties that can see the event in question"; ExercisedEvent:
 *   "the witnesses are limited to the querying parties, or not limited in case anyParty filters are
 *   used". The requested parties are all keys of filtersByParty, whichever party's filter selected
 *   the event (Canton TemplatePartiesFilter.allFilterParties; None with any-party filters).
 * - Blob and views: CreatedEvent.interfaceViews "Includes an ``InterfaceView`` for each interface for
 *   which there is a ``InterfaceFilter`` with its party in the ``witness_parties`` of this event, and
 *   which is implemented by the template of this event, and which has ``include_interface_view`` set";
 *   the blob likewise accumulates over the filters of the witness parties and the any-party filter
 *   (Canton EventProjectionProperties.render).
 */
export function matchModel(
  ef: EventFormatModel,
  candidates: readonly string[],
  template: string,
  interfaces: readonly string[],
): MatchModel | undefined {
  const selected =
    (ef.any !== undefined && selects(ef.any, template, interfaces)) ||
    candidates.some((p) => {
      const pf = ef.byParty.get(p);
      return pf !== undefined && selects(pf, template, interfaces);
    });
  if (!selected) return undefined;
  const witnessParties = [...new Set(ef.any ? candidates : candidates.filter((p) => ef.byParty.has(p)))].sort();
  const filters = [...witnessParties.map((p) => ef.byParty.get(p)), ef.any].filter((f): f is PartyFilterModel => f !== undefined);
  let blob = false;
  const views = new Set<string>();
  for (const pf of filters) {
    if (pf.wildcard && pf.wildcardBlob) blob = true;
    if (pf.templates.get(template) === true) blob = true;
    for (const i of interfaces) {
      const o = pf.interfaces.get(i);
      if (!o) continue;
      if (o.blob) blob = true;
      if (o.view) views.add(i);
    }
  }
  return { witnessParties, blob, views: [...views].sort() };
}

/**
 * JsTransaction.commandId: "Missing for everyone except the submitting party"; JsReassignment: "Missing
 * for everyone except the submitting party on the submitting participant". Any-party readers count as
 * every party (Canton submittersInQueryingParties with no party set).
 */
export function showsCommandId(ef: EventFormatModel, submitters: readonly string[]): boolean {
  return ef.any !== undefined || submitters.some((p) => ef.byParty.has(p));
}
