/**
 * `static` mode: the bearer token the operator pasted, read from the profile's secret store (OS keychain or encrypted
 * secret file) on every request so an edit of the profile (or of the stored entry) applies at once without restarting anything.
 */
import { ConsoleError } from '../../ipc/errors.js';
import { jwtExpiry } from '../../common/jwt.js';
import type { AccessToken, TokenProvider } from './token-provider.js';

export class StaticTokenProvider implements TokenProvider {
  constructor(
    private readonly loadToken: () => Promise<string | null>,
    private readonly profileName: string,
  ) {}

  async token(): Promise<AccessToken> {
    const value = await this.loadToken();
    if (!value) {
      throw new ConsoleError(
        'AUTH_FAILED',
        `The bearer token of profile “${this.profileName}” is missing from its secret store; enter it again under Connections`,
      );
    }
    return { value, expiresAt: jwtExpiry(value) };
  }

  /** A static token cannot be renewed; only a token replaced meanwhile is worth a retry. */
  async refresh(rejected: string): Promise<AccessToken | null> {
    const current = await this.token();
    return current.value === rejected ? null : current;
  }
}
