/**
 * Party management over the JSON Ledger API v2: a page of `/v2/parties` (with `filter-party`
 * search), details, allocation with local metadata, and annotation edits guarded by the
 * resource version (a stale version fails with the participant's concurrent-change error).
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { Annotations, PartyRow } from '../../ipc/channels/admin.js';
import { ConsoleError } from '../../ipc/errors.js';
import type { LedgerClient } from '../ledger-client.js';

type S = v3_5.components['schemas'];

/** Fingerprint → label of the keys held by the console keystore (see HandlerDeps.externalPartyKeys). */
export type KeystoreKeys = ReadonlyMap<string, string>;

/** `hint::namespace` → its parts (a party id without `::` is all hint). */
export function splitPartyId(party: string): { hint: string; namespace: string } {
  const i = party.indexOf('::');
  return i < 0 ? { hint: party, namespace: '' } : { hint: party.slice(0, i), namespace: party.slice(i + 2) };
}

/** Canton deletes an annotation given with an empty value; never show one. */
export function liveAnnotations(a: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(a ?? {}).filter(([, v]) => v !== ''));
}

/** The participant's own namespace: local parties allocated by it live there; external parties do not. */
export async function participantNamespace(client: LedgerClient): Promise<string> {
  const { participantId } = await client.participantId();
  const i = participantId.lastIndexOf('::');
  return i < 0 ? '' : participantId.slice(i + 2);
}

export function toPartyRow(p: S['PartyDetails'], ownNamespace: string, keys: KeystoreKeys): PartyRow {
  const { hint, namespace } = splitPartyId(p.party);
  const isLocal = p.isLocal ?? false;
  const keystoreKey = namespace ? (keys.get(namespace) ?? null) : null;
  return {
    party: p.party,
    hint,
    namespace,
    isLocal,
    identityProviderId: p.identityProviderId ?? '',
    annotations: liveAnnotations(p.localMetadata?.annotations),
    resourceVersion: p.localMetadata?.resourceVersion ?? '',
    external: keystoreKey !== null || (isLocal && ownNamespace !== '' && namespace !== '' && namespace !== ownNamespace),
    keystoreKey,
  };
}

export async function listPartiesPage(
  client: LedgerClient,
  req: { filter: string; pageToken: string | null; pageSize: number },
  keys: KeystoreKeys,
): Promise<{ parties: PartyRow[]; nextPageToken: string | null; participantNamespace: string }> {
  const query = {
    pageSize: req.pageSize,
    ...(req.pageToken ? { pageToken: req.pageToken } : {}),
    ...(req.filter ? { 'filter-party': req.filter } : {}),
  };
  const [res, own] = await Promise.all([client.read(client.api.GET('/v2/parties', { params: { query } })), participantNamespace(client)]);
  return {
    parties: res.partyDetails.map((p) => toPartyRow(p, own, keys)),
    nextPageToken: res.nextPageToken ? res.nextPageToken : null,
    participantNamespace: own,
  };
}

/** Annotation keys whose value names the party (`displayName`, `example.com/display-name`, `name`, …). */
const NAME_KEY = /(^|\/)(display[-_]?name|name)$/i;

/** The name pickers show: a display-name annotation, else the label of the keystore key it signs with, else the hint. */
export function displayNameOf(row: PartyRow): string {
  const named = Object.entries(row.annotations).find(([k]) => NAME_KEY.test(k));
  return named?.[1] ?? row.keystoreKey ?? row.hint;
}

const DIRECTORY_LIMIT = 20_000;

/** Every known party (all pages) with its display name, for the pickers. */
export async function partyDirectory(
  client: LedgerClient,
  keys: KeystoreKeys,
): Promise<{ parties: Array<PartyRow & { displayName: string }>; truncated: boolean }> {
  const out: Array<PartyRow & { displayName: string }> = [];
  let pageToken: string | null = null;
  do {
    const page = await listPartiesPage(client, { filter: '', pageToken, pageSize: 1000 }, keys);
    for (const r of page.parties) out.push({ ...r, displayName: displayNameOf(r) });
    pageToken = page.nextPageToken;
  } while (pageToken && out.length < DIRECTORY_LIMIT);
  out.sort((a, b) => Number(b.isLocal) - Number(a.isLocal) || a.displayName.localeCompare(b.displayName) || a.party.localeCompare(b.party));
  return { parties: out, truncated: pageToken !== null };
}

/** The synchronizers on which this participant hosts `party`, with its permission there. */
export async function partyHosting(
  client: LedgerClient,
  party: string,
): Promise<{ participantId: string; synchronizers: Array<{ synchronizerId: string; alias: string; permission: string }> }> {
  const [res, pid] = await Promise.all([
    client.read(client.api.GET('/v2/state/connected-synchronizers', { params: { query: { party } } })),
    client.participantId(),
  ]);
  return {
    participantId: pid.participantId,
    synchronizers: (res.connectedSynchronizers ?? []).map((s) => ({
      synchronizerId: s.synchronizerId,
      alias: s.synchronizerAlias,
      permission: s.permission ?? 'PARTICIPANT_PERMISSION_UNSPECIFIED',
    })),
  };
}

export async function getParty(client: LedgerClient, party: string, keys: KeystoreKeys): Promise<PartyRow> {
  const [res, own] = await Promise.all([
    client.read(client.api.GET('/v2/parties/{party}', { params: { path: { party } } })),
    participantNamespace(client),
  ]);
  const found = res.partyDetails.find((p) => p.party === party);
  if (!found) throw new ConsoleError('NOT_FOUND', `The participant does not know party ${party}`);
  return toPartyRow(found, own, keys);
}

export async function allocateParty(
  client: LedgerClient,
  req: { partyIdHint: string; annotations: Annotations; identityProviderId: string; synchronizerId?: string },
  keys: KeystoreKeys,
): Promise<PartyRow> {
  const body: S['AllocatePartyRequest'] = {
    partyIdHint: req.partyIdHint,
    localMetadata: { resourceVersion: '', annotations: req.annotations },
    identityProviderId: req.identityProviderId,
    ...(req.synchronizerId ? { synchronizerId: req.synchronizerId } : {}),
  };
  const [res, own] = await Promise.all([client.read(client.api.POST('/v2/parties', { body })), participantNamespace(client)]);
  return toPartyRow(res.partyDetails, own, keys);
}

export async function updatePartyAnnotations(
  client: LedgerClient,
  req: { party: string; resourceVersion: string; annotations: Annotations; removed: string[]; identityProviderId: string },
  keys: KeystoreKeys,
): Promise<PartyRow> {
  const annotations: Record<string, string> = {};
  for (const k of req.removed) if (!(k in req.annotations)) annotations[k] = '';
  Object.assign(annotations, req.annotations);
  const body: S['UpdatePartyDetailsRequest'] = {
    partyDetails: {
      party: req.party,
      localMetadata: { resourceVersion: req.resourceVersion, annotations },
      identityProviderId: req.identityProviderId,
    },
    updateMask: { paths: ['local_metadata.annotations'], unknownFields: { fields: {} } },
  };
  const [res, own] = await Promise.all([
    client.read(client.api.PATCH('/v2/parties/{party}', { params: { path: { party: req.party } }, body })),
    participantNamespace(client),
  ]);
  return toPartyRow(res.partyDetails, own, keys);
}
