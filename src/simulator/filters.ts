/**
 * Event formats: per-party and any-party cumulative filters (wildcard / template / interface) and
 * transaction shapes, resolved against the package registry.
 */
import { CantonError } from './errors.js';
import type { PackageRegistry } from './packages/registry.js';
import type { EventFormatInput, FiltersInput, GetUpdatesRequestInput, TransactionFormatInput, UpdateFormatInput } from './schemas.js';

export interface PartyFilter {
  wildcard: boolean;
  wildcardBlob: boolean;
  /** template key (package-name:M:E) → includeCreatedEventBlob */
  templates: Map<string, boolean>;
  /** interface id (package-id form) → options */
  interfaces: Map<string, { view: boolean; blob: boolean }>;
}

export interface ResolvedEventFormat {
  byParty: Map<string, PartyFilter>;
  any: PartyFilter | undefined;
  verbose: boolean;
}

export type Shape = 'ACS_DELTA' | 'LEDGER_EFFECTS';

export interface ResolvedTransactionFormat {
  shape: Shape;
  events: ResolvedEventFormat;
}

export interface ResolvedUpdateFormat {
  transactions?: ResolvedTransactionFormat;
  reassignments?: ResolvedEventFormat;
  /** undefined = no topology events; [] = all parties. */
  topologyParties?: string[];
}

/**
 * One party's cumulative filter. No entries, or only `Empty` entries, is the default wildcard; an
 * `Empty` entry next to other filters adds nothing (as Canton's FormatValidator.validateFilters).
 */
function resolveFilters(f: FiltersInput, registry: PackageRegistry): PartyFilter {
  const pf: PartyFilter = { wildcard: false, wildcardBlob: false, templates: new Map(), interfaces: new Map() };
  const cumulative = f.cumulative ?? [];
  if (cumulative.every((c) => !c.identifierFilter || 'Empty' in c.identifierFilter)) {
    pf.wildcard = true;
    return pf;
  }
  for (const c of cumulative) {
    const idf = c.identifierFilter;
    if (!idf || 'Empty' in idf) continue;
    if ('WildcardFilter' in idf) {
      pf.wildcard = true;
      pf.wildcardBlob ||= idf.WildcardFilter.value.includeCreatedEventBlob ?? false;
    } else if ('TemplateFilter' in idf) {
      const t = registry.template(idf.TemplateFilter.value.templateId);
      pf.templates.set(t.key, (pf.templates.get(t.key) ?? false) || (idf.TemplateFilter.value.includeCreatedEventBlob ?? false));
    } else {
      // `#name:M:E` covers every interface of that family (as Canton resolves package-name references); an event
      // then shows the view of the member its template implements
      const v = idf.InterfaceFilter.value;
      const family = registry.interfacesFor(v.interfaceId);
      if (family.length === 0) registry.iface(v.interfaceId); // throws the right error
      for (const i of family) {
        const prev = pf.interfaces.get(i.interfaceId);
        pf.interfaces.set(i.interfaceId, {
          view: (prev?.view ?? false) || (v.includeInterfaceView ?? false),
          blob: (prev?.blob ?? false) || (v.includeCreatedEventBlob ?? false),
        });
      }
    }
  }
  return pf;
}

export function resolveEventFormat(ef: EventFormatInput, registry: PackageRegistry): ResolvedEventFormat {
  const byParty = new Map<string, PartyFilter>();
  for (const [party, f] of Object.entries(ef.filtersByParty ?? {})) {
    if (party.length === 0) throw new CantonError('INVALID_ARGUMENT', 'filtersByParty contains an empty party id');
    byParty.set(party, resolveFilters(f, registry));
  }
  const any = ef.filtersForAnyParty ? resolveFilters(ef.filtersForAnyParty, registry) : undefined;
  if (byParty.size === 0 && !any)
    throw new CantonError('INVALID_ARGUMENT', 'filtersByParty and filtersForAnyParty cannot be empty simultaneously', {
      context: { field: 'filtersByParty' },
    });
  return { byParty, any, verbose: ef.verbose ?? false };
}

export function resolveTransactionFormat(tf: TransactionFormatInput, registry: PackageRegistry): ResolvedTransactionFormat {
  if (tf.transactionShape === 'TRANSACTION_SHAPE_UNSPECIFIED')
    throw new CantonError('MISSING_FIELD', 'The transactionShape field is missing or unspecified', {
      context: { field: 'transactionShape' },
    });
  return {
    shape: tf.transactionShape === 'TRANSACTION_SHAPE_ACS_DELTA' ? 'ACS_DELTA' : 'LEDGER_EFFECTS',
    events: resolveEventFormat(tf.eventFormat, registry),
  };
}

export function resolveUpdateFormat(uf: UpdateFormatInput, registry: PackageRegistry): ResolvedUpdateFormat {
  const out: ResolvedUpdateFormat = {};
  if (uf.includeTransactions) out.transactions = resolveTransactionFormat(uf.includeTransactions, registry);
  if (uf.includeReassignments) out.reassignments = resolveEventFormat(uf.includeReassignments, registry);
  if (uf.includeTopologyEvents?.includeParticipantAuthorizationEvents)
    out.topologyParties = uf.includeTopologyEvents.includeParticipantAuthorizationEvents.parties ?? [];
  if (!out.transactions && !out.reassignments && out.topologyParties === undefined)
    throw new CantonError('INVALID_ARGUMENT', 'The update format must include transactions, reassignments or topology events', {
      context: { field: 'updateFormat' },
    });
  return out;
}

/**
 * Legacy `filter` + `verbose` versus `updateFormat`, as Canton's JSON API converts them
 * (JsUpdateService.toGetUpdatesRequest / JsUpdateServiceConverters.toUpdateFormat): exactly one of
 * `filter` and `updateFormat`; `verbose: true` with `updateFormat` is refused (the spec: "if defined
 * update_format must be unset"; Canton cannot tell `false` from unset). A legacy request gets
 * transactions in the endpoint's shape (flats: ACS delta; trees: ledger effects, every party filter
 * widened to a wildcard — "all party keys used as wildcard filters") and reassignments with the same
 * format, and no topology events: the spec's default names the filter's parties, but no Canton
 * release sets `includeTopologyEvents` for a legacy request, so neither does the simulator.
 */
export function updateFormatOfRequest(req: GetUpdatesRequestInput, registry: PackageRegistry, legacyShape: Shape): ResolvedUpdateFormat {
  const refuse = (message: string): CantonError => new CantonError('INVALID_ARGUMENT', message, { context: { field: 'updateFormat' } });
  if (req.filter !== undefined && req.updateFormat !== undefined)
    throw refuse(
      'Both update_format and filter are set. Please use either backwards ' +
        'compatible arguments (filter and verbose) or update_format, but not both.',
    );
  if (req.updateFormat !== undefined && req.verbose === true)
    throw refuse(
      'Both update_format and verbose are set. Please use either backwards ' +
        'compatible arguments (filter and verbose) or update_format, but not both.',
    );
  if (req.updateFormat !== undefined) return resolveUpdateFormat(req.updateFormat, registry);
  if (req.filter === undefined)
    throw refuse(
      'Either filter/verbose or update_format is required. Please use either ' +
        'backwards compatible arguments (filter and verbose) or update_format.',
    );
  const resolved = resolveEventFormat({ ...req.filter, verbose: req.verbose ?? false }, registry);
  const events = legacyShape === 'LEDGER_EFFECTS' ? widenToWildcard(resolved) : resolved;
  return { transactions: { shape: legacyShape, events }, reassignments: events };
}

/** Every party filter (and the any-party filter) with a wildcard added, its other entries kept for blobs and views. */
export function widenToWildcard(fmt: ResolvedEventFormat): ResolvedEventFormat {
  const widen = (pf: PartyFilter): PartyFilter => (pf.wildcard ? pf : { ...pf, wildcard: true });
  return {
    byParty: new Map([...fmt.byParty].map(([p, pf]) => [p, widen(pf)])),
    any: fmt.any ? widen(fmt.any) : undefined,
    verbose: fmt.verbose,
  };
}

/** Wildcard (all templates) for each of `parties`. */
export function wildcardFormat(parties: string[]): ResolvedEventFormat {
  return {
    byParty: new Map(parties.map((p) => [p, { wildcard: true, wildcardBlob: false, templates: new Map(), interfaces: new Map() }])),
    any: undefined,
    verbose: false,
  };
}

/** What a format renders for an event it selects. */
export interface Match {
  /** witnessParties: the requested parties among the candidates (all candidates for any-party formats) */
  parties: string[];
  blob: boolean;
  /** interface ids whose views are requested: the views of a created event, the implementedInterfaces of a consuming one */
  views: string[];
}

const selects = (pf: PartyFilter, templateKey: string, interfaces: readonly string[]): boolean =>
  pf.wildcard || pf.templates.has(templateKey) || interfaces.some((i) => pf.interfaces.has(i));

/**
 * Whether `fmt` selects an event of `templateKey` (implementing `interfaces`) whose candidate parties
 * are `candidates` (stakeholders for ACS-delta shapes, witnesses for ledger effects), and how it is
 * rendered — as Canton does:
 * - selected when some candidate's filter, or the any-party filter, selects the template;
 * - witnessParties are the candidates among all parties of `filtersByParty`, whichever party's filter
 *   selected the event (TemplatePartiesFilter.allFilterParties), or all candidates with an any-party filter;
 * - the blob and the interface views accumulate over the filters of those witness parties and the
 *   any-party filter (EventProjectionProperties.render).
 */
export function matchEvent(fmt: ResolvedEventFormat, candidates: string[], templateKey: string, interfaces: string[]): Match | undefined {
  let selected = fmt.any !== undefined && selects(fmt.any, templateKey, interfaces);
  for (let k = 0; k < candidates.length && !selected; k++) {
    const pf = fmt.byParty.get(candidates[k] as string);
    if (pf !== undefined && selects(pf, templateKey, interfaces)) selected = true;
  }
  if (!selected) return undefined;
  const parties = [...new Set(fmt.any ? candidates : candidates.filter((p) => fmt.byParty.has(p)))].sort();
  let blob = false;
  const views = new Set<string>();
  const render = (pf: PartyFilter | undefined): void => {
    if (pf === undefined) return;
    if (pf.wildcard && pf.wildcardBlob) blob = true;
    if (pf.templates.get(templateKey) === true) blob = true;
    for (const i of interfaces) {
      const o = pf.interfaces.get(i);
      if (!o) continue;
      blob ||= o.blob;
      if (o.view) views.add(i);
    }
  };
  for (const p of parties) render(fmt.byParty.get(p));
  render(fmt.any);
  return { parties, blob, views: [...views].sort() };
}

/** Parties a format reads as (for commandId visibility etc.); undefined = any party. */
export function readersOf(fmt: ResolvedEventFormat): Set<string> | undefined {
  return fmt.any ? undefined : new Set(fmt.byParty.keys());
}

/** A canonical text of a resolved event format (for request checksums of page and continuation tokens). */
export function formatFingerprint(fmt: ResolvedEventFormat): string {
  const pf = (f: PartyFilter | undefined): unknown =>
    f && [f.wildcard, f.wildcardBlob, [...f.templates].sort(), [...f.interfaces].map(([i, o]) => [i, o.view, o.blob]).sort()];
  return JSON.stringify([[...fmt.byParty].map(([p, f]) => [p, pf(f)]).sort(), pf(fmt.any), fmt.verbose]);
}

/** A canonical text of a resolved update format (for the request checksum of update page tokens). */
export function updateFormatFingerprint(uf: ResolvedUpdateFormat): string {
  return JSON.stringify([
    uf.transactions ? [uf.transactions.shape, formatFingerprint(uf.transactions.events)] : null,
    uf.reassignments ? formatFingerprint(uf.reassignments) : null,
    uf.topologyParties ? [...uf.topologyParties].sort() : null,
  ]);
}
