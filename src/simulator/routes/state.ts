/** /v2/state/ledger-end, connected-synchronizers, latest-pruned-offsets and /v2/parties/participant-id. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { SimContext } from '../context.js';
import type { Router } from '../router.js';
import { ok } from '../router.js';
import { partyHostingStore } from '../store/party-hosting.js';

type Schemas = v3_5.components['schemas'];

export function registerStateRoutes(router: Router, sim: SimContext): void {
  router.add('GET', '/v2/state/ledger-end', () => {
    const body: Schemas['GetLedgerEndResponse'] = { offset: sim.durability.end() };
    return ok(body);
  });
  router.add('GET', '/v2/state/latest-pruned-offsets', () => {
    const pruned = sim.store.prunedUpTo();
    const body: Schemas['GetLatestPrunedOffsetsResponse'] = {
      participantPrunedUpToInclusive: pruned,
      allDivulgedContractsPrunedUpToInclusive: pruned,
    };
    return ok(body);
  });
  router.add('GET', '/v2/state/connected-synchronizers', (ctx) => {
    const party = ctx.query.get('party');
    const participantId = ctx.query.get('participantId');
    if (participantId && participantId !== sim.participantId) return ok({ connectedSynchronizers: [] });
    // Without a party: every synchronizer this participant is connected to, permission unspecified (as the spec says).
    if (!party) {
      const all: Schemas['GetConnectedSynchronizersResponse'] = {
        connectedSynchronizers: sim.synchronizers.map((s) => ({ synchronizerAlias: s.alias, synchronizerId: s.id })),
      };
      return ok(all);
    }
    // With a party: only the synchronizers on which this participant hosts it, with its permission on each.
    const hosting = sim.store.hasParty(party) ? partyHostingStore(sim.store.db).of(party) : [];
    const body: Schemas['GetConnectedSynchronizersResponse'] = {
      connectedSynchronizers: hosting.flatMap((h) => {
        const s = sim.synchronizers.find((c) => c.id === h.synchronizerId);
        return s ? [{ synchronizerAlias: s.alias, synchronizerId: s.id, permission: h.permission }] : [];
      }),
    };
    return ok(body);
  });
  router.add('GET', '/v2/parties/participant-id', () => {
    const body: Schemas['GetParticipantIdResponse'] = { participantId: sim.participantId };
    return ok(body);
  });
}
