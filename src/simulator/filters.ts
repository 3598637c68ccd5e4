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

function resolveFilters(f: FiltersInput, registry: PackageRegistry): PartyFilter {
  const pf: PartyFilter = { wildcard: false, wildcardBlob: false, templates: new Map(), interfaces: new Map() };
  const cumulative = f.cumulative ?? [];
  if (cumulative.length === 0) pf.wildcard = true;
  for (const c of cumulative) {
    const idf = c.identifierFilter;
    if (!idf || 'Empty' in idf) {
      pf.wildcard = true;
    } else if ('WildcardFilter' in idf) {
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
    throw new CantonError('INVALID_ARGUMENT', 'The event format must name parties in filtersByParty or set filtersForAnyParty', {
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
 * Legacy `filter` + `verbose` versus `updateFormat`: exactly one must be given. Legacy requests get
 * transactions in the given shape (flat: ACS delta, trees: ledger effects) and reassignments.
 */
export function updateFormatOfRequest(req: GetUpdatesRequestInput, registry: PackageRegistry, legacyShape: Shape): ResolvedUpdateFormat {
  if (req.filter !== undefined && req.updateFormat !== undefined)
    throw new CantonError(
      'INVALID_ARGUMENT',
      'Both filter/verbose and update_format is specified. Please use either backwards compatible arguments (filter and verbose) or update_format, but not both.',
      {
        context: { field: 'updateFormat' },
      },
    );
  if (req.updateFormat !== undefined) return resolveUpdateFormat(req.updateFormat, registry);
  if (req.filter === undefined)
    throw new CantonError(
      'MISSING_FIELD',
      'Either filter/verbose or update_format is required. Please use either backwards compatible arguments (filter and verbose) or update_format.',
      {
        context: { field: 'updateFormat' },
      },
    );
  const events = resolveEventFormat({ ...req.filter, verbose: req.verbose ?? false }, registry);
  return { transactions: { shape: legacyShape, events }, reassignments: events };
}

/** Wildcard (all templates) for each of `parties`. */
export function wildcardFormat(parties: string[]): ResolvedEventFormat {
  return {
    byParty: new Map(parties.map((p) => [p, { wildcard: true, wildcardBlob: false, templates: new Map(), interfaces: new Map() }])),
    any: undefined,
    verbose: false,
  };
}

/** Which of `candidates` the format selects for an event of `templateKey` implementing `interfaces`. */
export interface Match {
  parties: string[];
  blob: boolean;
  /** interface ids whose views are requested */
  views: string[];
}

export function matchEvent(fmt: ResolvedEventFormat, candidates: string[], templateKey: string, interfaces: string[]): Match | undefined {
  const parties = new Set<string>();
  let blob = false;
  const views = new Set<string>();
  const apply = (pf: PartyFilter, ps: string[]): void => {
    let hit = false;
    if (pf.wildcard) {
      hit = true;
      blob ||= pf.wildcardBlob;
    }
    const tb = pf.templates.get(templateKey);
    if (tb !== undefined) {
      hit = true;
      blob ||= tb;
    }
    for (const i of interfaces) {
      const o = pf.interfaces.get(i);
      if (o) {
        hit = true;
        blob ||= o.blob;
        if (o.view) views.add(i);
      }
    }
    if (hit) for (const p of ps) parties.add(p);
  };
  if (fmt.any) apply(fmt.any, candidates);
  for (const p of candidates) {
    const pf = fmt.byParty.get(p);
    if (pf) apply(pf, [p]);
  }
  if (parties.size === 0) return undefined;
  return { parties: [...parties].sort(), blob, views: [...views].sort() };
}

/** Parties a format reads as (for commandId visibility etc.); undefined = any party. */
export function readersOf(fmt: ResolvedEventFormat): Set<string> | undefined {
  return fmt.any ? undefined : new Set(fmt.byParty.keys());
}
