/**
 * Who the wallet calls the validator as: a wallet user (the `sub` of the bearer token — in demo mode a demo token per
 * user, demo-token.ts, otherwise the profile's token) or the validator operator for `/v0/admin/*`.
 */
import { ConsoleError } from '../../ipc/errors.js';
import type { Profile } from '../../ipc/contract.js';
import type { LedgerClient } from '../ledger-client.js';
import { jwtSubject } from '../../common/jwt.js';
import { mintDemoToken } from './demo-token.js';
import { ValidatorClient } from './validator-client.js';
import type { WalletStore } from './wallet-store.js';

export interface WalletDeps {
  /** The active connection profile. */
  profile: () => Profile;
  /** The profile's bearer token and its refresh after a 401 (remote profiles), never sent to the renderer. */
  profileToken: (profileId: string) => Promise<string | null>;
  refreshProfileToken: (profileId: string, rejected: string) => Promise<string | null>;
  /** The active profile's participant (connected synchronizers for traffic purchases). */
  ledger: () => LedgerClient;
  store: WalletStore;
  /** Demo mode: the embedded validator's operator user (its admin endpoints need that user's token). */
  demoOperatorUser: string | null;
}

export class WalletClients {
  constructor(private readonly d: WalletDeps) {}

  private validatorUrl(p: Profile): string {
    if (!p.validatorApiUrl)
      throw new ConsoleError('NOT_FOUND', `The connection profile “${p.name}” has no validator API URL: add one under Connections`);
    return p.validatorApiUrl;
  }

  private remoteClient(baseUrl: string, profileId: string): ValidatorClient {
    return new ValidatorClient({
      baseUrl,
      getToken: () => this.d.profileToken(profileId),
      onUnauthorized: (rejected) => this.d.refreshProfileToken(profileId, rejected),
    });
  }

  /** A client that acts as wallet user `user`. */
  async userClient(user: string): Promise<{ profile: Profile; client: ValidatorClient }> {
    const profile = this.d.profile();
    const baseUrl = this.validatorUrl(profile);
    if (profile.kind === 'demo')
      return { profile, client: new ValidatorClient({ baseUrl, getToken: () => Promise.resolve(mintDemoToken(user)) }) };
    const token = await this.d.profileToken(profile.id);
    const sub = token ? jwtSubject(token) : null;
    if (sub !== user) {
      throw new ConsoleError(
        'FORBIDDEN',
        sub
          ? `The token of “${profile.name}” opens the wallet of user ${sub} only, not ${user}`
          : `The connection profile “${profile.name}” has no JWT whose subject is a wallet user: add a token under Connections`,
      );
    }
    return { profile, client: this.remoteClient(baseUrl, profile.id) };
  }

  /** A client for `/v0/admin/*`: the validator operator (demo) or whoever the profile's token is. */
  adminClient(): ValidatorClient {
    const profile = this.d.profile();
    const baseUrl = this.validatorUrl(profile);
    const operator = this.d.demoOperatorUser;
    if (profile.kind === 'demo' && operator)
      return new ValidatorClient({ baseUrl, getToken: () => Promise.resolve(mintDemoToken(operator)) });
    return this.remoteClient(baseUrl, profile.id);
  }
}
