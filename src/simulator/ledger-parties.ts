/**
 * Party allocation as ledger writes: a local party (named by its hint in this participant's namespace) or an external
 * one (keys verified by the caller), each recorded with its topology transaction (ParticipantAuthorizationAdded) at
 * its own offset. The input is checked here; the returned body runs inside the writer's commit.
 */
import type { SimContext } from './context.js';
import { microsToIso } from './clock.js';
import { CantonError } from './errors.js';
import type { CommitBody } from './group-commit.js';
import { PARTY_HINT_RE, randomHex, updateIdFor } from './ids.js';
import type { ParticipantPermission, StoredTopology } from './model.js';
import type { PartyRow } from './store/ledger-store.js';
import { partyHostingStore } from './store/party-hosting.js';

export interface AllocatePartyInput {
  partyIdHint?: string;
  annotations?: Record<string, string>;
  identityProviderId?: string;
  synchronizerId?: string;
}

export interface ExternalPartyInput {
  party: string;
  synchronizerId: string;
  permission: ParticipantPermission;
  threshold: number;
  keys: { fingerprint: string; raw: string }[];
  identityProviderId?: string;
}

interface PartyRecord {
  party: string;
  synchronizerId: string;
  permission: ParticipantPermission;
  identityProviderId: string;
  annotations: Record<string, string>;
  keys?: { threshold: number; keys: { fingerprint: string; raw: string }[] };
}

function checkSynchronizer(sim: SimContext, synchronizerId: string): void {
  if (!sim.synchronizers.some((s) => s.id === synchronizerId))
    throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${synchronizerId}`, { context: { synchronizerId } });
}

/** A local party with submission rights (a random hint when none is given). */
export function localPartyAllocation(sim: SimContext, input: AllocatePartyInput): CommitBody<PartyRow> {
  const hint = input.partyIdHint && input.partyIdHint.length > 0 ? input.partyIdHint : `party-${randomHex(8)}`;
  if (!PARTY_HINT_RE.test(hint) || hint.includes('::'))
    throw new CantonError('INVALID_ARGUMENT', `Invalid party id hint '${hint}': only [a-zA-Z0-9:-_ ] up to 185 chars, no '::'`, {
      context: { partyIdHint: hint },
    });
  const sync = input.synchronizerId ?? sim.synchronizers[0].id;
  checkSynchronizer(sim, sync);
  return partyRecording(sim, {
    party: `${hint}::${sim.namespace}`,
    synchronizerId: sync,
    permission: 'PARTICIPANT_PERMISSION_SUBMISSION',
    identityProviderId: input.identityProviderId ?? '',
    annotations: input.annotations ?? {},
  });
}

/** An external party with its signing keys. */
export function externalPartyAllocation(sim: SimContext, input: ExternalPartyInput): CommitBody<PartyRow> {
  checkSynchronizer(sim, input.synchronizerId);
  return partyRecording(sim, {
    party: input.party,
    synchronizerId: input.synchronizerId,
    permission: input.permission,
    identityProviderId: input.identityProviderId ?? '',
    annotations: {},
    keys: { threshold: input.threshold, keys: input.keys },
  });
}

function partyRecording(sim: SimContext, p: PartyRecord): CommitBody<PartyRow> {
  const party = p.party;
  const hosting = partyHostingStore(sim.store.db);
  return () => {
    const existing = sim.store.party(party);
    // Allocating a known party on another synchronizer adds its hosting there (as Canton does);
    // on the same one it is a duplicate.
    if (existing && hosting.of(party).some((h) => h.synchronizerId === p.synchronizerId))
      throw new CantonError('PARTY_ALREADY_EXISTS', `Party already exists: ${party} is already allocated on this node`, {
        context: { party, synchronizerId: p.synchronizerId },
      });
    const t = sim.clock.nowMicros();
    const offset = sim.store.nextOffset();
    const update: StoredTopology = {
      kind: 'topology',
      offset,
      updateId: updateIdFor(`${sim.participantId}:topology:${offset}:${party}`),
      recordTime: microsToIso(t),
      synchronizerId: p.synchronizerId,
      events: [{ type: 'added', partyId: party, participantId: sim.participantId, permission: p.permission }],
    };
    sim.store.insertUpdate(update, t);
    hosting.add(party, p.synchronizerId, p.permission, offset);
    if (existing) return { result: existing, offset };
    const row: PartyRow = {
      party,
      offset,
      isLocal: true,
      idp: p.identityProviderId,
      metadata: { resourceVersion: '0', annotations: p.annotations },
    };
    sim.store.insertParty(row);
    if (p.keys) sim.store.putPartyKeys(party, p.keys.threshold, p.keys.keys);
    return { result: row, offset };
  };
}
