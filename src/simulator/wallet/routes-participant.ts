/**
 * Validator-internal operator endpoints about the participant node: `dumpParticipantIdentities`
 * (`GET /v0/admin/participant/identities`) and `getDecentralizedSynchronizerConnectionConfig`
 * (`GET /v0/admin/participant/global-domain-connection-config`). Both answer from what the simulator really has:
 *
 * - identities: `id` is the participant's unique identifier (`participant1::<namespace>`, the participant id without
 *   its `PAR::` code, as Splice dumps the node's `UniqueIdentifier`); the simulated participant holds no signing or
 *   encryption key pairs (its namespace is derived from the data dir's seed, not from a key), so `keys` is empty and the
 *   authorized topology store snapshot is empty (no topology transactions are authorized by the participant's own
 *   keys); `version` is the Canton version the simulator mimics.
 * - connection config: one sequencer connection to the global synchronizer — the simulator itself sequences it, so its
 *   endpoint is the address the request came in on (`transport_security` when that was HTTPS); Canton's defaults for a
 *   single connection (trust threshold 1, liveness margin 0, no submission request amplification: factor 1, patience 0).
 */
import type { SimContext } from '../context.js';
import type { RequestCtx } from '../router.js';
import type { AddRoute } from './http.js';
import { ok } from './http.js';

/** The host (and port) a request was addressed to, and whether it came over TLS. */
function requestOrigin(ctx: RequestCtx): { endpoint: string; tls: boolean } {
  const socket = ctx.req.socket as { encrypted?: boolean; localAddress?: string; localPort?: number };
  const tls = socket.encrypted === true;
  const host = ctx.req.headers.host;
  if (host !== undefined && host !== '') return { endpoint: host, tls };
  const addr = socket.localAddress ?? '127.0.0.1';
  return { endpoint: `${addr.includes(':') ? `[${addr}]` : addr}:${socket.localPort ?? 0}`, tls };
}

export function registerParticipantRoutes(add: AddRoute, admin: (ctx: RequestCtx) => void, sim: SimContext): void {
  add('GET', '/v0/admin/participant/identities', (ctx) => {
    admin(ctx);
    const uid = sim.participantId.replace(/^PAR::/, '');
    return ok({ id: uid, keys: [], authorizedStoreSnapshot: '', version: sim.version });
  });

  add('GET', '/v0/admin/participant/global-domain-connection-config', (ctx) => {
    admin(ctx);
    const global = sim.synchronizers[0];
    const { endpoint, tls } = requestOrigin(ctx);
    return ok({
      sequencer_connections: {
        connections: [{ sequencer_alias: global.alias, endpoints: [`${tls ? 'https' : 'http'}://${endpoint}`], transport_security: tls }],
        sequencer_trust_threshold: 1,
        sequencer_liveness_margin: 0,
        submission_request_amplification: { factor: 1, patience_seconds: 0 },
      },
    });
  });
}
