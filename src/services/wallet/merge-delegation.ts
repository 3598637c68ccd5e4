/**
 * Merge-delegation status of a wallet user: the token-standard `MergeDelegation` / `MergeDelegationProposal`
 * (splice-util-token-standard-wallet; template ids from @canton-network/core-token-standard) in the participant's
 * ACS, where the user's party is a signatory. Splice has no validator HTTP API for these contracts, so the status is
 * read from the ledger, which works on any participant hosting the party; proposing and cancelling go through the
 * embedded simulator's own endpoint (`/v0/sim/merge-delegation`, demo profile only).
 */
import { MERGE_DELEGATION_PROPOSAL_TEMPLATE_ID, MERGE_DELEGATION_TEMPLATE_ID } from '@canton-network/core-token-standard';
import { z } from 'zod';
import type { MergeDelegationStatus } from '../../ipc/contract.js';
import { ConsoleError } from '../../ipc/errors.js';
import type { LedgerClient } from '../ledger-client.js';
import { fetchActiveContracts } from '../ledger/contracts.js';
import type { ValidatorClient } from './validator-client.js';

export const SIM_MERGE_DELEGATION_PATH = '/v0/sim/merge-delegation';

/** Owner and operator of a (proposed) delegation: flat, or nested in a `delegation` record, `operator` or `delegate`. */
function parties(arg: unknown): { owner: string; operator: string | null } | null {
  const Fields = z.object({ owner: z.string(), operator: z.string().optional(), delegate: z.string().optional() });
  const direct = Fields.safeParse(arg);
  const nested = Fields.safeParse((arg as { delegation?: unknown } | null)?.delegation);
  const f = direct.success ? direct.data : nested.success ? nested.data : null;
  return f ? { owner: f.owner, operator: f.operator ?? f.delegate ?? null } : null;
}

export async function mergeDelegationStatus(ledger: LedgerClient, party: string): Promise<MergeDelegationStatus> {
  const page = await fetchActiveContracts(ledger, {
    parties: [party],
    templates: [MERGE_DELEGATION_TEMPLATE_ID, MERGE_DELEGATION_PROPOSAL_TEMPLATE_ID],
    interfaces: [],
    activeAtOffset: null,
    pageSize: 100,
    pageToken: null,
  });
  const mine = (entity: string) => page.items.find((c) => c.qualifiedName.endsWith(`:${entity}`) && parties(c.argument)?.owner === party);
  const active = mine('MergeDelegation');
  if (active) return { status: 'active', contractId: active.contractId, operator: parties(active.argument)?.operator ?? null };
  const proposed = mine('MergeDelegationProposal');
  if (proposed) return { status: 'proposed', contractId: proposed.contractId, operator: parties(proposed.argument)?.operator ?? null };
  return { status: 'none', contractId: null, operator: null };
}

const SimStatusSchema = z.object({ status: z.enum(['none', 'proposed', 'active']), contract_id: z.string().optional() });

/** Demo simulator: propose (idempotent) or cancel the user's merge delegation; answers the status after its automation ran. */
export async function setSimMergeDelegation(client: ValidatorClient, action: 'propose' | 'cancel'): Promise<MergeDelegationStatus> {
  const r =
    action === 'propose'
      ? await client.post(SIM_MERGE_DELEGATION_PATH, {}, SimStatusSchema)
      : await client.delete(SIM_MERGE_DELEGATION_PATH, SimStatusSchema);
  return { status: r.status, contractId: r.contract_id ?? null, operator: null };
}

export function demoOnly(isDemo: boolean): void {
  if (!isDemo) {
    throw new ConsoleError(
      'FORBIDDEN',
      'Splice has no HTTP API to propose or cancel a merge delegation: the wallet creates the contract on the ledger. ' +
        'The console offers it on the embedded simulator only',
    );
  }
}
