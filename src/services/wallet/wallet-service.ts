/**
 * The internal-user wallet against a Splice validator app: every operation is one or a few calls of the validator's
 * wallet / admin API (shapes from the Splice OpenAPI files), mapped to the console's wire shapes. The wallet user is
 * the `sub` of the bearer token: in demo mode a demo token per user (demo-token.ts), otherwise the profile's token.
 */
import { WalletBalance } from './wallet-balance.js';
import { WalletClients, type WalletDeps } from './wallet-clients.js';
import { WalletDelegations } from './wallet-delegations.js';
import { WalletTraffic } from './wallet-traffic.js';
import { WalletTransfers } from './wallet-transfers.js';
import { WalletUsers } from './wallet-users.js';

/** The wallet's parts over one set of dependencies; the wallet handlers call the part of each channel. */
export class WalletService {
  readonly clients: WalletClients;
  readonly users: WalletUsers;
  readonly balance: WalletBalance;
  readonly transfers: WalletTransfers;
  readonly traffic: WalletTraffic;
  readonly delegations: WalletDelegations;

  constructor(d: WalletDeps) {
    this.clients = new WalletClients(d);
    this.users = new WalletUsers(d, this.clients);
    this.balance = new WalletBalance(d, this.clients);
    this.transfers = new WalletTransfers(d, this.clients);
    this.traffic = new WalletTraffic(d, this.clients);
    this.delegations = new WalletDelegations(d, this.clients);
  }
}
