/**
 * Delegations of a wallet user: minting delegations and their proposals (validator wallet API) and the token-standard
 * merge delegation (read from the participant's ACS; set through the demo simulator only, merge-delegation.ts).
 */
import { toIpcError } from '../../ipc/errors.js';
import {
  ListAmuletsResponseSchema,
  ListMintingDelegationProposalsResponseSchema,
  ListMintingDelegationsResponseSchema,
  MintingDelegationPayloadSchema,
  UserStatusResponseSchema,
  type SpliceContract,
} from './splice-schemas.js';
import { demoOnly, mergeDelegationStatus, setSimMergeDelegation } from './merge-delegation.js';
import type { WalletClients, WalletDeps } from './wallet-clients.js';

export class WalletDelegations {
  constructor(
    private readonly d: WalletDeps,
    private readonly clients: WalletClients,
  ) {}

  async list(user: string) {
    const { client } = await this.clients.userClient(user);
    const [status, amulets] = await Promise.all([
      client.get('/v0/wallet/user-status', UserStatusResponseSchema),
      client.get('/v0/wallet/amulets', ListAmuletsResponseSchema),
    ]);
    const holdingCount = amulets.amulets.length;
    const merge = await mergeDelegationStatus(this.d.ledger(), status.party_id).then(
      (m) => ({ merge: m, mergeError: null }),
      (err: unknown) => ({ merge: null, mergeError: toIpcError(err) }),
    );
    try {
      const [d, p] = await Promise.all([
        client.get('/v0/wallet/minting-delegations', ListMintingDelegationsResponseSchema),
        client.get('/v0/wallet/minting-delegation-proposals', ListMintingDelegationProposalsResponseSchema),
      ]);
      const row = (x: { contract: SpliceContract; beneficiary_hosted: boolean }) => {
        const pl = MintingDelegationPayloadSchema.safeParse(
          (x.contract.payload as { delegation?: unknown }).delegation ?? x.contract.payload,
        );
        return {
          contractId: x.contract.contract_id,
          beneficiary: pl.success ? pl.data.beneficiary : '',
          delegate: pl.success ? pl.data.delegate : '',
          expiresAt: pl.success ? pl.data.expiresAt : '',
          amuletMergeLimit: pl.success ? String(pl.data.amuletMergeLimit) : '',
          beneficiaryHosted: x.beneficiary_hosted,
        };
      };
      return { supported: true, error: null, delegations: d.delegations.map(row), proposals: p.proposals.map(row), holdingCount, ...merge };
    } catch (err) {
      return { supported: false, error: toIpcError(err), delegations: [], proposals: [], holdingCount, ...merge };
    }
  }

  /** Demo simulator only: propose or cancel the user's merge delegation, then read its status back from the ledger. */
  async setMerge(user: string, action: 'propose' | 'cancel') {
    const { profile, client } = await this.clients.userClient(user);
    demoOnly(profile.kind === 'demo');
    await setSimMergeDelegation(client, action);
    const party = (await client.get('/v0/wallet/user-status', UserStatusResponseSchema)).party_id;
    return mergeDelegationStatus(this.d.ledger(), party);
  }
}
