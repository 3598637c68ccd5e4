/**
 * `oauth2-client-credentials` mode (RFC 6749 §4.4): the console is a confidential client and asks the
 * identity provider's token endpoint for an access token with its client id and secret.
 *
 * - The token is cached until shortly before it expires; concurrent callers share one request
 *   (single flight), so a burst of ledger calls never turns into a burst of token requests.
 * - Every failure is an AUTH_FAILED ConsoleError whose `canton` details carry a specific code: the
 *   endpoint's OAuth `error` (e.g. `invalid_client`) or TOKEN_ENDPOINT_{TIMEOUT,UNREACHABLE,NOT_JSON,
 *   REDIRECT,HTTP_ERROR,INVALID_RESPONSE}, plus the HTTP status. Neither the client secret nor the
 *   access token nor the raw body is ever put in an error.
 */
import { ConsoleError } from '../../ipc/errors.js';
import type { ClientAuthMethod } from '../../ipc/channels/core.js';
import { jwtExpiry } from '../../common/jwt.js';
import { TokenErrorSchema, TokenResponseSchema } from './oauth2-messages.js';
import type { AccessToken, TokenProvider } from './token-provider.js';

export interface ClientCredentialsConfig {
  tokenUrl: string;
  clientId: string;
  audience: string | null;
  scope: string | null;
  clientAuthMethod: ClientAuthMethod;
}

export interface ClientCredentialsOptions {
  config: ClientCredentialsConfig;
  /** Reads the client secret (from the profile's secret store) at request time; null when none is stored. */
  clientSecret: () => Promise<string | null>;
  timeoutMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** Lifetime assumed when the endpoint sends neither `expires_in` nor a JWT with `exp`. */
const DEFAULT_LIFETIME_MS = 5 * 60_000;
/** Refresh this long before expiry (at most a tenth of the lifetime, so short-lived tokens are still used). */
const MAX_REFRESH_MARGIN_MS = 30_000;

interface Cached {
  token: AccessToken;
  /** Epoch ms after which a new token is fetched instead of this one. */
  refreshAt: number;
}

/** RFC 6749 §2.3.1: id and secret are form-urlencoded before being joined for HTTP Basic. */
const formEncode = (s: string): string => new URLSearchParams({ v: s }).toString().slice(2);

export class ClientCredentialsTokenProvider implements TokenProvider {
  private cached: Cached | null = null;
  private inflight: Promise<Cached> | null = null;
  private readonly now: () => number;

  constructor(private readonly opts: ClientCredentialsOptions) {
    this.now = opts.now ?? Date.now;
  }

  async token(): Promise<AccessToken> {
    if (this.cached && this.now() < this.cached.refreshAt) return this.cached.token;
    return (await this.fetchShared()).token;
  }

  async refresh(rejected: string): Promise<AccessToken | null> {
    // Another caller may already have replaced the rejected token; use that one.
    if (this.cached && this.cached.token.value !== rejected && this.now() < this.cached.refreshAt) return this.cached.token;
    if (this.cached?.token.value === rejected) this.cached = null;
    const next = (await this.fetchShared()).token;
    return next.value === rejected ? null : next;
  }

  private fetchShared(): Promise<Cached> {
    this.inflight ??= this.requestToken()
      .then((c) => (this.cached = c))
      .finally(() => {
        this.inflight = null;
      });
    return this.inflight;
  }

  private async requestToken(): Promise<Cached> {
    const { config } = this.opts;
    const secret = await this.opts.clientSecret();
    if (!secret) {
      throw new ConsoleError('AUTH_FAILED', 'No OAuth2 client secret is stored for this profile; enter it under Connections', {
        code: 'CLIENT_SECRET_MISSING',
        cause: 'the client secret is missing from its secret store',
        context: { tokenUrl: config.tokenUrl },
      });
    }
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (config.clientAuthMethod === 'client_secret_basic') {
      headers.authorization = `Basic ${Buffer.from(`${formEncode(config.clientId)}:${formEncode(secret)}`).toString('base64')}`;
    } else {
      form.set('client_id', config.clientId);
      form.set('client_secret', secret);
    }
    if (config.audience) form.set('audience', config.audience);
    if (config.scope) form.set('scope', config.scope);

    const timeoutMs = this.opts.timeoutMs ?? 10_000;
    const startedAt = this.now();
    let res: globalThis.Response;
    try {
      res = await fetch(config.tokenUrl, {
        method: 'POST',
        headers,
        body: form.toString(),
        // A redirect would resend the client secret to wherever it points; refuse instead.
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      if (err instanceof Error && err.name === 'TimeoutError') {
        throw this.fail('TOKEN_ENDPOINT_TIMEOUT', `did not answer within ${Math.round(timeoutMs / 1000)} s`);
      }
      const cause =
        err instanceof Error && err.cause instanceof Error ? ` (${(err.cause as NodeJS.ErrnoException).code ?? err.cause.message})` : '';
      throw this.fail('TOKEN_ENDPOINT_UNREACHABLE', `could not be reached${cause}`);
    }

    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      throw this.fail(
        'TOKEN_ENDPOINT_REDIRECT',
        `answered with a redirect (HTTP ${res.status}); enter the final token endpoint URL`,
        res.status,
      );
    }
    let body: unknown;
    const text = await res.text();
    try {
      body = JSON.parse(text);
    } catch {
      const type = res.headers.get('content-type') ?? 'no content type';
      throw this.fail('TOKEN_ENDPOINT_NOT_JSON', `answered HTTP ${res.status} with a body that is not JSON (${type})`, res.status);
    }

    if (!res.ok) {
      const oauth = TokenErrorSchema.safeParse(body);
      if (oauth.success) {
        const { error, error_description: description } = oauth.data;
        throw this.fail(
          error,
          `refused the client credentials: HTTP ${res.status} ${error}${description ? ` — ${description}` : ''}`,
          res.status,
          description,
        );
      }
      throw this.fail('TOKEN_ENDPOINT_HTTP_ERROR', `answered HTTP ${res.status}`, res.status);
    }

    const parsed = TokenResponseSchema.safeParse(body);
    if (!parsed.success) {
      const what = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      throw this.fail('TOKEN_ENDPOINT_INVALID_RESPONSE', `answered without a usable access token (${what})`, res.status);
    }
    if (parsed.data.token_type.toLowerCase() !== 'bearer') {
      throw this.fail(
        'TOKEN_ENDPOINT_INVALID_RESPONSE',
        `issued a token of type “${parsed.data.token_type}”; only Bearer tokens are supported`,
        res.status,
      );
    }

    const value = parsed.data.access_token;
    const expiresAt = parsed.data.expires_in !== undefined ? startedAt + parsed.data.expires_in * 1000 : jwtExpiry(value);
    const lifetime = expiresAt !== null ? Math.max(0, expiresAt - startedAt) : DEFAULT_LIFETIME_MS;
    const refreshAt = startedAt + lifetime - Math.min(MAX_REFRESH_MARGIN_MS, lifetime / 10);
    return { token: { value, expiresAt }, refreshAt };
  }

  private fail(code: string, what: string, httpStatus?: number, description?: string): ConsoleError {
    const url = this.opts.config.tokenUrl;
    return new ConsoleError('AUTH_FAILED', `Token endpoint ${url} ${what}`, {
      code,
      cause: description ?? what,
      context: { tokenUrl: url, clientId: this.opts.config.clientId },
      ...(httpStatus !== undefined ? { httpStatus } : {}),
    });
  }
}
