/**
 * JWT verification for the simulator's JWT auth modes, following Canton's user-token rules: the token's
 * `sub` is the user id; audience-based tokens (`aud` contains the configured audience) or scope-based
 * tokens (`scope` contains `daml_ledger_api`); signature, `exp` and `nbf` are always checked. A token
 * whose `iss` is the issuer of a non-default identity provider config is verified against that provider's
 * JWKS URL (fetched with a timeout and cached) and authenticates a user of that provider.
 * Every failure is UNAUTHENTICATED; the token itself never appears in an error or a log.
 */
import { readFileSync } from 'node:fs';
import { createLocalJWKSet, createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey, JWTVerifyOptions, JWTVerifyResult } from 'jose';
import { z } from 'zod';
import { unverifiedClaims } from '../common/jwt.js';
import type { SimAuthConfig } from './auth-config.js';
import { CantonError, errorText } from './errors.js';
import type { IdpStore } from './store/idps.js';

/** The scope a scope-based Ledger API user token carries (Canton's default target scope). */
export const LEDGER_API_SCOPE = 'daml_ledger_api';

/** How long fetching an identity provider's JWKS may take, and how long the keys are reused. */
export const JWKS_FETCH_TIMEOUT_MS = 5_000;
export const JWKS_CACHE_MAX_AGE_MS = 5 * 60_000;

export interface VerifiedUser {
  userId: string;
  /** '' = the default identity provider. */
  identityProviderId: string;
  /** The token's `exp` (epoch seconds), when it has one: open streams end then. */
  expiresAt?: number;
}

type JwtConfig = Exclude<SimAuthConfig, { mode: 'none' }>;

const JwksFileSchema = z.object({ keys: z.array(z.looseObject({ kty: z.string() })).min(1, 'the JWKS has no keys') });

/** Reads and checks a JWKS file (used at startup and by the CLI, so a bad file fails early and clearly). */
export function loadJwksFile(file: string): z.infer<typeof JwksFileSchema> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`cannot read JWKS file '${file}': ${errorText(e)}`, { cause: e });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`JWKS file '${file}' is not JSON: ${errorText(e)}`, { cause: e });
  }
  const r = JwksFileSchema.safeParse(raw);
  if (!r.success) throw new Error(`JWKS file '${file}' is not a JWK set: ${r.error.issues[0]?.message ?? 'invalid'}`);
  return r.data;
}

const unauthenticated = (why: string): CantonError =>
  new CantonError('UNAUTHENTICATED', `The command is missing a (valid) JWT token: ${why}`);

function reason(e: unknown): string {
  if (e instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (e instanceof joseErrors.JWTClaimValidationFailed) return `claim check failed (${e.claim}: ${e.reason})`;
  if (e instanceof joseErrors.JWSSignatureVerificationFailed) return 'signature verification failed';
  if (e instanceof joseErrors.JWKSNoMatchingKey) return 'no key of the JWKS matches the token';
  if (e instanceof joseErrors.JWKSTimeout) return 'fetching the identity provider JWKS timed out';
  if (e instanceof joseErrors.JOSEAlgNotAllowed) return 'signing algorithm not allowed';
  if (e instanceof joseErrors.JOSEError) return e.message;
  return `could not verify the token (${errorText(e)})`;
}

function hasScope(payload: JWTPayload): boolean {
  const scope = payload.scope;
  return typeof scope === 'string' && scope.split(' ').includes(LEDGER_API_SCOPE);
}

export class JwtVerifier {
  /** Verifies a token with the configured (default identity provider) key. */
  private readonly verifyMain: (token: string, opts: JWTVerifyOptions) => Promise<JWTVerifyResult>;
  private readonly remote = new Map<string, JWTVerifyGetKey>();

  constructor(
    private readonly config: JwtConfig,
    private readonly idps: IdpStore,
  ) {
    if (config.mode === 'hs256') {
      const secret = new TextEncoder().encode(config.secret);
      this.verifyMain = (token, opts) => jwtVerify(token, secret, { ...opts, algorithms: ['HS256'] });
    } else {
      // the file was checked to be a key set; jose validates each key when it is selected
      const keys = createLocalJWKSet(loadJwksFile(config.jwksFile));
      this.verifyMain = (token, opts) => jwtVerify(token, keys, { ...opts, algorithms: ['RS256'] });
    }
  }

  private remoteKeys(url: string): JWTVerifyGetKey {
    let k = this.remote.get(url);
    if (!k) {
      k = createRemoteJWKSet(new URL(url), { timeoutDuration: JWKS_FETCH_TIMEOUT_MS, cacheMaxAge: JWKS_CACHE_MAX_AGE_MS });
      this.remote.set(url, k);
    }
    return k;
  }

  /** Verifies a bearer token; throws UNAUTHENTICATED (401) when it is not a valid user token. */
  async verify(token: string): Promise<VerifiedUser> {
    const unverified = unverifiedClaims(token);
    if (!unverified) throw unauthenticated('not a JWT');
    const iss = typeof unverified.iss === 'string' ? unverified.iss : undefined;
    const idp = iss !== undefined ? this.idps.byIssuer(iss) : undefined;

    let payload: JWTPayload;
    let identityProviderId = '';
    let audience: string | undefined;
    if (idp) {
      if (idp.isDeactivated) throw unauthenticated(`identity provider '${idp.identityProviderId}' is deactivated`);
      audience = idp.audience === '' ? undefined : idp.audience;
      try {
        ({ payload } = await jwtVerify(token, this.remoteKeys(idp.jwksUrl), {
          algorithms: ['RS256', 'ES256', 'ES512'],
          issuer: idp.issuer,
          ...(audience !== undefined ? { audience } : {}),
        }));
      } catch (e) {
        throw unauthenticated(reason(e));
      }
      identityProviderId = idp.identityProviderId;
    } else {
      if (this.config.issuer !== undefined && iss !== this.config.issuer) throw unauthenticated(`unknown issuer '${iss ?? '(none)'}'`);
      audience = this.config.audience;
      try {
        ({ payload } = await this.verifyMain(token, {
          ...(this.config.issuer !== undefined ? { issuer: this.config.issuer } : {}),
          ...(audience !== undefined ? { audience } : {}),
        }));
      } catch (e) {
        throw unauthenticated(reason(e));
      }
    }
    // Canton: with a target audience the token is audience-based; otherwise it must be scope-based
    if (audience === undefined && !hasScope(payload)) throw unauthenticated(`the token's scope does not contain '${LEDGER_API_SCOPE}'`);
    if (typeof payload.sub !== 'string' || payload.sub === '') throw unauthenticated('the token has no user id (sub)');
    return { userId: payload.sub, identityProviderId, ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp } : {}) };
  }
}
