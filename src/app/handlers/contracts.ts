/** Handlers of the contracts channels: template catalog, active contracts, contract detail, synchronizers, reassignment. */
import type { contractsChannels } from '../../ipc/channels/contracts.js';
import { fetchActiveContracts, fetchContractDetail } from '../../services/ledger/contracts.js';
import { listSynchronizers, reassignContract } from '../../services/ledger/reassign.js';
import { loadCatalog } from '../../services/ledger/templates.js';
import type { HandlerDeps } from './core.js';
import type { HandlersOf } from './types.js';
import type { CallContext } from '../../ipc/router.js';

export function contractsHandlers(d: Pick<HandlerDeps, 'activeClient'>): HandlersOf<typeof contractsChannels> {
  const client = () => d.activeClient().client;
  /** Reads follow the caller's cancel; reassignment does not (a half-sent write is worse than a slow one). */
  const reader = (ctx: CallContext) => client().withSignal(ctx.signal);
  return {
    'contracts.templates': async (_req, ctx) => (await loadCatalog(reader(ctx))).catalog,
    'contracts.active': async (q, ctx) => fetchActiveContracts(reader(ctx), q),
    'contracts.get': async ({ contractId, parties }, ctx) => fetchContractDetail(reader(ctx), contractId, parties),
    'contracts.synchronizers': async (_req, ctx) => ({ synchronizers: await listSynchronizers(reader(ctx)) }),
    'contracts.reassign': async (r) => reassignContract(client(), r),
  };
}
