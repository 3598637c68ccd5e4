/** Handlers of the contracts channels: template catalog, active contracts, contract detail, synchronizers, reassignment. */
import type { contractsChannels } from '../../ipc/channels/contracts.js';
import { fetchActiveContracts, fetchContractDetail, listSynchronizers, reassignContract } from '../../services/ledger/contracts.js';
import { loadCatalog } from '../../services/ledger/templates.js';
import type { HandlerDeps } from './core.js';
import type { HandlersOf } from './types.js';

export function contractsHandlers(d: Pick<HandlerDeps, 'activeClient'>): HandlersOf<typeof contractsChannels> {
  const client = () => d.activeClient().client;
  return {
    'contracts.templates': async () => (await loadCatalog(client())).catalog,
    'contracts.active': async (q) => fetchActiveContracts(client(), q),
    'contracts.get': async ({ contractId, parties }) => fetchContractDetail(client(), contractId, parties),
    'contracts.synchronizers': async () => ({ synchronizers: await listSynchronizers(client()) }),
    'contracts.reassign': async (r) => reassignContract(client(), r),
  };
}
