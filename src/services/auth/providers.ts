/** Builds the token provider a profile's authentication mode calls for. */
import type { ProfileAuth } from '../../ipc/channels/core.js';
import { ClientCredentialsTokenProvider } from './client-credentials.js';
import { StaticTokenProvider } from './static-token.js';
import { NO_TOKEN, type TokenProvider } from './token-provider.js';

export interface ProfileSecrets {
  bearerToken: () => Promise<string | null>;
  clientSecret: () => Promise<string | null>;
}

export function createTokenProvider(profileName: string, auth: ProfileAuth, secrets: ProfileSecrets): TokenProvider {
  switch (auth.mode) {
    case 'none':
      return NO_TOKEN;
    case 'static':
      return new StaticTokenProvider(secrets.bearerToken, profileName);
    case 'oauth2-client-credentials':
      return new ClientCredentialsTokenProvider({
        config: {
          tokenUrl: auth.tokenUrl,
          clientId: auth.clientId,
          audience: auth.audience,
          scope: auth.scope,
          clientAuthMethod: auth.clientAuthMethod,
        },
        clientSecret: secrets.clientSecret,
      });
  }
}
