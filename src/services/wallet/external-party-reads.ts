/**
 * What the external-party wallet reads: each party's balance from the validator's admin API, and its transfer
 * preapproval and next send nonce from the participant's ACS.
 */
import type { AcsPage, ExternalPartyWallet } from '../../ipc/contract.js';
import { ConsoleError, toIpcError } from '../../ipc/errors.js';
import { fetchActiveContracts } from '../ledger/contracts.js';
import type { ActiveParticipant } from '../signing-flows/index.js';
import { ExternalPartyBalanceResponseSchema } from './splice-schemas.js';
import type { ValidatorClient } from './validator-client.js';

const COUNTER_TEMPLATE = '#splice-amulet:Splice.ExternalPartyAmuletRules:TransferCommandCounter';
const PREAPPROVAL_TEMPLATE = '#splice-amulet:Splice.AmuletRules:TransferPreapproval';

export interface ExternalReadsDeps {
  /** The active profile and its participant. */
  participant: () => ActiveParticipant;
  /** The validator's admin API client. */
  admin: () => ValidatorClient;
  /** External parties attached to keys in this console (SigningFlows.parties). */
  parties: () => Array<{ party: string; keys: Array<{ fingerprint: string; label: string }> }>;
}

export class ExternalPartyReads {
  constructor(private readonly d: ExternalReadsDeps) {}

  async parties(): Promise<ExternalPartyWallet[]> {
    return Promise.all(
      this.d.parties().map(async ({ party, keys }): Promise<ExternalPartyWallet> => {
        const [balance, preapproval] = await Promise.all([
          this.d
            .admin()
            .get(`/v0/admin/external-party/balance?party_id=${encodeURIComponent(party)}`, ExternalPartyBalanceResponseSchema)
            .then(
              (b) => ({
                value: {
                  unlocked: b.total_unlocked_coin,
                  locked: b.total_locked_coin,
                  total: b.total_coin_holdings,
                  available: b.total_available_coin,
                  holdingFees: b.accumulated_holding_fees_total,
                  round: b.computed_as_of_round,
                },
                error: null,
              }),
              (err: unknown) => ({ value: null, error: toIpcError(err) }),
            ),
          this.preapprovalOf(party),
        ]);
        return {
          party,
          keys,
          balance: balance.value,
          balanceError: balance.error,
          preapproval,
        };
      }),
    );
  }

  /**
   * The party's TransferPreapproval (it is the receiver, so it sees the contract in the participant's ACS). Read from
   * the ledger rather than the admin lookup so it works with the operator's rights on any participant hosting the party.
   */
  async preapprovalOf(party: string): Promise<{ contractId: string; expiresAt: string | null } | null> {
    const rows = await this.activeOf(party, PREAPPROVAL_TEMPLATE);
    for (const c of rows) {
      const arg = c.argument as { receiver?: unknown; expiresAt?: unknown } | null;
      if (arg && arg.receiver === party)
        return { contractId: c.contractId, expiresAt: typeof arg.expiresAt === 'string' ? arg.expiresAt : null };
    }
    return null;
  }

  /** Active contracts of a Splice template visible to `party`; none when the participant does not know the package. */
  private async activeOf(party: string, template: string): Promise<AcsPage['items']> {
    try {
      return (
        await fetchActiveContracts(this.d.participant().client, {
          parties: [party],
          templates: [template],
          interfaces: [],
          activeAtOffset: null,
          pageSize: 100,
          pageToken: null,
        })
      ).items;
    } catch (err) {
      if (err instanceof ConsoleError && err.code === 'LEDGER_API_ERROR') return [];
      throw err;
    }
  }

  /**
   * The sender's next TransferCommand nonce: `nextNonce` of its `TransferCommandCounter` in the participant's ACS
   * (the party is hosted here and observes it), 0 before its first send.
   */
  async nextNonce(party: string): Promise<number> {
    for (const c of await this.activeOf(party, COUNTER_TEMPLATE)) {
      const arg = c.argument as { sender?: unknown; nextNonce?: unknown } | null;
      if (arg && arg.sender === party && (typeof arg.nextNonce === 'string' || typeof arg.nextNonce === 'number'))
        return Number(arg.nextNonce);
    }
    return 0;
  }
}
