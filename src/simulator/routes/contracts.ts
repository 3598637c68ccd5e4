/** Active contracts (stream-as-list and pages), events by contract id, contract by id. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { SimContext } from '../context.js';
import { CantonError, contractNotFound } from '../errors.js';
import type { ResolvedEventFormat } from '../filters.js';
import { matchEvent, resolveEventFormat } from '../filters.js';
import type { GetActiveContractsRequestInput } from '../schemas.js';
import { stakeholdersOf } from '../model.js';
import { createdEvent } from '../projection-events.js';
import { activeContracts, checkActiveAt, creationSynchronizer, scanActiveContracts } from '../reads.js';
import type { Router } from '../router.js';
import { ok } from '../router.js';
import {
  GetActiveContractsPageRequestSchema,
  GetActiveContractsRequestSchema,
  GetContractRequestSchema,
  GetEventsByContractIdSchema,
} from '../schemas.js';
import { decodeJson } from '../http.js';
import { body, decodeToken, encodeToken, limitParam, listCap, tooMany } from './common.js';

type S = v3_5.components['schemas'];

/**
 * Legacy `filter` + `verbose` versus `eventFormat`, as Canton's JSON API converts them
 * (JsStateService.toGetActiveContractsRequest): exactly one of `filter` and `eventFormat`; `verbose:
 * true` with `eventFormat` is refused ("Optional, if specified event_format must be unset").
 */
export function acsFormatOf(sim: SimContext, req: GetActiveContractsRequestInput): ResolvedEventFormat {
  const refuse = (message: string): CantonError => new CantonError('INVALID_ARGUMENT', message, { context: { field: 'eventFormat' } });
  if (req.filter !== undefined && req.eventFormat !== undefined)
    throw refuse(
      'Both event_format and filter are set. Please use either backwards ' +
        'compatible arguments (filter and verbose) or event_format, but not both.',
    );
  if (req.eventFormat !== undefined && req.verbose === true)
    throw refuse(
      'Both event_format and verbose are set. Please use either backwards ' +
        'compatible arguments (filter and verbose) or event_format, but not both.',
    );
  if (req.eventFormat) return resolveEventFormat(req.eventFormat, sim.registry);
  if (req.filter) return resolveEventFormat({ ...req.filter, verbose: req.verbose ?? false }, sim.registry);
  throw refuse(
    'Either filter/verbose or event_format is required. Please use either ' +
      'backwards compatible arguments (filter and verbose) or event_format.',
  );
}

export function registerContractRoutes(router: Router, sim: SimContext): void {
  router.add('POST', '/v2/state/active-contracts', async (ctx) => {
    const req = await body(ctx, GetActiveContractsRequestSchema);
    const fmt = acsFormatOf(sim, req);
    checkActiveAt(sim, req.activeAtOffset);
    const cap = listCap(sim, limitParam(ctx));
    const all = activeContracts(sim, req.activeAtOffset, fmt, req.streamContinuationToken, cap.take);
    if (all.length > cap.take) {
      if (cap.strict) throw tooMany(sim);
      return ok(all.slice(0, cap.take));
    }
    return ok(all);
  });

  const page = (raw: string): S['JsGetActiveContractsPageResponse'] => {
    const req = decodeJson(raw, GetActiveContractsPageRequestSchema);
    const fmt = resolveEventFormat(req.eventFormat, sim.registry);
    let at = req.activeAtOffset ?? sim.durability.end();
    let after = 0;
    if (req.pageToken) {
      // keyset pagination: the token names the offset of the snapshot and the last contract (creation seq) returned
      const t = decodeToken(
        req.pageToken,
        (v): v is { a: number; k: number } =>
          typeof v === 'object' && v !== null && Number.isInteger((v as { a: unknown }).a) && Number.isInteger((v as { k: unknown }).k),
      );
      at = t.a;
      after = t.k;
    }
    checkActiveAt(sim, at);
    const max = sim.settings.httpListMaxElementsLimit;
    const size = req.maxPageSize === undefined || req.maxPageSize <= 0 ? Math.min(100, max) : Math.min(req.maxPageSize, max);
    const slice: S['JsGetActiveContractsResponse'][] = [];
    // set inside the scan callback, hence fields (a plain `let` would read as never changing)
    const page = { lastSeq: after, more: false };
    scanActiveContracts(
      sim,
      at,
      fmt,
      after,
      (e, seq) => {
        if (slice.length >= size) {
          page.more = true;
          return false;
        }
        slice.push(e);
        page.lastSeq = seq;
        return true;
      },
      size + 1,
    ); // read one page (+1 to know whether there is more), not a fixed batch
    const next = page.more ? encodeToken({ a: at, k: page.lastSeq }) : undefined;
    return { activeContracts: slice, activeAtOffset: at, ...(next ? { nextPageToken: next } : {}) };
  };
  router.add('POST', '/v2/state/active-contracts-page', async (ctx) => ok(page(await ctx.body())));
  router.add('GET', '/v2/state/active-contracts-page', async (ctx) => ok(page(await ctx.body())));

  router.add('POST', '/v2/events/events-by-contract-id', async (ctx) => {
    const req = await body(ctx, GetEventsByContractIdSchema);
    const fmt = resolveEventFormat(req.eventFormat, sim.registry);
    const c = sim.store.contract(req.contractId);
    const notFound = (): CantonError =>
      new CantonError('CONTRACT_EVENTS_NOT_FOUND', 'Contract events not found, or not visible.', {
        context: { contractId: req.contractId },
        resources: [['CONTRACT_ID', req.contractId]],
      });
    if (!c) throw notFound();
    const n = c.node;
    const m = matchEvent(fmt, stakeholdersOf(n), `${n.packageName}:${n.qualifiedName}`, n.implementedInterfaces);
    if (!m) throw notFound();
    // Canton 3.5 EventsReader.getEventsByContractId: the create (of a transient contract: its witnessed
    // create, with the consuming exercise of the same transaction as the archive), the archive with the
    // create's witness parties, and both with the synchronizer of the create. The spec says of
    // JsCreated.synchronizerId "The synchronizer which sequenced the creation of the contract" and of
    // JsArchived.synchronizerId "The synchronizer which sequenced the archival of the contract"; a
    // participant answers the creating one for both, and clients cannot tell the simulator from a participant.
    const synchronizerId = creationSynchronizer(sim, c);
    const transient = c.archivedOffset === c.createdOffset;
    // a transient contract's create is no ACS change (acsDelta false, as its ledger-effects event)
    const res: S['JsGetEventsByContractIdResponse'] = {
      created: { createdEvent: createdEvent(n, c.createdOffset, m, !transient, sim.registry), synchronizerId },
    };
    if (c.archivedOffset !== null) {
      const u = sim.store.updateByOffset(c.archivedOffset);
      const node =
        u?.kind === 'transaction' ? u.nodes.find((x) => x.kind === 'exercise' && x.consuming && x.contractId === n.contractId) : undefined;
      res.archived = {
        archivedEvent: {
          offset: c.archivedOffset,
          nodeId: node?.nodeId ?? 0,
          contractId: n.contractId,
          templateId: `${n.packageId}:${n.qualifiedName}`,
          witnessParties: m.parties,
          packageName: n.packageName,
          implementedInterfaces: m.views,
        },
        synchronizerId,
      };
    }
    return ok(res);
  });

  router.add('POST', '/v2/contracts/contract-by-id', async (ctx) => {
    const req = await body(ctx, GetContractRequestSchema);
    const c = sim.store.contract(req.contractId);
    const parties = req.queryingParties ?? [];
    const visible = c && (parties.length === 0 || stakeholdersOf(c.node).some((p) => parties.includes(p)));
    if (!c || !visible) throw contractNotFound(req.contractId);
    const witnesses = parties.length === 0 ? stakeholdersOf(c.node) : stakeholdersOf(c.node).filter((p) => parties.includes(p));
    const res: S['GetContractResponse'] = {
      createdEvent: createdEvent(c.node, c.createdOffset, { parties: witnesses, blob: true, views: [] }, true, sim.registry),
    };
    return ok(res);
  });
}
