/** Builds the dashboard snapshot from a participant, with all reads in parallel. */
import type { DashboardSnapshot, Profile } from '../ipc/contract.js';
import { z } from 'zod';
import type { LedgerClient } from './ledger-client.js';

/** The answer is not validated: a participant may leave `features` out (or send something else), then none are listed. */
const FeaturesSchema = z.record(z.string(), z.unknown()).catch({});

export async function fetchDashboard(client: LedgerClient, profile: Profile): Promise<DashboardSnapshot> {
  const [live, ready, version, participant, end, syncs, pruned] = await Promise.all([
    client.probe('/livez'),
    client.probe('/readyz'),
    client.version(),
    client.participantId(),
    client.ledgerEnd(),
    client.connectedSynchronizers(),
    client.latestPrunedOffsets(),
  ]);
  const features = Object.entries(FeaturesSchema.parse(version.features))
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k]) => k)
    .sort();
  return {
    profileId: profile.id,
    profileName: profile.name,
    ledgerApiUrl: client.url,
    fetchedAt: new Date().toISOString(),
    health: { live, ready },
    participantId: participant.participantId,
    apiVersion: version.version,
    features,
    ledgerEnd: end.offset ?? 0,
    synchronizers: (syncs.connectedSynchronizers ?? []).map((s) => ({
      alias: s.synchronizerAlias,
      id: s.synchronizerId,
      permission: s.permission ?? null,
    })),
    pruned: {
      participantPrunedUpToInclusive: pruned.participantPrunedUpToInclusive ?? 0,
      allDivulgedContractsPrunedUpToInclusive: pruned.allDivulgedContractsPrunedUpToInclusive ?? 0,
    },
  };
}
