/** Party management (minimal): allocate, list, get. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { SimContext } from '../context.js';
import { DecodeError } from '../errors.js';
import type { LedgerWriter } from '../ledger.js';
import type { PartyRow } from '../store/ledger-store.js';
import type { Router } from '../router.js';
import { ok } from '../router.js';
import { AllocatePartyRequestSchema, UpdatePartyDetailsRequestSchema } from '../schemas.js';
import { CantonError, partyNotKnown } from '../errors.js';
import { grantActAs } from './users.js';
import { body, decodeToken, encodeToken } from './common.js';
import { checkResourceVersion, concurrentPartyUpdate, mergeAnnotations, nextResourceVersion } from './metadata-update.js';

type S = v3_5.components['schemas'];

export const partyDetails = (p: PartyRow): S['PartyDetails'] => ({
  party: p.party,
  isLocal: p.isLocal,
  localMetadata: { resourceVersion: p.metadata.resourceVersion ?? '0', annotations: p.metadata.annotations ?? {} },
  identityProviderId: p.idp,
});

export function registerPartyRoutes(router: Router, sim: SimContext, writer: LedgerWriter): void {
  router.add('POST', '/v2/parties', async (ctx) => {
    const req = await body(ctx, AllocatePartyRequestSchema);
    if (req.userId) grantActAs(sim, req.userId, undefined); // fails before allocating if the user is unknown
    const p = writer.allocateParty({
      ...(req.partyIdHint !== undefined ? { partyIdHint: req.partyIdHint } : {}),
      ...(req.localMetadata?.annotations ? { annotations: req.localMetadata.annotations } : {}),
      // as in Canton, an IdentityProviderAdmin that names no provider allocates in its own
      ...(req.identityProviderId || ctx.idpScope ? { identityProviderId: req.identityProviderId || (ctx.idpScope ?? '') } : {}),
      ...(req.synchronizerId !== undefined ? { synchronizerId: req.synchronizerId } : {}),
    });
    if (req.userId) grantActAs(sim, req.userId, p.party);
    const res: S['AllocatePartyResponse'] = { partyDetails: partyDetails(p) };
    return ok(res);
  });

  router.add('GET', '/v2/parties', (ctx) => {
    const rawSize = ctx.query.get('pageSize');
    if (rawSize !== null && !/^\d{1,9}$/.test(rawSize)) throw new DecodeError(`Invalid value for: query parameter pageSize ('${rawSize}')`);
    const size =
      rawSize === null || Number(rawSize) === 0
        ? sim.settings.maxPartiesPageSize
        : Math.min(Number(rawSize), sim.settings.maxPartiesPageSize);
    const filter = ctx.query.get('filter-party') ?? '';
    const token = ctx.query.get('pageToken');
    const after = token
      ? decodeToken(token, (v): v is { p: string } => typeof v === 'object' && v !== null && typeof (v as { p: unknown }).p === 'string').p
      : '';
    // an IdentityProviderAdmin sees only the parties of its own identity provider (authz.ts sets the scope)
    const all = sim.store
      .parties()
      .filter(
        (p) => p.party > after && (filter === '' || p.party.includes(filter)) && (ctx.idpScope === undefined || p.idp === ctx.idpScope),
      );
    const pageRows = all.slice(0, size);
    const last = pageRows.at(-1);
    const res: S['ListKnownPartiesResponse'] = {
      partyDetails: pageRows.map(partyDetails),
      ...(all.length > size && last ? { nextPageToken: encodeToken({ p: last.party }) } : {}),
    };
    return ok(res);
  });

  router.add('GET', '/v2/parties/{party}', (ctx) => {
    const wanted = [ctx.params.party ?? '', ...ctx.query.getAll('parties').flatMap((p) => p.split(','))].filter(Boolean);
    const found = wanted.map((w) => sim.store.party(w)).filter((p): p is PartyRow => p !== undefined);
    const res: S['GetPartiesResponse'] = { partyDetails: found.map(partyDetails) };
    return ok(res);
  });
}

export function registerPartyUpdateRoute(router: Router, sim: SimContext): void {
  router.add('PATCH', '/v2/parties/{party}', async (ctx) => {
    const party = ctx.params.party ?? '';
    const req = await body(ctx, UpdatePartyDetailsRequestSchema);
    if (req.partyDetails.party !== party)
      throw new CantonError('INVALID_ARGUMENT', `partyDetails.party '${req.partyDetails.party}' does not match the path '${party}'`);
    const p = sim.store.party(party);
    if (!p) throw partyNotKnown(party);
    const currentVersion = p.metadata.resourceVersion ?? '0';
    let annotations = p.metadata.annotations ?? {};
    for (const path of req.updateMask.paths ?? []) {
      if (['local_metadata', 'localMetadata', 'local_metadata.annotations', 'localMetadata.annotations'].includes(path))
        annotations = mergeAnnotations(annotations, req.partyDetails.localMetadata?.annotations);
      else
        throw new CantonError('INVALID_FIELD', `Invalid field update_mask: unknown path '${path}'`, { context: { field: 'updateMask' } });
    }
    checkResourceVersion(req.partyDetails.localMetadata?.resourceVersion, currentVersion, (given, current) =>
      concurrentPartyUpdate(party, given, current),
    );
    const metadata = { resourceVersion: nextResourceVersion(currentVersion), annotations };
    sim.store.updatePartyMetadata(party, metadata);
    const res: S['UpdatePartyDetailsResponse'] = { partyDetails: partyDetails({ ...p, metadata }) };
    return ok(res);
  });
}
