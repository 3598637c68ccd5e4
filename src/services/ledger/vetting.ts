/**
 * Package vetting over the JSON Ledger API v2: the vetting state of every participant the topology shows
 * (`POST /v2/package-vetting/list`, paged) and changes to this participant's vetting
 * (`POST /v2/package-vetting/update`), with dry runs whose before/after the console turns into a diff.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { VettedPackage, VettingChange, VettingList, VettingState, VettingUpdateResult } from '../../ipc/channels/packages.js';
import type { LedgerClient } from '../ledger-client.js';

type S = v3_5.components['schemas'];

const FORCE_FLAG = {
  ALLOW_VET_INCOMPATIBLE_UPGRADES: 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES',
  ALLOW_UNVETTED_DEPENDENCIES: 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES',
} as const;

const orNull = (s: string | undefined): string | null => (s ? s : null);

export function toVettingState(v: S['VettedPackages']): VettingState {
  return {
    participantId: v.participantId,
    synchronizerId: v.synchronizerId,
    topologySerial: v.topologySerial,
    packages: v.packages.map((p) => ({
      packageId: p.packageId,
      packageName: p.packageName ?? '',
      packageVersion: p.packageVersion ?? '',
      validFrom: orNull(p.validFromInclusive),
      validUntil: orNull(p.validUntilExclusive),
    })),
  };
}

/** Every vetting state the participant reports (all participants and synchronizers it sees), all pages. */
export async function listVettingStates(client: LedgerClient): Promise<VettingState[]> {
  const out: VettingState[] = [];
  let pageToken = '';
  for (let page = 0; page < 1000; page++) {
    const body: S['ListVettedPackagesRequest'] = pageToken ? { pageToken } : {};
    const res = await client.read(client.api.POST('/v2/package-vetting/list', { body }));
    for (const v of res.vettedPackages ?? []) out.push(toVettingState(v));
    pageToken = res.nextPageToken ?? '';
    if (!pageToken) break;
  }
  return out;
}

export async function listVetting(client: LedgerClient): Promise<VettingList> {
  const [participant, syncs, states] = await Promise.all([
    client.participantId(),
    client.connectedSynchronizers(),
    listVettingStates(client),
  ]);
  return {
    participantId: participant.participantId,
    synchronizers: (syncs.connectedSynchronizers ?? []).map((s) => ({
      synchronizerId: s.synchronizerId,
      alias: s.synchronizerAlias,
    })),
    states: states.sort(
      (a, b) =>
        (a.participantId === participant.participantId ? 0 : 1) - (b.participantId === participant.participantId ? 0 : 1) ||
        a.synchronizerId.localeCompare(b.synchronizerId) ||
        a.participantId.localeCompare(b.participantId),
    ),
  };
}

/** Contract change → Ledger API change (one operation per package, in the operator's order). */
export function toApiChange(c: VettingChange): S['VettedPackagesChange'] {
  const packages = [{ packageId: c.packageId }];
  if (c.op === 'unvet') return { operation: { Unvet: { value: { packages } } } };
  const bounds = {
    ...(c.validFrom ? { newValidFromInclusive: c.validFrom } : {}),
    ...(c.validUntil ? { newValidUntilExclusive: c.validUntil } : {}),
  };
  return { operation: { Vet: { value: { packages, ...bounds } } } };
}

/** What changed between two vetting states of one participant and synchronizer. */
export function diffVetting(
  before: VettingState | null,
  after: VettingState,
): Pick<VettingUpdateResult, 'vetted' | 'unvetted' | 'boundsChanged'> {
  const old = new Map((before?.packages ?? []).map((p) => [p.packageId, p]));
  const now = new Map(after.packages.map((p) => [p.packageId, p]));
  const vetted: VettedPackage[] = [];
  const unvetted: VettedPackage[] = [];
  const boundsChanged: VettedPackage[] = [];
  for (const [id, p] of now) {
    const o = old.get(id);
    if (!o) vetted.push(p);
    else if (o.validFrom !== p.validFrom || o.validUntil !== p.validUntil) boundsChanged.push(p);
  }
  for (const [id, p] of old) if (!now.has(id)) unvetted.push(p);
  return { vetted, unvetted, boundsChanged };
}

export async function updateVetting(
  client: LedgerClient,
  req: {
    synchronizerId: string | null;
    changes: VettingChange[];
    dryRun: boolean;
    expectedTopologySerial: number | null;
    force: Array<keyof typeof FORCE_FLAG>;
  },
): Promise<VettingUpdateResult> {
  const body: S['UpdateVettedPackagesRequest'] = {
    changes: req.changes.map(toApiChange),
    dryRun: req.dryRun,
    ...(req.synchronizerId ? { synchronizerId: req.synchronizerId } : {}),
    ...(req.expectedTopologySerial !== null
      ? { expectedTopologySerial: { serial: { Prior: { value: req.expectedTopologySerial } } } }
      : {}),
    ...(req.force.length > 0 ? { updateVettedPackagesForceFlags: req.force.map((f) => FORCE_FLAG[f]) } : {}),
  };
  const res = await client.read(client.api.POST('/v2/package-vetting/update', { body }));
  const after = toVettingState(res.newVettedPackages);
  const before = res.pastVettedPackages ? toVettingState(res.pastVettedPackages) : null;
  return { dryRun: req.dryRun, synchronizerId: after.synchronizerId, before, after, ...diffVetting(before, after) };
}
