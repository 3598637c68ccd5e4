/**
 * The ledger writer: every state change happens in one SQLite transaction that allocates the next
 * offset, writes the update and its effects, and commits (fsync) before anyone is told about it.
 */
import type { SimContext } from './context.js';
import { microsToIso } from './clock.js';
import { CantonError } from './errors.js';
import { PARTY_HINT_RE, randomHex, updateIdFor } from './ids.js';
import type { StoredTopology } from './model.js';
import type { PartyRow } from './store/ledger-store.js';

export interface AllocatePartyInput {
  partyIdHint?: string;
  annotations?: Record<string, string>;
  identityProviderId?: string;
  synchronizerId?: string;
}

export class LedgerWriter {
  constructor(private readonly sim: SimContext) {}

  /** Allocates a local party and records a TopologyTransaction (ParticipantAuthorizationAdded). */
  allocateParty(input: AllocatePartyInput): PartyRow {
    const hint = input.partyIdHint && input.partyIdHint.length > 0 ? input.partyIdHint : `party-${randomHex(8)}`;
    if (!PARTY_HINT_RE.test(hint) || hint.includes('::'))
      throw new CantonError('INVALID_ARGUMENT', `Invalid party id hint '${hint}': only [a-zA-Z0-9:-_ ] up to 185 chars, no '::'`, {
        context: { partyIdHint: hint },
      });
    const sync = input.synchronizerId ?? this.sim.synchronizers[0].id;
    if (!this.sim.synchronizers.some((s) => s.id === sync))
      throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${sync}`, { context: { synchronizerId: sync } });
    const party = `${hint}::${this.sim.namespace}`;
    const row = this.commit(() => {
      if (this.sim.store.party(party))
        throw new CantonError('PARTY_ALREADY_EXISTS', `Party already exists: ${party} is already allocated on this node`, {
          context: { party },
        });
      const t = this.sim.clock.nowMicros();
      const offset = this.sim.store.nextOffset();
      const update: StoredTopology = {
        kind: 'topology',
        offset,
        updateId: updateIdFor(`${this.sim.participantId}:topology:${offset}:${party}`),
        recordTime: microsToIso(t),
        synchronizerId: sync,
        events: [
          { type: 'added', partyId: party, participantId: this.sim.participantId, permission: 'PARTICIPANT_PERMISSION_SUBMISSION' },
        ],
      };
      this.sim.store.insertUpdate(update, t);
      const p: PartyRow = {
        party,
        offset,
        isLocal: true,
        idp: input.identityProviderId ?? '',
        metadata: { resourceVersion: '0', annotations: input.annotations ?? {} },
      };
      this.sim.store.insertParty(p);
      return { result: p, offset };
    });
    return row;
  }

  /**
   * Runs `fn` inside one durable transaction; `fn` returns the result and the last offset it wrote
   * (undefined when it wrote no update). Subscribers are notified after the commit.
   */
  commit<T>(fn: () => { result: T; offset: number | undefined }): T {
    const { result, offset } = this.sim.store.tx(fn);
    if (offset !== undefined) this.sim.events.emit('commit', offset);
    return result;
  }
}
