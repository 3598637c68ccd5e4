/**
 * Connection profiles: the built-in demo profile (embedded simulator, present only in demo mode)
 * and remote participants persisted in SQLite. SQLite holds only the non-secret configuration; the
 * bearer token (`static`) and the OAuth2 client secret (`oauth2-client-credentials`) live in the
 * store the operator chose for the profile — the OS keychain, or the passphrase-encrypted secret file on machines
 * without one (profile-secrets.ts). Tokens are produced per profile by a TokenProvider and never leave
 * the main process.
 */
import { randomUUID } from 'node:crypto';
import { ConsoleError } from '../ipc/errors.js';
import type { Profile, ProfileAuth, SaveProfileAuth, SaveProfileRequest, SecretStoreName, SecretStoresState } from '../ipc/contract.js';
import type { AppDb } from './app-db.js';
import type { SecretStore, UnlockableSecretStore } from './secret-store.js';
import { ProfileSecrets } from './profile-secrets.js';
import { createTokenProvider } from './auth/providers.js';
import type { AccessToken, TokenProvider } from './auth/token-provider.js';

export const DEMO_PROFILE_ID = 'demo';

interface ProfileRow {
  id: string;
  name: string;
  ledger_api_url: string;
  validator_api_url: string | null;
  has_token: number;
  auth_mode: ProfileAuth['mode'];
  oauth2_token_url: string | null;
  oauth2_client_id: string | null;
  oauth2_audience: string | null;
  oauth2_scope: string | null;
  oauth2_client_auth: 'client_secret_post' | 'client_secret_basic';
  has_client_secret: number;
  secret_store: SecretStoreName;
}

/** Keychain accounts; the bearer-token one predates auth modes and is kept so stored tokens stay valid. */
export const tokenAccount = (id: string) => `profile:${id}:bearer-token`;
export const clientSecretAccount = (id: string) => `profile:${id}:oauth2-client-secret`;

/** What LedgerClient (and clients built on it) need: a token per request and one refresh after a 401. */
export interface ProfileTokenSource {
  getToken: () => Promise<string | null>;
  onUnauthorized: (rejected: string) => Promise<string | null>;
}

function authOf(r: ProfileRow): ProfileAuth {
  switch (r.auth_mode) {
    case 'static':
      return { mode: 'static', hasToken: r.has_token === 1, secretStore: r.secret_store };
    case 'oauth2-client-credentials':
      return {
        mode: 'oauth2-client-credentials',
        tokenUrl: r.oauth2_token_url ?? '',
        clientId: r.oauth2_client_id ?? '',
        audience: r.oauth2_audience,
        scope: r.oauth2_scope,
        clientAuthMethod: r.oauth2_client_auth,
        hasClientSecret: r.has_client_secret === 1,
        secretStore: r.secret_store,
      };
    default:
      return { mode: 'none' };
  }
}

const badAuth = (field: string, message: string) =>
  new ConsoleError('BAD_REQUEST', `Invalid request for profiles.save: auth.${field}: ${message}`, undefined, [
    { path: `auth.${field}`, message },
  ]);

export class ProfileService {
  private readonly providers = new Map<string, TokenProvider>();
  private readonly secrets: ProfileSecrets;

  constructor(
    private readonly db: AppDb,
    keychain: SecretStore,
    /** URL of the embedded simulator in demo mode, else null (no demo profile). */
    private readonly demoUrl: string | null,
    /** The encrypted secret file (shared with the signing keys); null: profiles can keep secrets in the keychain only. */
    secretFile: UnlockableSecretStore | null = null,
  ) {
    this.secrets = new ProfileSecrets(keychain, secretFile);
  }

  /** Whether the OS keychain answers, and the encrypted secret file's state. */
  secretStores(): Promise<SecretStoresState> {
    return this.secrets.state();
  }

  unlockSecretFile(passphrase: string): Promise<SecretStoresState> {
    return this.secrets.unlockFile(passphrase);
  }

  private demoProfile(): Profile | null {
    if (!this.demoUrl) return null;
    return {
      id: DEMO_PROFILE_ID,
      name: 'Demo — embedded simulator',
      kind: 'demo',
      ledgerApiUrl: this.demoUrl,
      validatorApiUrl: `${this.demoUrl}/api/validator`,
      auth: { mode: 'none' },
    };
  }

  list(): Profile[] {
    const rows = this.db.prepare('SELECT * FROM profiles ORDER BY created_at, id').all() as ProfileRow[];
    const remote = rows.map((r): Profile => ({
      id: r.id,
      name: r.name,
      kind: 'remote',
      ledgerApiUrl: r.ledger_api_url,
      validatorApiUrl: r.validator_api_url,
      auth: authOf(r),
    }));
    const demo = this.demoProfile();
    return demo ? [demo, ...remote] : remote;
  }

  get(id: string): Profile {
    const p = this.list().find((x) => x.id === id);
    if (!p) throw new ConsoleError('NOT_FOUND', `No connection profile with id "${id}"`);
    return p;
  }

  activeId(): string | null {
    const row = this.db.prepare("SELECT value FROM settings WHERE key = 'activeProfile'").get() as { value: string } | undefined;
    const all = this.list();
    if (row && all.some((p) => p.id === row.value)) return row.value;
    return all[0]?.id ?? null;
  }

  active(): Profile {
    const id = this.activeId();
    if (!id) throw new ConsoleError('NOT_FOUND', 'No connection profile: add a remote participant under Connections');
    return this.get(id);
  }

  select(id: string): Profile {
    const p = this.get(id);
    this.db
      .prepare("INSERT INTO settings (key, value) VALUES ('activeProfile', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
      .run(id);
    return p;
  }

  async save(req: SaveProfileRequest): Promise<Profile> {
    if (req.id === DEMO_PROFILE_ID) throw new ConsoleError('CONFLICT', 'The demo profile is built in and cannot be edited');
    const existing = req.id ? (this.db.prepare('SELECT * FROM profiles WHERE id = ?').get(req.id) as ProfileRow | undefined) : undefined;
    if (req.id && !existing) throw new ConsoleError('NOT_FOUND', `No connection profile with id "${req.id}"`);
    const id = req.id ?? randomUUID();
    const hadToken = existing?.has_token === 1;
    const hadClientSecret = existing?.has_client_secret === 1;
    const auth: SaveProfileAuth = req.auth ?? keepAuth(existing);

    // Validate fully before touching the keychain, so bad input changes nothing.
    if (auth.mode === 'static' && auth.token === undefined && !(hadToken && existing.auth_mode === 'static')) {
      throw badAuth('token', 'a bearer token is required');
    }
    if (
      auth.mode === 'oauth2-client-credentials' &&
      auth.clientSecret === undefined &&
      !(hadClientSecret && existing.auth_mode === auth.mode)
    ) {
      throw badAuth('clientSecret', 'a client secret is required');
    }
    // A stored secret is only ever sent to the origin it was entered for: moving the token endpoint
    // (or, for a static token, the participant) to another origin needs the secret entered again.
    if (
      existing &&
      auth.mode === 'oauth2-client-credentials' &&
      auth.clientSecret === undefined &&
      !sameOrigin(existing.oauth2_token_url, auth.tokenUrl)
    ) {
      throw badAuth('clientSecret', 'enter the client secret again: the token endpoint moved to another origin');
    }
    if (existing && auth.mode === 'static' && auth.token === undefined && !sameOrigin(existing.ledger_api_url, req.ledgerApiUrl)) {
      throw badAuth('token', 'enter the bearer token again: the Ledger API URL moved to another origin');
    }

    // The secret store first: if it fails nothing is written to SQLite and the error says why; a secret counts as
    // stored once it reads back unchanged. A secret the new mode (or store) does not use is deleted, so switching
    // modes or stores leaves nothing behind.
    const oldStore: SecretStoreName = existing?.secret_store ?? 'os-keychain';
    const newStore: SecretStoreName = auth.mode === 'none' ? oldStore : (auth.secretStore ?? oldStore);
    const passphrase = auth.mode === 'none' ? undefined : auth.passphrase;
    const place = (account: string, given: string | undefined, had: boolean, field: string) =>
      this.placeSecret({ account, given, had, field, from: oldStore, to: newStore, passphrase });
    let hasToken = hadToken;
    let hasClientSecret = hadClientSecret;
    if (auth.mode === 'static') hasToken = await place(tokenAccount(id), auth.token, hadToken, 'token');
    else if (hadToken) {
      await this.dropSecret(oldStore, tokenAccount(id), passphrase);
      hasToken = false;
    }
    if (auth.mode === 'oauth2-client-credentials')
      hasClientSecret = await place(clientSecretAccount(id), auth.clientSecret, hadClientSecret, 'clientSecret');
    else if (hadClientSecret) {
      await this.dropSecret(oldStore, clientSecretAccount(id), passphrase);
      hasClientSecret = false;
    }

    const oauth = auth.mode === 'oauth2-client-credentials' ? auth : null;
    this.db
      .prepare(
        `INSERT INTO profiles (id, name, ledger_api_url, validator_api_url, has_token, created_at, auth_mode,
           oauth2_token_url, oauth2_client_id, oauth2_audience, oauth2_scope, oauth2_client_auth, has_client_secret, secret_store)
         VALUES (@id, @name, @ledger, @validator, @hasToken, @createdAt, @mode,
           @tokenUrl, @clientId, @audience, @scope, @clientAuth, @hasClientSecret, @secretStore)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, ledger_api_url = excluded.ledger_api_url,
           validator_api_url = excluded.validator_api_url, has_token = excluded.has_token, auth_mode = excluded.auth_mode,
           oauth2_token_url = excluded.oauth2_token_url, oauth2_client_id = excluded.oauth2_client_id,
           oauth2_audience = excluded.oauth2_audience, oauth2_scope = excluded.oauth2_scope,
           oauth2_client_auth = excluded.oauth2_client_auth, has_client_secret = excluded.has_client_secret,
           secret_store = excluded.secret_store`,
      )
      .run({
        id,
        name: req.name,
        ledger: req.ledgerApiUrl.replace(/\/+$/, ''),
        validator: req.validatorApiUrl?.replace(/\/+$/, '') ?? null,
        hasToken: hasToken ? 1 : 0,
        createdAt: new Date().toISOString(),
        mode: auth.mode,
        tokenUrl: oauth?.tokenUrl ?? null,
        clientId: oauth?.clientId ?? null,
        audience: oauth?.audience ?? null,
        scope: oauth?.scope ?? null,
        clientAuth: oauth?.clientAuthMethod ?? 'client_secret_post',
        hasClientSecret: hasClientSecret ? 1 : 0,
        secretStore: newStore,
      });
    // New configuration or secret: the next request obtains a new token.
    this.providers.delete(id);
    return this.get(id);
  }

  async delete(id: string): Promise<boolean> {
    if (id === DEMO_PROFILE_ID) throw new ConsoleError('CONFLICT', 'The demo profile is built in and cannot be deleted');
    const row = this.db.prepare('SELECT has_token, has_client_secret, secret_store FROM profiles WHERE id = ?').get(id) as
      Pick<ProfileRow, 'has_token' | 'has_client_secret' | 'secret_store'> | undefined;
    if (!row) return false;
    // a locked encrypted file refuses (LOCKED): unlock it first, so the profile's secret does not stay behind
    if (row.has_token === 1) await this.secrets.remove(row.secret_store, tokenAccount(id));
    if (row.has_client_secret === 1) await this.secrets.remove(row.secret_store, clientSecretAccount(id));
    this.db.prepare('DELETE FROM profiles WHERE id = ?').run(id);
    this.providers.delete(id);
    return true;
  }

  /** The profile's token provider, kept per profile so an OAuth2 token is cached across requests. */
  tokenProvider(id: string): TokenProvider {
    const profile = this.get(id);
    let provider = this.providers.get(id);
    if (!provider) {
      const store = this.secrets.reader(profile.auth.mode === 'none' ? 'os-keychain' : profile.auth.secretStore);
      provider = createTokenProvider(profile.name, profile.auth, {
        bearerToken: () => store.get(tokenAccount(id)),
        clientSecret: () => store.get(clientSecretAccount(id)),
      });
      this.providers.set(id, provider);
    }
    return provider;
  }

  /**
   * Puts a profile's secret where it now belongs: writes a new one (`given`), or moves the stored one when the store
   * changed (an unreadable one must be entered again). Returns whether the profile has the secret afterwards.
   */
  private async placeSecret(o: {
    account: string;
    given: string | undefined;
    had: boolean;
    field: string;
    from: SecretStoreName;
    to: SecretStoreName;
    passphrase: string | undefined;
  }): Promise<boolean> {
    const moving = o.had && o.from !== o.to;
    if (o.given === undefined && !moving) return o.had;
    let secret = o.given;
    if (secret === undefined) {
      const from = await this.secrets.open(o.from, o.passphrase);
      secret = (await from.get(o.account).catch(() => null)) ?? undefined;
      if (secret === undefined) throw badAuth(o.field, 'enter it again: the stored one cannot be read from where it was kept');
    }
    await this.secrets.write(o.to, await this.secrets.open(o.to, o.passphrase), o.account, secret);
    if (moving) await this.dropSecret(o.from, o.account, o.passphrase);
    return true;
  }

  /** Deletes a secret the profile no longer keeps in `store`; an unreachable keychain has nothing to delete. */
  private async dropSecret(store: SecretStoreName, account: string, passphrase: string | undefined): Promise<void> {
    if (store === 'os-keychain') return this.secrets.removeQuietly(store, account);
    await (await this.secrets.open(store, passphrase)).delete(account);
  }

  /** Token with its expiry, for "Test connection"; it never leaves the main process. */
  accessToken(id: string): Promise<AccessToken | null> {
    return this.tokenProvider(id).token();
  }

  /** Token for outgoing requests only (HTTP `Authorization`, WebSocket subprotocol); null = send none. */
  async token(id: string): Promise<string | null> {
    return (await this.tokenProvider(id).token())?.value ?? null;
  }

  /** After a 401: a different token to retry once with, or null. */
  async refreshToken(id: string, rejected: string): Promise<string | null> {
    return (await this.tokenProvider(id).refresh(rejected))?.value ?? null;
  }

  /** Spread into participant WebSocket stream options: the current token and its refresh after a refusal. */
  async streamAuth(id: string): Promise<{ token: string | null; refreshToken: (rejected: string) => Promise<string | null> }> {
    return { token: await this.token(id), refreshToken: (rejected) => this.refreshToken(id, rejected) };
  }

  /** Spread into `LedgerClient` options (ledger and validator clients alike). */
  tokenSource(id: string): ProfileTokenSource {
    return { getToken: () => this.token(id), onUnauthorized: (rejected) => this.refreshToken(id, rejected) };
  }
}

function sameOrigin(a: string | null, b: string): boolean {
  if (a === null) return false;
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** An edit without `auth` keeps the stored configuration and secrets as they are. */
function keepAuth(existing: ProfileRow | undefined): SaveProfileAuth {
  if (!existing) return { mode: 'none' };
  const a = authOf(existing);
  if (a.mode === 'oauth2-client-credentials') {
    return {
      mode: a.mode,
      tokenUrl: a.tokenUrl,
      clientId: a.clientId,
      audience: a.audience,
      scope: a.scope,
      clientAuthMethod: a.clientAuthMethod,
    };
  }
  return a.mode === 'static' ? { mode: 'static' } : { mode: 'none' };
}
