/** Wallet users of the validator: who can open a wallet here, and onboarding a new one (validator admin API). */
import { toIpcError } from '../../ipc/errors.js';
import type { WalletContext } from '../../ipc/contract.js';
import { jwtSubject } from '../../common/jwt.js';
import { ListUsersResponseSchema, OnboardUserResponseSchema } from './splice-schemas.js';
import type { WalletClients, WalletDeps } from './wallet-clients.js';

export class WalletUsers {
  constructor(
    private readonly d: WalletDeps,
    private readonly clients: WalletClients,
  ) {}

  async context(): Promise<WalletContext> {
    const profile = this.d.profile();
    const demo = profile.kind === 'demo';
    const base = {
      validatorApiUrl: profile.validatorApiUrl,
      demo,
      operatorUser: demo ? this.d.demoOperatorUser : null,
      automation: demo,
    };
    if (!profile.validatorApiUrl) return { ...base, available: false, tokenUser: null, users: null, usersError: null };
    const token = demo ? null : await this.d.profileToken(profile.id);
    const tokenUser = token ? jwtSubject(token) : null;
    try {
      const r = await this.clients.adminClient().get('/v0/admin/users', ListUsersResponseSchema);
      return { ...base, available: true, tokenUser, users: [...r.usernames].sort(), usersError: null };
    } catch (err) {
      return { ...base, available: true, tokenUser, users: null, usersError: toIpcError(err) };
    }
  }

  async onboard(name: string, partyId?: string): Promise<{ partyId: string }> {
    const r = await this.clients
      .adminClient()
      .post('/v0/admin/users', { name, ...(partyId ? { party_id: partyId, createPartyIfMissing: false } : {}) }, OnboardUserResponseSchema);
    return { partyId: r.party_id };
  }
}
