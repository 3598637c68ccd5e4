/**
 * The connection-profile form's fields, filled from the profile being edited (or empty for a new one), and the
 * `profiles.save` request they make. Secrets start empty: they are write-only, an empty one keeps what is stored.
 */
import type { AuthMode, ClientAuthMethod, Profile, Request, SecretStoreName } from '../../../../src/ipc/contract.js';

export const STORE_LABELS: Record<SecretStoreName, string> = {
  'os-keychain': 'OS keychain',
  'encrypted-file': 'encrypted secret file',
};

export const MODE_LABELS: Record<AuthMode, string> = {
  none: 'None',
  static: 'Static bearer token',
  'oauth2-client-credentials': 'OAuth2 client credentials',
};

/** Fields of the form the participant's issues point at (`auth.*` ones without the `auth.` prefix). */
export const FIELDS = ['name', 'ledgerApiUrl', 'validatorApiUrl'] as const;
export const AUTH_FIELDS = [
  'mode',
  'token',
  'tokenUrl',
  'clientId',
  'clientSecret',
  'audience',
  'scope',
  'clientAuthMethod',
  'passphrase',
] as const;
export type AuthField = (typeof AUTH_FIELDS)[number];

export class ProfileDraft {
  name = $state('');
  ledgerApiUrl = $state('');
  validatorApiUrl = $state('');
  authMode = $state<AuthMode>('none');
  token = $state('');
  tokenUrl = $state('');
  clientId = $state('');
  clientSecret = $state('');
  audience = $state('');
  scope = $state('');
  clientAuthMethod = $state<ClientAuthMethod>('client_secret_post');
  secretStore = $state<SecretStoreName>('os-keychain');
  filePassphrase = $state('');
  /** False while a new secret file's passphrase and its confirmation differ. */
  storeReady = $state(true);

  /** @param profile the profile being edited, null for a new one */
  constructor(readonly profile: Profile | null) {
    const p = profile;
    this.name = p?.name ?? '';
    this.ledgerApiUrl = p?.ledgerApiUrl ?? '';
    this.validatorApiUrl = p?.validatorApiUrl ?? '';
    this.authMode = p?.auth.mode ?? 'none';
    const oauth = p?.auth.mode === 'oauth2-client-credentials' ? p.auth : null;
    this.tokenUrl = oauth?.tokenUrl ?? '';
    this.clientId = oauth?.clientId ?? '';
    this.audience = oauth?.audience ?? '';
    this.scope = oauth?.scope ?? '';
    this.clientAuthMethod = oauth?.clientAuthMethod ?? 'client_secret_post';
    this.secretStore = p && p.auth.mode !== 'none' ? p.auth.secretStore : 'os-keychain';
  }

  /** Where the edited profile keeps its secret today (the keychain for a new one). */
  get storedIn(): string {
    const auth = this.profile?.auth;
    return auth && auth.mode !== 'none' ? STORE_LABELS[auth.secretStore] : 'OS keychain';
  }

  /** A token is already stored for the mode selected (switching modes discards the other mode's secret on save). */
  get storedToken(): boolean {
    const auth = this.profile?.auth;
    return auth?.mode === 'static' && this.authMode === 'static' && auth.hasToken;
  }

  get storedClientSecret(): boolean {
    const auth = this.profile?.auth;
    return auth?.mode === 'oauth2-client-credentials' && this.authMode === 'oauth2-client-credentials' && auth.hasClientSecret;
  }

  /** Saving deletes the secret of the profile's current mode, because another mode is selected. */
  get discardsSecret(): boolean {
    const auth = this.profile?.auth;
    if (!auth || auth.mode === 'none' || auth.mode === this.authMode) return false;
    return auth.mode === 'static' ? auth.hasToken : auth.hasClientSecret;
  }

  /** Forgets the secrets typed (after a save, or when the form closes). */
  clearSecrets(): void {
    this.token = '';
    this.clientSecret = '';
    this.filePassphrase = '';
  }

  request(): Request<'profiles.save'> {
    const request: Request<'profiles.save'> = {
      name: this.name,
      ledgerApiUrl: this.ledgerApiUrl,
      validatorApiUrl: this.validatorApiUrl.trim() === '' ? null : this.validatorApiUrl,
      auth: this.authRequest(),
    };
    if (this.profile) request.id = this.profile.id;
    return request;
  }

  private authRequest(): NonNullable<Request<'profiles.save'>['auth']> {
    switch (this.authMode) {
      case 'none':
        return { mode: 'none' };
      case 'static':
        // Empty = keep the stored token (the main process refuses when there is none).
        return { mode: 'static', ...(this.token !== '' ? { token: this.token } : {}), ...this.storeRequest() };
      case 'oauth2-client-credentials':
        return {
          mode: 'oauth2-client-credentials',
          tokenUrl: this.tokenUrl,
          clientId: this.clientId,
          audience: this.audience.trim() === '' ? null : this.audience,
          scope: this.scope.trim() === '' ? null : this.scope,
          clientAuthMethod: this.clientAuthMethod,
          ...(this.clientSecret !== '' ? { clientSecret: this.clientSecret } : {}),
          ...this.storeRequest(),
        };
    }
  }

  private storeRequest(): { secretStore: SecretStoreName; passphrase?: string } {
    const passphrase = this.secretStore === 'encrypted-file' && this.filePassphrase !== '' ? { passphrase: this.filePassphrase } : {};
    return { secretStore: this.secretStore, ...passphrase };
  }
}
